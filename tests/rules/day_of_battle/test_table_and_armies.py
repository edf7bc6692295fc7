"""1-1 Table set up, 1-1.2 Table deployment, and the Army Profiles taken from the players."""

from __future__ import annotations

import copy

import msgspec
import pytest

from domain.rules.day_of_battle.data import ARMIES, army_points, armies_problems
from domain.rules.day_of_battle.table import table_width_feet
from tests.rules.day_of_battle.helpers import DOB, legal, new_game, play, refused, through_leaders

SEATS = {"crusaders": "crusaders", "seljuq-turks": "seljuq-turks"}  # seat → army


def test_1_1_the_books_example_45_crusaders_against_45_seljuqs_with_a_5_handicap():
    """1-1: "The total number of army points in the battle is 95. This is divided by 16 for a result
    of 5.9, which rounds up to 6. The table size for this battle will be 6' by 4'."""
    assert army_points(ARMIES["crusaders"]) == 45
    assert army_points(ARMIES["seljuq-turks"]) == 45 and ARMIES["seljuq-turks"].handicap == 5
    assert table_width_feet(45 + 45 + 5) == 6
    view = DOB.view(new_game().state, None)
    assert view["table"] == {"width_feet": 6, "depth_feet": 4, "total_army_points": 95}


@pytest.mark.parametrize("points, feet", [(88, 6), (87, 5), (40, 3), (104, 7)])
def test_1_1_fractions_are_rounded_naturally(points, feet):
    """1-1: "dividing by 16; fractions are rounded naturally" (88/16 = 5.5 → 6; 87/16 = 5.44 → 5)."""
    assert table_width_feet(points) == feet


def test_eastern_armies_are_those_whose_list_requires_5_cos_of_horse_archers():
    """1-1.2: "Eastern Armies: An army that requires at minimum of 5Cos. of Horse Archers in their army list.\""""
    kinds = {a.id: a.eastern for a in ARMIES.values()}
    assert kinds == {"crusaders": False, "seljuq-turks": True, "byzantines": False, "fatimids": False,
                     "danishmends": True, "armenians": False}


def deploying(scenario="crusaders-seljuq-turks"):
    return through_leaders(new_game(scenario))


def test_1_1_2_a_western_army_facing_an_eastern_army_deploys_between_6_and_15_inches():
    """1-1.2: "A Western Army facing an Eastern Army must deploy at least 6" on but not greater than
    15" on from their rear table edge." """
    game = deploying()
    knights = "crusaders/knights-bohemond"
    for y in (5, 16):
        v = refused(game, "crusaders", {"type": "deploy", "unit": knights, "x": 36, "y": y})
        assert v.code == "day-of-battle.outside_deployment_zone" and v.rule == "1-1.2"
    assert play(game, "crusaders", {"type": "deploy", "unit": knights, "x": 36, "y": 15}).state.units[knights].y == 15


def test_1_1_2_western_troops_other_than_skirmishers_stand_12_inches_from_either_flank():
    """1-1.2: "Other troops must be at least 12" in from either flank" (72" wide table)."""
    game = deploying()
    v = refused(game, "crusaders", {"type": "deploy", "unit": "crusaders/archers", "x": 11, "y": 10})
    assert "12\"" in v.message and v.rule == "1-1.2"
    play(game, "crusaders", {"type": "deploy", "unit": "crusaders/archers", "x": 60, "y": 10})


def test_1_1_2_eastern_armies_deploy_up_to_12_inches_and_horse_archers_along_a_flank():
    """1-1.2: "Eastern armies are allowed to deploy on the table up to 12" from their rear table edge.
    ... Other non skirmish troops must be at least 6" in from either flank. Furthermore horse archers
    are allowed to deploy along any flank - table edge up to 6"." """
    game = deploying()
    turks = "seljuq-turks"
    assert refused(game, turks, {"type": "deploy", "unit": f"{turks}/askari", "x": 30, "y": 13}).rule == "1-1.2"
    assert refused(game, turks, {"type": "deploy", "unit": f"{turks}/askari", "x": 3, "y": 10}).rule == "1-1.2"
    play(game, turks, {"type": "deploy", "unit": f"{turks}/horse-archers-left", "x": 2, "y": 10})
    play(game, turks, {"type": "deploy", "unit": f"{turks}/javelinmen", "x": 1, "y": 12})  # skirmishers anywhere


