"""§4 resources: production, city trade, trades between players, resources placed in cities,
improvements, raising troops and boats; §5 conversion; §6 ravage removal; §12.1 warrior monks."""

import pytest

from domain.rules.base import RuleViolation
from domain.rules.saxon_shore.state import Job, Prompt

from .helpers import DONE, act, legal, position, prov, res, stop, then, units


def phase(name, seat="p1", **kw):
    return position(prompt=Prompt("phase", seat, args=(name,)), jobs=(stop(),), **kw)


def refused(game, seat, command, code):
    with pytest.raises(RuleViolation) as error:
        act(game, seat, command, dice=[])
    assert error.value.code == f"saxon-shore.{code}", error.value.message
    assert command not in legal(game, seat)


# -- §4.1 ----------------------------------------------------------------------------------------
def test_s4_1_production_one_token_per_resource_province_two_for_kent():
    game = position(owners={"Kent": "p1", "Norfolk": "p1", "Surrey": "p1", "Dyfed": "p2"}, **then(Job("production")))
    game = act(game, "p1", DONE, dice=[])
    assert res(game, "p1") == {"wheat": 2, "wool": 0, "iron": 1, "gold": 0, "slaves": 0}
    assert res(game, "p2")["gold"] == 1


def test_s11_33_bumper_year_doubles_one_resource_of_choice():
    game = position(owners={"Kent": "p1"}, players={"p1": {"bumper": True}}, **then(Job("production")))
    game = act(game, "p1", DONE, dice=[])
    assert game.state.prompt.kind == "bumper" and game.state.prompt.options == ("wheat", "iron")
    game = act(game, "p1", {"type": "choose", "option": "iron"}, dice=[])
    assert res(game, "p1")["iron"] == 2 and res(game, "p1")["wheat"] == 1 and not game.state.players["p1"].bumper


# -- §4.2 ----------------------------------------------------------------------------------------
def trade_game(provinces=None, christian=(), **kw):
    kent = {"city": True, "trade_seat": "p1", "trade_res": "wool", **(provinces or {})}
    return position(owners={"Kent": "p2"}, provinces={"Kent": kent}, christian=christian,
                    **then(Job("city_trades")), **kw)


def test_s4_2_the_traded_resource_is_lost_and_first_trade_is_minus_one():
    game = act(trade_game(), "p1", DONE, dice=[3])  # 3 - 1 = 2: failed
    assert res(game, "p1") == {"wheat": 0, "wool": 0, "iron": 0, "gold": 0, "slaves": 0}
    assert prov(game, "Kent").trade_res is None and prov(game, "Kent").traded


def test_s4_2_three_gains_a_random_resource():
    game = act(trade_game(), "p1", DONE, dice=[4, 6, 2])  # 4-1=3; random: 6 again, 2 = wool
    assert res(game, "p1")["wool"] == 1


@pytest.mark.parametrize("face", [4, 5])
def test_s4_2_four_or_five_gains_a_resource_of_choice(face):
    game = act(trade_game({"traded": True}), "p1", DONE, dice=[face])
    assert game.state.prompt.kind == "trade_gain"
    game = act(game, "p1", {"type": "choose", "option": "gold"}, dice=[])
    assert res(game, "p1")["gold"] == 1


def test_s4_2_six_gains_two_random_resources():
    game = act(trade_game({"traded": True}), "p1", DONE, dice=[6, 1, 3])
    assert res(game, "p1")["wheat"] == 1 and res(game, "p1")["iron"] == 1


def test_s4_2_seven_or_more_two_of_choice_with_road_monastery_and_christian_modifiers():
    game = trade_game({"road": True, "monastery": True}, christian=("p1",))
    game = act(game, "p1", DONE, dice=[5])  # 5 - 1 + 1 + 1 + 1 = 7
    game = act(game, "p1", {"type": "choose", "option": "gold"}, dice=[])
    game = act(game, "p1", {"type": "choose", "option": "iron"}, dice=[])
    assert res(game, "p1")["gold"] == 1 and res(game, "p1")["iron"] == 1


