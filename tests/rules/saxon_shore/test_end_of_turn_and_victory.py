"""§9 end of turn (peasants and boats removed, troops to the nearest friendly province, game
order rotates), the documented turn limit, and §1 the victory conditions."""

import pytest

from domain.rules.base import RuleViolation
from domain.rules.saxon_shore.data import BOARD
from domain.rules.saxon_shore.state import Job, Prompt

from .helpers import DONE, act, position, prov, then, units


def test_s9_end_of_turn_removes_peasants_and_boats_sends_troops_home_and_rotates_order():
    spec = [("peasant", "p1", "Kent"), ("boat", "p1", "Kent", {"coast": "The Channel"}), ("king", "p1", "Surrey"),
            ("king", "p2", "Essex"), ("regular", "p2", "Essex")]
    game = position(n=3, owners={"Kent": "p1", "Suffolk": "p2", "Wessex": "p3"}, units=spec,
                    order=("p1", "p2", "p3"), **then(Job("end_turn")))
    game = act(game, "p1", DONE, filler=3)
    assert not units(game, kind="peasant") and not units(game, kind="boat")
    assert units(game, kind="king", owner="p1")[0].loc == "Kent"
    assert {u.loc for u in units(game, owner="p2")} == {"Suffolk"}
    assert game.state.order == ("p2", "p3", "p1") and game.state.turn == 2


def test_s2_1_nearest_friendly_ties_are_the_players_choice():
    game = position(owners={"Kent": "p1", "Berkshire": "p1"}, units=[("king", "p1", "Surrey")],
                    **then(Job("home_all", "p1")))
    game = act(game, "p1", DONE, dice=[])
    assert game.state.prompt.kind == "home" and set(game.state.prompt.options) == {"Kent", "Berkshire"}
    game = act(game, "p1", {"type": "choose", "option": "Berkshire"}, dice=[])
    assert units(game)[0].loc == "Berkshire"


def test_s2_1_with_no_land_route_sea_zones_count_as_provinces():
    game = position(owners={"Kent": "p1", "Mercia": "p1"}, units=[("king", "p1", "Wight")],
                    **then(Job("home_all", "p1")))
    game = act(game, "p1", DONE, dice=[])
    assert units(game)[0].loc == "Kent"  # Wight - The Channel - Kent


def test_turn_limit_ends_the_game_with_the_most_provinces_winning():
    game = position(owners={"Kent": "p1", "Surrey": "p1", "Essex": "p2"}, options={"turn_limit": 5}, turn=5,
                    **then(Job("turn_over")))
    game = act(game, "p1", DONE, dice=[])
    assert game.outcome.winner == "p1" and "turn limit" in game.outcome.reason
    assert game.outcome.scores["p1"] == 2.0 and game.to_act() == []
    with pytest.raises(RuleViolation) as error:
        act(game, "p2", DONE, dice=[])
    assert error.value.code == "game_over"


def test_turn_limit_tie_is_a_draw():
    game = position(owners={"Kent": "p1", "Essex": "p2"}, options={"turn_limit": 5}, turn=5, **then(Job("turn_over")))
    assert act(game, "p1", DONE, dice=[]).outcome.draw


def test_s1_victory_by_four_cities():
    owners = {p: "p1" for p in ("Kent", "Surrey", "Essex", "Wessex")}
    cities = {p: {"city": True} for p in ("Kent", "Surrey", "Essex")}
    game = position(owners={**owners, "Ulster": "p2"}, provinces=cities, res={"p1": {"wheat": 1, "iron": 1,
                                                                                     "wool": 1, "gold": 1}},
                    prompt=Prompt("phase", "p1", args=("improve",)), jobs=())
    game = act(game, "p1", {"type": "improve", "province": "Wessex", "improvement": "city",
                            "pay": ["wheat", "iron", "wool", "gold"]}, dice=[])
    assert game.outcome.winner == "p1" and game.outcome.reason == "built four cities"


def test_s1_victory_by_eight_resource_provinces():
    seven = [p for p in BOARD.resource_provinces if p != "Wessex"][:7]
    game = position(owners={**{p: "p1" for p in seven}, "Ulster": "p2"}, **then(Job("event", "p1")))
    assert not game.outcome
    game = act(game, "p1", DONE, dice=[4, 1, 6, 6])  # family ties: Wessex joins
    assert game.outcome.winner == "p1" and game.outcome.reason == "controls eight resource provinces"


def test_s1_victory_by_ten_provinces():
    nine = [p for p in BOARD.provinces if not BOARD.produces[p]][:9]
    game = position(owners={**{p: "p1" for p in nine}, "Leinster": "p2"}, **then(Job("event", "p1")))
    target = next(p for p in BOARD.provinces if p not in nine and p != "Leinster" and not BOARD.produces[p])
    row, col = next((r + 1, c + 1) for r in range(6) for c in range(6) if BOARD.table[r][c] == target)
    game = act(game, "p1", DONE, dice=[4, 1, row, col])
    assert prov(game, target).owner == "p1"
    assert game.outcome.winner == "p1" and game.outcome.reason == "controls ten provinces"


def test_s9_troops_left_at_sea_go_to_the_nearest_friendly_province_when_boats_are_removed():
    spec = [("boat", "p1", "North Sea"), ("king", "p1", "North Sea"), ("king", "p2", "Ulster")]
    game = position(owners={"Kent": "p1", "Thanet": "p1", "Ulster": "p2"}, units=spec, **then(Job("end_turn")))
    game = act(game, "p1", DONE, filler=3)
    assert [u.loc for u in units(game, owner="p1")] == ["Thanet"]
