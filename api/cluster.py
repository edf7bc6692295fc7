"""The production topology on one machine (docs/deploy.md): HAProxy in front of N Herald
processes on one PostgreSQL database, each game's requests sent to one process by
consistent hashing of the game id in the path. ``herald cluster`` (``make cluster``)
starts it; the tests start the same configuration.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx


def haproxy_config(bind: str, servers: list[str], *, check_interval_ms: int = 1000) -> str:
    """HAProxy's configuration: ``bind`` (host:port) in front of ``servers`` (host:port each).

    - ``balance uri path-only depth 2`` + ``hash-type consistent``: the hash key is
      ``/games/<id>`` (or ``/tournaments/<id>``), so each game's commands, reads and streams
      go to one process (its cache stays hot and group commit batches its commands), and a
      process that goes down moves only its own games.
    - ``/ready`` health checks: a process whose database is away, or that died, gets nothing.
    - ``retry-on conn-failure`` with ``redispatch``: a request that could not reach a dead
      process goes to another; a request already sent is never sent twice (the client
      retries it with its Idempotency-Key).
    - ``option forwardfor``: Herald sees the client's address (uvicorn trusts
      X-Forwarded-For from the addresses in FORWARDED_ALLOW_IPS, 127.0.0.1 by default), for
      its per-client limits.
    - ``timeout tunnel``: live (SSE) streams stay open.
    - ``X-Served-By``: the process that answered, for operators (and the tests).
    """
    lines = [
        "global",
        "    maxconn 4000",
        "",
        "defaults",
        "    mode http",
        "    timeout connect 2s",
        "    timeout client 60s",
        "    timeout server 60s",
        "    timeout tunnel 1h",
        "    timeout check 3s",
        "    timeout http-keep-alive 60s",
        "    option forwardfor",
        "    option http-keep-alive",
        "    retries 3",
        "    retry-on conn-failure",
        "    option redispatch 1",
        "",
        "frontend herald",
        f"    bind {bind}",
        "    default_backend herald",
        "",
        "backend herald",
        "    balance uri path-only depth 2",
        "    hash-type consistent",
        "    http-response set-header X-Served-By %[srv_name]",
        "    option httpchk GET /ready",
        "    http-check expect status 200",
        f"    default-server inter {check_interval_ms} fastinter {check_interval_ms // 2} fall 3 rise 2 maxconn 500",
    ]
    lines += [f"    server herald{i} {address} check" for i, address in enumerate(servers)]
    return "\n".join(lines) + "\n"


def haproxy_binary() -> str:
    found = shutil.which("haproxy") or ("/usr/sbin/haproxy" if Path("/usr/sbin/haproxy").exists() else None)
    if found is None:
        raise SystemExit("herald: HAProxy is not installed (Debian: apt-get install haproxy)")
    return found


def ensure_database() -> None:
    """Create the configured PostgreSQL database when it does not exist yet."""
    import psycopg

    from api.store import store_env

    env = store_env()
    params = {"host": env["POSTGRES_HOST"], "port": env["POSTGRES_PORT"], "user": env["POSTGRES_USER"],
              "password": env["POSTGRES_PASSWORD"]}
    with psycopg.connect(dbname="postgres", autocommit=True, **params) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (env["POSTGRES_DBNAME"],)).fetchone():
            conn.execute(f'CREATE DATABASE "{env["POSTGRES_DBNAME"]}"')


def wait_until_up(url: str, timeout: float = 60, path: str = "/health") -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if httpx.get(url + path, timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    raise TimeoutError(f"{url}{path} did not answer within {timeout:.0f} s")


def run(processes: int, host: str, port: int, first_port: int) -> int:
    """Start ``processes`` Herald processes and HAProxy in front of them; stop all on Ctrl-C."""
    if os.environ.setdefault("PERSISTENCE_MODULE", "eventsourcing.postgres") != "eventsourcing.postgres":
        raise SystemExit("herald cluster: several processes share one PostgreSQL database (PERSISTENCE_MODULE)")
    ensure_database()
    herald = str(Path(sys.executable).parent / "herald")
    ports = [first_port + i for i in range(processes)]
    children = [subprocess.Popen([herald, "serve", "--host", "127.0.0.1", "--port", str(p), "--log-level", "warning"])
                for p in ports]
    try:
        for p in ports:
            wait_until_up(f"http://127.0.0.1:{p}")
        with tempfile.TemporaryDirectory(prefix="herald-haproxy-") as folder:
            config = Path(folder) / "haproxy.cfg"
            config.write_text(haproxy_config(f"{host}:{port}", [f"127.0.0.1:{p}" for p in ports]))
            proxy = subprocess.Popen([haproxy_binary(), "-W", "-db", "-f", str(config)])
            children.append(proxy)
            wait_until_up(f"http://{host}:{port}")
            print(f"herald cluster: http://{host}:{port} -> {processes} processes on ports "
                  f"{', '.join(map(str, ports))} (Ctrl-C stops them)", flush=True)
            while all(child.poll() is None for child in children):
                time.sleep(0.5)
            return 1
    except KeyboardInterrupt:
        return 0
    finally:
        for child in children:
            if child.poll() is None:
                child.send_signal(signal.SIGTERM)
        for child in children:
            try:
                child.wait(timeout=10)
            except subprocess.TimeoutExpired:
                child.kill()
