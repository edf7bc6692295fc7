"""Cases for tests/operations/test_leaves_nothing.py, run there in a pytest of their own (the
file name keeps them out of the suite). Each makes what tests make — a PostgreSQL database, a
real ``herald serve``, a private PostgreSQL server, files in the temporary folder — and then
fails, or waits to be interrupted or killed. What they made is written to ``$LEFTOVER_REPORT``
(one JSON object a line) for the test to check afterwards."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from tests.conftest import BACKENDS, start_server
from tests.janitor import janitor


def report(**what) -> None:
    with open(os.environ["LEFTOVER_REPORT"], "a") as out:
        out.write(json.dumps(what) + "\n")


def make_everything(tmp_path: Path, private: bool) -> None:
    server = start_server(tmp_path)
    from tests.operations.test_front_door import descendants

    report(pids=[server.process.pid, *descendants(server.process.pid)], janitor=janitor()._process.pid)
    (Path(os.environ["TMPDIR"]) / "left-by-a-test.txt").write_text("a file outside tmp_path\n")
    if "postgres" in BACKENDS:
        from tests.conftest import _postgres_backend

        report(database=_postgres_backend().env["POSTGRES_DBNAME"])
    if private:
        from tests.scale.test_database_away import PrivatePostgres

        database = PrivatePostgres()
        database.start()
        report(private=str(database.folder), pids=[int((database.folder / "data" / "postmaster.pid")
                                                        .read_text().split()[0])])


def test_makes_things_then_fails(tmp_path):
    make_everything(tmp_path, private=False)
    assert False, "a test that fails"


def test_makes_things_then_waits(tmp_path):
    make_everything(tmp_path, private=True)
    report(ready=True)
    time.sleep(600)  # interrupted (SIGINT) or killed (SIGKILL) by the test


@pytest.fixture
def a_server(tmp_path):
    server = start_server(tmp_path)
    report(pids=[server.process.pid])
    yield server
    # no stop(): a fixture that forgets its server


def test_a_fixture_that_forgets_its_server(a_server):
    assert a_server.url
