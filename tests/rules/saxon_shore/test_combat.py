"""§8 combat: declarations and the invasion cost, raids (§8.1) with strengths, results,
improvements destroyed in order with their spoils and ravage spoils; invasions (§8.2) on the
battle matrix with king bonuses, militia by morale, removal choices, battles between several
invaders, conquest and morale; §12.2 city defences.

Each position is reached by play from the opening (play.Play: starting provinces, then commands
through the engine, every die planned): neutral improvements come from the §3.4 roll and event
61, ravage from a raid or event 23, troops are raised and moved as a player would."""

import pytest

from domain.rules.base import RuleViolation
from domain.rules.saxon_shore.combat import boxes, raid_strength
from domain.rules.saxon_shore.state import Battle, Unit

from .helpers import DONE, legal, position, prov, res, units
from .play import Play

ROLL = "random province improvement"
ON_SURREY = {"road": 4, "wall": 5, "monastery": 6, "regular": 2, "morale": 3}


def surrey_gets(*things: str) -> dict[str, list[int]]:
    """Dice: the §3.4 roll of each of the next turns falls on neutral Surrey (row 3, column 6)
    and gives it these things, one a turn."""
    return {ROLL: [3, 6] * len(things), "improvement in neutral Surrey": [ON_SURREY[t] for t in things]}


def city_in_surrey() -> dict[str, list[int]]:
    """Dice: the first random event drawn is 61, a city founded in neutral Surrey."""
    return {"random event (§11)": [6, 1], "city founded: random province table": [3, 6]}


def declaring(play: Play, seat: str = "p1", into: str = "Surrey", ids=None, turn=None, also=None) -> Play:
    """``seat`` moves its troops (or ``ids``) into ``into`` in the first movement phase (and
    each seat of ``also``, after it, its troops into the province named), then is asked to
    declare."""
    play.to("move", seat, stage=1, turn=turn)
    play.move(seat, ids or play.ids(seat), [into])
    for other, where in (also or {}).items():
        play.to("move", other, stage=1, turn=turn).move(other, play.ids(other), [where])
    return play.to("declare", seat, stage=1, turn=turn)


def declare(play, province, action, pay=None, dice=None, seat="p1"):
    cmd = {"type": "declare", "province": province, "action": action}
    if pay:
        cmd["pay"] = pay
    return play.act(seat, cmd, dice)


def raise_peasants(play: Play, province: str = "Kent", pay: str = "wheat", seat: str = "p1") -> Play:
    play.to("raise", seat)
    return play.act(seat, {"type": "raise-peasants", "province": province, "pay": pay})


def raise_regular(play: Play, province: str = "Kent", pay=("iron", "gold"), seat: str = "p1") -> Play:
    play.to("raise", seat)
    return play.act(seat, {"type": "raise-regular", "province": province, "pay": list(pay)})


def raid_dice(prov, raider, defender):
    return {f"raid on {prov}": [raider, defender]}


def battle(prov, att, dfn=()):
    dice = {f"battle for {prov}: attacker": list(att)}
    if dfn:
        dice[f"battle for {prov}: defender"] = list(dfn)
    return dice


# -- declarations ----------------------------------------------------------------------------------
def test_s8_invading_costs_one_resource_and_capacity_zero_cannot_be_raided():
    """§8 "If they wish to invade, the player must spend one resource of any kind. [...] Provinces
    with a carrying capacity of zero cannot be raided." Played: p1's king raids Surrey (population
    1) and ravages it, stays, and must declare again in the second combat phase."""
    play = declare(declaring(Play("Kent", "Leinster")), "Surrey", "raid", dice=raid_dice("Surrey", 6, 1))
    play.to("declare", "p1", stage=2)
    assert prov(play.game, "Surrey").ravage == 1 and res(play.game, "p1")["slaves"] == 1
    with pytest.raises(RuleViolation) as error:
        declare(play, "Surrey", "raid")
    assert error.value.code == "saxon-shore.cannot_raid"
    with pytest.raises(RuleViolation) as error:
        declare(play, "Surrey", "invade")
    assert error.value.code == "saxon-shore.invasion_cost"
    assert {c["action"] for c in legal(play.game, "p1") if c["type"] == "declare"} == {"invade"}
    declare(play, "Surrey", "invade", "slaves")
    assert res(play.game, "p1")["slaves"] == 0 and play.state.prompt.kind == "conquest"


