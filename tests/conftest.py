"""Shared fixtures: a Herald on each storage backend, an in-process client, and a real
uvicorn server on a free port.

Backends come from HERALD_TEST_BACKENDS (default "sqlite,postgres"). PostgreSQL is started
when it is not running; a PostgreSQL test never skips silently: it fails if the server
cannot be reached.

A run leaves nothing behind (issue 32). Each run has an id (``PYTEST_HERALD_RUN``): its
PostgreSQL databases are named ``herald_test_<run>_…`` and its temporary files live in one
folder of its own (``TMPDIR``, pytest's ``tmp_path`` included). Whatever a test makes outside
its process is registered with :mod:`tests.janitor` and undone by its finalizer; what a test
left running is stopped when it ends (:func:`track`); at the end of the session the run's
databases still there are dropped and named as a failure, and its folder is removed. A run
killed outright is cleaned up by the janitor processes.
"""

from __future__ import annotations

import os
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from api.config import Settings
from api.bootstrap import Herald
from tests.janitor import janitor

ROOT = Path(__file__).resolve().parent.parent
BACKENDS = [b.strip() for b in os.environ.get("HERALD_TEST_BACKENDS", "sqlite,postgres").split(",") if b.strip()]
ADMIN_TOKEN = "test-admin-token"
DATABASE_PREFIX = "herald_test_"


# -- a run leaves nothing behind ------------------------------------------------------------------
_run: str | None = None


def run_id() -> str:
    """This run's id: its databases are ``herald_test_<id>_…`` (set by the controlling process;
    read once, so a test that clears the environment does not lose it)."""
    global _run
    if _run is None:
        _run = os.environ["PYTEST_HERALD_RUN"]
    return _run


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config) -> None:
    """The controlling pytest process (not an xdist worker) gives the run its id and its own
    temporary folder, before anything (pytest's basetemp, xdist's workers) reads TMPDIR.
    ``PYTEST_HERALD_RUN_AS`` chooses the id (tests/operations/test_leaves_nothing.py)."""
    if hasattr(config, "workerinput"):
        return
    global _run
    _run = run = os.environ.pop("PYTEST_HERALD_RUN_AS", None) or secrets.token_hex(4)
    os.environ["PYTEST_HERALD_RUN"] = run
    folder = Path(tempfile.gettempdir()) / f"herald-test-{run}"
    folder.mkdir(mode=0o711, exist_ok=True)  # 0711: a private PostgreSQL's folder inside it is the postgres user's
    folder.chmod(0o711)
    os.environ["TMPDIR"] = str(folder)
    os.environ.pop("PYTEST_DEBUG_TEMPROOT", None)
    tempfile.tempdir = str(folder)
    config.stash[_RUN_FOLDER] = folder
    janitor().register("folder", path=str(folder))
    if "postgres" in BACKENDS:
        janitor().register("databases", prefix=f"{DATABASE_PREFIX}{run}_", **_postgres_params())


_RUN_FOLDER = pytest.StashKey[Path]()


@pytest.hookimpl(trylast=True)  # after pytest's own teardown of session fixtures (a shared server)
def pytest_sessionfinish(session, exitstatus) -> None:
    """The controlling process, once every test (and xdist worker) is done: the run's databases
    still there were left by a test — dropped here, and the run fails naming them."""
    config = session.config
    if hasattr(config, "workerinput") or _RUN_FOLDER not in config.stash:
        return
    left: list[str] = []
    if "postgres" in BACKENDS:
        from tests.janitor import drop_databases

        try:
            left = drop_databases({"prefix": f"{DATABASE_PREFIX}{run_id()}_", **_postgres_params()})
        except Exception:  # noqa: BLE001 - PostgreSQL away: the tests said so already
            left = []
    messages = []
    if left:
        messages.append(f"the run left {len(left)} PostgreSQL database(s) behind (dropped now): {', '.join(left)}")
    running = _left_running()
    if running:
        messages.append(f"the run left {len(running)} process(es) running (stopped now): "
                        + "; ".join(f"{pid} {command[:120]}" for pid, command in running.items()))
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    for message in messages:
        if reporter is not None:
            reporter.write("\n")
            reporter.write_line(f"ERROR: {message}", red=True)
        else:
            print(f"ERROR: {message}", file=sys.stderr)
    if messages and exitstatus in (0, 5):
        session.exitstatus = 1


