"""Tournament results from the game records: a process that reads the notification log and,
for every ``GameEnded`` (and every umpire's ``DisputeRuled``), hands the event to ``record``,
which appends a ``ResultRecorded`` (or ``RulingNoted``) to the tournament that paired that
game, if any. It also keeps the list of tournaments.

Standings themselves are a pure fold of the tournament's stream
(:mod:`domain.tournaments.standings`); this process is what puts the games' results into
that stream, so the director never types a result in. Recording is idempotent (a result
already recorded with the same GameEnded hash is skipped), so a crash between recording and
saving the tracking position only repeats work.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from domain.game import Recorded
from domain.tournaments.events import TournamentCreated, TournamentRecorded
from projections.sql import Database, Session, TrackedProjection

NAME = "tournament-results"
RECORDED_WORK = frozenset(("GameEnded", "DisputeRuled"))  # the game events a result or a note comes from

SCHEMA = [
    """CREATE TABLE IF NOT EXISTS herald_tournaments (
        seq BIGINT PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
        name TEXT NOT NULL,
        rules TEXT NOT NULL,
        format TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        players INTEGER NOT NULL DEFAULT 0,
        rounds INTEGER NOT NULL DEFAULT 0,
        version INTEGER NOT NULL
    )""",
]


class TournamentRow(msgspec.Struct, frozen=True):
    """A tournament as the list shows it."""

    id: str
    name: str
    rules: str
    format: str
    created_at: str
    updated_at: str
    players: int
    rounds: int
    version: int


ReadLog = Callable[[int, int], list[tuple[int, Any]]]


class TournamentResults(TrackedProjection):
    """The results process and the tournament list, over a store's notification log."""

    name = NAME
    tables = ("herald_tournaments",)  # results already recorded are skipped as duplicates on a rebuild
    schema = tuple(SCHEMA)

    def __init__(self, db: Database, read_notifications: ReadLog, record: Callable[[Recorded], None]):
        self._record = record
        super().__init__(db, read_notifications)

    @staticmethod
    def acts_on(event: Any) -> bool:
        """Whether ``event`` gives this process work: a game's end or an umpire's ruling (a
        result or a note to record), or a tournament's event (the list). Every other event
        only moves the tracking position, which the follower's poll brings up to date."""
        if isinstance(event, Recorded):
            return event.type in RECORDED_WORK
        return isinstance(event, TournamentRecorded)

    def prepare(self, batch: list[tuple[int, Any]]) -> None:
        """Outside the projection's transaction: recording a result saves tournament events."""
        for _, event in batch:
            if isinstance(event, Recorded) and event.type in RECORDED_WORK:
                self._record(event)

    def apply(self, session: Session, seq: int, event: Any, prepared: None = None) -> None:
        if isinstance(event, TournamentRecorded):
            _apply(session, seq, event)

    def list(self, *, rules: str | None = None, after: int | None = None,
             limit: int = 50) -> tuple[list[TournamentRow], int | None]:
        """A page of tournaments, newest first, and the cursor of the next page (or None), as
        far as the results process has caught up (it runs in the background: a read never runs it)."""
        with self._db.transaction() as s:
            rows, cursor = s.page("herald_tournaments", {"rules": rules}, after, limit)
        return [TournamentRow(id=r["id"], name=r["name"], rules=r["rules"], format=r["format"],
                              created_at=r["created_at"], updated_at=r["updated_at"], players=int(r["players"]),
                              rounds=int(r["rounds"]), version=int(r["version"])) for r in rows], cursor


def _apply(s: Session, seq: int, event: TournamentRecorded) -> None:
    tid, at = str(event.originator_id), event.timestamp.isoformat(timespec="microseconds")
    if event.type == TournamentCreated.type_name:
        data = event.data
        s.execute(
            "INSERT INTO herald_tournaments (seq, id, name, rules, format, created_at, updated_at, version) "
            "VALUES (%(seq)s, %(id)s, %(name)s, %(rules)s, %(format)s, %(at)s, %(at)s, %(v)s) "
            "ON CONFLICT (id) DO NOTHING",
            {"seq": seq, "id": tid, "name": data["name"], "rules": data["rules"], "format": data["format"],
             "at": at, "v": event.version},
        )
        return
    extra = ""
    if event.type == "PlayerRegistered":
        extra = ", players = players + 1"
    elif event.type == "RoundPaired":
        extra = ", rounds = rounds + 1"
    s.execute(f"UPDATE herald_tournaments SET version = %(v)s, updated_at = %(at)s{extra} "
              "WHERE id = %(id)s AND version < %(v)s", {"v": event.version, "at": at, "id": tid})
