"""The game index: one row per game, newest first, filtered by player, rule system,
status or tournament. Kept in the event store's database with its tracking position;
catches up by reading the notification log; can be rebuilt from zero."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import msgspec

from domain.game import Recorded
from projections.sql import Session, TrackedProjection

NAME = "game-index/2"  # bump when the schema changes: the tables are dropped and rebuilt

SCHEMA = [
    """CREATE TABLE IF NOT EXISTS herald_games (
        seq BIGINT PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
        rules TEXT NOT NULL,
        scenario TEXT NOT NULL,
        status TEXT NOT NULL,
        version INTEGER NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        tournament TEXT,
        fork_of TEXT,
        open_disputes INTEGER NOT NULL DEFAULT 0,
        seats TEXT NOT NULL,
        outcome TEXT
    )""",
    """CREATE TABLE IF NOT EXISTS herald_game_players (
        game_id TEXT NOT NULL,
        seat TEXT NOT NULL,
        player TEXT NOT NULL,
        PRIMARY KEY (game_id, seat)
    )""",
    "CREATE INDEX IF NOT EXISTS herald_game_players_player ON herald_game_players (player)",
]


class GameRow(msgspec.Struct, frozen=True):
    """A game as the index lists it."""

    id: str
    rules: str
    scenario: str
    status: str
    version: int
    created_at: str
    updated_at: str
    seats: dict[str, Any]
    tournament: str | None = None
    fork_of: str | None = None
    open_disputes: int = 0
    outcome: dict[str, Any] | None = None


class GameIndex(TrackedProjection):
    """The game index projection over a store's notification log."""

    name = NAME
    tables = ("herald_games", "herald_game_players")
    schema = tuple(SCHEMA)

    def apply(self, session: Session, seq: int, event: Recorded | None, prepared: None = None) -> None:
        if event is not None:
            _apply(session, seq, event)

    def list(
        self,
        *,
        player: str | None = None,
        rules: str | None = None,
        status: str | None = None,
        tournament: str | None = None,
        fork_of: str | None = None,
        after: int | None = None,
        limit: int = 50,
    ) -> tuple[list[GameRow], int | None]:
        """A page of games, newest first, and the cursor of the next page (or None)."""
        self.catch_up()
        played_by: tuple[str, ...] = ()
        if player is not None:
            played_by = ("id IN (SELECT game_id FROM herald_game_players WHERE player = %(player)s)",)
        with self._db.transaction() as s:
            rows, cursor = s.page("herald_games", {"rules": rules, "status": status, "tournament": tournament,
                                                   "fork_of": fork_of}, after, limit, played_by, {"player": player})
        return [_row(r) for r in rows], cursor


    def ended(self, game_id: str) -> bool:
        """Whether the index has the game ended (one row read; no catch-up: an end just
        recorded may be read a moment later)."""
        with self._db.transaction() as s:
            rows = s.rows("SELECT status FROM herald_games WHERE id = %(id)s", {"id": game_id})
        return bool(rows) and rows[0]["status"] == "ended"

    def forks(self, game_id: str) -> list[GameRow]:
        """Every fork of a game, newest first."""
        rows, _ = self.list(fork_of=game_id, limit=500)
        return rows


def _row(r: dict[str, Any]) -> GameRow:
    return GameRow(
        id=r["id"], rules=r["rules"], scenario=r["scenario"], status=r["status"], version=int(r["version"]),
        created_at=r["created_at"], updated_at=r["updated_at"], seats=msgspec.json.decode(r["seats"]),
        tournament=r["tournament"], fork_of=r["fork_of"], open_disputes=int(r["open_disputes"]),
        outcome=msgspec.json.decode(r["outcome"]) if r["outcome"] else None,
    )


def _apply(s: Session, seq: int, event: Recorded) -> None:
    game, at = str(event.originator_id), event.timestamp.isoformat(timespec="microseconds")
    data = event.data
    if event.type == "GameCreated":
        s.execute(
            "INSERT INTO herald_games (seq, id, rules, scenario, status, version, created_at, updated_at, "
            "tournament, fork_of, seats) VALUES (%(seq)s, %(id)s, %(rules)s, %(scenario)s, 'active', %(v)s, %(at)s, "
            "%(at)s, %(tournament)s, %(fork_of)s, %(seats)s) ON CONFLICT (id) DO NOTHING",
            {"seq": seq, "id": game, "rules": data["rules"], "scenario": data["scenario"], "v": event.version,
             "at": at, "tournament": (data.get("tournament") or {}).get("id"),
             "fork_of": (data.get("fork") or {}).get("game"),
             "seats": msgspec.json.encode(data["seats"]).decode()},
        )
        for seat, info in sorted(data["seats"].items()):
            s.execute(
                "INSERT INTO herald_game_players (game_id, seat, player) VALUES (%(g)s, %(s)s, %(p)s) "
                "ON CONFLICT (game_id, seat) DO NOTHING",
                {"g": game, "s": seat, "p": info["player"]},
            )
        return
    s.execute(
        # a fork's copied play keeps its first times, older than the fork's own creation: never back
        "UPDATE herald_games SET version = %(v)s, updated_at = CASE WHEN updated_at < %(at)s THEN %(at)s "
        "ELSE updated_at END WHERE id = %(id)s AND version < %(v)s",
        {"v": event.version, "at": at, "id": game},
    )
    if event.type == "GameEnded":
        s.execute(
            "UPDATE herald_games SET status = 'ended', outcome = %(o)s WHERE id = %(id)s",
            {"o": msgspec.json.encode(data["outcome"]).decode(), "id": game},
        )
    elif event.type == "DisputeRaised":
        s.execute("UPDATE herald_games SET open_disputes = open_disputes + 1 WHERE id = %(id)s", {"id": game})
    elif event.type == "DisputeRuled":
        s.execute("UPDATE herald_games SET open_disputes = open_disputes - 1 WHERE id = %(id)s", {"id": game})


def decode_batch(notifications: Iterable[Any], decode: Callable[[Any], Any]) -> list[tuple[int, Recorded | None]]:
    """Pair each notification id with its game event (None for anything else)."""
    out = []
    for n in notifications:
        event = decode(n)
        out.append((n.id, event if isinstance(event, Recorded) else None))
    return out
