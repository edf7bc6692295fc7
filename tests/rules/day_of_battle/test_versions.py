"""Issue 25: Day of Battle 2.0.0 records the combat, every response to a charge and positions,
so its rules version moved from 1.0.0; a record made under 1.0.0 still verifies, replayed under
the 1.0.0 rules it was made by (``RuleSystem.at_version``). ``records/day-of-battle-1.0.0.json``
is a real record made by Herald at commit c4938d4 (Day of Battle 1.0.0): a charge answered by
defensive fire, a dismount, a charge with fire before contact, horse archers falling back, the
end agreed; its seed revealed."""

from __future__ import annotations

import json
from uuid import UUID
from pathlib import Path

import msgspec
import pytest

from api.cli import main
from domain.events import GameCreated
from domain.game import rule_system_for
from domain.rules.base import RuleViolation
from replays.record_format import decode_record
from replays.verify import verify
from tests.rules.day_of_battle.helpers import DOB

OLD = Path(__file__).parent / "records" / "day-of-battle-1.0.0.json"


def test_the_version_is_two_and_one_is_kept():
    assert DOB.version == "2.1.0"  # 2.1.0 (issue 30): a void shuffles the deck again; 2.0.0 is kept as it was
    kept = DOB.at_version("2.0.0")
    assert kept.version == "2.0.0" and kept.edition == 2 and "2.0.0" in DOB.voids_keep_order
    old = DOB.at_version("1.0.0")
    assert old.version == "1.0.0" and old.edition == 1 and "0.9.0" not in DOB.older_versions


def test_a_1_0_0_record_verifies_under_the_rules_it_was_made_by():
    record = decode_record(OLD.read_bytes())
    assert record.header.rules_version == "1.0.0"
    verdict = verify(record)
    assert verdict.ok, verdict.problems
    types = [e.type for e in record.events]
    # 1.0.0 fired before contact at the charge itself; 2.0.0 waits for the response (1-9)
    charge = next(i for i, e in enumerate(record.events) if e.type == "day-of-battle.OrderGiven"
                  and e.data["unit"] == "seljuq-turks/askari")
    assert types[charge + 1:charge + 4] == ["day-of-battle.FireDeclared", "DiceRolled", "day-of-battle.VolleyFired"]
    # and its dismounted knights took every standing Cos. at full strength
    assert "day-of-battle.KnightsDismounted" in types and "day-of-battle.CombatJoined" not in types


def test_the_cli_and_the_api_verify_it(client, capsys):
    assert main(["replay", "verify", str(OLD)]) == 0
    answer = client.post("/records/verify", json=json.loads(OLD.read_bytes()))
    assert answer.status_code == 200 and answer.json()["ok"] is True, answer.text


def test_a_1_0_0_game_takes_only_1_0_0_commands():
    record = decode_record(OLD.read_bytes())
    created = next(e for e in record.events if e.type == "GameCreated")
    old = rule_system_for(msgspec.convert(created.data, GameCreated))
    assert old.version == "1.0.0"
    for command, what in (({"type": "fight", "unit": "a", "dice": 1, "target_number": 5}, "the command fight"),
                          ({"type": "charge", "unit": "a", "target": "b", "caught_in_one_normal_move": True,
                            "x": 1, "y": 2}, "the field x of charge")):
        with pytest.raises(RuleViolation) as refused:
            old.parse_command(command)
        assert what in refused.value.message and "1.0.0" in refused.value.message
    stand = old.parse_command({"type": "stand"})
    assert old.recorded_command(old.parse_command({"type": "charge", "unit": "a", "target": "b",
                                                   "caught_in_one_normal_move": True})) == {
        "type": "charge", "unit": "a", "target": "b", "caught_in_one_normal_move": True, "from_front": True,
        "attached_leader": None, "fire_before_contact": False}
    assert old.recorded_command(stand) == {"type": "stand", "attached_leader": None}


def test_a_1_0_0_game_is_listed_only_what_1_0_0_takes():
    """A game created under 1.0.0 (a fork or an import of an old record plays on) folds under the
    1.0.0 rules, and every command its listing offers is one 1.0.0 takes."""
    from domain.events import SeatInfo
    from domain.game import create_game, project_game
    from tests.rules.day_of_battle.helpers import CS, NOW, deployed, legal, play

    created = GameCreated(rules=DOB.id, rules_version="1.0.0", scenario=CS, data_hash=DOB.data_hash(CS),
                          seats={s: SeatInfo(player=s) for s in DOB.scenarios[CS].seats}, seed_commitment="0" * 64)
    game = deployed(project_game(None, create_game(UUID(int=99), created, NOW)))
    assert game.rules.version == "1.0.0" and game.state.edition == 1
    game = play(game, "crusaders", {"type": "begin-move"}, faces=[1, 1])
    listed = legal(game, "crusaders")
    assert {c["type"] for c in listed} >= {"fire", "charge", "dismount", "change-formation", "end-move"}
    for command in listed:
        game.rules.parse_command(command)  # no 2.0.0 command or field
    charge = next(c for c in listed if c["type"] == "charge" and "spearmen" in c["target"])
    game = play(game, "crusaders", charge)
    assert {c["type"] for c in legal(game, "seljuq-turks")} == {"defensive-fire", "stand"}
