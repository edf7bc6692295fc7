"""§4 resources: production, city trade, trades between players, resources placed in cities,
improvements, raising troops and boats; §5 conversion; §6 ravage removal; §12.1 warrior monks.

Each position is reached by play from the opening (play.Play): provinces join by event 41
(family ties), cities are founded by event 61, monasteries by event 46 (a saint), ravage comes
from event 23 (plague), neutral improvements from the §3.4 roll; resources are produced."""

import pytest

from domain.rules.base import RuleViolation
from domain.rules.saxon_shore.events import ResourcesProduced

from .helpers import legal, prov, res, units
from .play import Play, cell, joining


def refused(play, seat, command, code):
    with pytest.raises(RuleViolation) as error:
        play.act(seat, command)
    assert error.value.code == f"saxon-shore.{code}", error.value.message
    assert command not in legal(play.game, seat)


def improve(play, province, improvement, pay, seat="p1"):
    return play.act(seat, {"type": "improve", "province": province, "improvement": improvement, "pay": pay})


def plague_on(*provinces: str, deaths: int = 0) -> dict[str, list[int]]:
    """Dice: the next events 23 fall on these provinces; ``deaths`` unit rolls show 1 (none dies)."""
    return {"plague: random province table": [f for p in provinces for f in cell(p)], "plague (§11 23)": [1] * deaths}


# -- §4.1 ----------------------------------------------------------------------------------------
def test_s4_1_production_one_token_per_resource_province_two_for_kent():
    """§4.1: one token for each resource province, Kent two (wheat and iron). Played: Norfolk
    (wheat) and Surrey (none) join p1's Kent by family ties in the first two turns."""
    play = Play("Kent", "Dyfed", events={"p1": [41, 41]}, dice=joining("Norfolk", "Surrey"))
    play.to("trade", "p1", turn=2)
    produced = {e.seat: e.gained for e in play.log if isinstance(e, ResourcesProduced)}  # the second turn's
    assert sorted(p for p in play.state.provinces if prov(play.game, p).owner == "p1") == ["Kent", "Norfolk", "Surrey"]
    assert produced == {"p1": {"wheat": 2, "iron": 1}, "p2": {"gold": 1}}


def test_s11_33_bumper_year_doubles_one_resource_of_choice():
    """§11 33: two tokens instead of one for one resource of choice at production."""
    play = Play("Kent", "Leinster", events={"p1": [33]}).to("", "p1", asked="bumper")
    assert play.state.prompt.options == ("wheat", "iron")
    play.choose("p1", "iron")
    assert res(play.game, "p1") == {"wheat": 1, "wool": 0, "iron": 2, "gold": 1, "slaves": 0}
    assert not play.state.players["p1"].bumper


# -- §4.2 ----------------------------------------------------------------------------------------
def trading(start="Kent", turns=1, events=(), dice=None, answers=None) -> Play:
    """Event 61 founds a city in neutral Surrey in the first turn; p1 places a resource there
    for trade (§4.4: iron from Kent, gold from Leinster) in the market phase of each of the
    first ``turns`` turns (an earlier trade fails on an unmodified 1); the game stops after the
    last placement: the next turn's city trade (§4.2) rolls for it."""
    play = Play(start, "Wessex", events={"p1": [61, *events]},
                dice={"city founded: random province table": cell("Surrey"), **(dice or {})})
    pay = "iron" if start == "Kent" else "gold"
    for turn in range(1, turns + 1):
        if turn > 1:
            play.force({"city trade in Surrey": [1]})
        play.to("market", "p1", turn=turn, answers=answers)
        play.act("p1", {"type": "place-trade", "province": "Surrey", "resource": pay})
    return play


def gained(play: Play, before: dict[str, int]) -> dict[str, int]:
    """What p1 gained since ``before`` besides the last production."""
    produced = next(e.gained for e in reversed(play.log) if isinstance(e, ResourcesProduced) and e.seat == "p1")
    return {k: v - before[k] - produced.get(k, 0) for k, v in res(play.game, "p1").items()}


