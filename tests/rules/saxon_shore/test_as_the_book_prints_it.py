"""Issue 15, points 1 to 7: Saxon Shore as the book prints it. Each test quotes the rulebook
sentence it holds the engine to; each failed on the engine before (a turn limit on by default,
a third combat answer "hold", rationed trade, automatic king bonuses, a "pillage" in place of
§12.2's choice, narrow event readings, and caps the book does not have).

Positions are reached by play from the opening (play.Play); where one stays hand-built, the
test says why."""

import msgspec
import pytest

from domain.rules.base import RuleViolation
from domain.rules.saxon_shore.combat import boxes
from domain.rules.saxon_shore.events import GameDecided, PlayerAsked

from .helpers import DONE, S, legal, prov, res, units
from .play import Play, cell, joining


def refused(play, seat, command, code):
    with pytest.raises(RuleViolation) as error:
        play.act(seat, command)
    assert error.value.code == code, error.value.message
    assert command not in legal(play.game, seat)


# -- 1. the turn limit ------------------------------------------------------------------------------
def test_s1_the_book_ends_a_game_only_by_its_four_victories_so_no_turn_limit_by_default():
    """§1 "A player can win by fulfilling one of several victory conditions: 1. Eliminate all
    other players. 2. Build four cities. 3. Control eight provinces producing resources.
    4. Control any ten provinces." No other ending: turn 30 (and 300) passes into the next turn.
    Played: quiet turns from the opening."""
    assert S.setup("standard", ("p1", "p2"), {}).options.turn_limit is None
    play = Play("Kent", "Essex")
    for turn in (31, 301):
        play.to("trade", "p1", turn=turn)
        assert play.game.outcome is None and play.state.turn == turn


def test_s1_a_turn_limit_is_a_house_rule_and_its_result_is_marked_as_no_rulebook_victory():
    """Played: Surrey joins p1's Kent (§11 41); five turns pass."""
    play = Play("Kent", "Essex", options={"turn_limit": 5}, events={"p1": [41]}, dice=joining("Surrey")).finish()
    decided = next(e for e in play.log if isinstance(e, GameDecided))
    assert decided.rulebook_victory is False and decided.house_rule == "turn limit"
    assert play.game.outcome.winner == "p1"
    assert play.game.outcome.reason == "turn limit (house rule, 5 turns): most provinces"


# -- 2. RAID or INVADE, no third answer ----------------------------------------------------------------
def test_s8_troops_in_a_non_friendly_province_raid_or_invade_and_cannot_hold():
    """§8 "Each player, in game order, states whether his or her troops in each non-friendly
    province are going to RAID or INVADE." A king who had to stop in Essex (§7) cannot sit
    there without fighting and march on. Played: p1 (Middlesex, no resource) spends its gold on
    peasants, so nothing pays an invasion."""
    play = Play("Middlesex", "Leinster").to("raise", "p1")
    play.act("p1", {"type": "raise-peasants", "province": "Middlesex", "pay": "gold"})
    play.to("move", "p1").move("p1", [1], ["Essex"]).to("declare", "p1")
    refused(play, "p1", {"type": "declare", "province": "Essex", "action": "hold"}, "unknown_command")
    refused(play, "p1", DONE, "saxon-shore.must_declare")
    assert {c["action"] for c in legal(play.game, "p1")} == {"raid"}  # nothing to pay an invasion with


def test_s8_capacity_zero_with_nothing_to_invade_with_the_troops_are_not_engaged():
    """§8 "Provinces with a carrying capacity of zero cannot be raided." and "If they wish to
    invade, the player must spend one resource". With neither possible, §7's rule that a
    province of capacity zero does not stop movement applies: nothing is declared, no combat.
    Played: p2 draws event 23, a plague on Surrey (and p1's Berkshire); p1 spends its gold on a
    peasant in one game and keeps it in the other."""
    def plagued():
        return Play("Berkshire", "Leinster", events={"p2": [23]},
                    dice={"plague: random province table": cell("Surrey"), "plague (§11 23)": [1]})
    play = plagued().to("raise", "p1")
    play.act("p1", {"type": "raise-peasants", "province": "Berkshire", "pay": "gold"})
    play.to("move", "p1").move("p1", [1], ["Surrey"]).to("move", "p1", stage=2)
    asked = [e for e in play.log if isinstance(e, PlayerAsked) and e.seat == "p1" and e.phase == "declare"]
    assert not asked  # p1 was not asked to declare
    assert units(play.game, "Surrey", "p1") and prov(play.game, "Surrey").owner is None
    paying = plagued().to("move", "p1").move("p1", [1], ["Surrey"]).to("declare", "p1")
    assert [c["action"] for c in legal(paying.game, "p1") if c["type"] == "declare"] == ["invade"]


