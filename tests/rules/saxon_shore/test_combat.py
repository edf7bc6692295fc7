"""§8 combat: declarations and the invasion cost, raids (§8.1) with strengths, results,
improvements destroyed in order with their spoils and ravage spoils; invasions (§8.2) on the
battle matrix with king bonuses, militia by morale, removal choices, battles between several
invaders, conquest and morale; §12.2 city defences."""

import pytest

from domain.rules.base import RuleViolation
from domain.rules.saxon_shore.combat import boxes, raid_strength
from domain.rules.saxon_shore.state import Battle, Job, Prompt, Unit

from .helpers import DONE, act, legal, position, prov, res, stop, units

AFTER = (Job("raids", n=1), Job("invasions", n=1), stop())


def declaring(unit_specs, owners=None, seat="p1", **kw):
    return position(owners=owners or {"Kent": "p1"}, units=unit_specs,
                    prompt=Prompt("phase", seat, args=("declare",)), jobs=AFTER, **kw)


def declare(game, province, action, pay=None, dice=(), seat="p1", filler=None):
    cmd = {"type": "declare", "province": province, "action": action}
    if pay:
        cmd["pay"] = pay
    return act(game, seat, cmd, dice=list(dice), filler=filler)


def choose(game, seat, option, dice=()):
    return act(game, seat, {"type": "choose", "option": option}, dice=list(dice))


# -- declarations ----------------------------------------------------------------------------------
def test_s8_invading_costs_one_resource_and_capacity_zero_cannot_be_raided():
    game = declaring([("king", "p1", "Surrey")], res={"p1": {"wool": 1}}, provinces={"Surrey": {"ravage": 1}})
    with pytest.raises(RuleViolation) as error:
        declare(game, "Surrey", "raid")
    assert error.value.code == "saxon-shore.cannot_raid"
    with pytest.raises(RuleViolation) as error:
        declare(game, "Surrey", "invade")
    assert error.value.code == "saxon-shore.invasion_cost"
    assert {c["action"] for c in legal(game, "p1") if c["type"] == "declare"} == {"invade"}
    game = declare(game, "Surrey", "invade", "wool")
    assert res(game, "p1")["wool"] == 0 and game.state.prompt.kind == "conquest"



def test_s8_a_hire_that_spends_the_last_resource_while_declaring_leaves_done_listed():
    """§4.6.1 "Mercenaries can be hired at any time that a player's troops are in the same province
    as a mercenary [...] To hire a mercenary the player must spend one resource of any kind." §8
    "Each player, in game order, states whether his or her troops in each non-friendly province are
    going to RAID or INVADE. If they wish to invade, the player must spend one resource of any
    kind. [...] Provinces with a carrying capacity of zero cannot be raided." A king in ravaged
    Surrey (capacity zero: invade only) whose player hires with his one wool while declaring has
    nothing left to declare there (RULES_NOTES.md, §8): ``done`` must be listed, not an empty
    list (issue 24 point 5: versions 8,991 and 45,952 were left so; game 16 of
    bench/bench_every_game_ends.py at version 17264)."""
    game = declaring([("king", "p1", "Surrey"), ("mercenary", None, "Kent"), ("regular", "p1", "Kent")],
                     res={"p1": {"wool": 1}}, provinces={"Surrey": {"ravage": 1}})
    assert legal(game, "p1") == [{"type": "declare", "province": "Surrey", "action": "invade", "pay": "wool"},
                                 {"type": "hire", "unit": 2, "pay": "wool"}]
    game = act(game, "p1", {"type": "hire", "unit": 2, "pay": "wool"}, dice=[])
    assert game.state.prompt.args == ("declare",) and res(game, "p1")["wool"] == 0
    assert legal(game, "p1") == [DONE]
    game = act(game, "p1", DONE, dice=[])
    assert game.state.declared == () and game.state.prompt.seat == "p2"  # no combat follows: on to the stop


def test_s8_done_is_listed_only_when_nothing_is_left_to_declare():
    """§8: every non-friendly province with the seat's troops is declared RAID or INVADE first."""
    game = declaring([("king", "p1", "Surrey")], res={"p1": {"wool": 1}})
    assert DONE not in legal(game, "p1")
    with pytest.raises(RuleViolation) as error:
        act(game, "p1", DONE, dice=[])
    assert error.value.code == "saxon-shore.must_declare"