def trade(play, *faces):
    """Play on to the next turn's trade phase, the city trade die (then random resources)
    showing ``faces``: what p1 gained by it."""
    before = res(play.game, "p1")
    play.force({"city trade in Surrey": [faces[0]], "a random resource": list(faces[1:])})
    play.to("trade", "p1", turn=play.state.turn + 1)
    assert not play.script.faces["city trade in Surrey"] and not play.script.faces["a random resource"]
    return gained(play, before)


NOTHING = {"wheat": 0, "wool": 0, "iron": 0, "gold": 0, "slaves": 0}


def test_s4_2_the_traded_resource_is_lost_and_first_trade_is_minus_one():
    play = trading()
    assert trade(play, 3) == NOTHING  # 3 - 1 = 2: failed
    assert prov(play.game, "Surrey").trade_res is None and prov(play.game, "Surrey").traded


def test_s4_2_three_gains_a_random_resource():
    play = trading()
    assert trade(play, 4, 6, 2) == {**NOTHING, "wool": 1}  # 4-1=3; random: 6 again, 2 = wool


@pytest.mark.parametrize("face", [4, 5])
def test_s4_2_four_or_five_gains_a_resource_of_choice(face):
    play = trading(turns=2)
    play.force({"city trade in Surrey": [face]}).to("", "p1", asked="trade_gain")
    assert not play.script.faces["city trade in Surrey"]
    before = res(play.game, "p1")
    play.choose("p1", "gold")
    assert res(play.game, "p1")["gold"] == before["gold"] + 1


def test_s4_2_six_gains_two_random_resources():
    play = trading(turns=2)
    assert trade(play, 6, 1, 3) == {**NOTHING, "wheat": 1, "iron": 1}


def test_s4_2_seven_or_more_two_of_choice_with_road_monastery_and_christian_modifiers():
    """Played: p1 starts in Leinster (Christian); the §3.4 roll gives neutral Surrey a road in
    the first turn and a monastery in the second, before the trade: 5 - 1 + 1 + 1 + 1 = 7."""
    roll = {"random province improvement": cell("Surrey") * 2, "improvement in neutral Surrey": [4, 6]}
    play = trading("Leinster", dice=roll)
    play.force({"city trade in Surrey": [5]}).to("", "p1", asked="trade_gain")
    before = res(play.game, "p1")
    play.choose("p1", "gold").choose("p1", "iron")
    assert res(play.game, "p1")["gold"] == before["gold"] + 1 and res(play.game, "p1")["iron"] == before["iron"] + 1


def test_s4_2_an_unmodified_one_always_fails():
    roll = {"random province improvement": cell("Surrey") * 2, "improvement in neutral Surrey": [4, 6]}
    play = trading("Leinster", turns=2, dice=roll)
    assert trade(play, 1) == NOTHING and play.state.prompt.kind == "phase"


def test_s11_25_famine_city_trade_automatically_fails():
    """§11 25 "city trade automatically fails" in a famine province (the grain was not spent).
    Played: p1 draws event 25 in the second turn, column 6 (Surrey's); p1 lets Kent starve too."""
    play = trading(events=[25], dice={"famine: a column": [6]})
    before = res(play.game, "p1")
    play.to("trade", "p1", turn=2, answers={"famine": "suffer"})  # no city trade die is rolled
    assert gained(play, before) == NOTHING
    assert any(type(e).__name__ == "CityTradeFailed" and e.reason == "famine" for e in play.log)
    assert not prov(play.game, "Surrey").famine


# -- §4.3 ----------------------------------------------------------------------------------------
def test_s4_3_a_trade_needs_an_offer_and_an_acceptance():
    """§4.3: a trade is an offer and its acceptance. Played: the second turn's trade phase, p1
    holding two wheat (Kent), p2 gold (Leinster)."""
    play = Play("Kent", "Leinster").to("trade", "p1", turn=2)
    offer = {"type": "offer", "to": "p2", "give": {"wheat": 2}, "take": {"gold": 1}}
    play.act("p1", offer)
    assert play.game.to_act() == ["p2"] and play.state.prompt.kind == "offer"
    before = {s: res(play.game, s) for s in ("p1", "p2")}
    accepted = play.branch().choose("p2", "accept").game
    assert res(accepted, "p1")["gold"] == before["p1"]["gold"] + 1 and res(accepted, "p2")["wheat"] == 2
    assert accepted.to_act() == ["p1"]  # back to p1's trading
    declined = play.choose("p2", "decline").game
    assert res(declined, "p1") == before["p1"] and res(declined, "p2") == before["p2"]