def test_s8_a_hire_that_spends_the_last_resource_while_declaring_leaves_done_listed():
    """§4.6.1 "Mercenaries can be hired at any time that a player's troops are in the same province
    as a mercenary [...] To hire a mercenary the player must spend one resource of any kind." §8
    "Each player, in game order, states whether his or her troops in each non-friendly province are
    going to RAID or INVADE. If they wish to invade, the player must spend one resource of any
    kind. [...] Provinces with a carrying capacity of zero cannot be raided." A king in ravaged
    Surrey (capacity zero: invade only) whose player hires with his one wheat while declaring has
    nothing left to declare there (RULES_NOTES.md, §8): ``done`` must be listed, not an empty
    list (issue 24 point 5: versions 8,991 and 45,952 were left so; game 16 of
    bench/bench_every_game_ends.py at version 17264). Played: event 23 plagues Surrey (and Kent),
    the §3.4 roll puts a mercenary in p1's Kent, p1 raises a regular there with iron and gold."""
    plague = {"random event (§11)": [2, 3], "plague: random province table": [3, 6], "plague (§11 23) in Kent": [1],
              ROLL: [2, 6]}
    play = raise_regular(Play("Kent", "Leinster", dice=plague))
    [mercenary] = play.ids(None, "mercenary", "Kent")
    play = declaring(play, ids=play.ids("p1", "king"))
    assert prov(play.game, "Surrey").ravage == 1 and res(play.game, "p1") == {"wheat": 1, "wool": 0, "iron": 0, "gold": 0, "slaves": 0}
    assert legal(play.game, "p1") == [{"type": "declare", "province": "Surrey", "action": "invade", "pay": "wheat"},
                                      {"type": "hire", "unit": mercenary, "pay": "wheat"}]
    play.act("p1", {"type": "hire", "unit": mercenary, "pay": "wheat"})
    assert play.state.prompt.args == ("declare",) and res(play.game, "p1")["wheat"] == 0
    assert legal(play.game, "p1") == [DONE]
    play.done("p1")
    # no combat follows: on to the second movement phase
    assert play.state.declared == () and play.state.prompt.args == ("move",) and play.state.stage == 2


def test_s8_done_is_listed_only_when_nothing_is_left_to_declare():
    """§8: every non-friendly province with the seat's troops is declared RAID or INVADE first."""
    play = declaring(Play("Kent", "Leinster"))
    assert DONE not in legal(play.game, "p1")
    with pytest.raises(RuleViolation) as error:
        play.done("p1")
    assert error.value.code == "saxon-shore.must_declare"


# -- raids -------------------------------------------------------------------------------------------
def test_s8_1_raid_strengths():
    """§8.1 raid strengths of each kind of unit: a pure function of one unit (no position)."""
    king = Unit(1, "king", "p1", "Kent")
    assert [raid_strength(Unit(1, k, "p1", "Kent"), False, False) for k in ("peasant", "regular", "mercenary")] == [1, 2, 2]
    assert [raid_strength(king.__class__(1, "king", "p1", "K", quality=q), False, False) for q in (0, 1, 2, -1)] == [2, 3, 4, 1]
    assert raid_strength(Unit(1, "knight", "p1", "K"), False, False) == 4
    assert raid_strength(Unit(1, "berserker", "p1", "K"), False, False) == 4
    assert raid_strength(Unit(1, "monk", "p1", "K"), True, False) == 1
    assert raid_strength(Unit(1, "monk", "p1", "K"), False, False) == 3
    assert raid_strength(king, False, True) == 3  # chainmail (§11 55)


@pytest.mark.parametrize("have,lost,spoil", [
    (("monastery", "wall", "road", "city"), "monastery", "gold"),
    (("wall", "road", "city"), "wall", "wheat"),
    (("road", "city"), "road", "wheat"),
])
def test_s8_1_a_successful_raid_destroys_one_improvement_in_order_with_spoils(have, lost, spoil):
    """§8.1: a successful raid destroys one improvement, in the order monastery, wall, road,
    city, with its spoils. Played: the §3.4 roll improves neutral Surrey one thing a turn (event
    61 founds its city); then p1's king and three peasants (king 2 + 3 x 1 + 6 against at most
    capacity 4 + road 1 + wall 3 + 1) raid it."""
    built = [t for t in have if t != "city"]
    play = Play("Kent", "Leinster", dice={**surrey_gets(*built), **city_in_surrey()})
    play = raise_peasants(play.to("raise", "p1", turn=len(built)))
    before = res(play.game, "p1")
    play = declare(declaring(play, turn=len(built)), "Surrey", "raid", dice=raid_dice("Surrey", 6, 1))
    surrey = prov(play.game, "Surrey")
    assert [k for k in have if not getattr(surrey, k)] == [lost]
    assert res(play.game, "p1")[spoil] == before[spoil] + 1 and len(units(play.game, "Surrey", "p1")) == 4