def test_s4_2_an_unmodified_one_always_fails():
    game = trade_game({"road": True, "monastery": True, "traded": True}, christian=("p1",))
    game = act(game, "p1", DONE, dice=[1])
    assert sum(res(game, "p1").values()) == 0 and game.state.prompt.kind == "phase"


def test_s11_25_famine_city_trade_automatically_fails():
    """§11 25 "city trade automatically fails" in a famine province (the grain was not spent)."""
    game = trade_game({"famine": True, "traded": True}, res={"p2": {"wheat": 1}})
    failed = act(game, "p1", DONE, dice=[])
    assert sum(res(failed, "p1").values()) == 0 and not prov(failed, "Kent").famine


# -- §4.3 ----------------------------------------------------------------------------------------
def test_s4_3_a_trade_needs_an_offer_and_an_acceptance():
    game = phase("trade", res={"p1": {"wheat": 2}, "p2": {"gold": 1}})
    offer = {"type": "offer", "to": "p2", "give": {"wheat": 2}, "take": {"gold": 1}}
    game = act(game, "p1", offer, dice=[])
    assert game.to_act() == ["p2"] and game.state.prompt.kind == "offer"
    accepted = act(game, "p2", {"type": "choose", "option": "accept"}, dice=[])
    assert res(accepted, "p1")["gold"] == 1 and res(accepted, "p2")["wheat"] == 2
    assert accepted.to_act() == ["p1"]  # back to p1's trading
    declined = act(game, "p2", {"type": "choose", "option": "decline"}, dice=[])
    assert res(declined, "p1")["wheat"] == 2 and res(declined, "p2")["gold"] == 1


def test_s4_3_offers_only_what_is_held():
    game = phase("trade", res={"p1": {"wheat": 1}, "p2": {"gold": 1}})
    refused(game, "p1", {"type": "offer", "to": "p2", "give": {"wheat": 2}, "take": {}}, "cannot_pay")
    refused(game, "p1", {"type": "offer", "to": "p2", "give": {}, "take": {"iron": 1}}, "cannot_pay")
    refused(game, "p1", {"type": "offer", "to": "p1", "give": {"wheat": 1}, "take": {}}, "bad_trade_partner")
    refused(game, "p1", {"type": "offer", "to": "p2", "give": {}, "take": {}}, "bad_trade")


# -- §4.4 ----------------------------------------------------------------------------------------
def test_s4_4_one_resource_per_city():
    game = phase("market", res={"p1": {"wool": 2}}, provinces={"Kent": {"city": True}, "Essex": {"city": True}})
    game = act(game, "p1", {"type": "place-trade", "province": "Kent", "resource": "wool"}, dice=[])
    assert prov(game, "Kent").trade_res == "wool" and res(game, "p1")["wool"] == 1
    refused(game, "p1", {"type": "place-trade", "province": "Kent", "resource": "wool"}, "city_taken")
    refused(game, "p1", {"type": "place-trade", "province": "Surrey", "resource": "wool"}, "no_city")


# -- §4.5 ----------------------------------------------------------------------------------------
def improve(game, province, improvement, pay):
    return act(game, "p1", {"type": "improve", "province": province, "improvement": improvement, "pay": pay}, dice=[])


def test_s4_5_morale_one_resource_once_per_province_per_turn():
    game = phase("improve", owners={"Kent": "p1"}, res={"p1": {"wool": 3}},
                 provinces={"Kent": {"morale": -1}})
    game = improve(game, "Kent", "morale", ["wool"])
    assert prov(game, "Kent").morale == 0
    refused(game, "p1", {"type": "improve", "province": "Kent", "improvement": "morale", "pay": ["wool"]},
            "morale_limit")


