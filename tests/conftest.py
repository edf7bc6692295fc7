"""Shared fixtures: a Herald on each storage backend, an in-process client, and a real
uvicorn server on a free port.

Backends come from HERALD_TEST_BACKENDS (default "sqlite,postgres"). PostgreSQL is started
when it is not running; a PostgreSQL test never skips silently: it fails if the server
cannot be reached.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
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

ROOT = Path(__file__).resolve().parent.parent
BACKENDS = [b.strip() for b in os.environ.get("HERALD_TEST_BACKENDS", "sqlite,postgres").split(",") if b.strip()]
ADMIN_TOKEN = "test-admin-token"


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

    _ensure_postgres()
    p = _postgres_params()
    dbname = f"herald_test_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(dbname="postgres", autocommit=True, **p) as conn:
        conn.execute(f'CREATE DATABASE "{dbname}"')

    def drop() -> None:
        with psycopg.connect(dbname="postgres", autocommit=True, **p) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{dbname}" WITH (FORCE)')

    env = {
        "PERSISTENCE_MODULE": "eventsourcing.postgres",
        "POSTGRES_DBNAME": dbname,
        "POSTGRES_HOST": p["host"],
        "POSTGRES_PORT": p["port"],
        "POSTGRES_USER": p["user"],
        "POSTGRES_PASSWORD": p["password"],
    }
    return Backend("postgres", env, [drop])


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


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class LiveServer:
    url: str
    db: Path
    env: dict[str, str]
    process: subprocess.Popen
    log: Path

    def output(self) -> str:
        return self.log.read_text(errors="replace")

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
        env=env, cwd=tmp_path, stdout=log.open("wb"), stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 90  # a shared, loaded machine can take long to import the app
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"herald serve exited: {log.read_text()}")
        try:
            if httpx.get(url + "/health", timeout=1).status_code == 200:
                return LiveServer(url, db, env, process, log)
        except httpx.HTTPError:
            time.sleep(0.1)
    process.kill()
    raise RuntimeError(f"herald serve did not start: {log.read_text()}")


@pytest.fixture
def live_server(tmp_path) -> Iterator[LiveServer]:
    """A real ``herald serve`` (uvicorn) on a free port with a real SQLite file."""
    server = start_server(tmp_path)
    yield server
    server.process.terminate()
    try:
        server.process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        server.process.kill()


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
