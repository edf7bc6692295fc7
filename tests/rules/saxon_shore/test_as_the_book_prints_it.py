"""Issue 15, points 1 to 7: Saxon Shore as the book prints it. Each test quotes the rulebook
sentence it holds the engine to; each failed on the engine before (a turn limit on by default,
a third combat answer "hold", rationed trade, automatic king bonuses, a "pillage" in place of
§12.2's choice, narrow event readings, and caps the book does not have)."""

import msgspec
import pytest

from domain.rules.base import RuleViolation
from domain.rules.saxon_shore.combat import boxes
from domain.rules.saxon_shore.events import GameDecided
from domain.rules.saxon_shore.state import Job, Prompt

from .helpers import DONE, S, act, events_of, legal, position, prov, res, stop, then, units


def choose(game, seat, option, dice=(), filler=None):
    return act(game, seat, {"type": "choose", "option": option}, dice=list(dice), filler=filler)


def refused(game, seat, command, code):
    with pytest.raises(RuleViolation) as error:
        act(game, seat, command, dice=[])
    assert error.value.code == code, error.value.message
    assert command not in legal(game, seat)


# -- 1. the turn limit ------------------------------------------------------------------------------
def test_s1_the_book_ends_a_game_only_by_its_four_victories_so_no_turn_limit_by_default():
    """§1 "A player can win by fulfilling one of several victory conditions: 1. Eliminate all
    other players. 2. Build four cities. 3. Control eight provinces producing resources.
    4. Control any ten provinces." No other ending: turn 30 (and 300) passes into the next turn."""
    assert S.setup("standard", ("p1", "p2"), {}).options.turn_limit is None
    for turn in (30, 300):
        game = position(owners={"Kent": "p1", "Surrey": "p1", "Essex": "p2"}, turn=turn, **then(Job("turn_over")))
        game = act(game, "p1", DONE, filler=6)
        assert game.outcome is None and game.state.turn == turn + 1


def test_s1_a_turn_limit_is_a_house_rule_and_its_result_is_marked_as_no_rulebook_victory():
    game = position(owners={"Kent": "p1", "Surrey": "p1", "Essex": "p2"}, options={"turn_limit": 5}, turn=5,
                    **then(Job("turn_over")))
    recorded = events_of(game, "p1", DONE, dice=[])
    decided = next(e for e in recorded if isinstance(e, GameDecided))
    assert decided.rulebook_victory is False and decided.house_rule == "turn limit"
    after = act(game, "p1", DONE, dice=[])
    assert after.outcome.winner == "p1"
    assert after.outcome.reason == "turn limit (house rule, 5 turns): most provinces"


# -- 2. RAID or INVADE, no third answer ----------------------------------------------------------------
def declaring(unit_specs, owners=None, **kw):
    return position(owners=owners or {"Kent": "p1"}, units=unit_specs, prompt=Prompt("phase", "p1", args=("declare",)),
                    jobs=(Job("raids", n=1), Job("invasions", n=1), stop()), **kw)


def test_s8_troops_in_a_non_friendly_province_raid_or_invade_and_cannot_hold():
    """§8 "Each player, in game order, states whether his or her troops in each non-friendly
    province are going to RAID or INVADE." A king who had to stop in Surrey (§7) cannot sit
    there without fighting and march on."""
    game = declaring([("king", "p1", "Surrey")])
    refused(game, "p1", {"type": "declare", "province": "Surrey", "action": "hold"}, "unknown_command")
    refused(game, "p1", DONE, "saxon-shore.must_declare")
    assert {c["action"] for c in legal(game, "p1")} == {"raid"}  # nothing to pay an invasion with


