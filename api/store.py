"""The event store: one eventsourcing ``Application`` per process (DESIGN.md, "Storage").

Events are msgspec Structs written through a small msgspec mapper (9.5.x ships none).
SQLite in ``./var/herald.db`` by default; PostgreSQL when ``PERSISTENCE_MODULE`` says so.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import Any, ClassVar
from uuid import NAMESPACE_URL, UUID, uuid5

import msgspec
from eventsourcing.application import Application
from eventsourcing.persistence import InterfaceError, Mapper, OperationalError, StoredEvent, Transcoder
from eventsourcing.utils import get_topic, resolve_topic

from api.config import sqlite_path
from api.files import private_database
from domain.game import Game, Recorded, project_game
from projections.sql import SCHEMA_LOCK, Database


class MsgspecMapper(Mapper):
    """Stores msgspec Struct events as their JSON; decodes them by topic."""

    def to_stored_event(self, domain_event: Any) -> StoredEvent:
        state = msgspec.json.encode(domain_event)
        if self.compressor:
            state = self.compressor.compress(state)
        if self.cipher:
            state = self.cipher.encrypt(state)
        return StoredEvent(
            originator_id=domain_event.originator_id,
            originator_version=domain_event.originator_version,
            topic=get_topic(type(domain_event)),
            state=state,
        )

    def to_domain_event(self, stored_event: StoredEvent) -> Any:
        return msgspec.json.decode(self._plain(stored_event), type=resolve_topic(stored_event.topic))

    def event_type(self, stored_event: StoredEvent) -> str:
        """The ``type`` of a stored event that has one (a game's or a tournament's), decoding
        nothing else."""
        return _decode_type(self._plain(stored_event)).type

    def _plain(self, stored_event: StoredEvent) -> bytes:
        state = stored_event.state
        if self.cipher:
            state = self.cipher.decrypt(state)
        if self.compressor:
            state = self.compressor.decompress(state)
        return state


class _Typed(msgspec.Struct):
    type: str


_decode_type = msgspec.json.Decoder(_Typed).decode


class UnusedTranscoder(Transcoder):
    """The mapper encodes with msgspec; the library still wants a transcoder object."""

    def encode(self, obj: Any) -> bytes:  # pragma: no cover - never called
        raise NotImplementedError

    def decode(self, data: bytes) -> Any:  # pragma: no cover - never called
        raise NotImplementedError


class GameSecrets(msgspec.Struct, frozen=True):
    """A game's private stream: its server seed and its seat tokens' hashes. Never served,
    never exported; the seed reaches the public record only through ``SeedRevealed``.

    Written with ``GameCreated`` (version 1); each later version replaces the hashes of the
    seats it names (a seat claimed by its registered player gets a token of its own, and the
    one its creator held stops acting for it) and repeats the seed."""

    originator_id: UUID
    originator_version: int
    timestamp: datetime
    game: UUID
    seed: str
    token_hashes: dict[str, str]
    invitation: str = ""  # the hash of the invitation link's secret (open seats: issue 29)


class NotAGame(LookupError):
    """The id names a stream that is not a game's (its secrets, a tournament)."""


def _game_events(stream_id: UUID, events: Any) -> Any:
    for event in events:
        if not isinstance(event, Recorded):
            raise NotAGame(f"{stream_id} is not a game")
        yield event


def secrets_id(game_id: UUID) -> UUID:
    """The id of a game's private stream."""
    return uuid5(NAMESPACE_URL, f"herald:secrets:{game_id}")


