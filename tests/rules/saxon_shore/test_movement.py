"""§7 movement: two movement points, roads, wild provinces, border types, stopping in
non-friendly provinces, boats carrying two units over sea zones; paths (§11 12-15),
storms (§11 51) and forced march (§11 54).

Each position is reached by play from the opening (play.Play): provinces join a kingdom by
event 41 (family ties), roads and boats are bought, paths, storms and forced march are drawn."""

import pytest

from domain.rules.base import RuleViolation

from .helpers import legal, position, stop, units
from .play import Play, cell, joining


def move(play, ids, path, dice=None):
    return play.move("p1", ids, path, dice)


def refused(play, ids, path, code):
    with pytest.raises(RuleViolation) as error:
        move(play, ids, path)
    assert error.value.code == f"saxon-shore.{code}", error.value.message
    assert {"type": "move", "units": ids, "path": path} not in legal(play.game, "p1")


def moving(*starts, turn=None, **kw) -> Play:
    """p1 asked to move in the first movement phase (of ``turn``)."""
    return Play(*starts, **kw).to("move", "p1", stage=1, turn=turn)


def raising(play: Play, command: dict) -> Play:
    return play.to("raise", "p1").act("p1", command)


def boats(play: Play, province: str, sea: str, pay: str) -> Play:
    return raising(play, {"type": "raise-boats", "places": [{"province": province, "sea": sea}], "pay": pay})


def midlands(extra=(), dice=None) -> Play:
    """p1 starts in Mercia; Hwicce (turn 1) and Oxford (turn 2) join by family ties."""
    events = {"p1": [41, 41, *extra]}
    return Play("Mercia", "Leinster", events=events, dice={**joining("Hwicce", "Oxford"), **(dice or {})})


def test_s7_each_unit_has_two_movement_points():
    """§7 "Each unit has two movement points"."""
    play = midlands().to("move", "p1", stage=1, turn=2)
    move(play, [1], ["Oxford", "Hwicce"])
    assert units(play.game)[0].loc == "Hwicce" and units(play.game)[0].mp == 0
    refused(play, [1], ["Wessex"], "no_movement_points")


def test_s7_moving_from_a_road_province_costs_nothing():
    """§7: moving from a province with a road costs no movement point. Played: p1 builds a road
    in Mercia (§4.5); the §3.4 roll gives neutral Oxford a road before it joins."""
    play = midlands(dice={"random province improvement": cell("Oxford"), "improvement in neutral Oxford": [4]})
    play.to("improve", "p1").act("p1", {"type": "improve", "province": "Mercia", "improvement": "road",
                                        "pay": ["wheat", "gold"]})
    play.to("move", "p1", stage=1, turn=2)
    move(play, [1], ["Oxford", "Hwicce", "Wessex"])  # three provinces on two points: 0 + 0 + 1
    assert units(play.game)[0].loc == "Wessex"


def test_s7_troops_may_not_enter_wild_provinces():
    refused(moving("Kent", "Leinster"), [1], ["The Weald"], "wild_province")


def test_s7_forest_marsh_mountain_borders_block_troops_unless_a_path_is_used():
    """§7 borders; §11 12-15 a path of choice lets troops cross one such border once."""
    refused(moving("Kent", "Leinster"), [1], ["Sussex"], "blocked_border")
    play = Play("Kent", "Leinster", events={"p1": [13]})
    play.to("move", "p1", answers={"path": "forest"})
    assert play.state.players["p1"].paths == (0, 1, 0)
    move(play, [1], ["Sussex"])
    assert units(play.game)[0].loc == "Sussex" and play.state.players["p1"].paths == (0, 0, 0)


def test_s11_12_two_marsh_ways_pass_through_the_fens():
    """§11 12-15: a wild province is passed through with two paths of its type, never entered."""
    play = Play("Lincoln", "Leinster", events={"p1": [12, 12]}).to("move", "p1", answers={"path": "marsh"})
    assert play.state.players["p1"].paths == (0, 0, 1)
    refused(play, [1], ["The Fens", "Norfolk"], "wild_province")
    play.to("move", "p1", turn=2, answers={"path": "marsh"})
    assert play.state.players["p1"].paths == (0, 0, 2)
    refused(play, [1], ["The Fens"], "wild_province")  # only through, never into
    move(play, [1], ["The Fens", "Norfolk"])
    assert units(play.game)[0].loc == "Norfolk" and play.state.players["p1"].paths == (0, 0, 0)