def test_s4_3_offers_only_what_is_held():
    play = Play("Kent", "Leinster").to("trade", "p1")
    refused(play, "p1", {"type": "offer", "to": "p2", "give": {"wheat": 2}, "take": {}}, "cannot_pay")
    refused(play, "p1", {"type": "offer", "to": "p2", "give": {}, "take": {"iron": 1}}, "cannot_pay")
    refused(play, "p1", {"type": "offer", "to": "p1", "give": {"wheat": 1}, "take": {}}, "bad_trade_partner")
    refused(play, "p1", {"type": "offer", "to": "p2", "give": {}, "take": {}}, "bad_trade")


# -- §4.4 ----------------------------------------------------------------------------------------
def test_s4_4_one_resource_per_city():
    play = Play("Kent", "Leinster", events={"p1": [61]}, dice={"city founded: random province table": cell("Surrey")})
    play.to("market", "p1")
    play.act("p1", {"type": "place-trade", "province": "Surrey", "resource": "wheat"})
    assert prov(play.game, "Surrey").trade_res == "wheat" and res(play.game, "p1")["wheat"] == 0
    refused(play, "p1", {"type": "place-trade", "province": "Surrey", "resource": "iron"}, "city_taken")
    refused(play, "p1", {"type": "place-trade", "province": "Sussex", "resource": "iron"}, "no_city")


# -- §4.5 ----------------------------------------------------------------------------------------
def test_s4_5_morale_one_resource_once_per_province_per_turn():
    """Played: p1 draws event 22 (dragons), column 6: Kent's morale falls."""
    play = Play("Kent", "Leinster", events={"p1": [22]}, dice={"dragons sighted: a column": [6]}).to("improve", "p1")
    assert prov(play.game, "Kent").morale == -1
    improve(play, "Kent", "morale", ["wheat"])
    assert prov(play.game, "Kent").morale == 0
    refused(play, "p1", {"type": "improve", "province": "Kent", "improvement": "morale", "pay": ["iron"]},
            "morale_limit")


def test_s4_5_ravage_markers_removed_one_resource_each():
    """Played: event 23 plagues Kent in each of the first two turns."""
    play = Play("Kent", "Leinster", events={"p1": [23, 23]}, dice=plague_on("Kent", "Kent", deaths=2))
    play.to("improve", "p1", turn=2)
    assert prov(play.game, "Kent").ravage == 2
    improve(improve(play, "Kent", "ravage", ["wheat"]), "Kent", "ravage", ["iron"])
    assert prov(play.game, "Kent").ravage == 0


@pytest.mark.parametrize("imp", ["road", "wall"])
def test_s4_5_road_and_wall_cost_a_wheat_and_any(imp):
    play = Play("Kent", "Leinster").to("improve", "p1")
    refused(play, "p1", {"type": "improve", "province": "Kent", "improvement": imp, "pay": ["iron", "gold"]},
            "wrong_cost")
    improve(play, "Kent", imp, ["wheat", "gold"])
    assert getattr(prov(play.game, "Kent"), imp) and res(play.game, "p1")["iron"] == 1


def test_s4_5_city_costs_wheat_iron_wool_gold_and_not_in_others_provinces():
    """Played: Lindsey (wool) joins p1's Kent by family ties; p2 starts in Essex."""
    play = Play("Kent", "Essex", events={"p1": [41]}, dice=joining("Lindsey")).to("improve", "p1")
    refused(play, "p1", {"type": "improve", "province": "Essex", "improvement": "city",
                         "pay": ["wheat", "iron", "wool", "gold"]}, "not_your_province")
    improve(play, "Kent", "city", ["gold", "wool", "iron", "wheat"])
    assert prov(play.game, "Kent").city and sum(res(play.game, "p1").values()) == 0


