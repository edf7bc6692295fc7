"""§1 the map (a documented reconstruction) and §10 game set-up, through the aggregate."""

import pytest

from domain.rules.base import RuleViolation
from domain.rules.saxon_shore.board import BOARD

from .helpers import DONE, S, act, legal, new_game, prov, res, units


def test_s1_map_has_36_provinces_7_wild_3_seas_13_resource_provinces():
    assert len(BOARD.provinces) == 36 and len(BOARD.wild) == 7 and len(BOARD.seas) == 3
    assert set(BOARD.wild) == {"The Weald", "The Fens", "Powys", "The Pennines", "Cheviot", "Caledonia", "Connaught"}
    assert len(BOARD.resource_provinces) == 13
    assert sum(1 for p in BOARD.provinces if len(BOARD.produces[p]) == 1) == 12


def test_s1_kent_population_three_and_two_resources_wheat_and_iron():
    assert BOARD.population["Kent"] == 3
    assert BOARD.produces["Kent"] == ("wheat", "iron")


def test_s4_6_4_devon_has_a_north_and_a_south_coast():
    assert len(BOARD.coasts["Devon"]) == 2


def test_s3_4_random_province_table_as_printed():
    assert BOARD.table_province(1, 1) == "Strathclyde"
    assert BOARD.table_province(2, 6) == "Kent"
    assert BOARD.table_province(6, 4) == "Cornwall"
    assert BOARD.column(1) == ("Strathclyde", "Godowin", "Rheged", "Ulster", "Leinster", "Munster")


def test_s2_1_every_population_rating_is_1_to_3_and_slaves_are_never_produced():
    assert all(1 <= BOARD.population[p] <= 3 for p in BOARD.provinces)
    assert not any("slaves" in BOARD.produces[p] for p in BOARD.provinces)


def test_map_data_is_pinned_in_the_record():
    scenario = S.scenarios["standard"]
    assert scenario.data_file == "map.json" and scenario.min_players == 2 and scenario.max_players == 5
    assert scenario.seats == ("p1", "p2", "p3", "p4", "p5")
    assert len(S.data_hash("standard")) == 64


def test_s10_players_pick_provinces_in_game_order_with_castle_king_and_gold():
    game = new_game(3)
    assert game.to_act() == ["p1"]
    assert len(legal(game, "p1")) == 36
    game = act(game, "p1", {"type": "choose", "option": "Kent"})
    assert game.to_act() == ["p2"]
    assert {"type": "choose", "option": "Kent"} not in legal(game, "p2")
    game = act(game, "p2", {"type": "choose", "option": "Leinster"})
    # the last pick places one mercenary per player by the random province table, then turn 1 starts
    game = act(game, "p3", {"type": "choose", "option": "Wessex"}, dice=[1, 1, 2, 6, 6, 6], filler=3)
    state = game.state
    assert prov(game, "Kent").owner == "p1" and prov(game, "Leinster").owner == "p2"
    assert [u.kind for u in units(game, "Kent", "p1")] == ["king"]
    assert units(game, "Kent", "p1")[0].quality == 0
    assert res(game, "p1")["gold"] >= 1
    assert state.players["p2"].christian and not state.players["p1"].christian and not state.players["p3"].christian
    mercs = units(game, kind="mercenary", owner=None)
    assert [m.loc for m in mercs][:3] == ["Strathclyde", "Kent", "Wessex"]
    assert state.turn == 1


@pytest.mark.parametrize("start", ["Ulster", "Leinster", "Munster"])
def test_s10_starting_in_ireland_makes_a_christian(start):
    game = new_game(2)
    game = act(game, "p1", {"type": "choose", "option": start})
    game = act(game, "p2", {"type": "choose", "option": "Kent"})
    assert game.state.players["p1"].christian and not game.state.players["p2"].christian


def test_s10_seats_and_options_are_validated():
    with pytest.raises(RuleViolation):
        S.setup("standard", ("p1",), {})
    with pytest.raises(RuleViolation):
        S.setup("standard", ("p1", "p2", "p3", "p4", "p5", "p6"), {})
    with pytest.raises(RuleViolation):
        S.setup("standard", ("p1", "p2"), {"no_such_option": 1})
    state = S.setup("standard", ("p1", "p2"), {"warrior_monks": True, "turn_limit": 12})
    assert state.options.warrior_monks and state.options.turn_limit == 12


def test_only_the_prompted_seat_acts():
    game = new_game(2)
    with pytest.raises(RuleViolation) as error:
        act(game, "p2", {"type": "choose", "option": "Kent"})
    assert error.value.code == "not_your_turn"
    with pytest.raises(RuleViolation) as error:
        act(game, "p1", DONE)
    assert error.value.code == "saxon_shore.choose_expected"
    with pytest.raises(RuleViolation) as error:
        act(game, "p1", {"type": "choose", "option": "The Weald"})
    assert error.value.code == "saxon_shore.not_an_option"