# -- 3. trade as the book allows it --------------------------------------------------------------------
def test_s4_3_tokens_in_any_combination_gifts_and_requests_with_no_ration():
    """§4.3 "Players may exchange resource tokens in any combination that they want." Played,
    three players: the first turn's trading, p1 (Kent) holding wheat, iron and gold, p2 (Sussex)
    iron and gold, p3 (Surrey) gold."""
    play = Play("Kent", "Sussex", "Surrey").to("trade", "p1")
    offer = {"type": "offer", "to": "p2", "give": {"wheat": 1, "gold": 1}, "take": {"iron": 1}}
    play.act("p1", offer).choose("p2", "accept")
    assert res(play.game, "p1") == {"wheat": 0, "wool": 0, "iron": 2, "gold": 0, "slaves": 0}
    assert res(play.game, "p2") == {"wheat": 1, "wool": 0, "iron": 0, "gold": 2, "slaves": 0}
    for _ in range(3):  # no limit of two offers
        play.act("p1", {"type": "offer", "to": "p3", "give": {"iron": 1}})  # a gift
        play.choose("p3", "decline")
    play.done("p1").done("p2")
    assert play.state.prompt.seat == "p3"
    play.act("p3", {"type": "offer", "to": "p2", "take": {"gold": 1}}).choose("p2", "accept")  # a request
    assert res(play.game, "p3")["gold"] == 2
    # a round with offers is followed by another, so p1 may answer late offers
    play.done("p3")
    assert play.state.prompt.seat == "p1" and play.state.prompt.args == ("trade",)
    for seat in ("p1", "p2", "p3"):
        play.done(seat)
    assert play.state.prompt.args != ("trade",)  # a round without offers ends the trading


# -- 4. the king's move is the owner's choice ---------------------------------------------------------
def battle_with(die, quality, event=11, start="Kent", target="Surrey", options=None, pay="wheat", merc=False, turn=1):
    """p1's king dies in the first turn and a king of ``quality`` is crowned (§3.1), p1 draws
    ``event`` (11: a berserker, or a knight for a Christian) and raises peasants (and hires the
    set-up mercenary standing in its province with ``merc``) in ``turn``; the king, the event's
    troop, one peasant (and the mercenary) invade p2's neighbouring province."""
    dice = {"does the king die?": [die], "quality of the new king": [quality[0]],
            "new king: roll again": quality[1:]}
    if merc:
        dice["set-up mercenary"] = cell(start)
    play = Play(start, target, options=options, events={"p1": [event]}, dice=dice).to("raise", "p1", turn=turn)
    [peasant, *_] = play.act("p1", {"type": "raise-peasants", "province": start, "pay": "gold"}).ids("p1", "peasant")
    if merc:
        play.act("p1", {"type": "hire", "unit": play.ids(None, "mercenary", start)[0], "pay": "gold"})
    troops = [i for i in play.ids("p1", loc=start) if play.state.units[i].kind != "peasant"] + [peasant]
    play.to("move", "p1").move("p1", troops, [target]).to("declare", "p1")
    return play.act("p1", {"type": "declare", "province": target, "action": "invade", "pay": pay})


def test_s8_2_a_plus_one_king_may_move_a_troop_of_the_owners_choice():
    """§8.2 "A +1 king may move a single troop up one box (e.g., a peasant from box 1 to box 2),
    a +2 king may move a single troop up two places, or two troops up one place each." """
    play = battle_with(5, [5])
    prompt = play.state.prompt
    assert prompt.kind == "king_bonus" and prompt.seat == "p1"
    assert set(prompt.options) == {"none", "up peasant@1", "up berserker@3", "up king@4"}
    lifted = play.branch().choose("p1", "up berserker@3", dice={"battle for Surrey": [6] * 6})  # a round without hits
    assert lifted.state.battle.round == 1 and lifted.state.battle.att_lift == ""  # the move holds for its round
    assert boxes(lifted.state, msgspec.structs.replace(lifted.state.battle, att_lift="up berserker@3"),
                 "att") == [1, 4, 4, 4]  # both berserker dice in box 4
    two = battle_with(6, [6, 5], event=53)  # +2; 53, bad debts, leaves nothing to raise
    assert {"up2 peasant@1", "up peasant@1, king@5", "none"} <= set(two.state.prompt.options)
    battle = msgspec.structs.replace(two.state.battle, att_lift="up2 peasant@1")
    assert boxes(two.state, battle, "att") == [3, 5]