def raid_for_a_slave(play: Play) -> Play:
    """p1's king raids Surrey (a slave) in the first combat phase and goes home in the second."""
    play.to("move", "p1").move("p1", [1], ["Surrey"]).to("declare", "p1")
    play.act("p1", {"type": "declare", "province": "Surrey", "action": "raid"}, {"raid on Surrey": [6, 1]})
    return play.to("move", "p1", stage=2).move("p1", [1], ["Kent"])


def test_s4_5_monastery_for_christians_raises_morale():
    """Played: p1's king raids Surrey for a slave in the first turn; p1 converts (§5) in one
    game and stays Pagan in the other; the second turn's improvement phase."""
    monastery = {"type": "improve", "province": "Kent", "improvement": "monastery", "pay": ["gold", "iron", "slaves"]}
    pagan = raid_for_a_slave(Play("Kent", "Leinster")).to("improve", "p1", turn=2)
    refused(pagan, "p1", monastery, "christians_only")
    christian = Play("Kent", "Leinster").to("convert", "p1").act("p1", {"type": "convert"})
    christian = raid_for_a_slave(christian).to("improve", "p1", turn=2)
    assert prov(christian.game, "Kent").morale == -1  # a new Christian's low morale (§5)
    christian.act("p1", monastery)
    assert prov(christian.game, "Kent").monastery and prov(christian.game, "Kent").morale == 0  # one level up


# -- §4.6 ----------------------------------------------------------------------------------------
def test_s4_6_1_hire_a_mercenary_where_your_troops_are():
    """Played: the two set-up mercenaries stand in p1's Kent (with its king) and in Essex."""
    play = Play("Kent", "Leinster", dice={"set-up mercenary": cell("Kent") + cell("Essex")}).to("raise", "p1")
    [here], [there] = play.ids(None, "mercenary", "Kent"), play.ids(None, "mercenary", "Essex")
    refused(play, "p1", {"type": "hire", "unit": there, "pay": "wheat"}, "no_troops_there")
    play.act("p1", {"type": "hire", "unit": here, "pay": "wheat"})
    assert play.state.units[here].owner == "p1" and res(play.game, "p1")["wheat"] == 0


def test_s4_6_2_regulars_cost_iron_and_any_capped_by_provinces_owned():
    """Played: Surrey joins p1's Kent (§11 41); a regular raised in the first turn, the rest in
    the third."""
    play = Play("Kent", "Leinster", events={"p1": [41]}, dice=joining("Surrey")).to("raise", "p1")
    play.act("p1", {"type": "raise-regular", "province": "Kent", "pay": ["iron", "gold"]})
    play.to("raise", "p1", turn=3)
    refused(play, "p1", {"type": "raise-regular", "province": "Kent", "pay": ["wheat", "wheat"]}, "wrong_cost")
    play.act("p1", {"type": "raise-regular", "province": "Surrey", "pay": ["iron", "wheat"]})
    assert len(units(play.game, kind="regular", owner="p1")) == 2
    refused(play, "p1", {"type": "raise-regular", "province": "Kent", "pay": ["iron", "wheat"]}, "too_many_regulars")


def test_s4_6_3_peasants_equal_carrying_capacity_once_per_province_per_turn():
    """Played: Surrey joins (§11 41); event 23 plagues Kent (and Surrey) in the next two turns;
    p1 builds a road in Kent: capacity 3 - 2 + 1."""
    play = Play("Kent", "Leinster", events={"p1": [41, 23, 23]},
                dice={**joining("Surrey"), **plague_on("Kent", "Kent", deaths=2)})
    play.to("improve", "p1", turn=3)
    improve(play, "Kent", "road", ["wheat", "iron"]).to("raise", "p1")
    assert prov(play.game, "Kent").ravage == 2 and prov(play.game, "Surrey").ravage == 2
    play.act("p1", {"type": "raise-peasants", "province": "Kent", "pay": "wheat"})
    assert len(units(play.game, "Kent", "p1", "peasant")) == 2  # 3 - 2 + 1
    refused(play, "p1", {"type": "raise-peasants", "province": "Kent", "pay": "wheat"}, "already_nominated")
    refused(play, "p1", {"type": "raise-peasants", "province": "Surrey", "pay": "wheat"}, "no_capacity")


