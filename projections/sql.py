"""A thin layer over the event store's own database connections, so read models live in
the same database (SQLite or PostgreSQL) and commit with their tracking position."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Protocol

_NAMED = re.compile(r"%\((\w+)\)s")


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


class Session:
    def __init__(self, db: Database, cursor: Cursor):
        self._db = db
        self._cursor = cursor

    def execute(self, statement: str, params: dict[str, Any] | None = None) -> None:
        self._cursor.execute(self._db.sql(statement), params or {})

    def rows(self, statement: str, params: dict[str, Any] | None = None) -> list[dict[str, Any]]:
        self.execute(statement, params)
        return [dict(row) for row in self._cursor.fetchall()]


TRACKING_TABLE = """
CREATE TABLE IF NOT EXISTS herald_tracking (
    projection TEXT PRIMARY KEY,
    position BIGINT NOT NULL
)"""


def position(session: Session, projection: str) -> int:
    rows = session.rows("SELECT position FROM herald_tracking WHERE projection = %(p)s", {"p": projection})
    return int(rows[0]["position"]) if rows else 0


def set_position(session: Session, projection: str, value: int) -> None:
    session.execute(
        "INSERT INTO herald_tracking (projection, position) VALUES (%(p)s, %(v)s) "
        "ON CONFLICT (projection) DO UPDATE SET position = %(v)s",
        {"p": projection, "v": value},
    )
