"""§7 movement: two movement points, roads, wild provinces, border types, stopping in
non-friendly provinces, boats carrying two units over sea zones; paths (§11 12-15),
storms (§11 51) and forced march (§11 54)."""

import pytest

from domain.rules.base import RuleViolation
from domain.rules.saxon_shore.state import Prompt

from .helpers import act, legal, position, stop, units

MP = {"mp": 2}


def moving(unit_specs, owners=None, **kw):
    return position(owners=owners or {}, units=[(*u[:3], {**MP, **(u[3] if len(u) > 3 else {})}) for u in unit_specs],
                    prompt=Prompt("phase", "p1", args=("move",)), jobs=(stop(),), **kw)


def move(game, ids, path, dice=()):
    return act(game, "p1", {"type": "move", "units": ids, "path": path}, dice=list(dice))


def refused(game, ids, path, code):
    with pytest.raises(RuleViolation) as error:
        move(game, ids, path)
    assert error.value.code == f"saxon-shore.{code}", error.value.message
    assert {"type": "move", "units": ids, "path": path} not in legal(game, "p1")


MIDLANDS = {"Hwicce": "p1", "Oxford": "p1", "Mercia": "p1", "Lindsey": "p1"}


def test_s7_each_unit_has_two_movement_points():
    game = moving([("king", "p1", "Hwicce")], MIDLANDS)
    game = move(game, [1], ["Oxford", "Mercia"])
    assert units(game)[0].loc == "Mercia" and units(game)[0].mp == 0
    refused(game, [1], ["Lindsey"], "no_movement_points")


def test_s7_moving_from_a_road_province_costs_nothing():
    game = moving([("king", "p1", "Hwicce")], MIDLANDS, provinces={"Hwicce": {"road": True}, "Oxford": {"road": True}})
    game = move(game, [1], ["Oxford", "Mercia", "Lindsey"])
    assert units(game)[0].loc == "Lindsey" and units(game)[0].mp == 1


def test_s7_troops_may_not_enter_wild_provinces():
    refused(moving([("king", "p1", "Kent")], {"Kent": "p1"}), [1], ["The Weald"], "wild_province")


def test_s7_forest_marsh_mountain_borders_block_troops_unless_a_path_is_used():
    game = moving([("king", "p1", "Kent")], {"Kent": "p1", "Sussex": "p1"})
    refused(game, [1], ["Sussex"], "blocked_border")
    game = moving([("king", "p1", "Kent")], {"Kent": "p1", "Sussex": "p1"}, players={"p1": {"paths": (0, 1, 0)}})
    game = move(game, [1], ["Sussex"])
    assert units(game)[0].loc == "Sussex" and game.state.players["p1"].paths == (0, 0, 0)


def test_s11_12_two_marsh_ways_pass_through_the_fens():
    owners = {"Lincoln": "p1", "Norfolk": "p1"}
    refused(moving([("king", "p1", "Lincoln")], owners, players={"p1": {"paths": (0, 0, 1)}}),
            [1], ["The Fens", "Norfolk"], "wild_province")
    game = moving([("king", "p1", "Lincoln")], owners, players={"p1": {"paths": (0, 0, 2)}})
    refused(game, [1], ["The Fens"], "wild_province")  # only through, never into
    game = move(game, [1], ["The Fens", "Norfolk"])
    assert units(game)[0].loc == "Norfolk" and game.state.players["p1"].paths == (0, 0, 0)


def test_s7_units_entering_a_non_friendly_province_with_capacity_must_stop():
    game = moving([("king", "p1", "Kent")], {"Kent": "p1"}, provinces={"Kent": {"road": True}})
    refused(game, [1], ["Surrey", "Berkshire"], "must_stop")
    game = move(game, [1], ["Surrey"])
    refused(game, [1], ["Berkshire"], "halted")


def test_s7_no_stop_in_a_non_friendly_province_of_capacity_zero():
    game = moving([("king", "p1", "Kent")], {"Kent": "p1"}, provinces={"Surrey": {"ravage": 1}})
    game = move(game, [1], ["Surrey", "Berkshire"])
    assert units(game)[0].loc == "Berkshire"