def test_s12_3_a_minus_one_king_must_move_a_unit_down_chosen_by_the_owner():
    """§12.3 "that King ... must move a single unit of his own side down from one box to the next
    box in battle." Played: p1 starts Christian in Leinster (event 11 gives a mounted knight) and
    hires the set-up mercenary there; its new king is -1 (feeble rulers); the second turn's gold
    pays for the invasion."""
    play = battle_with(6, [1], start="Leinster", target="Ulster", options={"feeble_rulers": True}, pay="gold",
                       merc=True, turn=2)
    assert play.state.prompt.kind == "king_bonus"
    assert set(play.state.prompt.options) == {"down mercenary@3", "down knight@4"}  # no "none": he must
    battle = msgspec.structs.replace(play.state.battle, att_lift="down knight@4")
    assert boxes(play.state, battle, "att") == [1, 1, 3, 3]
    play.choose("p1", "down knight@4", dice={"battle for Ulster": [6] * 7})


# -- 5. §12.2 the attacker's choice -----------------------------------------------------------------------
def test_s12_2_after_a_retreat_the_attacker_assaults_destroys_or_ravages():
    """§12.2 "The attacker may immediately assault the city ... or else they may destroy an
    improvement or ravage the province as in a raid." Ravaging leaves the improvements standing.
    Played: event 61 founds a city in neutral Surrey and the §3.4 roll walls it; p2 (Wessex) takes
    it; in the second turn p1's king and a regular invade and p2's king retreats into the city."""
    play = Play("Kent", "Wessex", options={"city_defences": True}, events={"p1": [61]},
                dice={"city founded: random province table": cell("Surrey"),
                      "random province improvement": cell("Surrey"), "improvement in neutral Surrey": [5]})
    play.to("move", "p2").move("p2", [2], ["Surrey"]).to("declare", "p2")
    play.act("p2", {"type": "declare", "province": "Surrey", "action": "invade", "pay": "wheat"},
             {"battle for Surrey": [1, 6, 6]})
    play.choose("p1", "fight", {"battle for Surrey": [1, 6]}).choose("p2", "spare")
    play.to("raise", "p1", turn=2).act("p1", {"type": "raise-regular", "province": "Kent", "pay": ["iron", "gold"]})
    play.to("move", "p1").move("p1", play.ids("p1"), ["Surrey"]).to("declare", "p1")
    play.act("p1", {"type": "declare", "province": "Surrey", "action": "invade", "pay": "wheat"},
             {"battle for Surrey": [6] * 5})
    play.choose("p2", "retreat")
    assert play.state.prompt.options == ("assault", "destroy", "ravage")
    ravaged = play.branch().choose("p1", "ravage")
    surrey = prov(ravaged.game, "Surrey")
    assert surrey.ravage == 1 and surrey.city and surrey.wall and surrey.owner == "p2"
    assert res(ravaged.game, "p1")["slaves"] == 1  # Surrey produces nothing: a slave, the ravage spoil (§8.1)
    destroyed = play.choose("p1", "destroy").game
    assert not prov(destroyed, "Surrey").wall and prov(destroyed, "Surrey").city  # the raid order: wall first


# -- 6. the events as printed ------------------------------------------------------------------------------
def test_s11_41_family_ties_the_owner_may_offer_any_resources():
    """§11 41 "If it belongs to another player, you may accept resources off them to decline the
    offer" — resources, not at most two. Played: Ulster joins p2's Leinster (p2's event 41) in
    the first turn; p1 draws 41 on Ulster in the third, when p2 holds three gold."""
    play = Play("Kent", "Leinster", events={"p1": [11, 11, 41], "p2": [41]},
                dice={"family ties: random province table": cell("Ulster") * 2})
    play.to("", "p2", turn=3, asked="family_offer", answers={"place_unit": "Kent"})
    assert res(play.game, "p2")["gold"] == 3
    play.choose("p2", "gold=3").choose("p1", "accept")
    assert res(play.game, "p1")["gold"] == 4 and prov(play.game, "Ulster").owner == "p2"


def test_s11_51_storms_one_roll_per_voyage():
    """§11 51 "Any boat attempting to move from a province adjacent to that sea zone, or into that
    sea zone must roll a die": one die for the boat's move along the Channel coast, not one a step.
    Played: Sussex and Wessex join p1's Kent (§11 41); in the third turn p1 draws 51 on The
    Channel and raises boats."""
    play = Play("Kent", "Leinster", events={"p1": [41, 41, 51]},
                dice={**joining("Sussex", "Wessex"), "storms: which sea zone": [5]}).to("raise", "p1", turn=3)
    play.act("p1", {"type": "raise-boats", "places": [{"province": "Kent", "sea": "The Channel"}], "pay": "iron"})
    boat = play.ids("p1", "boat")[0]
    play.to("move", "p1").move("p1", [boat], ["Sussex", "Wessex"], {"storm in The Channel": [3]})
    assert play.state.units[boat].loc == "Wessex"


