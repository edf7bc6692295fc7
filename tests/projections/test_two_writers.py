"""Two processes on one SQLite file: a running server and `herald projections rebuild` (CI
once saw the rebuild fail with "database is locked" while the server caught the same read
model up). Each opens its own connections here, as two processes would."""

from __future__ import annotations

import threading
import time

import pytest
from eventsourcing.sqlite import SQLiteDatastore

from projections.sql import TRACKING_TABLE, Database, position, set_position


@pytest.fixture
def two(tmp_path):
    path = str(tmp_path / "herald.db")
    first, second = (Database(SQLiteDatastore(db_name=path, lock_timeout=10), "sqlite") for _ in range(2))
    with first.transaction() as s:
        s.execute(TRACKING_TABLE)
    return first, second


def test_a_named_lock_holds_off_another_process(two):
    """Database.exclusive: "Run the block while no other process runs one with the same
    ``name``"; on SQLite a file lock beside the database, as PostgreSQL's advisory lock."""
    first, second = two
    order: list[str] = []
    inside = threading.Event()

    def other() -> None:
        inside.wait()
        with second.exclusive("herald:projection:dice"):
            order.append("second")

    thread = threading.Thread(target=other, daemon=True)
    thread.start()
    with first.exclusive("herald:projection:dice"):
        inside.set()
        time.sleep(0.3)
        order.append("first")
    thread.join(5)
    assert order == ["first", "second"]
    with first.exclusive("herald:projection:index"), second.exclusive("herald:projection:dice"):
        pass  # other names do not wait


def test_a_transaction_that_reads_then_writes_outlasts_another_writer(two):
    """Without the write lock taken first, SQLite refuses at once a transaction that read
    before another connection committed ("database is locked", not after the timeout)."""
    first, second = two
    read = threading.Event()

    def other() -> None:
        read.wait()
        with second.transaction() as s:
            set_position(s, "other", 7)

    thread = threading.Thread(target=other, daemon=True)
    thread.start()
    with first.writing() as s:
        seen = position(s, "mine")
        read.set()
        time.sleep(0.3)  # the other writer waits now; it would have committed in between
        set_position(s, "mine", seen + 1)
    thread.join(5)
    with first.read() as s:
        assert position(s, "mine") == 1 and position(s, "other") == 7