def test_s8_1_city_spoils_the_traded_resource_and_one_of_choice():
    """§8.1: a city's spoils are the resource traded there and one of the raider's choice.
    Played: event 61 founds a city in neutral Surrey, p2 places a gold there for trade (§4.4)."""
    play = Play("Kent", "Leinster", dice=city_in_surrey()).to("market", "p2")
    play.act("p2", {"type": "place-trade", "province": "Surrey", "resource": "gold"})
    assert prov(play.game, "Surrey").trade_seat == "p2"
    before = res(play.game, "p1")
    play = declare(declaring(play), "Surrey", "raid", dice=raid_dice("Surrey", 6, 1))  # 2 + 6 against 2 + 1
    assert not prov(play.game, "Surrey").city and res(play.game, "p1")["gold"] == before["gold"] + 1
    play.choose("p1", "iron")
    assert res(play.game, "p1")["iron"] == before["iron"] + 1


def test_s8_1_ravage_spoils_a_slave_or_the_provinces_resource_kent_either():
    """§8.1: with no improvement left, a ravage marker; the raider gains a slave, or the resource
    the province produces (either of Kent's)."""
    play = declare(declaring(Play("Kent", "Leinster")), "Surrey", "raid", dice=raid_dice("Surrey", 6, 1))
    assert prov(play.game, "Surrey").ravage == 1 and res(play.game, "p1")["slaves"] == 1
    play = declaring(Play("Suffolk", "Leinster"), into="Norfolk")
    play = declare(play, "Norfolk", "raid", dice=raid_dice("Norfolk", 6, 1))
    assert res(play.game, "p1")["wheat"] == 1
    play = declare(declaring(Play("Surrey", "Leinster"), into="Kent"), "Kent", "raid", dice=raid_dice("Kent", 6, 1))
    assert play.state.prompt.options == ("wheat", "iron")
    assert res(play.choose("p1", "iron").game, "p1")["iron"] == 1


def test_s8_1_draw_raiders_remain_without_effect():
    """§8.1: "If the raid strengths are equal, the raiders remain in the province but without effect"."""
    play = declare(declaring(Play("Kent", "Leinster")), "Surrey", "raid", dice=raid_dice("Surrey", 1, 2))  # 3 against 3
    assert prov(play.game, "Surrey").ravage == 0 and units(play.game, "Surrey", "p1")


def test_s8_1_defender_wins_attackers_roll_for_losses_and_survivors_go_home():
    """§8.1: repulsed raiders roll a die each: a king dies on 1, a peasant on 1-4, a mercenary
    dies on 1 and returns to neutrality on 2-4; survivors go to the nearest friendly province.
    Played: the set-up mercenary stands in p1's Kent and is hired; Surrey gets a wall (§3.4);
    king 2 + three peasants + mercenary 2, +1, against capacity 1 + wall 3, +6."""
    play = Play("Kent", "Leinster", dice={"set-up mercenary": [2, 6], **surrey_gets("wall")})
    [mercenary] = play.ids(None, "mercenary", "Kent")
    play = raise_peasants(play)
    play.act("p1", {"type": "hire", "unit": mercenary, "pay": "iron"})
    play = declaring(play)
    peasants = play.ids("p1", "peasant")
    losses = {1: 6, mercenary: 2, peasants[0]: 1, peasants[1]: 5, peasants[2]: 6}
    raiders = play.ids("p1", loc="Surrey")
    play = declare(play, "Surrey", "raid", dice={**raid_dice("Surrey", 1, 6),
                                                  "losses of the repulsed raiders": [losses[i] for i in raiders]})
    assert play.state.units[mercenary].owner is None and play.state.units[mercenary].loc == "Surrey"
    assert peasants[0] not in play.state.units
    home = sorted((u.kind, u.loc) for u in units(play.game, owner="p1"))
    assert home == [("king", "Kent"), ("peasant", "Kent"), ("peasant", "Kent")]