# -- raids -------------------------------------------------------------------------------------------
def test_s8_1_raid_strengths():
    king = Unit(1, "king", "p1", "Kent")
    assert [raid_strength(Unit(1, k, "p1", "Kent"), False, False) for k in ("peasant", "regular", "mercenary")] == [1, 2, 2]
    assert [raid_strength(king.__class__(1, "king", "p1", "K", quality=q), False, False) for q in (0, 1, 2, -1)] == [2, 3, 4, 1]
    assert raid_strength(Unit(1, "knight", "p1", "K"), False, False) == 4
    assert raid_strength(Unit(1, "berserker", "p1", "K"), False, False) == 4
    assert raid_strength(Unit(1, "monk", "p1", "K"), True, False) == 1
    assert raid_strength(Unit(1, "monk", "p1", "K"), False, False) == 3
    assert raid_strength(king, False, True) == 3  # chainmail (§11 55)


SURREY_ALL = {"Surrey": {"monastery": True, "wall": True, "road": True, "city": True, "trade_seat": "p2",
                         "trade_res": "iron"}}


@pytest.mark.parametrize("have,lost,spoil", [
    (("monastery", "wall", "road", "city"), "monastery", "gold"),
    (("wall", "road", "city"), "wall", "wheat"),
    (("road", "city"), "road", "wheat"),
])
def test_s8_1_a_successful_raid_destroys_one_improvement_in_order_with_spoils(have, lost, spoil):
    # attack 2 + 4 x 2 + 6 = 16 against at most capacity 4 + road 1 + wall 3 + 1
    spec = [("king", "p1", "Surrey")] + [("regular", "p1", "Surrey")] * 4
    game = declaring(spec, provinces={"Surrey": {k: True for k in have}})
    game = declare(game, "Surrey", "raid", dice=[6, 1])
    surrey = prov(game, "Surrey")
    assert [k for k in have if not getattr(surrey, k)] == [lost]
    assert res(game, "p1")[spoil] == 1 and len(units(game, "Surrey", "p1")) == 5


def test_s8_1_city_spoils_the_traded_resource_and_one_of_choice():
    game = declaring([("king", "p1", "Surrey"), ("regular", "p1", "Surrey")],
                     provinces={"Surrey": {"city": True, "trade_seat": "p2", "trade_res": "iron"}})
    game = declare(game, "Surrey", "raid", dice=[6, 1])  # 4 + 6 against 2 + 1
    assert not prov(game, "Surrey").city and res(game, "p1")["iron"] == 1
    game = choose(game, "p1", "gold")
    assert res(game, "p1")["gold"] == 1


def test_s8_1_ravage_spoils_a_slave_or_the_provinces_resource_kent_either():
    game = declare(declaring([("king", "p1", "Surrey")]), "Surrey", "raid", dice=[6, 1])
    assert prov(game, "Surrey").ravage == 1 and res(game, "p1")["slaves"] == 1
    game = declare(declaring([("king", "p1", "Norfolk")]), "Norfolk", "raid", dice=[6, 1])
    assert res(game, "p1")["wheat"] == 1
    game = declaring([("king", "p1", "Kent"), ("regular", "p1", "Kent")], owners={"Wessex": "p1"})
    game = declare(game, "Kent", "raid", dice=[6, 1])
    assert game.state.prompt.options == ("wheat", "iron")
    assert res(choose(game, "p1", "iron"), "p1")["iron"] == 1


def test_s8_1_draw_raiders_remain_without_effect():
    game = declare(declaring([("king", "p1", "Surrey")]), "Surrey", "raid", dice=[1, 2])  # 3 against 3
    assert prov(game, "Surrey").ravage == 0 and units(game, "Surrey", "p1")


def test_s8_1_defender_wins_attackers_roll_for_losses_and_survivors_go_home():
    spec = [("king", "p1", "Surrey"), ("king", "p1", "Surrey"), ("regular", "p1", "Surrey"),
            ("regular", "p1", "Surrey"), ("peasant", "p1", "Surrey"), ("peasant", "p1", "Surrey"),
            ("mercenary", "p1", "Surrey"), ("mercenary", "p1", "Surrey"), ("mercenary", "p1", "Surrey")]
    # attack 2+2+2+2+1+1+2+2+2 = 16, +1; defence: five neutral regulars 10 + capacity 1 + wall 3, +6
    extra = [("regular", None, "Surrey")] * 5
    game = declaring(spec + extra, provinces={"Surrey": {"wall": True}})
    game = declare(game, "Surrey", "raid", dice=[1, 6, 1, 2, 2, 3, 4, 5, 1, 2, 5])
    assert units(game, "Surrey", None, "mercenary")[0].id == 8  # reverted to neutrality on 2
    home = sorted((u.kind, u.loc) for u in units(game, owner="p1"))
    assert home == [("king", "Kent"), ("mercenary", "Kent"), ("peasant", "Kent"), ("regular", "Kent")]


