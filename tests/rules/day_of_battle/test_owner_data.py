"""Issue 25 point 12: the players' own Army Profiles. ``armies.json``'s own shape is the option
(each seat takes the profile of its army), every troop type the supplement names is taken
(swordsmen among them: 1-5 "Most have swordsman, archers or other missile troops"), an owner's
file may bring its own weapons chart, and a malformed file gets every problem with its path."""

from __future__ import annotations

import copy
import json

import pytest

from domain.rules.base import RuleViolation
from domain.rules.day_of_battle.data import PACKAGE
from tests.rules.day_of_battle.helpers import DOB, battle, events, new_game, play
from tests.rules.day_of_battle.test_api import _rules_check

FILE = json.loads((PACKAGE / "armies.json").read_bytes())


@pytest.mark.parametrize("scenario", sorted(DOB.scenarios))
def test_armies_json_itself_is_the_option_for_every_scenario(scenario):
    game = new_game(scenario, options={"armies": FILE})
    ours = new_game(scenario)
    assert game.state.units == ours.state.units and game.state.width_feet == ours.state.width_feet
    assert DOB.check_owner_data(FILE, scenario) == []


def test_herald_rules_check_takes_armies_json(tmp_path):
    checked = _rules_check(tmp_path, FILE, "--rules", "day-of-battle")
    assert checked.returncode == 0 and "usable" in checked.stdout, checked.stdout


def test_swordsmen_are_a_troop_type():
    mine = copy.deepcopy(FILE)
    unit = next(u for u in mine["armies"][1]["units"] if u["id"] == "askari")
    unit["troop_type"] = "swordsmen"
    game = new_game(options={"armies": mine})
    assert game.state.units["seljuq-turks/askari"].troop_type == "swordsmen"


def test_an_owners_weapons_chart_replaces_and_adds_to_the_chart():
    """The owner's chart line for a weapon is used by 1-9's procedure as the printed one is."""
    mine = copy.deepcopy(FILE)
    mine["weapons"] = [
        {"id": "horse-bow", "name": "Horse bow", "rate_of_fire": 3, "bonus": 2, "effective": 12, "ineffective": 0},
        {"id": "javelins", "name": "Javelins", "rate_of_fire": 2, "bonus": 1, "effective": 4, "ineffective": 0},
    ]
    javelinmen = next(u for u in mine["armies"][1]["units"] if u["id"] == "javelinmen")
    javelinmen["weapon"] = "javelins"
    game = battle("seljuq-turks", new_game(options={"armies": mine}))
    archers = "seljuq-turks/horse-archers-right"
    fired = play(game, "seljuq-turks", {"type": "fire", "unit": archers, "target": "crusaders/crossbowmen",
                                        "range_inches": 12})  # 10" on the printed chart
    evs, _ = events(fired, "crusaders", {"type": "hold-fire"})
    v = next(e for e in evs if type(e).__name__ == "VolleyFired")
    assert v.modifiers[0].add == 2 and v.target_number == 11 + 2
    assert game.state.units["seljuq-turks/javelinmen"].arms.name == "Javelins"


def test_a_malformed_file_gets_every_problem_with_its_path():
    bad = copy.deepcopy(FILE)
    bad["armies"][0]["units"][0]["weapon"] = "longbow"
    bad["armies"][1]["units"][3]["figures_per_cos"] = 5
    bad["armies"][2]["leaders"] = "none"
    bad["weapons"] = [{"id": "sling", "name": "Sling", "rate_of_fire": 2, "bonus": 1, "effective": 0,
                       "ineffective": 0}]
    bad["colour"] = "red"
    problems = DOB.check_owner_data(bad, "crusaders-seljuq-turks")
    assert any(p.startswith("armies[0] (crusaders): unit knights-bohemond: unknown weapon 'longbow'") for p in problems)
    assert any(p.startswith("armies[1] (seljuq-turks): unit spearmen") and "3 figures" in p for p in problems)
    assert any(p.startswith("armies[2] (byzantines)") and "leaders" in p for p in problems)
    assert any(p.startswith("weapons[0] (sling)") for p in problems)
    assert any("unknown fields colour" in p for p in problems)
    with pytest.raises(RuleViolation) as raised:
        new_game(options={"armies": bad})
    assert raised.value.code == "day-of-battle.bad_army_profile" and raised.value.problems == problems
    missing = copy.deepcopy(FILE)
    missing["armies"] = [a for a in missing["armies"] if a["id"] != "seljuq-turks"]
    assert any("no profile for the army seljuq-turks" in p
               for p in DOB.check_owner_data(missing, "crusaders-seljuq-turks"))