def test_s8_1_raids_resolve_in_game_order_before_invasions():
    """§8 "Raids are resolved first, in game order". Played: Surrey gets a road (§3.4); p1's king
    from Kent and p2's from Wessex raid it."""
    play = declaring(Play("Kent", "Wessex", dice=surrey_gets("road")), also={"p2": "Surrey"})
    declare(play, "Surrey", "raid")
    before = {seat: res(play.game, seat) for seat in ("p1", "p2")}
    play = declare(play, "Surrey", "raid", seat="p2", dice={"raid on Surrey": [6, 1, 6, 1]})
    # p1 raids first and takes the road; p2 then ravages what is left
    assert res(play.game, "p1")["wheat"] == before["p1"]["wheat"] + 1 and res(play.game, "p2")["slaves"] == 1
    assert not prov(play.game, "Surrey").road and prov(play.game, "Surrey").ravage == 1


# -- invasions -----------------------------------------------------------------------------------------
def test_s8_2_battle_matrix_boxes_king_bonuses_and_militia_by_morale():
    """§8.2 the battle matrix, §12.3 feeble kings. Stays hand-built: ``boxes`` is read on a
    Battle the test builds for every king's move at once (+1, +2 and -1 kings, each lift a
    player may choose) and militia of each morale; by play each needs a king crowned with that
    quality (§3.1, after a king's death) and a battle in a province of that morale, one game
    each. The moves themselves are chosen in played battles in test_narrate.py."""
    def boxes_for(defender_units, morale=0, quality=0, lift=""):
        game = position(owners={"Kent": "p2"}, units=[("king", "p1", "Kent", {"quality": quality}),
                                                      ("peasant", "p1", "Kent"), *defender_units],
                        provinces={"Kent": {"morale": morale}})
        battle = Battle(prov="Kent", mode="invasion", attacker="p1", defender="p2", militia=3,
                        militia_strength=morale + 2, att_lift=lift)
        return boxes(game.state, battle, "att"), boxes(game.state, battle, "dfn")
    assert boxes_for([])[0] == [1, 3]
    assert boxes_for([], quality=1, lift="up peasant@1")[0] == [2, 4]  # a +1 king moves one troop up one box
    assert boxes_for([], quality=1, lift="none")[0] == [1, 4]  # ... "may"
    assert boxes_for([], quality=2, lift="up peasant@1, king@5")[0] == [2, 6]  # two troops up one box each
    assert boxes_for([], quality=2, lift="up2 peasant@1")[0] == [3, 5]  # or a single troop up two places
    assert boxes_for([], quality=-1, lift="down king@1")[0] == [1, 1]  # boxes stop at 1
    assert boxes_for([], morale=-1)[1] == [1, 1, 1]
    assert boxes_for([], morale=0)[1] == [2, 2, 2]
    assert boxes_for([("regular", "p2", "Kent"), ("mercenary", "p2", "Kent")], morale=1)[1] == [3, 3, 3, 3, 3]
    game = position(units=[("berserker", "p1", "Kent"), ("knight", "p1", "Kent")])
    battle = Battle(prov="Kent", mode="invasion", attacker="p1", defender=None)
    assert boxes(game.state, battle, "att") == [3, 3, 4]  # a berserker rolls twice; knights are 4


def test_s8_2_conquest_of_a_neutral_province_castle_and_low_morale():
    """§8.2: the victor may place a castle; a conquered province's morale is low. Played: Surrey's
    morale rises (§3.4); p1 raises a regular and invades with it and the king."""
    play = raise_regular(Play("Kent", "Leinster", dice=surrey_gets("morale")))
    play = declaring(play)
    assert prov(play.game, "Surrey").morale == 1
    # two attack dice: one hit; the militia (one, morale high: box 3) misses
    play = declare(play, "Surrey", "invade", "wheat", dice=battle("Surrey", [3, 6], [4]))
    assert play.state.prompt.kind == "conquest" and play.state.prompt.options == ("ravage", "spare")
    play.choose("p1", "spare")
    assert prov(play.game, "Surrey").owner == "p1" and prov(play.game, "Surrey").morale == -1
    assert len(units(play.game, "Surrey", "p1")) == 2


def test_s8_2_the_victor_may_destroy_an_improvement_or_ravage_as_in_a_raid():
    """§8.2: the victor may destroy an improvement or ravage the province as in a raid. Played:
    Surrey gets a wall (§3.4)."""
    play = declaring(Play("Kent", "Leinster", dice=surrey_gets("wall")))
    play = declare(play, "Surrey", "invade", "wheat", dice=battle("Surrey", [1], [6]))
    assert play.state.prompt.options == ("destroy", "ravage", "spare")
    before = res(play.game, "p1")
    destroyed = play.branch().choose("p1", "destroy").game
    assert not prov(destroyed, "Surrey").wall and res(destroyed, "p1")["wheat"] == before["wheat"] + 1
    assert prov(destroyed, "Surrey").owner == "p1"
    ravaged = play.choose("p1", "ravage").game
    assert prov(ravaged, "Surrey").wall and prov(ravaged, "Surrey").ravage == 1 and res(ravaged, "p1")["slaves"] == 1