def test_s7_units_entering_a_non_friendly_province_with_capacity_must_stop():
    """§7: units entering a non-friendly province with a carrying capacity must stop. Played:
    a road in Kent (§4.5) would let the king go on."""
    play = Play("Kent", "Leinster").to("improve", "p1")
    play.act("p1", {"type": "improve", "province": "Kent", "improvement": "road", "pay": ["wheat", "iron"]})
    play.to("move", "p1")
    refused(play, [1], ["Surrey", "Berkshire"], "must_stop")
    move(play, [1], ["Surrey"])
    refused(play, [1], ["Berkshire"], "halted")


def test_s7_no_stop_in_a_non_friendly_province_of_capacity_zero():
    """§7: a non-friendly province of capacity zero does not stop them. Played: p1's king raids
    Surrey (population 1) and ravages it in the first turn."""
    play = moving("Kent", "Leinster")
    move(play, [1], ["Surrey"]).to("declare", "p1")
    play.act("p1", {"type": "declare", "province": "Surrey", "action": "raid"}, {"raid on Surrey": [6, 1]})
    move(play.to("move", "p1", stage=2), [1], ["Kent"]).to("move", "p1", stage=1, turn=2)
    assert play.state.provinces["Surrey"].ravage == 1
    move(play, [1], ["Surrey", "Berkshire"])
    assert units(play.game)[0].loc == "Berkshire"


def test_s7_a_boat_carries_two_units_across_sea_zones():
    """§7 "Each boat can carry two units" across sea zones. Played: three peasants and two
    boats raised in Kent (§4.6.3, §4.6.4)."""
    play = raising(Play("Kent", "Leinster"), {"type": "raise-peasants", "province": "Kent", "pay": "wheat"})
    play = boats(play, "Kent", "The Channel", "iron").to("move", "p1")
    boat = play.ids("p1", "boat")[0]
    king, *peasants = play.ids("p1", loc="Kent")[:1] + play.ids("p1", "peasant")
    refused(play, [boat, king, peasants[0], peasants[1]], ["The Channel"], "boat_full")
    move(play, [boat, king, peasants[0]], ["The Channel", "Wessex"])
    state = play.state
    assert [(state.units[i].loc, state.units[i].coast) for i in (boat, king, peasants[0])] == \
        [("Wessex", "The Channel"), ("Wessex", None), ("Wessex", None)]


def test_s11_11_a_mounted_knight_counts_as_two_in_a_boat():
    """§11 11: a mounted knight counts as two units in a boat. Played: p1 starts in Leinster
    (Christian) and draws event 11; a peasant and boats are raised there."""
    play = Play("Leinster", "Kent", events={"p1": [11]})
    play = raising(play, {"type": "raise-peasants", "province": "Leinster", "pay": "gold"})
    play = boats(play, "Leinster", "Irish Sea", "gold").to("move", "p1")
    [knight], [boat, _], [peasant, *_] = play.ids("p1", "knight"), play.ids("p1", "boat"), play.ids("p1", "peasant")
    refused(play, [boat, knight, peasant], ["Irish Sea"], "boat_full")


def test_s7_units_that_moved_before_boarding_have_one_movement_point_left():
    """§7: a unit that moved before boarding has only its movement points left. Played: p1
    starts in Surrey, Kent joins (§11 41), boats are raised in Kent."""
    play = Play("Surrey", "Leinster", events={"p1": [41]}, dice=joining("Kent"))
    play = boats(play, "Kent", "The Channel", "gold").to("move", "p1")
    boat = play.ids("p1", "boat")[0]
    move(play, [1], ["Kent"])
    refused(play, [boat, 1], ["The Channel", "Wessex"], "no_movement_points")
    move(play, [boat, 1], ["The Channel"])
    assert play.state.units[1].loc == "The Channel"


def test_s7_troops_at_sea_need_boats():
    """§7: troops at sea move only in boats, and a boat may not leave its cargo at sea. The
    first position stays hand-built: play never leaves a troop at sea without a boat (boats
    carry their cargo, sink with it, §11 51, and go with the troops' return at the end of the
    turn, §9), so that refusal is a guard a played game cannot reach."""
    game = position(owners={"Kent": "p1"}, units=[("king", "p1", "The Channel", {"mp": 2})],
                    prompt=__import__("domain.rules.saxon_shore.state", fromlist=["Prompt"]).Prompt(
                        "phase", "p1", args=("move",)), jobs=(stop(),))
    with pytest.raises(RuleViolation) as error:
        from .helpers import act
        act(game, "p1", {"type": "move", "units": [1], "path": ["Kent"]}, dice=[])
    assert error.value.code == "saxon-shore.needs_boat"
    play = boats(Play("Kent", "Leinster"), "Kent", "The Channel", "gold").to("move", "p1")
    boat = play.ids("p1", "boat")[0]
    move(play, [boat, 1], ["The Channel"]).to("move", "p1", stage=2)
    refused(play, [boat], ["Kent"], "boat_full")  # the king would be left at sea