def test_s7_a_boat_carries_two_units_across_sea_zones():
    spec = [("boat", "p1", "Kent", {"coast": "The Channel"}), ("king", "p1", "Kent"), ("regular", "p1", "Kent"),
            ("regular", "p1", "Kent")]
    game = moving(spec, {"Kent": "p1", "Wessex": "p1"})
    refused(game, [1, 2, 3, 4], ["The Channel"], "boat_full")
    game = move(game, [1, 2, 3], ["The Channel", "Wessex"])
    assert [(u.loc, u.coast) for u in units(game)[:3]] == [("Wessex", "The Channel"), ("Wessex", None), ("Wessex", None)]


def test_s11_11_a_mounted_knight_counts_as_two_in_a_boat():
    spec = [("boat", "p1", "Kent", {"coast": "The Channel"}), ("knight", "p1", "Kent"), ("regular", "p1", "Kent")]
    refused(moving(spec, {"Kent": "p1"}), [1, 2, 3], ["The Channel"], "boat_full")


def test_s7_units_that_moved_before_boarding_have_one_movement_point_left():
    spec = [("boat", "p1", "Kent", {"coast": "The Channel"}), ("king", "p1", "Surrey")]
    game = moving(spec, {"Kent": "p1", "Surrey": "p1", "Wessex": "p1"})
    game = move(game, [2], ["Kent"])
    refused(game, [1, 2], ["The Channel", "Wessex"], "no_movement_points")
    game = move(game, [1, 2], ["The Channel"])
    assert units(game)[1].loc == "The Channel"


def test_s7_troops_at_sea_need_boats():
    game = moving([("king", "p1", "The Channel")], {"Kent": "p1"})
    refused(game, [1], ["Kent"], "needs_boat")
    spec = [("boat", "p1", "The Channel"), ("king", "p1", "The Channel")]
    refused(moving(spec, {"Kent": "p1"}), [1], ["Kent"], "boat_full")  # the king would be left at sea


def test_s7_boats_move_along_a_shared_coastline_and_devon_has_two_coasts():
    game = moving([("boat", "p1", "Kent", {"coast": "The Channel"})], {"Kent": "p1", "Sussex": "p1"})
    game = move(game, [1], ["Sussex"])  # the forest border does not stop boats
    assert units(game)[0].loc == "Sussex"
    north = moving([("boat", "p1", "Devon", {"coast": "Irish Sea"})], {"Devon": "p1"})
    refused(north, [1], ["The Channel"], "not_adjacent")
    assert units(move(north, [1], ["Irish Sea"]))[0].loc == "Irish Sea"


def test_s11_51_storms_sink_boats_on_4_to_6_with_their_cargo():
    spec = [("boat", "p1", "Kent", {"coast": "The Channel"}), ("king", "p1", "Kent")]
    game = moving(spec, {"Kent": "p1"}, storms=("The Channel",))
    sunk = move(game, [1, 2], ["The Channel"], dice=[4])
    assert not units(sunk)
    safe = move(game, [1, 2], ["The Channel"], dice=[3])
    assert [u.loc for u in units(safe)] == ["The Channel", "The Channel"]


def test_s11_54_forced_march_one_extra_movement_point():
    game = moving([("king", "p1", "Hwicce")], MIDLANDS, players={"p1": {"forced_march": True}})
    game = act(game, "p1", {"type": "forced-march", "location": "Hwicce"}, dice=[])
    game = move(game, [1], ["Oxford", "Mercia", "Lindsey"])
    assert units(game)[0].loc == "Lindsey" and not game.state.players["p1"].forced_march


def test_s7_every_listed_move_is_accepted():
    spec = [("boat", "p1", "Kent", {"coast": "The Channel"}), ("king", "p1", "Kent"), ("regular", "p1", "Kent"),
            ("peasant", "p1", "Thanet")]
    game = moving(spec, {"Kent": "p1", "Thanet": "p1"}, players={"p1": {"forced_march": True, "paths": (2, 2, 2)}})
    commands = legal(game, "p1")
    assert len(commands) > 10
    for command in commands:
        act(game, "p1", command, filler=1)


def test_s4_6_1_mercenaries_may_be_hired_while_moving_and_do_not_move_on():
    spec = [("king", "p1", "Kent"), ("mercenary", None, "Surrey")]
    game = moving(spec, {"Kent": "p1"}, res={"p1": {"wool": 1}})
    game = move(game, [1], ["Surrey"])
    game = act(game, "p1", {"type": "hire", "unit": 2, "pay": "wool"}, dice=[])
    assert game.state.units[2].owner == "p1" and game.state.units[2].mp == 0
    refused(game, [2], ["Kent"], "no_movement_points")
