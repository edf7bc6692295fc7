"""Day of Battle's narration names leaders and units as the Army Profiles name them
(armies.json, a labelled reconstruction), not by their ids."""

from __future__ import annotations

from domain.rules.day_of_battle.data import ARMIES, SCENARIOS
from domain.rules.registry import RULE_SYSTEMS

DOB = RULE_SYSTEMS["day-of-battle"]


def test_units_and_leaders_are_named_by_their_profile_names():
    line = DOB.describe_event("day-of-battle.UnitDeployed",
                              {"unit": "crusaders/knights-bohemond", "x": 12, "y": 6})
    assert line == "Mounted knights of Bohemond (crusaders) deploys 12\" across and 6\" in from its edge"
    command = DOB.describe_command({"type": "charge", "unit": "seljuq-turks/askari",
                                    "target": "crusaders/foot-spearmen"})
    assert command == "orders Askari elite heavy cavalry (seljuq turks) to charge Foot spearmen (crusaders)"
    line = DOB.describe_event("day-of-battle.LeaderReady", {"leader": "crusaders/bohemond"})
    assert line == "Bohemond of Taranto (crusaders) has drawn his esteem, motivation and skills"


def test_every_profile_of_every_scenario_is_named():
    for scenario in SCENARIOS.values():
        for place in scenario.seats:
            army = ARMIES[place.army]
            for profile in (*army.leaders, *army.units):
                line = DOB.describe_event("day-of-battle.LeaderReady", {"leader": f"{place.seat}/{profile.id}"})
                assert line.startswith(f"{profile.name} ({place.seat.replace('-', ' ')})")


def test_a_unit_not_on_the_profiles_keeps_its_id_readably():
    """An owner's own Army Profiles (option ``armies``) are not in the narration's table."""
    line = DOB.describe_event("day-of-battle.LeaderReady", {"leader": "crusaders/count-raymond"})
    assert line.startswith("count raymond (crusaders)")