def test_s8_capacity_zero_with_nothing_to_invade_with_the_troops_are_not_engaged():
    """§8 "Provinces with a carrying capacity of zero cannot be raided." and "If they wish to
    invade, the player must spend one resource". With neither possible, §7's rule that a
    province of capacity zero does not stop movement applies: nothing is declared, no combat."""
    game = position(owners={"Kent": "p1"}, units=[("king", "p1", "Surrey")], provinces={"Surrey": {"ravage": 1}},
                    **then(Job("phase", "p1", n=1, args=("declare",)), Job("raids", n=1), Job("invasions", n=1)))
    game = act(game, "p1", DONE, dice=[])
    assert game.state.prompt.seat == "p2"  # p1 was not asked to declare
    assert units(game, "Surrey", "p1") and prov(game, "Surrey").owner is None
    paying = declaring([("king", "p1", "Surrey")], provinces={"Surrey": {"ravage": 1}}, res={"p1": {"gold": 1}})
    assert [c["action"] for c in legal(paying, "p1")] == ["invade"]


# -- 3. trade as the book allows it --------------------------------------------------------------------
def trading(res_, **kw):
    return position(res=res_, n=3, **then(Job("trade_round")), **kw)


def test_s4_3_tokens_in_any_combination_gifts_and_requests_with_no_ration():
    """§4.3 "Players may exchange resource tokens in any combination that they want." """
    game = act(trading({"p1": {"wheat": 3, "gold": 1}, "p2": {"iron": 2}}), "p1", DONE, dice=[])
    assert game.state.prompt.args == ("trade",) and game.state.prompt.seat == "p1"
    offer = {"type": "offer", "to": "p2", "give": {"wheat": 2, "gold": 1}, "take": {"iron": 2}}
    game = act(game, "p1", offer, dice=[])
    game = choose(game, "p2", "accept")
    assert res(game, "p1") == {"wheat": 1, "wool": 0, "iron": 2, "gold": 0, "slaves": 0}
    assert res(game, "p2")["wheat"] == 2 and res(game, "p2")["gold"] == 1
    for _ in range(3):  # no limit of two offers
        game = act(game, "p1", {"type": "offer", "to": "p3", "give": {"iron": 1}}, dice=[])  # a gift
        game = choose(game, "p3", "decline")
    game = act(game, "p1", DONE, dice=[])
    # p3 holds nothing and may still ask for a gift
    game = act(game, "p2", DONE, dice=[])
    assert game.state.prompt.seat == "p3"
    game = act(game, "p3", {"type": "offer", "to": "p2", "take": {"gold": 1}}, dice=[])
    game = choose(game, "p2", "accept")
    assert res(game, "p3")["gold"] == 1
    # a round with offers is followed by another, so p1 may answer late offers
    game = act(game, "p3", DONE, dice=[])
    assert game.state.prompt.seat == "p1" and game.state.prompt.args == ("trade",)
    for seat in ("p1", "p2", "p3"):
        game = act(game, seat, DONE, dice=[])
    assert game.state.prompt.seat == "p2" and game.state.prompt.args == ("convert",)  # the stop job


# -- 4. the king's move is the owner's choice ---------------------------------------------------------
def battle_with(quality, attackers, **kw):
    spec = [("king", "p1", "Essex", {"quality": quality}), *[(k, "p1", "Essex") for k in attackers]]
    return declaring(spec, owners={"Kent": "p1", "Essex": "p2"}, res={"p1": {"wool": 1}}, **kw)


def test_s8_2_a_plus_one_king_may_move_a_troop_of_the_owners_choice():
    """§8.2 "A +1 king may move a single troop up one box (e.g., a peasant from box 1 to box 2),
    a +2 king may move a single troop up two places, or two troops up one place each." """
    game = act(battle_with(1, ["peasant", "berserker"]), "p1",
               {"type": "declare", "province": "Essex", "action": "invade", "pay": "wool"}, dice=[])
    prompt = game.state.prompt
    assert prompt.kind == "king_bonus" and prompt.seat == "p1"
    assert set(prompt.options) == {"none", "up peasant@1", "up berserker@3", "up king@4"}
    lifted = choose(game, "p1", "up berserker@3", filler=6)  # a round without hits
    assert lifted.state.battle.round == 1 and lifted.state.battle.att_lift == ""  # the move holds for its round
    assert boxes(lifted.state, msgspec.structs.replace(lifted.state.battle, att_lift="up berserker@3"),
                 "att") == [1, 4, 4, 4]  # both berserker dice in box 4  # both berserker dice in box 4
    two = act(battle_with(2, ["peasant"]), "p1", {"type": "declare", "province": "Essex", "action": "invade",
                                                   "pay": "wool"}, dice=[])
    assert {"up2 peasant@1", "up peasant@1, king@5", "none"} <= set(two.state.prompt.options)
    battle = msgspec.structs.replace(two.state.battle, att_lift="up2 peasant@1")
    assert boxes(two.state, battle, "att") == [3, 5]


