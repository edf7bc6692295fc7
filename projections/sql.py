"""A thin layer over the event store's own database connections, so read models live in
the same database (SQLite or PostgreSQL) and commit with their tracking position."""

from __future__ import annotations

import fcntl
import logging
import os
import re
import threading
import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, Protocol

import msgspec
from eventsourcing.persistence import InterfaceError, OperationalError

_NAMED = re.compile(r"%\((\w+)\)s")
log = logging.getLogger("herald")


class Cursor(Protocol):
    def execute(self, statement: str, params: Any = None) -> Any: ...
    def fetchall(self) -> Any: ...
    def fetchone(self) -> Any: ...


class Database:
    """Runs statements written with ``%(name)s`` parameters on either backend."""

    def __init__(self, datastore: Any, dialect: str):
        self._datastore = datastore
        self.dialect = dialect

    @classmethod
    def of(cls, recorder: Any) -> Database:
        datastore = recorder.datastore
        dialect = "postgres" if type(datastore).__module__.startswith("eventsourcing.postgres") else "sqlite"
        return cls(datastore, dialect)

    def sql(self, statement: str) -> str:
        return _NAMED.sub(r":\1", statement) if self.dialect == "sqlite" else statement

    @contextmanager
    def transaction(self) -> Iterator[Session]:
        with self._datastore.transaction(commit=True) as cursor:
            yield Session(self, cursor)

    @contextmanager
    def read(self) -> Iterator[Session]:
        """For one statement that only reads: on SQLite a reader's connection of the library's
        pool, which does not wait for (or hold up) the one writer; on PostgreSQL a pooled
        connection in autocommit, as the library reads events (one round trip, no BEGIN and
        ROLLBACK around it)."""
        if self.dialect == "postgres":
            with self._datastore.get_connection() as conn, conn.cursor() as cursor:
                yield Session(self, cursor)
            return
        with self._datastore.transaction(commit=False) as cursor:
            yield Session(self, cursor)

    @contextmanager
    def writing(self) -> Iterator[Session]:
        """A transaction that writes after it reads. On SQLite it takes the write lock first
        (waiting up to the lock timeout), since a transaction that read before another
        process wrote cannot write at all: SQLite refuses it at once ("database is locked")."""
        with self.transaction() as session:
            if self.dialect == "sqlite":
                session.execute("UPDATE herald_tracking SET position = position WHERE 0 = 1")
            yield session

    @contextmanager
    def exclusive(self, name: str) -> Iterator[None]:
        """Run the block while no other process runs one with the same ``name``, a lock
        released at the end or when the process dies: on PostgreSQL a session advisory lock;
        on SQLite an exclusive ``flock`` of a file beside the database (a running server and
        ``herald projections rebuild`` share the file). An in-memory database has one process."""
        if self.dialect != "postgres":
            with self._file_lock(name):
                yield
            return
        key = advisory_key(name)
        with self._datastore.get_connection() as conn:
            conn.execute("SELECT pg_advisory_lock(%s)", (key,))
            try:
                yield
            finally:
                conn.execute("SELECT pg_advisory_unlock(%s)", (key,))


    @contextmanager
    def _file_lock(self, name: str) -> Iterator[None]:
        pool = self._datastore.pool
        if pool.is_sqlite_memory_mode:
            yield
            return
        path = f"{pool.db_name}.{re.sub(r'[^A-Za-z0-9_-]', '-', name)}.lock"
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            os.close(fd)  # releases the lock


def advisory_key(name: str) -> int:
    """A PostgreSQL advisory lock key (a signed 64-bit integer) for ``name``."""
    return (0x4845524C << 32) | zlib.crc32(name.encode())


SCHEMA_LOCK = "herald:schema"  # held while any process creates tables

# the database failed, not the event (SQLite "database is locked", a connection gone):
# a catch-up stops and retries later, it never skips the event
TRANSIENT = (OperationalError, InterfaceError)


class Session:
    def __init__(self, db: Database, cursor: Cursor):
        self._db = db
        self._cursor = cursor

    def execute(self, statement: str, params: dict[str, Any] | None = None) -> None:
        self._cursor.execute(self._db.sql(statement), params or {})

    def rows(self, statement: str, params: dict[str, Any] | None = None) -> list[dict[str, Any]]:
        self.execute(statement, params)
        return [dict(row) for row in self._cursor.fetchall()]

    def page(self, table: str, equal: dict[str, Any], after: int | None, limit: int,
             where: tuple[str, ...] = (), params: dict[str, Any] | None = None,
             ) -> tuple[list[dict[str, Any]], int | None]:
        """A page of ``table``'s rows, newest first: those whose columns equal ``equal``'s
        values (a None value: any), that meet the conditions ``where`` (with ``params``) and
        come before the cursor ``after``; at most ``limit`` of them, and the next page's cursor
        (None on the last page)."""
        conditions, values = ["1 = 1", *where], {**(params or {}), "limit": limit + 1}
        for column, value in equal.items():
            if value is not None:
                conditions.append(f"{column} = %({column})s")
                values[column] = value
        if after is not None:
            conditions.append("seq < %(after)s")
            values["after"] = after
        rows = self.rows(f"SELECT * FROM {table} WHERE {' AND '.join(conditions)} ORDER BY seq DESC LIMIT %(limit)s",
                         values)
        return rows[:limit], (int(rows[limit - 1]["seq"]) if len(rows) > limit else None)


TRACKING_TABLE = """
CREATE TABLE IF NOT EXISTS herald_tracking (
    projection TEXT PRIMARY KEY,
    position BIGINT NOT NULL
)"""