def test_s8_1_raids_resolve_in_game_order_before_invasions():
    game = position(n=2, owners={"Kent": "p1", "Essex": "p2"},
                    units=[("king", "p1", "Surrey"), ("king", "p2", "Surrey")],
                    prompt=Prompt("phase", "p2", args=("declare",)), jobs=AFTER,
                    declared=(("p1", "Surrey", "raid"),), order=("p1", "p2"), provinces={"Surrey": {"road": True}})
    game = declare(game, "Surrey", "raid", seat="p2", dice=[6, 1, 6, 1])
    # p1 raids first and takes the road; p2 then ravages what is left
    assert res(game, "p1")["wheat"] == 1 and res(game, "p2")["slaves"] == 1
    assert not prov(game, "Surrey").road and prov(game, "Surrey").ravage == 1


# -- invasions -----------------------------------------------------------------------------------------
def test_s8_2_battle_matrix_boxes_king_bonuses_and_militia_by_morale():
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
    game = declaring([("king", "p1", "Surrey"), ("regular", "p1", "Surrey")], res={"p1": {"wool": 1}},
                     provinces={"Surrey": {"morale": 1}})
    game = declare(game, "Surrey", "invade", "wool", dice=[3, 6, 4])  # two attack dice (box 3): one hit; militia misses
    assert game.state.prompt.kind == "conquest" and game.state.prompt.options == ("ravage", "spare")
    game = choose(game, "p1", "spare")
    assert prov(game, "Surrey").owner == "p1" and prov(game, "Surrey").morale == -1
    assert len(units(game, "Surrey", "p1")) == 2


def test_s8_2_the_victor_may_destroy_an_improvement_or_ravage_as_in_a_raid():
    game = declaring([("king", "p1", "Surrey")], res={"p1": {"wool": 1}}, provinces={"Surrey": {"wall": True}})
    game = declare(game, "Surrey", "invade", "wool", dice=[1, 6])
    assert game.state.prompt.options == ("destroy", "ravage", "spare")
    destroyed = choose(game, "p1", "destroy")
    assert not prov(destroyed, "Surrey").wall and res(destroyed, "p1")["wheat"] == 1
    assert prov(destroyed, "Surrey").owner == "p1"
    ravaged = choose(game, "p1", "ravage")
    assert prov(ravaged, "Surrey").wall and prov(ravaged, "Surrey").ravage == 1 and res(ravaged, "p1")["slaves"] == 1


def test_s8_2_both_sides_wiped_out_the_defender_wins():
    game = declaring([("king", "p1", "Surrey")], res={"p1": {"wool": 1}})
    game = declare(game, "Surrey", "invade", "wool", dice=[1, 1])
    assert prov(game, "Surrey").owner is None and not units(game, "Surrey")
    assert game.state.battle is None


def test_s8_2_the_defender_chooses_which_troops_to_remove():
    spec = [("king", "p1", "Essex"), ("regular", "p1", "Essex"), ("regular", "p2", "Essex"),
            ("peasant", "p2", "Essex")]
    game = declaring(spec, owners={"Kent": "p1", "Essex": "p2", "Suffolk": "p2"}, res={"p1": {"wool": 1}},
                     provinces={"Essex": {"ravage": 2}})  # capacity 0: no militia
    game = declare(game, "Essex", "invade", "wool", dice=[1, 6, 6, 6])  # one hit on p2, none on p1
    assert game.state.prompt.kind == "casualty" and game.state.prompt.seat == "p2"
    assert game.state.prompt.options == ("peasant", "regular")
    game = choose(game, "p2", "regular", dice=[6, 6, 1])  # next round: p2's peasant hits once
    assert [u.kind for u in units(game, "Essex", "p2")] == ["peasant"]
    assert game.state.prompt.kind == "casualty" and game.state.prompt.seat == "p1"