def _left_running(grace: float = 10.0) -> dict[int, str]:
    """The run's processes still running once every test is done, but this process's xdist
    workers (they are leaving): each is stopped (its group, if it leads one)."""
    from tests.janitor import processes_of_run, start_ticks, stop_process

    def workers() -> set[int]:  # children of this process started by execnet (xdist's workers)
        mine = set()
        for entry in Path("/proc").iterdir():
            try:
                stat = (entry / "stat").read_text()
                if (int(stat[stat.rindex(")") + 2:].split()[1]) == os.getpid()
                        and b"exec(eval(sys.stdin.readline()))" in (entry / "cmdline").read_bytes()):
                    mine.add(int(entry.name))
            except (OSError, ValueError):
                continue
        return mine

    deadline = time.monotonic() + grace  # a test's last server may still be shutting down
    found = processes_of_run(run_id(), workers())
    while found and time.monotonic() < deadline:
        time.sleep(0.5)
        found = processes_of_run(run_id(), workers())
    for pid in found:
        try:
            group = os.getpgid(pid) == pid
        except OSError:  # gone meanwhile
            continue
        stop_process({"pid": pid, "ticks": start_ticks(pid), "group": group})
    return found


# The time budget (README, "Tests"): `make test` leaves out the tests marked slow and should stay
# within 10 minutes on a loaded 2-core machine. A test over these bounds is named at the end of
# the run (a warning, not a failure: a loaded machine stretches every test).
UNMARKED_BOUND_S = 20.0  # a test not marked slow that takes longer should be
SLOW_BOUND_S = 300.0  # a slow test that takes longer should be made smaller, or move to bench/
_over_bound: list[tuple[float, str, bool]] = []


def pytest_runtest_logreport(report) -> None:
    if report.when != "call":
        return
    slow = "slow" in report.keywords
    if report.duration > (SLOW_BOUND_S if slow else UNMARKED_BOUND_S):
        _over_bound.append((report.duration, report.nodeid, slow))


def pytest_terminal_summary(terminalreporter) -> None:
    if not _over_bound:
        return
    terminalreporter.write_sep("-", "over the time budget (README, \"Tests\")")
    for duration, nodeid, slow in sorted(_over_bound, reverse=True):
        advice = (f"slow, over {SLOW_BOUND_S:.0f} s: make it smaller, or move it to bench/" if slow
                  else f"over {UNMARKED_BOUND_S:.0f} s: mark it @pytest.mark.slow, or make it smaller")
        terminalreporter.write_line(f"{duration:7.1f}s {nodeid} ({advice})")


def pytest_unconfigure(config) -> None:
    """The run's temporary folder goes last (pytest's own tmp_path folders are in it);
    ``HERALD_KEEP_TMP=1`` keeps it to read a failed run's logs."""
    folder = config.stash.get(_RUN_FOLDER, None)
    if folder is None:
        return
    if os.environ.get("HERALD_KEEP_TMP"):
        print(f"herald tests: kept {folder} (HERALD_KEEP_TMP)", file=sys.stderr)
        return
    shutil.rmtree(folder, ignore_errors=True)


class Made:
    """One thing a test made outside its process, registered with the janitor."""

    def __init__(self, undo, ticket: int):
        self._undo, self.ticket, self.done = undo, ticket, False

    def undo(self) -> None:
        if not self.done:
            self.done = True
            try:
                self._undo()
            finally:
                janitor().forget(self.ticket)


_made_in_test: list[Made] | None = None


def made(undo, kind: str, **spec) -> Made:
    """Register something made (``kind`` and ``spec`` as :mod:`tests.janitor` undoes it should
    this process die); undone when the test that made it ends, unless undone before."""
    found = Made(undo, janitor().register(kind, **spec))
    if _made_in_test is not None:
        _made_in_test.append(found)
    return found


