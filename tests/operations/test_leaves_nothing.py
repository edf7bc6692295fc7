"""Issue 32: "425 herald_test_* databases are left in the shared PostgreSQL … two `herald serve`
processes and the test hosts' PostgreSQL were still running an hour and a half later (parent
gone)." A test run leaves nothing behind: every database, folder and process its tests make
is removed — when a test fails, when a fixture forgets its server, when the run is interrupted
(SIGINT, as Ctrl-C) and when it is killed outright (SIGKILL: nothing of pytest runs, the
janitor processes of tests/janitor.py clean up).

Three pytest runs of tests/operations/leftover_cases.py, each with a run id of its own, are
checked afterwards: no PostgreSQL database of the run, no process of the run (the ones the
cases report, and any process whose environment names the run), and no run folder."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psycopg
import pytest

from tests.conftest import BACKENDS, DATABASE_PREFIX, ROOT, _postgres_params, track
from tests.janitor import processes_of_run

CASES = "tests/operations/leftover_cases.py"


def reports(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


def alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rindex(")") + 2] not in "ZX"


def databases(run: str) -> list[str]:
    with psycopg.connect(dbname="postgres", autocommit=True, **_postgres_params()) as conn:
        return [r[0] for r in conn.execute("SELECT datname FROM pg_database WHERE datname LIKE %s",
                                           (f"{DATABASE_PREFIX}{run}\\_%",))]


class SubRun:
    def __init__(self, tmp_path: Path, name: str, *cases: str):
        self.run = f"{os.environ['PYTEST_HERALD_RUN'][:4]}{name}"
        self.report = tmp_path / f"{name}.jsonl"
        self.log = tmp_path / f"{name}.log"
        env = {k: v for k, v in os.environ.items()
               if not k.startswith(("PYTEST_XDIST", "PYTEST_CURRENT", "PYTEST_HERALD_RUN"))}
        env.update({"PYTEST_HERALD_RUN_AS": self.run, "LEFTOVER_REPORT": str(self.report),
                    "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"})  # hypothesis, schemathesis: seconds of imports
        self.process = subprocess.Popen(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *(f"{CASES}::{c}" for c in cases)],
            cwd=ROOT, env=env, stdout=self.log.open("wb"), stderr=subprocess.STDOUT, start_new_session=True)
        self.made = track(self.process, group=True)
        self.folder = Path(os.environ["TMPDIR"]) / f"herald-test-{self.run}"

    def wait(self, timeout: float) -> int:
        try:
            return self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            raise AssertionError(f"pytest did not end within {timeout:.0f} s: {self.log.read_text()[-4000:]}") from None

    def said(self) -> list[dict]:
        return reports(self.report)

    def wait_ready(self, timeout: float = 180) -> None:
        deadline = time.monotonic() + timeout
        while not any(r.get("ready") for r in self.said()):
            assert self.process.poll() is None, self.log.read_text()
            assert time.monotonic() < deadline, self.log.read_text()
            time.sleep(0.2)

    def check_nothing_left(self, timeout: float = 60) -> None:
        said = self.said()
        janitors = [r["janitor"] for r in said if "janitor" in r]
        pids = [p for r in said for p in r.get("pids", [])]
        assert janitors and pids, said
        deadline = time.monotonic() + timeout
        while any(alive(p) for p in janitors) and time.monotonic() < deadline:  # still cleaning up
            time.sleep(0.2)
        assert not any(alive(p) for p in janitors), f"the janitor still runs after {timeout} s"
        assert not [p for p in pids if alive(p)], (said, self.log.read_text()[-3000:])
        assert not processes_of_run(self.run), processes_of_run(self.run)
        if "postgres" in BACKENDS:
            assert [r for r in said if "database" in r], said
            assert not databases(self.run)
        assert not self.folder.exists(), sorted(p.name for p in self.folder.rglob("*"))[:20]
        for r in said:
            if "private" in r:
                assert not Path(r["private"]).exists()


@pytest.mark.slow  # three pytest runs, two private PostgreSQL servers (make test-slow; CI): every run checks its
# own databases and processes at its end (tests/conftest.py, pytest_sessionfinish)
def test_nothing_is_left_when_tests_fail_are_interrupted_or_killed(tmp_path):
    failing = SubRun(tmp_path, "fail", "test_makes_things_then_fails", "test_a_fixture_that_forgets_its_server")
    interrupted = SubRun(tmp_path, "int", "test_makes_things_then_waits")
    killed = SubRun(tmp_path, "kill", "test_makes_things_then_waits")

    interrupted.wait_ready()
    os.kill(interrupted.process.pid, signal.SIGINT)  # Ctrl-C: pytest tears down what it set up
    killed.wait_ready()
    os.kill(killed.process.pid, signal.SIGKILL)  # nothing of pytest runs: the janitors clean up

    assert failing.wait(300) == 1, failing.log.read_text()
    log = failing.log.read_text()
    assert "1 failed, 1 passed" in log and "the run left" not in log, log
    assert interrupted.wait(180) == 2, interrupted.log.read_text()
    assert "KeyboardInterrupt" in interrupted.log.read_text()
    killed.wait(30)
    for sub in (failing, interrupted, killed):
        sub.check_nothing_left()
