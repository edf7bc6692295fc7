"""Issue 32, the front door: what a newcomer or an operator meets first.

- A database that is missing, a server that refuses the connection, a wrong password, a port
  in use: ``herald serve`` (also with ``--workers 2``), ``herald cluster`` and the CLI each say
  so in one line with what to do, before anything starts; no traceback.
- A process ends with the process that started it: ``kill -9`` of a real ``herald serve`` takes
  its analysis pool workers with it, and ``kill -9`` of ``herald serve --workers 2`` takes its
  uvicorn workers (and theirs).
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from tests.conftest import BACKENDS, _postgres_backend, _postgres_params, free_port, free_ports, start_server, track

HERALD = str(Path(sys.executable).parent / "herald")
STUDY_SEED = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"
needs_postgres = pytest.mark.skipif("postgres" not in BACKENDS, reason="HERALD_TEST_BACKENDS excludes postgres")


def clean_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("POSTGRES_", "HERALD_", "SQLITE_", "PERSISTENCE_"))}
    return {**env, "HERALD_DATA_DIR": str(tmp_path / "data"), **extra}


def herald(*args: str, env: dict[str, str], cwd: Path, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([HERALD, *args], env=env, cwd=cwd, capture_output=True, text=True, timeout=timeout,
                          stdin=subprocess.DEVNULL)


def one_line(done: subprocess.CompletedProcess, *wanted: str) -> str:
    """The command failed with exactly one line on stderr, holding every ``wanted`` text."""
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert done.returncode != 0, done.stdout + done.stderr
    assert "Traceback" not in done.stderr and len(lines) == 1, done.stderr
    for text in wanted:
        assert text in lines[0], lines[0]
    return lines[0]


def dsn(port: int | str, dbname: str, user: str = "postgres", password: str | None = None) -> str:
    p = _postgres_params()
    secret = f":{password}" if password is not None else (f":{p['password']}" if p["password"] else "")
    return f"postgresql://{user}{secret}@{p['host']}:{port}/{dbname}"


# -- one line, with what to do ---------------------------------------------------------------------
@needs_postgres
@pytest.mark.parametrize("workers", ["1", "2"])
def test_serve_on_a_missing_database_says_so_in_one_line(tmp_path, workers):
    """Before: two 100-line tracebacks ("couldn't get a connection after 2.00 sec"), never
    naming the missing database."""
    missing = f"herald_missing_{os.getpid()}"
    started = time.monotonic()
    done = herald("serve", "--port", str(free_port()), "--workers", workers,
                  "--db", dsn(_postgres_params()["port"], missing), env=clean_env(tmp_path), cwd=tmp_path)
    one_line(done, f'database "{missing}" does not exist', f"createdb -h 127.0.0.1 -p 5432 -U postgres {missing}",
             "herald cluster")
    assert done.returncode == 1 and time.monotonic() - started < 60
    assert "startup complete" not in done.stdout + done.stderr


def test_serve_and_the_cli_on_a_refused_connection_say_so_in_one_line(tmp_path):
    port = free_port()  # nothing listens there
    done = herald("serve", "--port", str(free_port()), "--db", dsn(port, "herald"), env=clean_env(tmp_path),
                  cwd=tmp_path)
    one_line(done, f"127.0.0.1:{port} (connection refused)", "is PostgreSQL running there?", "POSTGRES_PORT")
    listed = herald("games", "list", "--db", dsn(port, "herald"), env=clean_env(tmp_path), cwd=tmp_path)
    one_line(listed, f"127.0.0.1:{port} (connection refused)")
    assert listed.returncode == 2


@needs_postgres
def test_a_wrong_password_is_said_in_one_line(tmp_path):
    from tests.scale.test_database_away import PrivatePostgres

    server = PrivatePostgres(password="right-password")
    try:
        server.start()
        env = clean_env(tmp_path)
        wrong = f"postgresql://postgres:wrong@127.0.0.1:{server.port}/postgres"
        for args in (("serve", "--port", str(free_port()), "--db", wrong), ("games", "list", "--db", wrong)):
            one_line(herald(*args, env=env, cwd=tmp_path), f"127.0.0.1:{server.port} refused the password of user "
                     '"postgres"', "POSTGRES_PASSWORD")
        none_given = herald("games", "list", "--db", f"postgresql://postgres@127.0.0.1:{server.port}/postgres",
                            env=env, cwd=tmp_path)
        one_line(none_given, 'asks a password of user "postgres" and none was given', "POSTGRES_PASSWORD")
        cluster = herald("cluster", "--port", str(free_port()), "--first-port", str(free_ports(2)),
                         env={**env, "PERSISTENCE_MODULE": "eventsourcing.postgres", "POSTGRES_PORT": str(server.port),
                              "POSTGRES_PASSWORD": "wrong"}, cwd=tmp_path)
        one_line(cluster, "herald cluster: PostgreSQL on", "refused the password")
    finally:
        server.remove()


def test_cluster_names_a_port_in_use_before_it_starts_anything(tmp_path):
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    port = taken.getsockname()[1]
    try:
        env = clean_env(tmp_path, PERSISTENCE_MODULE="eventsourcing.postgres")
        done = herald("cluster", "--processes", "2", "--port", str(free_port()), "--first-port", str(port),
                      env=env, cwd=tmp_path)
        one_line(done, f"port {port} on 127.0.0.1 (Herald process 0, --first-port {port} and up) is already in use",
                 "--first-port", f"make cluster FIRST_PORT={port + 2}")
        done = herald("cluster", "--port", str(port), "--first-port", str(free_ports(2)), env=env, cwd=tmp_path)
        one_line(done, f"port {port} on 127.0.0.1 (HAProxy, --port) is already in use", f"make cluster PORT={port + 1}")
    finally:
        taken.close()


@needs_postgres
def test_cluster_makes_a_missing_database(tmp_path):
    """`herald cluster` creates the database (docs/deploy.md); serve and the CLI do not."""
    from tests.janitor import drop_databases

    backend = _postgres_backend()  # a name of this run: swept if the drop below is never reached
    name = backend.env["POSTGRES_DBNAME"]
    backend.cleanup[0]()
    from api.preflight import postgres_problem

    env = {**backend.env}
    assert "does not exist" in (postgres_problem(env) or "")
    try:
        assert postgres_problem(env, create=True) is None
        assert postgres_problem(env) is None
    finally:
        drop_databases({"name": name, **_postgres_params()})


# -- a process ends with its parent ----------------------------------------------------------------
def descendants(pid: int) -> dict[int, str]:
    """Every live descendant of ``pid``: pid → command line."""
    parents: dict[int, int] = {}
    commands: dict[int, str] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            fields = stat[stat.rindex(")") + 2:].split()
            if fields[0] in ("Z", "X"):
                continue
            parents[int(entry.name)] = int(fields[1])
            commands[int(entry.name)] = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except (OSError, ValueError):
            continue
    found: dict[int, str] = {}
    wanted = {pid}
    while wanted:
        wanted = {child for child, parent in parents.items() if parent in wanted and child not in found}
        found.update({child: commands[child] for child in wanted})
    return found


def alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rindex(")") + 2] not in "ZX"


def start_analysis(url: str) -> None:
    """A study game (analysed at once) and an analysis of it: the pool starts its workers."""
    created = httpx.post(url + "/games", timeout=30, json={
        "rules": "saladin", "scenario": "arsuf", "seed": STUDY_SEED,
        "seats": {"crusaders": {"player": "Ann"}, "ayyubids": {"player": "Bo"}}})
    assert created.status_code == 201, created.text
    for policy in ("random", "heuristic"):
        asked = httpx.get(f"{url}/games/{created.json()['id']}/analysis", params={"rollouts": 400, "policy": policy},
                          timeout=30)
        assert asked.status_code in (200, 202), asked.text


def wait_for(check, timeout: float, what: str):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.2)
    raise AssertionError(f"{what} within {timeout:.0f} s")


def pool_workers(pid: int) -> dict[int, str]:
    return {p: cmd for p, cmd in descendants(pid).items() if "spawn_main" in cmd}


def test_kill_9_of_a_server_ends_its_analysis_workers(tmp_path):
    """Before: after `kill -9` of a `herald serve`, its analysis pool workers lived on with no parent."""
    server = start_server(tmp_path, {"HERALD_ANALYSIS_WORKERS": "2"})
    start_analysis(server.url)
    workers = wait_for(lambda: pool_workers(server.process.pid), 60, "the analysis pool's workers started")
    everything = descendants(server.process.pid)
    os.kill(server.process.pid, signal.SIGKILL)
    server.process.wait(timeout=10)
    wait_for(lambda: not any(alive(p) for p in everything), 15, f"the server's processes ended: {everything}")
    assert workers


@needs_postgres
def test_kill_9_of_serve_with_workers_ends_every_worker(tmp_path):
    """`herald serve --workers 2`: uvicorn's workers, and their analysis workers, end with the
    supervisor (before, they went on serving the port)."""
    backend = _postgres_backend()
    env = clean_env(tmp_path, HERALD_ANALYSIS_WORKERS="1", **backend.env)
    port = free_port()
    log = tmp_path / "serve.log"
    process = subprocess.Popen([HERALD, "serve", "--port", str(port), "--workers", "2", "--log-level", "warning"],
                               env=env, cwd=tmp_path, stdout=log.open("wb"), stderr=subprocess.STDOUT, process_group=0)
    track(process, group=True)
    url = f"http://127.0.0.1:{port}"

    def up() -> bool:
        assert process.poll() is None, log.read_text()
        try:
            return httpx.get(url + "/health", timeout=1).status_code == 200
        except httpx.HTTPError:
            return False

    wait_for(up, 120, "herald serve --workers 2 answered")
    start_analysis(url)
    wait_for(lambda: pool_workers(process.pid), 60, "an analysis worker started")
    everything = descendants(process.pid)
    assert len([cmd for cmd in everything.values() if "spawn_main" in cmd]) >= 3, everything  # 2 uvicorn + pool
    os.kill(process.pid, signal.SIGKILL)
    process.wait(timeout=10)
    wait_for(lambda: not any(alive(p) for p in everything), 15, f"every worker ended: {everything}")
    with pytest.raises(httpx.HTTPError):
        httpx.get(url + "/health", timeout=2)