def test_s7_boats_move_along_a_shared_coastline_and_devon_has_two_coasts():
    """§7: boats move along a shared coastline (a forest border does not stop them); Devon has
    a north (Irish Sea) and a south (The Channel) coast."""
    play = boats(Play("Kent", "Leinster"), "Kent", "The Channel", "gold").to("move", "p1")
    boat = play.ids("p1", "boat")[0]
    move(play, [boat], ["Sussex"])  # the forest border does not stop boats
    assert play.state.units[boat].loc == "Sussex"
    north = boats(Play("Devon", "Leinster"), "Devon", "Irish Sea", "gold").to("move", "p1")
    boat = north.ids("p1", "boat")[0]
    refused(north, [boat], ["The Channel"], "not_adjacent")
    assert move(north, [boat], ["Irish Sea"]).state.units[boat].loc == "Irish Sea"


def test_s11_51_storms_sink_boats_on_4_to_6_with_their_cargo():
    """§11 51: in a stormy sea zone a boat sinks on 4-6, with its cargo. Played: p1 draws event
    51 and the sea die names The Channel."""
    play = Play("Kent", "Leinster", events={"p1": [51]}, dice={"storms: which sea zone": [5]})
    play = boats(play, "Kent", "The Channel", "gold").to("move", "p1")
    assert play.state.storms == ("The Channel",)
    boat = play.ids("p1", "boat")[0]
    sunk = move(play.branch(), [boat, 1], ["The Channel"], dice={"storm in The Channel": [4]})
    assert not units(sunk.game, owner="p1", kind="king") and boat not in sunk.state.units
    safe = move(play, [boat, 1], ["The Channel"], dice={"storm in The Channel": [3]})
    assert [safe.state.units[i].loc for i in (boat, 1)] == ["The Channel", "The Channel"]


def test_s11_54_forced_march_one_extra_movement_point():
    """§11 54: forced march, one extra movement point this turn. Played: Hwicce and Oxford join
    (§11 41), then p1 draws event 54 in the third turn."""
    play = midlands(extra=[54]).to("move", "p1", stage=1, turn=3)
    assert play.state.players["p1"].forced_march
    play.act("p1", {"type": "forced-march", "location": "Mercia"})
    move(play, [1], ["Oxford", "Hwicce", "Wessex"])
    assert units(play.game)[0].loc == "Wessex" and not play.state.players["p1"].forced_march


def test_s7_every_listed_move_is_accepted():
    """Every listed move (boats, loaded or not, forced march) is accepted. Played: Thanet joins
    (§11 41); in the second turn p1 draws event 54, raises a regular, peasants and boats."""
    play = Play("Kent", "Leinster", events={"p1": [41, 54]}, dice=joining("Thanet"))
    play.to("raise", "p1", turn=2)
    play.act("p1", {"type": "raise-regular", "province": "Kent", "pay": ["iron", "gold"]})
    play.act("p1", {"type": "raise-peasants", "province": "Thanet", "pay": "wheat"})
    play = boats(play, "Kent", "The Channel", "wheat").to("move", "p1")
    commands = legal(play.game, "p1")
    assert len(commands) > 10 and any(c["type"] == "forced-march" for c in commands)
    for command in commands:
        play.branch().act("p1", command)


def test_s4_6_1_mercenaries_may_be_hired_while_moving_and_do_not_move_on():
    """§4.6.1: a mercenary may be hired "at any time" troops share its province; a mercenary
    hired in the movement phase does not move on. Played: a set-up mercenary stands in Surrey."""
    play = moving("Kent", "Leinster", dice={"set-up mercenary": cell("Surrey")})
    [mercenary] = play.ids(None, "mercenary", "Surrey")
    move(play, [1], ["Surrey"])
    play.act("p1", {"type": "hire", "unit": mercenary, "pay": "gold"})
    assert play.state.units[mercenary].owner == "p1" and play.state.units[mercenary].mp == 0
    refused(play, [mercenary], ["Kent"], "no_movement_points")