def test_s12_3_a_minus_one_king_must_move_a_unit_down_chosen_by_the_owner():
    """§12.3 "that King ... must move a single unit of his own side down from one box to the next
    box in battle." """
    game = act(battle_with(-1, ["regular", "peasant", "knight"], options={"feeble_rulers": True}), "p1",
               {"type": "declare", "province": "Essex", "action": "invade", "pay": "wool"}, dice=[])
    assert game.state.prompt.kind == "king_bonus"
    assert set(game.state.prompt.options) == {"down regular@3", "down knight@4"}  # no "none": he must
    battle = msgspec.structs.replace(game.state.battle, att_lift="down knight@4")
    assert boxes(game.state, battle, "att") == [1, 1, 3, 3]
    choose(game, "p1", "down knight@4", filler=6)


# -- 5. §12.2 the attacker's choice -----------------------------------------------------------------------
def test_s12_2_after_a_retreat_the_attacker_assaults_destroys_or_ravages():
    """§12.2 "The attacker may immediately assault the city ... or else they may destroy an
    improvement or ravage the province as in a raid." Ravaging leaves the improvements standing."""
    spec = [("king", "p1", "Essex"), ("regular", "p1", "Essex"), ("regular", "p2", "Essex")]
    game = declaring(spec, owners={"Kent": "p1", "Essex": "p2"}, res={"p1": {"wool": 1}},
                     provinces={"Essex": {"city": True, "wall": True}}, options={"city_defences": True})
    game = act(game, "p1", {"type": "declare", "province": "Essex", "action": "invade", "pay": "wool"},
               dice=[6, 6, 6, 6, 6, 6])
    game = choose(game, "p2", "retreat")
    assert game.state.prompt.options == ("assault", "destroy", "ravage")
    ravaged = choose(game, "p1", "ravage")
    essex = prov(ravaged, "Essex")
    assert essex.ravage == 1 and essex.city and essex.wall and essex.owner == "p2"
    assert res(ravaged, "p1")["wheat"] == 1  # Essex produces wheat: the ravage spoil (§8.1)
    destroyed = choose(game, "p1", "destroy")
    assert not prov(destroyed, "Essex").wall and prov(destroyed, "Essex").city  # the raid order: wall first


# -- 6. the events as printed ------------------------------------------------------------------------------
def test_s11_41_family_ties_the_owner_may_offer_any_resources():
    """§11 41 "If it belongs to another player, you may accept resources off them to decline the
    offer" — resources, not at most two."""
    game = position(owners={"Kent": "p1", "Ulster": "p2", "Leinster": "p2"}, res={"p2": {"gold": 3, "wool": 2}},
                    **then(Job("event", "p1")))
    game = act(game, "p1", DONE, dice=[4, 1, 4, 1])  # event 41, Ulster
    assert game.state.prompt.kind == "family_offer"
    game = choose(game, "p2", "wool=2,gold=3")
    game = choose(game, "p1", "accept")
    assert res(game, "p1")["gold"] == 3 and res(game, "p1")["wool"] == 2 and prov(game, "Ulster").owner == "p2"


def test_s11_51_storms_one_roll_per_voyage():
    """§11 51 "Any boat attempting to move from a province adjacent to that sea zone, or into that
    sea zone must roll a die": one die for the boat's move along the Channel coast, not one a step."""
    game = position(owners={"Kent": "p1", "Sussex": "p1", "Wessex": "p1"},
                    units=[("boat", "p1", "Kent", {"coast": "The Channel", "mp": 2})], storms=("The Channel",),
                    prompt=Prompt("phase", "p1", args=("move",)), jobs=(stop(),))
    game = act(game, "p1", {"type": "move", "units": [1], "path": ["Sussex", "Wessex"]}, dice=[3])
    assert units(game)[0].loc == "Wessex"