def test_s11_26_rebellion_all_regulars_and_mercenaries_in_neutral_provinces_desert():
    """§11 26 "All regulars and mercenaries in neutral provinces desert." — every one, not only
    the rebel player's in the seceded province. Played: Thanet joins p1's Kent (§11 41) and a
    regular is raised there; the §3.4 roll puts a neutral regular in Surrey, the set-up
    mercenaries stand in Essex and Orkney; in the second turn p1 draws 26, column 6 (Thanet
    first), and lets Thanet go."""
    play = Play("Kent", "Leinster", events={"p1": [41, 26]},
                dice={**joining("Thanet"), "set-up mercenary": cell("Essex") + cell("Orkney"),
                      "random province improvement": cell("Surrey"), "improvement in neutral Surrey": [2],
                      "rebellion: a column": [6]})
    play.to("raise", "p1").act("p1", {"type": "raise-regular", "province": "Thanet", "pay": ["iron", "gold"]})
    play.to("", "p1", turn=2, asked="rebellion")
    play.choose("p1", "let_go")
    assert [(u.kind, u.loc) for u in units(play.game)] == [("king", "Kent"), ("king", "Leinster")]


# -- 7. no narrowings -----------------------------------------------------------------------------------------
def test_s4_6_4_boats_in_any_one_province():
    """§4.6.4 "spending a resource of any kind to place two boat counters in any one province, or
    one boat in two provinces" — any province with a coast, not only one's own."""
    play = Play("Kent", "Leinster").to("raise", "p1")
    play.act("p1", {"type": "raise-boats", "places": [{"province": "Sussex", "sea": "The Channel"}], "pay": "gold"})
    assert [(u.kind, u.loc, u.owner) for u in units(play.game, kind="boat")] == [("boat", "Sussex", "p1")] * 2


def test_s4_6_1_mercenaries_can_be_hired_at_any_time():
    """§4.6.1 "Mercenaries can be hired at any time that a player's troops are in the same province
    as a mercenary" — here while declaring combat, and while answering a question. Played: a
    set-up mercenary stands in Surrey (and one in Kent); p1 draws event 12, a path of choice."""
    play = Play("Kent", "Leinster", events={"p1": [12]}, dice={"set-up mercenary": cell("Surrey") + cell("Kent")})
    [kent] = play.ids(None, "mercenary", "Kent")
    assert play.state.prompt.kind == "path" and play.state.prompt.seat == "p1"
    play.act("p1", {"type": "hire", "unit": kent, "pay": "gold"})
    assert play.state.units[kent].owner == "p1" and play.state.prompt.kind == "path"
    play.choose("p1", "forest")
    [surrey] = play.ids(None, "mercenary", "Surrey")
    play.to("move", "p1").move("p1", [1], ["Surrey"]).to("declare", "p1")
    assert {"type": "hire", "unit": surrey, "pay": "wheat"} in legal(play.game, "p1")
    play.act("p1", {"type": "hire", "unit": surrey, "pay": "wheat"})
    assert play.state.units[surrey].owner == "p1" and play.state.prompt.args == ("declare",)


def test_s7_no_cap_on_steps_along_roads():
    """§7 "If a non-boat unit moves from a province containing a road, then that move costs no
    movement points. Thus a unit may move through several adjacent provinces containing roads
    without spending a movement point." — five road steps in one command, then more. Played:
    Surrey, Berkshire, Oxford, Mercia, Hwicce and Wessex join p1's Kent (§11 41), one a turn;
    p1 builds a road in each of the seven in the seventh turn."""
    seven = ("Kent", "Surrey", "Berkshire", "Oxford", "Mercia", "Hwicce", "Wessex")
    play = Play("Kent", "Leinster", events={"p1": [41] * 6}, dice=joining(*seven[1:])).to("improve", "p1", turn=7)
    for province in seven:
        play.act("p1", {"type": "improve", "province": province, "improvement": "road", "pay": ["wheat", "iron"]})
    play.to("move", "p1")
    play.move("p1", [1], ["Surrey", "Berkshire", "Oxford", "Mercia", "Hwicce"])
    play.move("p1", [1], ["Wessex", "Surrey", "Kent", "Surrey"])
    assert units(play.game, owner="p1")[0].loc == "Surrey" and units(play.game, owner="p1")[0].mp == 2
