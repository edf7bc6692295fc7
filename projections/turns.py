"""Whose turn it is (issue 29): a read model of "your move in game G at version V", one row per
player each time a game comes to wait on them, numbered by the notification that brought it
(so a stream resumes from ``Last-Event-ID``), and each clocked game's earliest flag time (so
the clock sweep finds the games whose flag may have fallen without folding any other).

The seats to act are the rules' (a game folded to the batch's last version of it, through the
games service's board checkpoints); a notice is written when a seat comes to act, or acts and
is to act again (a seat already waited on, whose turn goes on while another seat plays, is not
told again). Kept in the event store's database with its tracking position, like the game
index: every process reads the same notices, and a catch-up runs in one process at a time."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any
from uuid import UUID

import msgspec

from domain.chain import iso
from domain.game import Game, Recorded
from projections.sql import Session, TrackedProjection

NAME = "turns/1"  # bump when the schema changes: the tables are dropped and rebuilt

SCHEMA = (
    """CREATE TABLE IF NOT EXISTS herald_turns (
        seq BIGINT NOT NULL,
        player TEXT NOT NULL,
        game_id TEXT NOT NULL,
        version INTEGER NOT NULL,
        seats TEXT NOT NULL,
        flag_at TEXT,
        PRIMARY KEY (player, seq)
    )""",
    """CREATE TABLE IF NOT EXISTS herald_turn_games (
        game_id TEXT PRIMARY KEY,
        to_act TEXT NOT NULL,
        deadline TEXT
    )""",
    "CREATE INDEX IF NOT EXISTS herald_turn_games_deadline ON herald_turn_games (deadline)",
)


class Turn(msgspec.Struct, frozen=True):
    """Your move: ``player`` is to act in ``game`` at ``version``, in ``seats``; ``flag_at``:
    when the first of those seats' flags falls if nobody acts (a clocked game)."""

    id: int
    player: str
    game: str
    version: int
    seats: list[str]
    flag_at: str | None = None


class Turns(TrackedProjection):
    """The your-turn read model; ``game_at(game_id, version)`` folds a game to a version and
    ``deadline(game)`` gives its earliest flag time (None: no clock runs)."""

    name = NAME
    tables = ("herald_turns", "herald_turn_games")
    schema = SCHEMA

    def __init__(self, db: Any, read_notifications: Callable[[int, int], list[tuple[int, Any]]],
                 game_at: Callable[[UUID, int], Game], deadline: Callable[[Game], datetime | None]):
        self._game_at, self._deadline = game_at, deadline
        super().__init__(db, read_notifications)

    def prepare(self, batch: list[tuple[int, Any]]) -> dict[int, tuple[Game, set[str]]]:
        """For each game the batch moves, the game at its last event there (keyed by that
        event's notification id), and the seats whose decisions are among its events."""
        last: dict[UUID, tuple[int, int]] = {}
        decided: dict[UUID, set[str]] = {}
        for seq, event in batch:
            if isinstance(event, Recorded):
                last[event.originator_id] = (seq, event.version)
                if event.type == "DecisionTaken":  # the store holds a sealed event's data too
                    decided.setdefault(event.originator_id, set()).add(event.data["seat"])
        return {seq: (self._game_at(game_id, version), decided.get(game_id, set()))
                for game_id, (seq, version) in last.items()}

    def apply(self, session: Session, seq: int, event: Any, prepared: Any = None) -> None:
        if not prepared or seq not in prepared:
            return
        game, decided = prepared[seq]
        game_id = str(game.id)
        to_act = sorted(game.to_act())
        rows = session.rows("SELECT to_act FROM herald_turn_games WHERE game_id = %(g)s", {"g": game_id})
        before = set(msgspec.json.decode(rows[0]["to_act"])) if rows else set()
        deadline = self._deadline(game)
        session.execute(
            "INSERT INTO herald_turn_games (game_id, to_act, deadline) VALUES (%(g)s, %(t)s, %(d)s) "
            "ON CONFLICT (game_id) DO UPDATE SET to_act = %(t)s, deadline = %(d)s",
            {"g": game_id, "t": msgspec.json.encode(to_act).decode(), "d": None if deadline is None else iso(deadline)})
        noticed = [seat for seat in to_act if seat not in before or seat in decided]
        players: dict[str, list[str]] = {}
        for seat in noticed:
            players.setdefault(game.created.seats[seat].player, []).append(seat)
        flag_at = None if deadline is None else iso(deadline)
        for player, seats in sorted(players.items()):
            session.execute(
                "INSERT INTO herald_turns (seq, player, game_id, version, seats, flag_at) "
                "VALUES (%(s)s, %(p)s, %(g)s, %(v)s, %(seats)s, %(f)s) ON CONFLICT (player, seq) DO NOTHING",
                {"s": seq, "p": player, "g": game_id, "v": game.version,
                 "seats": msgspec.json.encode(seats).decode(), "f": flag_at})

    def after(self, player: str, after: int, limit: int = 100) -> list[Turn]:
        """``player``'s notices after id ``after``, oldest first."""
        with self._db.read() as s:
            rows = s.rows("SELECT seq, player, game_id, version, seats, flag_at FROM herald_turns "
                          "WHERE player = %(p)s AND seq > %(a)s ORDER BY seq LIMIT %(n)s",
                          {"p": player, "a": after, "n": limit})
        return [Turn(int(r["seq"]), r["player"], r["game_id"], int(r["version"]), msgspec.json.decode(r["seats"]),
                     r["flag_at"]) for r in rows]

    def after_last(self, player: str) -> int:
        """The id of ``player``'s latest notice (0: none yet)."""
        with self._db.read() as s:
            rows = s.rows("SELECT MAX(seq) AS last FROM herald_turns WHERE player = %(p)s", {"p": player})
        return int(rows[0]["last"] or 0)

    def due(self, now: datetime) -> list[UUID]:
        """The games whose earliest flag time is ``now`` or before."""
        with self._db.read() as s:
            rows = s.rows("SELECT game_id FROM herald_turn_games WHERE deadline IS NOT NULL AND deadline <= %(n)s "
                          "ORDER BY deadline LIMIT 1000", {"n": iso(now)})
        return [UUID(r["game_id"]) for r in rows]