def test_s11_26_rebellion_all_regulars_and_mercenaries_in_neutral_provinces_desert():
    """§11 26 "All regulars and mercenaries in neutral provinces desert." — every one, not only
    the rebel player's in the seceded province."""
    spec = [("king", "p1", "Kent"), ("regular", "p1", "Thanet"), ("regular", None, "Surrey"),
            ("mercenary", None, "Essex"), ("regular", "p2", "Sussex"), ("regular", "p2", "Leinster")]
    game = position(owners={"Kent": "p1", "Thanet": "p1", "Leinster": "p2"}, units=spec, **then(Job("event", "p1")))
    game = act(game, "p1", DONE, dice=[2, 6, 6])  # column 6: Thanet first
    game = choose(game, "p1", "let_go")
    assert [(u.kind, u.loc) for u in units(game)] == [("king", "Kent"), ("regular", "Leinster")]


# -- 7. no narrowings -----------------------------------------------------------------------------------------
def test_s4_6_4_boats_in_any_one_province():
    """§4.6.4 "spending a resource of any kind to place two boat counters in any one province, or
    one boat in two provinces" — any province with a coast, not only one's own."""
    game = position(owners={"Kent": "p1"}, res={"p1": {"wool": 1}}, prompt=Prompt("phase", "p1", args=("raise",)),
                    jobs=(stop(),))
    game = act(game, "p1", {"type": "raise-boats", "places": [{"province": "Sussex", "sea": "The Channel"}],
                            "pay": "wool"}, dice=[])
    assert [(u.kind, u.loc, u.owner) for u in units(game)] == [("boat", "Sussex", "p1")] * 2


def test_s4_6_1_mercenaries_can_be_hired_at_any_time():
    """§4.6.1 "Mercenaries can be hired at any time that a player's troops are in the same province
    as a mercenary" — here while declaring combat, and while answering a question."""
    spec = [("king", "p1", "Surrey"), ("mercenary", None, "Surrey")]
    game = declaring(spec, res={"p1": {"wool": 1, "gold": 1}})
    assert {"type": "hire", "unit": 2, "pay": "wool"} in legal(game, "p1")
    game = act(game, "p1", {"type": "hire", "unit": 2, "pay": "wool"}, dice=[])
    assert game.state.units[2].owner == "p1" and game.state.prompt.args == ("declare",)
    asked = position(owners={"Kent": "p1"}, units=spec, res={"p1": {"wool": 1}},
                     prompt=Prompt("path", "p1", ("mountain", "forest", "marsh")), jobs=(stop(),))
    asked = act(asked, "p1", {"type": "hire", "unit": 2, "pay": "wool"}, dice=[])
    assert asked.state.units[2].owner == "p1" and asked.state.prompt.kind == "path"


def test_s7_no_cap_on_steps_along_roads():
    """§7 "If a non-boat unit moves from a province containing a road, then that move costs no
    movement points. Thus a unit may move through several adjacent provinces containing roads
    without spending a movement point." — five road steps in one command, then more."""
    owners = {p: "p1" for p in ("Kent", "Surrey", "Berkshire", "Oxford", "Mercia", "Hwicce", "Wessex")}
    roads = {p: {"road": True} for p in owners}
    game = position(owners=owners, provinces=roads, units=[("king", "p1", "Kent", {"mp": 2})],
                    prompt=Prompt("phase", "p1", args=("move",)), jobs=(stop(),))
    game = act(game, "p1", {"type": "move", "units": [1], "path": ["Surrey", "Berkshire", "Oxford", "Mercia", "Hwicce"]},
               dice=[])
    game = act(game, "p1", {"type": "move", "units": [1], "path": ["Wessex", "Surrey", "Kent", "Surrey"]}, dice=[])
    assert units(game)[0].loc == "Surrey" and units(game)[0].mp == 2