SKIPPED_TABLE = """
CREATE TABLE IF NOT EXISTS herald_skipped (
    projection TEXT NOT NULL,
    position BIGINT NOT NULL,
    error TEXT NOT NULL,
    PRIMARY KEY (projection, position)
)"""


class Skipped(msgspec.Struct, frozen=True):
    """A notification a read model could not apply (and skipped): its position and the error.
    Kept in ``herald_skipped``; /health lists them (api/health.py)."""

    position: int
    error: str


def position(session: Session, projection: str) -> int:
    rows = session.rows("SELECT position FROM herald_tracking WHERE projection = %(p)s", {"p": projection})
    return int(rows[0]["position"]) if rows else 0


def set_position(session: Session, projection: str, value: int) -> None:
    session.execute(
        "INSERT INTO herald_tracking (projection, position) VALUES (%(p)s, %(v)s) "
        "ON CONFLICT (projection) DO UPDATE SET position = %(v)s",
        {"p": projection, "v": value},
    )


class TrackedProjection:
    """A read model in the store's database that keeps its tracking position in the same
    transaction as its rows, catches up from the notification log and rebuilds from zero.

    Subclasses set ``name`` (bump it when the schema changes: the tables are then dropped and
    rebuilt), ``tables`` (names, for dropping), ``schema`` (CREATE statements) and ``apply``."""

    name: str
    tables: tuple[str, ...] = ()
    schema: tuple[str, ...] = ()
    batch = 500

    def __init__(self, db: Database, read_notifications: Callable[[int, int], list[tuple[int, Any]]]):
        self._db = db
        self._read = read_notifications
        self._lock = threading.Lock()
        with db.exclusive(SCHEMA_LOCK), db.transaction() as s:
            s.execute(TRACKING_TABLE)
            s.execute(SKIPPED_TABLE)
            fresh = not s.rows("SELECT position FROM herald_tracking WHERE projection = %(p)s", {"p": self.name})
            if fresh:
                for table in self.tables:
                    s.execute(f"DROP TABLE IF EXISTS {table}")
            for statement in self.schema:
                s.execute(statement)
            if fresh:
                set_position(s, self.name, 0)

    def prepare(self, batch: list[tuple[int, Any]]) -> Any:
        """Work to do before the batch's transaction (reads, or acts on other streams)."""
        return None

    def apply(self, session: Session, seq: int, event: Any, prepared: Any = None) -> None:
        """Fold one notification (a decoded event, or None for other streams) into the tables."""
        raise NotImplementedError

    def catch_up(self, progress: Callable[[int], None] | None = None) -> int:
        """Apply every notification after the tracking position; return how many.
        ``progress`` is told how far the notification ids advanced (the log may be read
        filtered, so ids can skip). A notification this read model cannot apply is skipped
        and reported (:meth:`health`, logged); it never stops the read model.

        One process at a time: with work to do, the catch-up runs under the read model's
        advisory lock (``Database.exclusive``), and a process that waited for it reads the
        position again, so no notification is applied twice. With nothing new, no lock."""
        with self._lock:
            with self._db.transaction() as s:
                start = position(s, self.name)
            if not self._read(start + 1, 1):
                return 0
            with self._db.exclusive(f"herald:projection:{self.name}"):
                return self._catch_up(progress)

    def _catch_up(self, progress: Callable[[int], None] | None) -> int:
        done = 0
        while True:
            with self._db.transaction() as s:
                start = position(s, self.name)
            batch = self._read(start + 1, self.batch)
            if not batch:
                return done
            try:
                self._apply_batch(batch)
            except TRANSIENT:
                raise
            except Exception:
                self._healthy()  # a database that fails on everything is not one bad event
                for one in batch:  # find the event at fault; apply the others
                    try:
                        self._apply_batch([one])
                    except TRANSIENT:
                        raise
                    except Exception as error:
                        self._healthy()
                        self._skip(one[0], error)
            done += len(batch)
            if progress:
                progress(batch[-1][0] - start)

    def _apply_batch(self, batch: list[tuple[int, Any]]) -> None:
        prepared = self.prepare(batch)
        with self._db.writing() as s:
            for seq, event in batch:
                self.apply(s, seq, event, prepared)
            set_position(s, self.name, batch[-1][0])

    def _healthy(self) -> None:
        """Raise if the database itself fails (then nothing is skipped: catch-up retries later)."""
        with self._db.transaction() as s:
            s.rows("SELECT 1 AS one")

    def _skip(self, seq: int, error: Exception) -> None:
        what = f"{type(error).__name__}: {error}"[:500].replace("\x00", "\\x00")
        log.error("read model %s skips notification %d it cannot apply: %s", self.name, seq, what)
        with self._db.writing() as s:
            s.execute("INSERT INTO herald_skipped (projection, position, error) VALUES (%(p)s, %(n)s, %(e)s) "
                      "ON CONFLICT (projection, position) DO UPDATE SET error = %(e)s",
                      {"p": self.name, "n": seq, "e": what})
            set_position(s, self.name, max(seq, position(s, self.name)))

    def rebuild(self, progress: Callable[[int], None] | None = None) -> int:
        """Forget everything and rebuild from the first notification."""
        with self._lock, self._db.exclusive(f"herald:projection:{self.name}"):
            with self._db.transaction() as s:
                for table in self.tables:
                    s.execute(f"DELETE FROM {table}")
                s.execute("DELETE FROM herald_skipped WHERE projection = %(p)s", {"p": self.name})
                set_position(s, self.name, 0)
            return self._catch_up(progress)