def test_1_1_2_the_original_zone_when_no_eastern_army_takes_the_field():
    """1-1.2: "In the original Day Of Battle rules both armies are allowed to deploy up to 12" from
    their rear table edge ... Other troops must be at least 6" in from either flank." (Crusaders
    against Fatimids: the Fatimid list requires no horse archers.)"""
    game = deploying("crusaders-fatimids")
    assert refused(game, "crusaders", {"type": "deploy", "unit": "crusaders/archers", "x": 20, "y": 13}).rule == "1-1.2"
    play(game, "crusaders", {"type": "deploy", "unit": "crusaders/archers", "x": 7, "y": 3})
    assert DOB.view(game.state, None)["armies"][0]["deployment_zone"] == "original"


def test_every_suggested_deployment_is_legal_and_finishing_needs_every_unit():
    game = deploying()
    v = refused(game, "crusaders", {"type": "finish-deployment"})
    assert v.code == "day-of-battle.units_not_deployed"
    for cmd in [c for c in legal(game, "crusaders") if c["type"] == "deploy"]:
        game = play(game, "crusaders", cmd)
    game = play(game, "crusaders", {"type": "finish-deployment"})
    assert "crusaders" in game.state.deployed


def profiles():
    return {"crusaders": msgspec.to_builtins(ARMIES["crusaders"]),
            "seljuq-turks": msgspec.to_builtins(ARMIES["seljuq-turks"])}


def test_the_players_own_profiles_are_accepted_at_creation_and_hashed():
    mine = profiles()
    mine["crusaders"]["units"][0]["combat_value"] = 15
    game = new_game(options={"armies": mine})
    assert game.state.units["crusaders/knights-bohemond"].combat_value == 15
    assert DOB.data_hash("crusaders-seljuq-turks", {"armies": mine}) != DOB.data_hash("crusaders-seljuq-turks")


def test_bad_profiles_are_refused_with_every_problem():
    """1-5: "Eastern spearmen are always based 3 figures per Cos."; an Eastern list keeps its horse archers."""
    bad = copy.deepcopy(profiles())
    spear = next(u for u in bad["seljuq-turks"]["units"] if u["id"] == "spearmen")
    spear["figures_per_cos"] = 4
    bad["seljuq-turks"]["units"] = [u for u in bad["seljuq-turks"]["units"] if u["troop_type"] != "horse-archers"]
    problems = armies_problems(bad, SEATS)
    assert any("3 figures per Cos." in p for p in problems)
    assert any("horse archers" in p for p in problems)
    with pytest.raises(Exception) as raised:
        new_game(options={"armies": bad})
    assert raised.value.code == "day-of-battle.bad_army_profile" and len(raised.value.problems) >= 2


def test_the_data_hash_pins_the_armies_and_the_charts():
    """DESIGN.md: a game records a hash of the data it started with (armies, and the charts that
    resolve its fire)."""
    import hashlib

    from domain.rules.day_of_battle.data import PACKAGE

    files = b"".join((PACKAGE / f).read_bytes() for f in ("armies.json", "charts.json", "scenarios.json"))
    assert DOB.data_hash("crusaders-seljuq-turks") == hashlib.sha256(files).hexdigest()
    mine = profiles()
    owned = msgspec.json.encode(mine, order="sorted") + b"".join(
        (PACKAGE / f).read_bytes() for f in ("charts.json", "scenarios.json"))
    assert DOB.data_hash("crusaders-seljuq-turks", {"armies": mine}) == hashlib.sha256(owned).hexdigest()


def test_profiles_beyond_herald_bounds_are_refused():
    """RULES_NOTES.md, "Bounds on the players' profiles": one die is rolled per Cos. (1-9), so a
    unit of a million Cos. would make one command roll a million dice; the profile is refused."""
    huge = copy.deepcopy(profiles())
    huge["crusaders"]["units"][0]["cos"] = 1_000_000
    problems = armies_problems(huge, SEATS)
    assert any("at most 60 Cos." in p for p in problems)
    many = copy.deepcopy(profiles())
    unit = many["seljuq-turks"]["units"][0]
    many["seljuq-turks"]["units"] = [{**unit, "id": f"u{i}"} for i in range(61)]
    assert any("at most 20 leaders and 60 units" in p for p in armies_problems(many, SEATS))
    with pytest.raises(Exception) as raised:
        new_game(options={"armies": huge})
    assert raised.value.code == "day-of-battle.bad_army_profile"
    assert armies_problems(profiles(), SEATS) == []