def test_s8_2_both_sides_wiped_out_the_defender_wins():
    """§8.2: "If both sides are wiped out, the defender wins"."""
    play = declare(declaring(Play("Kent", "Leinster")), "Surrey", "invade", "wheat", dice=battle("Surrey", [1], [1]))
    assert prov(play.game, "Surrey").owner is None and not units(play.game, "Surrey")
    assert play.state.battle is None


def test_s8_2_the_defender_chooses_which_troops_to_remove():
    """§8.2: each side removes its own casualties, choosing which. Played: p2 (Surrey) raises a
    peasant beside its king; p1 (Kent) raises a regular and invades with it and its king."""
    play = raise_regular(Play("Kent", "Surrey"))
    play = raise_peasants(play, "Surrey", "gold", seat="p2")
    play = declaring(play, into="Surrey")
    play.to("declare", "p1", stage=1)
    # p1: king and regular hit once; p2: king, peasant and the militia miss
    play = declare(play, "Surrey", "invade", "wheat", dice=battle("Surrey", [1, 6], [6, 6, 6]))
    assert play.state.prompt.kind == "casualty" and play.state.prompt.seat == "p2"
    assert set(play.state.prompt.options) >= {"peasant", "king"}
    # next round: p1 misses, p2's king hits once
    play.choose("p2", "peasant", dice=battle("Surrey", [6, 6], [1, 6]))
    assert [u.kind for u in units(play.game, "Surrey", "p2")] == ["king"]
    assert play.state.prompt.kind == "casualty" and play.state.prompt.seat == "p1"
    assert set(play.state.prompt.options) == {"king", "regular"}


def test_s2_1_an_uninvolved_player_removes_casualties_for_a_neutral_province():
    """§2.1: an uninvolved player removes the casualties of a neutral province. Played: the §3.4
    roll puts a neutral regular in Surrey."""
    play = declaring(Play("Kent", "Leinster", dice=surrey_gets("regular")))
    play = declare(play, "Surrey", "invade", "wheat", dice=battle("Surrey", [1], [6, 6]))
    assert play.state.prompt.kind == "casualty" and play.state.prompt.seat == "p2"
    assert play.state.prompt.options == ("militia", "regular")


def test_s8_2_conquest_from_a_pagan_by_a_christian_with_a_monastery_is_high_morale():
    """§8.2: a Christian conquering a province with a monastery from a Pagan leaves its morale
    high. Played: p1 (Leinster) and p2 (Ulster) start Christian; event 46 puts a saint's monastery
    in Ulster; p2 converts to paganism (§5); p1's king invades."""
    saint = {"random event (§11)": [4, 6], "saint: random province table": [4, 1]}
    play = Play("Leinster", "Ulster", dice=saint).to("convert", "p2")
    assert prov(play.game, "Ulster").monastery
    play.act("p2", {"type": "convert"})
    assert not play.state.players["p2"].christian and play.state.players["p1"].christian
    play = declaring(raise_peasants(play, "Leinster", "gold"), into="Ulster")
    # p1's king and three peasants hit four times: p2's king and Ulster's three militia (capacity 3)
    play = declare(play, "Ulster", "invade", "gold", dice=battle("Ulster", [1] * 4, [6] * 4))
    while play.state.prompt.kind == "casualty":
        play.choose("p2", play.state.prompt.options[0])
    play.choose("p1", "spare")
    assert prov(play.game, "Ulster").owner == "p1" and prov(play.game, "Ulster").morale == 1


def test_s8_2_conquering_the_last_province_eliminates_the_player():
    """§8.2, §1: a player with no province left is out. Played: p1 draws event 52 and has p2's
    king assassinated, then invades p2's only province."""
    play = Play("Kent", "Surrey", quiet={"random event (§11)": [5, 2]})
    play.choose("p1", "p2")  # the assassin
    play = declaring(play)
    play = declare(play, "Surrey", "invade", "wheat", dice=battle("Surrey", [1], [6]))
    play.choose("p1", "spare")
    assert not play.state.players["p2"].alive
    assert play.game.outcome is not None and play.game.outcome.winner == "p1"


