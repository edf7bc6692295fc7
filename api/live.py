"""Live streams: one follower of the event log per process, shared by every open stream.

An open SSE stream costs nothing while its game is quiet: it waits on an ``asyncio.Event``.
Its game's entry here holds the events of every stream on that game, and a write wakes
them all at once:

- a write by this process wakes them as soon as it is committed (``written``, called by
  the service after each append);
- a write by another process (several Herald processes on one PostgreSQL database) is
  seen by the one follower of this process, which reads the ids of new notifications
  (notification id and game id only) every ``poll_seconds`` while any stream is open,
  and wakes the streams of the games that moved.

Streams are capped per client address and in total (``Slots``): beyond, 429 with
``Retry-After``.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections import Counter
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any
from uuid import UUID

from api.errors import TooManyRequests
from projections.sql import Database

log = logging.getLogger("herald")


class Slots:
    """Open streams, counted per client and in total, under the configured caps."""

    def __init__(self, total: int, per_client: int, retry_after: int = 5):
        self.total, self.per_client, self.retry_after = total, per_client, retry_after
        self._open: Counter[str] = Counter()
        self._lock = threading.Lock()

    def take(self, client: str) -> None:
        """Count one more stream for ``client``, or refuse it (429)."""
        with self._lock:
            if sum(self._open.values()) >= self.total:
                raise TooManyRequests(f"this server has {self.total} live streams open, its limit; retry later",
                                      code="too_many_streams", retry_after=self.retry_after)
            if self._open[client] >= self.per_client:
                raise TooManyRequests(f"this client has {self.per_client} live streams open, the limit per "
                                      "client; close one first", code="too_many_streams",
                                      retry_after=self.retry_after)
            self._open[client] += 1

    def give_back(self, client: str) -> None:
        with self._lock:
            self._open[client] -= 1
            if self._open[client] <= 0:
                del self._open[client]

    def count(self) -> int:
        with self._lock:
            return sum(self._open.values())


class Listener:
    """One stream's view of its game: ``changed`` is set when the game may have moved."""

    def __init__(self, loop: asyncio.AbstractEventLoop):
        self.loop = loop
        self.changed = asyncio.Event()

    async def wait(self, timeout: float) -> bool:
        """Wait until the game may have moved (True) or ``timeout`` passed (False); clears
        the flag, so the caller reads after this and misses nothing written later."""
        try:
            await asyncio.wait_for(self.changed.wait(), timeout)
        except asyncio.TimeoutError:
            return False
        self.changed.clear()
        return True


class Live:
    """The streams of this process and the one follower that wakes them."""

    def __init__(self, db: Database, events_table: str, poll_seconds: float):
        self._db = db
        self._table = events_table
        self.poll_seconds = poll_seconds
        self._games: dict[UUID, set[Listener]] = {}
        self._any: set[Listener] = set()  # streams woken by a write to any game (a player's turns)
        self._lock = threading.Lock()
        self._follower: asyncio.Task | None = None
        self._last = 0  # the last notification id the follower has seen

    @classmethod
    def of(cls, store: Any, poll_seconds: float) -> Live:
        return cls(Database.of(store.recorder), store.recorder.events_table_name, poll_seconds)

    @contextmanager
    def listen(self, game_id: UUID) -> Iterator[Listener]:
        """Register a stream on ``game_id`` (call from the event loop) for the block's life."""
        listener = Listener(asyncio.get_running_loop())
        with self._lock:
            self._games.setdefault(game_id, set()).add(listener)
        self._ensure_follower()
        try:
            yield listener
        finally:
            with self._lock:
                found = self._games.get(game_id)
                if found is not None:
                    found.discard(listener)
                    if not found:
                        del self._games[game_id]

    @contextmanager
    def listen_any(self) -> Iterator[Listener]:
        """Register a stream woken by a write to any game (call from the event loop)."""
        listener = Listener(asyncio.get_running_loop())
        with self._lock:
            self._any.add(listener)
        self._ensure_follower()
        try:
            yield listener
        finally:
            with self._lock:
                self._any.discard(listener)

    def written(self, game_ids: Iterable[UUID], events: Iterable[object] = ()) -> None:
        """Events of ``game_ids`` were committed by this process: wake their streams
        (a written hook of the games service). Safe from any thread."""
        with self._lock:
            ids = set(game_ids)
            listeners = [listener for game_id in ids for listener in self._games.get(game_id, ())]
            if ids:
                listeners += self._any
        for listener in listeners:
            _wake(listener)

    def streams(self) -> int:
        with self._lock:
            return sum(len(found) for found in self._games.values()) + len(self._any)

    # -- the follower -----------------------------------------------------------------------------
    def _ensure_follower(self) -> None:
        if self._follower is None or self._follower.done():
            self._follower = asyncio.get_running_loop().create_task(self._follow())

    async def _follow(self) -> None:
        """While any stream is open: every ``poll_seconds``, read the ids of notifications
        newer than the last seen and wake the streams of the games they belong to."""
        try:
            while self.streams():
                try:
                    self._last = await asyncio.to_thread(self._max_id)
                    break
                except Exception:  # the database is away: try again, streams keep waiting
                    log.warning("live streams: cannot read the notification log; retrying", exc_info=True)
                    await asyncio.sleep(self.poll_seconds)
            self._wake_all()  # a write between a stream's first read and this start is not missed
            while self.streams():
                await asyncio.sleep(self.poll_seconds)
                try:
                    moved = await asyncio.to_thread(self._new_games)
                except Exception:  # the database is away: streams wait, the follower retries
                    log.warning("live streams: cannot read the notification log; retrying", exc_info=True)
                    continue
                self.written(moved)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("live streams: the follower stopped")

    def _max_id(self) -> int:
        column = "notification_id" if self._db.dialect == "postgres" else "rowid"
        with self._db.transaction() as s:
            rows = s.rows(f"SELECT MAX({column}) AS last FROM {self._table}")
        return int(rows[0]["last"] or 0)

    def _new_games(self) -> set[UUID]:
        column = "notification_id" if self._db.dialect == "postgres" else "rowid"
        moved: set[UUID] = set()
        while True:
            with self._db.transaction() as s:
                rows = s.rows(f"SELECT {column} AS id, originator_id FROM {self._table} "
                              f"WHERE {column} > %(after)s ORDER BY {column} LIMIT 1000", {"after": self._last})
            if not rows:
                return moved
            self._last = int(rows[-1]["id"])
            for row in rows:
                found = row["originator_id"]
                moved.add(found if isinstance(found, UUID) else UUID(str(found)))
            if len(rows) < 1000:
                return moved

    def _wake_all(self) -> None:
        with self._lock:
            listeners = [listener for found in self._games.values() for listener in found] + list(self._any)
        for listener in listeners:
            _wake(listener)

    async def close(self) -> None:
        if self._follower is not None and not self._follower.done():
            self._follower.cancel()
            try:
                await self._follower
            except (asyncio.CancelledError, Exception):
                pass


def _wake(listener: Listener) -> None:
    try:
        listener.loop.call_soon_threadsafe(listener.changed.set)
    except RuntimeError:  # its loop has closed: nobody is waiting
        pass
