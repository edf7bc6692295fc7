"""A read model skips an event it cannot apply (tests/api/test_door.py), but never one the
database failed to take: SQLite's "database is locked" under load, or a connection gone, is
retried by the next catch-up. (CI once saw a crash test whose dice statistics lacked one
roll that a rebuild from zero counted.)"""

from __future__ import annotations

import uuid

import pytest
from eventsourcing.persistence import OperationalError

from api.wire.games import CommandRequest, CreateGame, SeatRequest
from projections.dice import DiceStats


def _rolled(herald, times: int) -> str:
    made = herald.games.create(CreateGame(rules="open-table", seats={"p1": SeatRequest("Ann")}))
    for _ in range(times):
        herald.games.command(uuid.UUID(made.id), CommandRequest(seat="p1", command={
            "type": "roll", "label": "x", "dice": "2d6"}), made.seat_tokens["p1"])
    return made.id


def test_a_database_error_is_retried_not_skipped(herald, monkeypatch):
    game = _rolled(herald, 3)
    dice = herald.games.dice
    applied = DiceStats.apply
    failures = {"left": 2}  # the batch, then the event alone: both fail as a locked database would

    def locked_once(self, session, seq, event, prepared=None):
        if event is not None and event.type == "DiceRolled" and failures["left"]:
            failures["left"] -= 1
            raise OperationalError("database is locked")
        applied(self, session, seq, event, prepared)

    monkeypatch.setattr(DiceStats, "apply", locked_once)
    with pytest.raises(OperationalError):
        dice.catch_up()
    monkeypatch.setattr(DiceStats, "apply", applied)
    assert sum(stats.rolls for stats in dice.for_game(game).kinds) == 6
    with herald.games.dice._db.transaction() as s:
        assert s.rows("SELECT position FROM herald_skipped") == []
