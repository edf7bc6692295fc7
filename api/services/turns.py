"""Your turn (issue 29): the notices of :mod:`projections.turns` read by their player, with the
player token (a page, or a live stream that resumes from ``Last-Event-ID``), and the clock
sweep that records the flags nobody's request found (:class:`api.services.clocks.ClockSweep`)."""

from __future__ import annotations

from typing import Any

import msgspec

from api.services.clocks import ClockSweep, deadline
from api.services.webhooks import Webhooks
from projections.sql import Database
from projections.turns import Turn, Turns


class TurnsPage(msgspec.Struct, frozen=True):
    """GET /players/{name}/turns: ``player``'s notices after ``after``; ``last``: the id to ask after next."""

    turns: list[Turn]
    last: int


class YourTurn:
    """The your-turn read model over the games service, and who may read whose notices."""

    def __init__(self, games: Any, players: Any, token_key: bytes, sweep_seconds: float = 5.0,
                 webhook_retry_seconds: float = 5.0, webhook_poll_seconds: float = 1.0,
                 webhook_private: bool = False):
        self.games, self.players = games, players
        db = Database.of(games.store.recorder)
        self.turns = Turns(db, games._notifications, games.at_version, deadline)
        self.sweep = ClockSweep(games, self.turns, sweep_seconds)
        self.webhooks = Webhooks(db, self.turns, token_key, webhook_retry_seconds, webhook_poll_seconds,
                                 webhook_private)

    def authorize(self, name: str, token: str | None) -> str:
        """Only ``name``'s own player token reads ``name``'s notices (401 / 403 otherwise): the
        name as registered (as the seats name it)."""
        return self.players.claim_identity(name, token, what="read their turns")[0].name

    def page(self, name: str, after: int, limit: int = 100) -> TurnsPage:
        self.turns.catch_up()
        found = self.turns.after(name, after, limit)
        return TurnsPage(found, found[-1].id if found else after)