def test_s8_2_several_invaders_fight_each_other_first_in_game_order():
    """§8.2: several invaders of one province fight each other first, in game order. Played:
    event 23 ravages Surrey (capacity 0: no militia); p1 (Kent) and p2 (Wessex) invade it."""
    plague = {"random event (§11)": [2, 3], "plague: random province table": [3, 6], "plague (§11 23)": [1, 1]}
    play = declaring(Play("Kent", "Wessex", dice=plague), also={"p2": "Surrey"})
    declare(play, "Surrey", "invade", "wheat")
    play = declare(play, "Surrey", "invade", "gold", seat="p2", dice=battle("Surrey", [1], [6]))  # p2 (second) hits, p1 misses
    assert not units(play.game, "Surrey", "p1")
    assert play.state.prompt.kind == "conquest" and play.state.prompt.seat == "p2"


# -- §12.2 city defences ------------------------------------------------------------------------------
def city_battle() -> Play:
    """Event 61 founds a city in neutral Surrey; p2 (Wessex) takes it in the first turn; in the
    second, p1 (Kent) raises a regular and peasants and invades with them and its king."""
    play = Play("Kent", "Wessex", options={"city_defences": True}, dice=city_in_surrey())
    play = declaring(play, "p2")
    play = declare(play, "Surrey", "invade", "wheat", seat="p2", dice=battle("Surrey", [1], [6, 6]))
    play.choose("p1", "fight", dice=battle("Surrey", [1], [6]))  # p1, uninvolved, answers for the neutral militia
    play.choose("p2", "spare")
    assert prov(play.game, "Surrey").owner == "p2" and prov(play.game, "Surrey").city
    play = raise_regular(play.to("raise", "p1", turn=2))
    play = raise_peasants(play, pay="wheat")
    return declaring(play, turn=2)


def test_s12_2_the_defender_may_retreat_into_the_city_the_attacker_assaults_at_minus_two():
    """§12.2: the defender may retreat into the city; the attackers assault it at -2 (peasants
    cannot)."""
    play = city_battle()
    play = declare(play, "Surrey", "invade", "iron", dice=battle("Surrey", [6] * 5, [6] * 3))  # a round without hits
    assert play.state.prompt.kind == "city_retreat" and play.state.prompt.seat == "p2"
    play.choose("p2", "retreat")
    assert play.state.prompt.kind == "city_assault" and play.state.prompt.seat == "p1"
    # p2's king and two militia in the city; p1's king and regular at box 3 - 2 (peasants cannot assault)
    play.choose("p1", "assault", dice=battle("Surrey", [1, 1], [6, 6, 6]))
    [fought] = [e for e in play.events if type(e).__name__ == "BattleRoundFought"]
    assert fought.attacker_boxes == [1, 1] and fought.attacker_hits == 2
    play.choose("p2", "militia").choose("p2", "militia", dice=battle("Surrey", [1, 1], [6]))  # then the king falls
    assert play.state.prompt.kind == "conquest"


def test_s12_2_or_the_attacker_ravages_as_in_a_raid():
    """§12.2: or the attacker ravages the province as in a raid, leaving the city's owner."""
    play = declare(city_battle(), "Surrey", "invade", "iron", dice=battle("Surrey", [6] * 5, [6] * 3))
    play.choose("p2", "retreat").choose("p1", "destroy")
    assert not prov(play.game, "Surrey").city and prov(play.game, "Surrey").owner == "p2"
    assert play.state.prompt.kind == "trade_gain"  # city spoils: one resource of choice


def test_s8_1_repulsed_raiders_with_no_friendly_province_free_of_enemies_are_eliminated():
    """§8.1: repulsed raiders go to the nearest friendly province free of enemy units; with none
    they are eliminated. Played: Surrey gets a wall (§3.4); p1's king leaves Kent to raid it and
    p2's king (Thanet) marches into Kent behind him and raids it; raids resolve in game order."""
    play = declaring(Play("Kent", "Thanet", dice=surrey_gets("wall")), also={"p2": "Kent"})
    declare(play, "Surrey", "raid")
    # p1: 2 + 1 against capacity 1 + wall 3 + 6, the king survives on 6; then p2 raids Kent
    play = declare(play, "Kent", "raid", seat="p2", dice={**raid_dice("Surrey", 1, 6), "losses": [6],
                                                         **raid_dice("Kent", 6, 1)})
    assert not units(play.game, owner="p1")
