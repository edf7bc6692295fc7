"""api/postgres_recorder.py: Herald's PostgreSQL recorder writes exactly the rows the
eventsourcing library's own recorder writes, and refuses a taken version the same way; only
what a write costs the writing process changes (statements rendered once, the stored events
sent in binary)."""

from __future__ import annotations

import uuid

import psycopg
import pytest
from eventsourcing.persistence import IntegrityError, StoredEvent
from eventsourcing.postgres import PostgresApplicationRecorder

from api.postgres_recorder import HeraldPostgresRecorder
from api.store import HeraldStore, store_env
from tests.conftest import BACKENDS, _postgres_backend, _postgres_params

pytestmark = pytest.mark.skipif("postgres" not in BACKENDS, reason="PostgreSQL is not among HERALD_TEST_BACKENDS")

# every byte the text format of a composite must quote or escape, a NUL, bytes that are not UTF-8
AWKWARD = [b'{"text": "a, (quoted) \\"note\\"\\\\ \\n\\t"}', bytes(range(256)), b"", b"()", b'"', b"\\", b" "]


@pytest.fixture
def stores(tmp_path):
    backend = _postgres_backend()
    env = {**backend.env, "HERALD_DATA_DIR": str(tmp_path)}
    library_env = {**store_env(env), "APPLICATION_RECORDER_TOPIC": "eventsourcing.postgres:PostgresApplicationRecorder"}
    found = {"herald": HeraldStore(env=store_env(env)), "library": HeraldStore(env=library_env)}
    yield found
    for store in found.values():
        store.close()
    for undo in backend.cleanup:
        undo()


def rows(dbname: str, stream: uuid.UUID) -> list[tuple]:
    with psycopg.connect(dbname=dbname, **_postgres_params()) as conn:
        return conn.execute("SELECT originator_version, topic, state FROM herald_events WHERE originator_id = %s "
                            "ORDER BY originator_version", (stream,)).fetchall()


def test_herald_writes_the_rows_the_library_writes(stores):
    assert type(stores["herald"].recorder) is HeraldPostgresRecorder  # what store_env chooses on PostgreSQL
    assert type(stores["library"].recorder) is PostgresApplicationRecorder
    streams = {name: uuid.uuid4() for name in stores}
    for name, store in stores.items():
        store.recorder.insert_events([StoredEvent(streams[name], v, "domain.game:Recorded", state)
                                      for v, state in enumerate(AWKWARD, start=1)])
    dbname = stores["herald"].recorder.datastore.pool.kwargs["dbname"]
    written = {name: rows(dbname, stream) for name, stream in streams.items()}
    assert written["herald"] == written["library"]
    assert [bytes(state) for _, _, state in written["herald"]] == AWKWARD


def test_a_taken_version_is_refused_and_nothing_of_its_transaction_is_written(stores):
    store = stores["herald"]
    stream, other = uuid.uuid4(), uuid.uuid4()
    store.recorder.insert_events([StoredEvent(stream, 1, "domain.game:Recorded", b"{}")])
    with pytest.raises(IntegrityError):
        store.recorder.insert_events([StoredEvent(other, 1, "domain.game:Recorded", b"{}"),
                                      StoredEvent(stream, 1, "domain.game:Recorded", b"{}")])
    dbname = store.recorder.datastore.pool.kwargs["dbname"]
    assert rows(dbname, other) == []
    assert store.recorder.max_notification_id() == 1