def test_s2_1_an_uninvolved_player_removes_casualties_for_a_neutral_province():
    spec = [("king", "p1", "Surrey"), ("regular", None, "Surrey")]
    game = declaring(spec, res={"p1": {"wool": 1}})
    game = declare(game, "Surrey", "invade", "wool", dice=[1, 6, 6])
    assert game.state.prompt.kind == "casualty" and game.state.prompt.seat == "p2"
    assert game.state.prompt.options == ("militia", "regular")


def test_s8_2_conquest_from_a_pagan_by_a_christian_with_a_monastery_is_high_morale():
    spec = [("king", "p1", "Essex")]
    game = declaring(spec, owners={"Kent": "p1", "Essex": "p2", "Suffolk": "p2"}, res={"p1": {"wool": 1}},
                     christian=("p1",), provinces={"Essex": {"monastery": True, "ravage": 2}})
    game = declare(game, "Essex", "invade", "wool", dice=[1, 6])  # capacity 2 - 2 + 1: one militia
    game = choose(game, "p1", "spare")
    assert prov(game, "Essex").owner == "p1" and prov(game, "Essex").morale == 1


def test_s8_2_conquering_the_last_province_eliminates_the_player():
    game = declaring([("king", "p1", "Essex")], owners={"Kent": "p1", "Essex": "p2"}, res={"p1": {"wool": 1}},
                     provinces={"Essex": {"ravage": 2}})
    game = declare(game, "Essex", "invade", "wool", dice=[])
    game = act(game, "p1", {"type": "choose", "option": "spare"}, dice=[])
    assert not game.state.players["p2"].alive
    assert game.outcome is not None and game.outcome.winner == "p1"


def test_s8_2_several_invaders_fight_each_other_first_in_game_order():
    game = position(owners={"Kent": "p1", "Essex": "p2"}, units=[("king", "p1", "Surrey"), ("king", "p2", "Surrey")],
                    prompt=Prompt("phase", "p2", args=("declare",)), jobs=AFTER, res={"p2": {"wool": 1}},
                    declared=(("p1", "Surrey", "invade"),), order=("p1", "p2"), provinces={"Surrey": {"ravage": 1}})
    game = declare(game, "Surrey", "invade", "wool", seat="p2", dice=[1, 6])  # p2 (second) hits, p1 misses
    assert not units(game, "Surrey", "p1")
    assert game.state.prompt.kind == "conquest" and game.state.prompt.seat == "p2"


# -- §12.2 city defences ------------------------------------------------------------------------------
def city_battle():
    spec = [("king", "p1", "Essex"), ("regular", "p1", "Essex"), ("peasant", "p1", "Essex"),
            ("regular", "p2", "Essex")]
    return declaring(spec, owners={"Kent": "p1", "Essex": "p2", "Suffolk": "p2"}, res={"p1": {"wool": 1}},
                     provinces={"Essex": {"city": True, "ravage": 3}}, options={"city_defences": True})


def test_s12_2_the_defender_may_retreat_into_the_city_the_attacker_assaults_at_minus_two():
    game = declare(city_battle(), "Essex", "invade", "wool", dice=[6, 6, 6, 6])  # a round without hits
    assert game.state.prompt.kind == "city_retreat" and game.state.prompt.seat == "p2"
    game = choose(game, "p2", "retreat")
    assert game.state.prompt.kind == "city_assault" and game.state.prompt.seat == "p1"
    game = choose(game, "p1", "assault", dice=[1, 6, 6])  # king 1, regular 1 (peasants cannot assault)
    assert game.state.prompt.kind == "conquest"


def test_s12_2_or_the_attacker_ravages_as_in_a_raid():
    game = declare(city_battle(), "Essex", "invade", "wool", dice=[6, 6, 6, 6])
    game = choose(choose(game, "p2", "retreat"), "p1", "destroy")
    assert not prov(game, "Essex").city and prov(game, "Essex").owner == "p2"
    assert game.state.prompt.kind == "trade_gain"  # city spoils: one resource of choice


def test_s8_1_repulsed_raiders_with_no_friendly_province_free_of_enemies_are_eliminated():
    spec = [("king", "p1", "Surrey"), ("regular", "p2", "Kent")]
    game = declaring(spec, provinces={"Surrey": {"wall": True}})
    game = declare(game, "Surrey", "raid", dice=[1, 6, 6])  # 2 + 1 against 1 + 3 + 6; the king survives on 6
    assert not units(game, owner="p1")