def track(process: subprocess.Popen, group: bool = False, timeout: float = 10.0) -> Made:
    """A child process a test started (``group``: started as the leader of its own process
    group, which is stopped whole): stopped when the test ends if it is still running, and by
    the janitor if this pytest process dies first. ``made.undo()`` stops it now."""
    from tests.janitor import start_ticks, stop_process

    spec = {"pid": process.pid, "ticks": start_ticks(process.pid), "group": group, "timeout": timeout}
    return made(lambda: stop_process({**spec, "ticks": None}, process), "process", **spec)


@pytest.fixture(autouse=True)
def _leave_nothing() -> Iterator[None]:
    """What a test made and did not undo (a server still running after a failed assertion)
    is undone when the test ends; a fixture of a wider scope made its things before this."""
    global _made_in_test
    _made_in_test = mine = []
    try:
        yield
    finally:
        _made_in_test = None
        for thing in reversed(mine):
            try:
                thing.undo()
            except Exception:  # noqa: BLE001 - undo the others; the janitor retries at exit
                pass


def _postgres_params() -> dict[str, str]:
    return {
        "host": os.environ.get("POSTGRES_HOST", "127.0.0.1"),
        "port": os.environ.get("POSTGRES_PORT", "5432"),
        "user": os.environ.get("POSTGRES_USER", "postgres"),
        "password": os.environ.get("POSTGRES_PASSWORD", ""),
    }


def _ensure_postgres() -> None:
    import psycopg

    p = _postgres_params()
    try:
        psycopg.connect(dbname="postgres", connect_timeout=3, **p).close()
        return
    except psycopg.OperationalError:
        pass
    versions = sorted(os.listdir("/etc/postgresql")) if os.path.isdir("/etc/postgresql") else []
    if versions and shutil.which("pg_ctlcluster"):
        subprocess.run(["pg_ctlcluster", "--skip-systemctl-redirect", versions[-1], "main", "start"], check=False)
        for _ in range(30):
            try:
                psycopg.connect(dbname="postgres", connect_timeout=3, **p).close()
                return
            except psycopg.OperationalError:
                time.sleep(1)
    pytest.fail("PostgreSQL is not reachable on "
                f"{p['host']}:{p['port']}; start it (see README) or set HERALD_TEST_BACKENDS=sqlite")


@dataclass
class Backend:
    name: str
    env: dict[str, str]
    key: Path | None = None
    cleanup: list = field(default_factory=list)


def _postgres_backend() -> Backend:
    import psycopg

    from tests.janitor import drop_databases

    _ensure_postgres()
    p = _postgres_params()
    dbname = f"{DATABASE_PREFIX}{run_id()}_{uuid.uuid4().hex[:12]}"
    thing = made(lambda: drop_databases({"name": dbname, **p}), "database", name=dbname, **p)
    with psycopg.connect(dbname="postgres", autocommit=True, **p) as conn:
        conn.execute(f'CREATE DATABASE "{dbname}"')
    drop = thing.undo

    env = {
        "PERSISTENCE_MODULE": "eventsourcing.postgres",
        "POSTGRES_DBNAME": dbname,
        "POSTGRES_HOST": p["host"],
        "POSTGRES_PORT": p["port"],
        "POSTGRES_USER": p["user"],
        "POSTGRES_PASSWORD": p["password"],
    }
    return Backend("postgres", env, cleanup=[drop])  # by name: the third field is the key


@pytest.fixture(params=BACKENDS)
def backend(request, tmp_path) -> Iterator[Backend]:
    """Each storage backend in turn: a fresh SQLite file, or a fresh PostgreSQL database."""
    if request.param == "sqlite":
        found = Backend("sqlite", {"PERSISTENCE_MODULE": "eventsourcing.sqlite",
                                   "SQLITE_DBNAME": str(tmp_path / "herald.db")})
    elif request.param == "postgres":
        found = _postgres_backend()
    else:
        raise ValueError(f"unknown backend {request.param!r}")
    found.key = tmp_path / "signing-key.pem"
    yield found
    for undo in found.cleanup:
        undo()


@pytest.fixture
def herald(backend) -> Iterator[Herald]:
    service = Herald(env=backend.env, admin_token=ADMIN_TOKEN, signing_key_path=backend.key)
    yield service
    service.close()