def test_s4_5_ravage_markers_removed_one_resource_each():
    game = phase("improve", owners={"Kent": "p1"}, res={"p1": {"slaves": 2}}, provinces={"Kent": {"ravage": 2}})
    game = improve(improve(game, "Kent", "ravage", ["slaves"]), "Kent", "ravage", ["slaves"])
    assert prov(game, "Kent").ravage == 0


@pytest.mark.parametrize("imp", ["road", "wall"])
def test_s4_5_road_and_wall_cost_a_wheat_and_any(imp):
    game = phase("improve", owners={"Kent": "p1"}, res={"p1": {"wheat": 1, "iron": 1, "gold": 1}})
    refused(game, "p1", {"type": "improve", "province": "Kent", "improvement": imp, "pay": ["iron", "gold"]},
            "wrong_cost")
    game = improve(game, "Kent", imp, ["wheat", "gold"])
    assert getattr(prov(game, "Kent"), imp) and res(game, "p1")["iron"] == 1


def test_s4_5_city_costs_wheat_iron_wool_gold_and_not_in_others_provinces():
    game = phase("improve", owners={"Kent": "p1", "Essex": "p2"},
                 res={"p1": {"wheat": 1, "iron": 1, "wool": 1, "gold": 1}})
    refused(game, "p1", {"type": "improve", "province": "Essex", "improvement": "city",
                         "pay": ["wheat", "iron", "wool", "gold"]}, "not_your_province")
    game = improve(game, "Kent", "city", ["gold", "wool", "iron", "wheat"])
    assert prov(game, "Kent").city and sum(res(game, "p1").values()) == 0


def test_s4_5_monastery_for_christians_raises_morale():
    kw = dict(owners={"Kent": "p1"}, res={"p1": {"gold": 1, "iron": 1, "slaves": 1}})
    refused(phase("improve", **kw), "p1", {"type": "improve", "province": "Kent", "improvement": "monastery",
                                           "pay": ["gold", "iron", "slaves"]}, "christians_only")
    game = improve(phase("improve", christian=("p1",), **kw), "Kent", "monastery", ["gold", "iron", "slaves"])
    assert prov(game, "Kent").monastery and prov(game, "Kent").morale == 1


# -- §4.6 ----------------------------------------------------------------------------------------
def test_s4_6_1_hire_a_mercenary_where_your_troops_are():
    units_ = [("king", "p1", "Surrey"), ("mercenary", None, "Surrey"), ("mercenary", None, "Essex")]
    game = phase("raise", owners={"Kent": "p1"}, units=units_, res={"p1": {"wool": 2}})
    refused(game, "p1", {"type": "hire", "unit": 3, "pay": "wool"}, "no_troops_there")
    game = act(game, "p1", {"type": "hire", "unit": 2, "pay": "wool"}, dice=[])
    assert game.state.units[2].owner == "p1" and res(game, "p1")["wool"] == 1


def test_s4_6_2_regulars_cost_iron_and_any_capped_by_provinces_owned():
    game = phase("raise", owners={"Kent": "p1", "Surrey": "p1"}, units=[("regular", "p1", "Kent")],
                 res={"p1": {"iron": 2, "wool": 2}})
    refused(game, "p1", {"type": "raise-regular", "province": "Kent", "pay": ["wool", "wool"]}, "wrong_cost")
    game = act(game, "p1", {"type": "raise-regular", "province": "Surrey", "pay": ["iron", "wool"]}, dice=[])
    assert len(units(game, kind="regular", owner="p1")) == 2
    refused(game, "p1", {"type": "raise-regular", "province": "Kent", "pay": ["iron", "wool"]}, "too_many_regulars")


def test_s4_6_3_peasants_equal_carrying_capacity_once_per_province_per_turn():
    game = phase("raise", owners={"Kent": "p1", "Surrey": "p1"}, res={"p1": {"wool": 3}},
                 provinces={"Kent": {"road": True, "ravage": 2}, "Surrey": {"ravage": 1}})
    game = act(game, "p1", {"type": "raise-peasants", "province": "Kent", "pay": "wool"}, dice=[])
    assert len(units(game, "Kent", "p1", "peasant")) == 2  # 3 - 2 + 1
    refused(game, "p1", {"type": "raise-peasants", "province": "Kent", "pay": "wool"}, "already_nominated")
    refused(game, "p1", {"type": "raise-peasants", "province": "Surrey", "pay": "wool"}, "no_capacity")