def store_env(environ: dict[str, str] | None = None) -> dict[str, str]:
    """The eventsourcing settings for this process, from the environment."""
    environ = dict(os.environ if environ is None else environ)
    env = {
        "MAPPER_TOPIC": get_topic(MsgspecMapper),
        "TRANSCODER_TOPIC": get_topic(UnusedTranscoder),
        "AGGREGATE_CACHE_MAXSIZE": environ.get("HERALD_CACHE_GAMES", "1000"),
        # Games are frozen Structs: sharing the cached object is safe, and a deep copy per
        # command would cost O(game length) (DESIGN.md, "Storage").
        "DEEPCOPY_FROM_AGGREGATE_CACHE": "n",
    }
    module = environ.get("PERSISTENCE_MODULE", "eventsourcing.sqlite")
    env["PERSISTENCE_MODULE"] = module
    if module == "eventsourcing.sqlite":
        path = sqlite_path(environ)
        if str(path) != ":memory:" and not str(path).startswith("file:"):
            private_database(path)
        env["SQLITE_DBNAME"] = str(path)
        env["SQLITE_LOCK_TIMEOUT"] = environ.get("SQLITE_LOCK_TIMEOUT", "10")
    else:
        for key, value in environ.items():
            if key.startswith("POSTGRES_"):
                env[key] = value
        env.setdefault("POSTGRES_DBNAME", "herald")
        env.setdefault("POSTGRES_HOST", "127.0.0.1")
        env.setdefault("POSTGRES_PORT", "5432")
        env.setdefault("POSTGRES_USER", "postgres")
        env.setdefault("POSTGRES_PASSWORD", "")
        # the library waits 30 s for a connection by default, and retries a write ten times:
        # with the database away, answer 503 within seconds instead (docs/deploy.md)
        env.setdefault("POSTGRES_CONNECT_TIMEOUT", "2")
        # the library's recorder, each write's statements rendered once and its events sent in binary
        env["APPLICATION_RECORDER_TOPIC"] = environ.get("APPLICATION_RECORDER_TOPIC",
                                                        "api.postgres_recorder:HeraldPostgresRecorder")
    return env


class Breaker:
    """Once the database has failed, every use of it fails at once (callers answer 503)
    instead of each waiting on it — the group commit writes on the event loop, which must
    not stall — until a probe, on a thread of its own, reaches the database again."""

    def __init__(self, probe: Callable[[], Any], every: float = 0.5, enabled: bool = True):
        self._probe, self.every, self.enabled = probe, every, enabled
        self._open = threading.Event()
        self._lock = threading.Lock()

    @property
    def away(self) -> bool:
        return self._open.is_set()

    def check(self) -> None:
        if self._open.is_set():
            raise OperationalError("the database is away (a probe retries it)")

    def failed(self) -> None:
        with self._lock:
            if self._open.is_set():
                return
            self._open.set()
        threading.Thread(target=self._until_back, name="herald-database-probe", daemon=True).start()

    def _until_back(self) -> None:
        while True:
            time.sleep(self.every)
            try:
                self._probe()
            except Exception:
                continue
            self._open.clear()
            return

    @contextmanager
    def guard(self) -> Iterator[None]:
        if not self.enabled:  # SQLite: a file does not go away; "locked" is not "away"
            yield
            return
        self.check()
        try:
            yield
        except (OperationalError, InterfaceError):
            self.failed()
            raise