def test_s4_6_4_boats_two_in_one_province_or_one_in_each_of_two_devon_has_two_coasts():
    """Played: p1 starts in Devon; Cornwall (iron) and then Somerset join (§11 41); a peasant is
    raised in Cornwall."""
    play = Play("Devon", "Leinster", events={"p1": [41, 41]}, dice=joining("Cornwall", "Berkshire"))
    play.to("raise", "p1", turn=2)
    play.act("p1", {"type": "raise-peasants", "province": "Cornwall", "pay": "gold"})
    [peasant] = play.ids("p1", "peasant")
    two = play.branch().act("p1", {"type": "raise-boats", "places": [{"province": "Devon", "sea": "Irish Sea"}],
                                   "pay": "iron"})
    assert [(u.loc, u.coast) for u in units(two.game, kind="boat")] == [("Devon", "Irish Sea")] * 2
    split = play.branch().act("p1", {"type": "raise-boats", "pay": "iron",
                                     "places": [{"province": "Devon", "sea": "The Channel"},
                                                {"province": "Cornwall", "sea": "The Channel"}]})
    assert sorted(u.loc for u in units(split.game, kind="boat")) == ["Cornwall", "Devon"]
    refused(play, "p1", {"type": "raise-boats", "places": [{"province": "Berkshire", "sea": "The Channel"}],
                         "pay": "iron"}, "not_coastal")
    play.act("p1", {"type": "peasant-to-boat", "unit": peasant, "sea": "The Channel"})
    assert [u.kind for u in units(play.game, "Cornwall")] == ["boat"]


def test_s12_1_warrior_monks_one_per_monastery_two_resources_desert_on_paganism():
    """Played: p1 starts in Leinster (Christian); p1 draws event 46, a saint's monastery in
    Leinster; two gold by the raise phase."""
    def monks(options):
        return Play("Leinster", "Kent", options=options, events={"p1": [46]},
                    dice={"saint: random province table": cell("Leinster")}).to("raise", "p1")
    command = {"type": "raise-monk", "province": "Leinster", "pay": ["gold", "gold"]}
    refused(monks({}), "p1", command, "option_off")
    play = monks({"warrior_monks": True})
    play.act("p1", command)
    assert [u.kind for u in units(play.game, "Leinster", "p1") if u.kind != "king"] == ["monk"]
    refused(play, "p1", command, "too_many_monks")
    play.to("convert", "p1").act("p1", {"type": "convert"})
    assert not units(play.game, kind="monk")


# -- §5, §6 ---------------------------------------------------------------------------------------
def test_s5_conversion_low_morale_everywhere_except_monasteries_for_new_christians():
    """Played: the §3.4 roll raises neutral Surrey's morale in the first turn; in the second p2
    draws event 46 (a saint's monastery in p1's Kent) and p1 draws 41 (Surrey joins)."""
    play = Play("Kent", "Leinster", events={"p1": [11, 41], "p2": [11, 46]},
                dice={"random province improvement": cell("Surrey"), "improvement in neutral Surrey": [3],
                      **joining("Surrey"), "saint: random province table": cell("Kent")},
                quiet={"random province improvement": [1, 2]})
    play.to("convert", "p1", turn=2, answers={"place_unit": "Kent"})
    assert prov(play.game, "Kent").monastery and prov(play.game, "Surrey").morale == 1
    play.act("p1", {"type": "convert"})
    assert play.state.players["p1"].christian
    assert [prov(play.game, p).morale for p in ("Kent", "Surrey")] == [1, -1]
    back = Play("Leinster", "Kent", events={"p1": [46]}, dice={"saint: random province table": cell("Leinster")})
    back.to("convert", "p1").act("p1", {"type": "convert"})
    assert not back.state.players["p1"].christian and prov(back.game, "Leinster").morale == -1


def test_s6_one_ravage_marker_removed_on_4_5_or_6():
    """Played: event 23 plagues Kent, ravaging Thanet, Kent and Surrey (map order)."""
    play = Play("Kent", "Leinster", events={"p1": [23]}, dice=plague_on("Kent", deaths=1))
    play.force({"ravage removal": [4, 3, 6]}).to("move", "p1")
    assert [prov(play.game, p).ravage for p in ("Thanet", "Kent", "Surrey")] == [0, 1, 0]