@pytest.fixture
def client(herald) -> Iterator[TestClient]:
    app = create_app(herald, Settings(admin_token=ADMIN_TOKEN, sse_poll_seconds=0.05))
    with TestClient(app) as test_client:
        yield test_client


def _local_port_range() -> tuple[int, int]:
    try:
        low, high = Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()
        return int(low), int(high)
    except (OSError, ValueError):
        return 32768, 60999


def free_ports(count: int = 1) -> int:
    """A port p with p … p + count - 1 all free, below the kernel's ephemeral range.

    A port the kernel handed out for ``bind(0)`` is in that range, where any outgoing
    connection (a server's own PostgreSQL connections) may take it again before the test's
    server binds it: CI once saw `herald cluster` refuse its second process's port so."""
    low, _ = _local_port_range()
    chooser = secrets.SystemRandom()
    for _ in range(200):
        first = chooser.randrange(max(1024, low - 12000), low - count)
        try:
            for port in range(first, first + count):
                with socket.socket() as s:
                    s.bind(("127.0.0.1", port))
            return first
        except OSError:
            continue
    raise RuntimeError(f"no {count} consecutive free ports below {low}")


def free_port() -> int:
    return free_ports(1)


@dataclass
class LiveServer:
    url: str
    db: Path
    env: dict[str, str]
    process: subprocess.Popen
    log: Path
    made: Made | None = None

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def stop(self) -> None:
        """SIGTERM to the server (its process group), SIGKILL after 10 s."""
        if self.made is not None:
            self.made.undo()

    def cli(self, *args: str, check: bool = False) -> subprocess.CompletedProcess:
        """Run the real ``herald`` console script against this server's database."""
        return subprocess.run([str(Path(sys.executable).parent / "herald"), *args], env=self.env,
                              capture_output=True, text=True, check=check, cwd=self.db.parent)


def start_server(tmp_path: Path, extra_env: dict[str, str] | None = None) -> LiveServer:
    port = free_port()
    db = tmp_path / "var" / "herald.db"
    env = {**os.environ, "HERALD_DB": str(db), "HERALD_ADMIN_TOKEN": ADMIN_TOKEN}
    env.pop("PERSISTENCE_MODULE", None)
    env.pop("SQLITE_DBNAME", None)
    env.update(extra_env or {})  # e.g. a PostgreSQL backend's settings
    log = tmp_path / "server.log"
    process = subprocess.Popen(
        [str(Path(sys.executable).parent / "herald"), "serve", "--port", str(port), "--log-level", "info"],
        env=env, cwd=tmp_path, stdout=log.open("wb"), stderr=subprocess.STDOUT, process_group=0,
    )
    server = LiveServer(f"http://127.0.0.1:{port}", db, env, process, log, track(process, group=True))
    deadline = time.monotonic() + 90  # a shared, loaded machine can take long to import the app
    while time.monotonic() < deadline:
        if process.poll() is not None:
            server.stop()
            raise RuntimeError(f"herald serve exited: {log.read_text()}")
        try:
            if httpx.get(server.url + "/health", timeout=1).status_code == 200:
                return server
        except httpx.HTTPError:
            time.sleep(0.1)
    server.stop()
    raise RuntimeError(f"herald serve did not start: {log.read_text()}")


@pytest.fixture
def live_server(tmp_path) -> Iterator[LiveServer]:
    """A real ``herald serve`` (uvicorn) on a free port with a real SQLite file."""
    server = start_server(tmp_path)
    yield server
    server.stop()


def new_game(client, rules="open-table", seats=("alice", "bob"), **extra) -> dict:
    """Create a game through the API; returns the 201 body."""
    body = {"rules": rules, "seats": {s: {"player": s.title()} for s in seats}, **extra}
    response = client.post("/games", json=body)
    assert response.status_code == 201, response.text
    return response.json()


def post(client, game: dict, seat: str, command: dict, **extra):
    return client.post(
        f"/games/{game['id']}/commands",
        json={"seat": seat, "command": command, **extra},
        headers={"Authorization": f"Bearer {game['seat_tokens'][seat]}"},
    )