class HeraldStore(Application):
    """The event store of every game. Keep one per process for its whole life."""

    name = "herald"
    env: ClassVar[dict[str, str]] = {}

    def __init__(self, env: dict[str, str]):
        """On PostgreSQL the tables are created under an advisory lock: ``CREATE TABLE IF NOT
        EXISTS`` is not atomic, and processes starting together on a fresh database would
        otherwise collide in the catalogue (UniqueViolation on ``pg_type``)."""
        postgres = env.get("PERSISTENCE_MODULE") == "eventsourcing.postgres"
        super().__init__(env={**env, "CREATE_TABLE": "n"} if postgres else env)
        if postgres:
            with Database.of(self.recorder).exclusive(SCHEMA_LOCK):
                self.recorder.create_table()
        self.breaker = Breaker(self.recorder.max_notification_id, enabled=postgres)
        self.networked = postgres  # a write waits on a round trip and the server's fsync
        self._folding: dict[UUID, tuple[threading.Lock, int]] = {}  # games being folded from the start, and how many wait
        self._folding_lock = threading.Lock()
        # One attempt per write: the library retries a failed write ten times, waiting for a
        # connection each time, which would hold the event loop while the database is away.
        insert = type(self.recorder).insert_events
        self._insert_once = getattr(insert, "__wrapped__", insert).__get__(self.recorder)

    def append(self, *events: Any) -> None:
        """Write events in one transaction (IntegrityError when a version is taken). Only the
        committer calls it (api/committer.py: the one write path, which tells the written hooks).

        Straight to the recorder: ``Application.save`` would also collect events through
        runtime Protocol checks (about 90 µs a command here) for snapshot and follower hooks,
        and ``EventStore.put`` builds a notification object per event, none of which Herald
        uses."""
        stored = [self.mapper.to_stored_event(event) for event in events]
        with self.breaker.guard():
            self._insert_once(stored)

    def cached(self, game_id: UUID) -> Game | None:
        """The game as this process last saw it, if it holds it (no read of the store)."""
        cache = self.repository.cache
        try:
            return cache.get(game_id) if cache is not None else None
        except KeyError:
            return None

    def cache_put(self, game_id: UUID, game: Game) -> None:
        """Hold ``game`` as this process last saw it (the committer's, after a write)."""
        if self.repository.cache is not None:
            self.repository.cache.put(game_id, game)

    def game(self, game_id: UUID) -> Game:
        """The current game, from the aggregate cache fast-forwarded from the store (events
        another process wrote included); a game that moved is cached as it now stands. A game
        not cached is folded from its first event once, however many ask together (a long
        game's fold holds the interpreter for a while: issue 30 point 3); the others wait, then
        take it from the cache."""
        if self.repository.cache is None:
            return self._game(game_id)
        try:
            self.repository.cache.get(game_id)
        except KeyError:
            with self._first_fold(game_id):
                return self._game(game_id)
        return self._game(game_id)

    @contextmanager
    def _first_fold(self, game_id: UUID) -> Iterator[None]:
        with self._folding_lock:
            lock, waiting = self._folding.get(game_id, (None, 0))
            lock = lock or threading.Lock()
            self._folding[game_id] = (lock, waiting + 1)
        try:
            with lock:
                yield
        finally:
            with self._folding_lock:
                lock, waiting = self._folding[game_id]
                if waiting == 1:
                    del self._folding[game_id]
                else:
                    self._folding[game_id] = (lock, waiting - 1)

    def _game(self, game_id: UUID) -> Game:
        with self.breaker.guard():
            game = self.repository.get(game_id, projector_func=self._projector(game_id))
        cache = self.repository.cache
        if cache is not None:
            try:
                cached = cache.get(game_id)
            except KeyError:
                cached = None
            if cached is None or cached.version < game.version:
                cache.put(game_id, game)
        return game

    def _projector(self, game_id: UUID):
        return lambda game, events: project_game(game, _game_events(game_id, events))

    def stream(self, game_id: UUID, after: int = 0, upto: int | None = None, limit: int | None = None) -> list[Recorded]:
        """A game's stored events with versions in (after, upto]."""
        with self.breaker.guard():
            return list(self.events.get(game_id, gt=after or None, lte=upto, limit=limit))

    def last(self, game_id: UUID) -> Any:
        """The last event stored in ``game_id``'s stream, or None: one row, nothing folded."""
        with self.breaker.guard():
            found = list(self.events.get(game_id, desc=True, limit=1))
        return found[0] if found else None

    def secrets(self, game_id: UUID) -> GameSecrets | None:
        """A game's private stream folded: the seed, and each seat's latest token hash."""
        with self.breaker.guard():
            found = list(self.events.get(secrets_id(game_id)))
        if not found:
            return None
        hashes: dict[str, str] = {}
        for change in found:
            hashes.update(change.token_hashes)
        invitation = next((change.invitation for change in found if change.invitation), "")
        return msgspec.structs.replace(found[-1], token_hashes=hashes, invitation=invitation)
