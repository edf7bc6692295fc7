"""Day of Battle's narration names leaders and units as the Army Profiles name them
(armies.json, a labelled reconstruction), not by their ids."""

from __future__ import annotations

from domain.rules.day_of_battle.data import ARMIES, SCENARIOS
from domain.rules.registry import RULE_SYSTEMS
from tests.rules.day_of_battle import helpers

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


def test_lines_and_the_board_name_each_army_by_its_player():
    """Issue 27 point 4: "player names (not seat ids) on every board and note and in every rule
    system's narration (Day of Battle's narration names seats)"."""
    names = {"crusaders": "Ann Smith", "seljuq-turks": "Bo Lind"}
    command = DOB.describe_command({"type": "charge", "unit": "seljuq-turks/askari",
                                    "target": "crusaders/foot-spearmen"}, names)
    assert command == "orders Askari elite heavy cavalry (Bo Lind) to charge Foot spearmen (Ann Smith)"
    assert DOB.describe_event("day-of-battle.MoveEnded", {"seat": "crusaders", "next_seat": "seljuq-turks"},
                              names) == "Ann Smith's army ends its move; Bo Lind's army moves next"
    fired = DOB.describe_event("day-of-battle.VolleyFired", {
        "firer": "seljuq-turks/foot-archers", "target": "crusaders/archers", "order": 1, "dice": 4,
        "target_number": 11, "faces": [19, 5, 16, 14], "hits": 1, "damage": "light"}, names)
    assert "4 dice needing 11 or less" in fired, fired  # not "4 dies"
    board = DOB.render_text(helpers.battle().state, names)
    assert "Ann Smith" in board and "Bo Lind" in board and "(crusaders," not in board, board


def test_the_board_shows_every_leaders_cards_once_the_seed_is_revealed():
    """Issue 27 point 3: "after the reveal EVERY read path shows every hand/objective/card at
    every step, to everyone" — the text board too; a spectator's board before it shows none."""
    state = helpers.battle().state
    spectator, everyone = DOB.render_text(state), DOB.render_text(state, everything=True)
    leaders = [l for l in state.leaders.values() if l.esteem is not None]
    assert leaders and "esteem" not in spectator, spectator
    assert all(f"{l.name} (rank {l.social_rank}): esteem {l.esteem}" in everyone for l in leaders), everyone
