"""/health and /ready: whether the database answers, and how far behind each read model is.

A probe reads the notification log's last id and every read model's tracking position in
one short transaction, off the event loop. At most one probe runs at a time; one that has
not answered within ``timeout`` seconds counts as "database unreachable" (a database that
went away can keep a connection attempt waiting far longer). ``/health`` reuses a probe for
``every`` seconds, so a load balancer or a benchmark polling it costs no more than before.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

import msgspec

from projections.sql import Database, Skipped


class ReadModelLag(msgspec.Struct, frozen=True):
    """A read model's tracking position in the notification log, how many ids it is behind,
    and the notifications it skipped because it could not apply them (projections/sql.py)."""

    position: int
    lag: int
    skipped: list[Skipped] = []


class Health(msgspec.Struct, frozen=True):
    """GET /health: the process is up (``ok``); whether its database answers; each read
    model's position and lag behind the notification log's ``head``."""

    ok: bool
    database: str = "reachable"
    head: int | None = None
    read_models: dict[str, ReadModelLag] = {}


class HealthCheck:
    def __init__(self, store: Any, every: float = 1.0, timeout: float = 2.0):
        self._recorder = store.recorder
        self._breaker = store.breaker
        self._db = Database.of(store.recorder)
        self.every, self.timeout = every, timeout
        self._last: tuple[float, Health] | None = None
        self._probe_task: asyncio.Future | None = None
        self._probe_started = 0.0

    async def health(self) -> Health:
        last = self._last
        if last is not None and time.monotonic() - last[0] < self.every:
            return last[1]
        return await self.probe()

    async def ready(self) -> bool:
        """Whether this process can serve: its database answers now."""
        return (await self.probe()).database == "reachable"

    async def probe(self) -> Health:
        if self._breaker.away:  # the store has seen it fail and a probe has not reached it since
            found = Health(True, "unreachable")
            self._last = (time.monotonic(), found)
            return found
        if self._probe_task is None or self._probe_task.done():
            self._probe_task = asyncio.ensure_future(asyncio.to_thread(self._read))
            self._probe_started = time.monotonic()
        remaining = self.timeout - (time.monotonic() - self._probe_started)
        try:
            found = await asyncio.wait_for(asyncio.shield(self._probe_task), max(remaining, 0.01))
        except Exception:  # unreachable, or still trying to reach it
            found = Health(True, "unreachable")
        self._last = (time.monotonic(), found)
        return found

    def _read(self) -> Health:
        head = self._recorder.max_notification_id() or 0
        with self._db.transaction() as s:
            rows = s.rows("SELECT projection, position FROM herald_tracking ORDER BY projection")
            skipped = s.rows("SELECT projection, position, error FROM herald_skipped ORDER BY projection, position")
        passed: dict[str, list[Skipped]] = {}
        for r in skipped:
            passed.setdefault(r["projection"], []).append(Skipped(int(r["position"]), r["error"]))
        return Health(True, "reachable", head, {
            r["projection"]: ReadModelLag(int(r["position"]), max(head - int(r["position"]), 0),
                                          passed.get(r["projection"], [])) for r in rows})