def test_s4_6_4_boats_two_in_one_province_or_one_in_each_of_two_devon_has_two_coasts():
    game = phase("raise", owners={"Devon": "p1", "Cornwall": "p1", "Surrey": "p1"}, res={"p1": {"wool": 3}},
                 units=[("peasant", "p1", "Cornwall")])
    two = act(game, "p1", {"type": "raise-boats", "places": [{"province": "Devon", "sea": "Irish Sea"}],
                           "pay": "wool"}, dice=[])
    assert [(u.loc, u.coast) for u in units(two, kind="boat")] == [("Devon", "Irish Sea")] * 2
    split = act(game, "p1", {"type": "raise-boats", "places": [{"province": "Devon", "sea": "The Channel"},
                                                               {"province": "Cornwall", "sea": "The Channel"}],
                             "pay": "wool"}, dice=[])
    assert sorted(u.loc for u in units(split, kind="boat")) == ["Cornwall", "Devon"]
    refused(game, "p1", {"type": "raise-boats", "places": [{"province": "Surrey", "sea": "The Channel"}],
                         "pay": "wool"}, "not_coastal")
    boat = act(game, "p1", {"type": "peasant-to-boat", "unit": 1, "sea": "The Channel"}, dice=[])
    assert [u.kind for u in units(boat, "Cornwall")] == ["boat"]


def test_s12_1_warrior_monks_one_per_monastery_two_resources_desert_on_paganism():
    kw = dict(owners={"Kent": "p1"}, res={"p1": {"wool": 4}}, christian=("p1",), provinces={"Kent": {"monastery": True}})
    refused(phase("raise", **kw), "p1", {"type": "raise-monk", "province": "Kent", "pay": ["wool", "wool"]},
            "option_off")
    game = phase("raise", options={"warrior_monks": True}, **kw)
    game = act(game, "p1", {"type": "raise-monk", "province": "Kent", "pay": ["wool", "wool"]}, dice=[])
    assert [u.kind for u in units(game, "Kent")] == ["monk"]
    refused(game, "p1", {"type": "raise-monk", "province": "Kent", "pay": ["wool", "wool"]}, "too_many_monks")
    game = phase("convert", options={"warrior_monks": True}, units=[("monk", "p1", "Kent")], **kw)
    game = act(game, "p1", {"type": "convert"}, dice=[])
    assert not units(game, kind="monk")


# -- §5, §6 ---------------------------------------------------------------------------------------
def test_s5_conversion_low_morale_everywhere_except_monasteries_for_new_christians():
    game = phase("convert", owners={"Kent": "p1", "Surrey": "p1", "Essex": "p1"},
                 provinces={"Kent": {"monastery": True}, "Surrey": {"morale": 1}})
    game = act(game, "p1", {"type": "convert"}, dice=[])
    assert game.state.players["p1"].christian
    assert [prov(game, p).morale for p in ("Kent", "Surrey", "Essex")] == [1, -1, -1]
    back = phase("convert", owners={"Kent": "p1"}, christian=("p1",), provinces={"Kent": {"monastery": True}})
    back = act(back, "p1", {"type": "convert"}, dice=[])
    assert not back.state.players["p1"].christian and prov(back, "Kent").morale == -1


def test_s6_one_ravage_marker_removed_on_4_5_or_6():
    game = position(provinces={"Kent": {"ravage": 2}, "Essex": {"ravage": 1}, "Wessex": {"ravage": 1}},
                    **then(Job("ravage_recovery")))
    game = act(game, "p1", DONE, dice=[4, 3, 6])
    assert [prov(game, p).ravage for p in ("Kent", "Essex", "Wessex")] == [1, 1, 0]
