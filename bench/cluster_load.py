"""What the cluster benchmarks share (bench_cluster.py, bench_scale.py): a scratch PostgreSQL
database, the environment of Herald processes on it, games opened through HAProxy, ``wrk``
POSTing notes to them, and where the CPU went while it did (each Herald process, HAProxy,
PostgreSQL's backends, wrk, the whole machine)."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import psycopg

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.bench_api import LUA_REPORT, UNTHROTTLED, cpu_seconds  # noqa: E402

PG = {"host": os.environ.get("POSTGRES_HOST", "127.0.0.1"), "port": os.environ.get("POSTGRES_PORT", "5432"),
      "user": os.environ.get("POSTGRES_USER", "postgres"), "password": os.environ.get("POSTGRES_PASSWORD", "")}


def postgres_cpu(dbname: str) -> dict[int, float]:
    """CPU seconds used so far by each PostgreSQL backend connected to ``dbname``."""
    with psycopg.connect(dbname="postgres", autocommit=True, **PG) as conn:
        pids = [r[0] for r in conn.execute("SELECT pid FROM pg_stat_activity WHERE datname = %s", (dbname,))]
    found = {}
    for pid in pids:
        try:
            found[pid] = cpu_seconds(pid)
        except (FileNotFoundError, ProcessLookupError, PermissionError):
            pass
    return found


def postgres_background_cpu() -> float:
    """CPU seconds used so far by PostgreSQL's own processes (WAL writer, checkpointer, background
    writer, autovacuum): the work commits cause outside the backends, shared by every database
    on the server."""
    with psycopg.connect(dbname="postgres", autocommit=True, **PG) as conn:
        pids = [r[0] for r in conn.execute("SELECT pid FROM pg_stat_activity WHERE backend_type <> 'client backend'")]
    total = 0.0
    for pid in pids:
        try:
            total += cpu_seconds(pid)
        except (FileNotFoundError, ProcessLookupError, PermissionError):
            pass
    return total


def tree_cpu(pid: int) -> float:
    """CPU seconds of a process and its children (HAProxy's master and its worker)."""
    total = cpu_seconds(pid)
    children = Path(f"/proc/{pid}/task/{pid}/children")
    for child in children.read_text().split() if children.exists() else ():
        total += tree_cpu(int(child))
    return total


def busy_cores_seconds() -> tuple[float, float]:
    """(busy, total) CPU seconds of the whole machine so far, all cores (/proc/stat)."""
    ticks = [int(x) for x in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    idle = ticks[3] + ticks[4]  # idle + iowait
    hz = os.sysconf("SC_CLK_TCK")
    return (sum(ticks) - idle) / hz, sum(ticks) / hz


def transactions(dbname: str) -> int:
    with psycopg.connect(dbname="postgres", autocommit=True, **PG) as conn:
        return int(conn.execute("SELECT xact_commit FROM pg_stat_database WHERE datname = %s", (dbname,)).fetchone()[0])


def events_stored(dbname: str) -> int:
    with psycopg.connect(dbname=dbname, **PG) as conn:
        return int(conn.execute("SELECT count(*) FROM herald_events").fetchone()[0])


@contextmanager
def scratch_database(prefix: str) -> Iterator[str]:
    """A new PostgreSQL database for one run, dropped after it (also when the run fails)."""
    dbname = f"{prefix}_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(dbname="postgres", autocommit=True, **PG) as conn:
        conn.execute(f'CREATE DATABASE "{dbname}"')
    try:
        yield dbname
    finally:
        with psycopg.connect(dbname="postgres", autocommit=True, **PG) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{dbname}" WITH (FORCE)')


def herald_env(dbname: str, folder: Path) -> dict[str, str]:
    """The environment of Herald processes on ``dbname``, data in ``folder``, writes unthrottled
    (the load comes from one address with few tokens)."""
    base = {k: v for k, v in os.environ.items() if not k.startswith(("POSTGRES_", "HERALD_", "SQLITE_"))}
    return {**base, **UNTHROTTLED, "PERSISTENCE_MODULE": "eventsourcing.postgres", "POSTGRES_DBNAME": dbname,
            "POSTGRES_HOST": PG["host"], "POSTGRES_PORT": PG["port"], "POSTGRES_USER": PG["user"],
            "POSTGRES_PASSWORD": PG["password"], "HERALD_DATA_DIR": str(folder),
            "HERALD_MAX_STREAMS_PER_CLIENT": "1000"}


def open_games(url: str, count: int) -> list[dict]:
    """``count`` open-table games created through ``url``."""
    with httpx.Client(base_url=url, timeout=30) as client:
        games = []
        for i in range(count):
            body = {"rules": "open-table", "seats": {"a": {"player": f"A{i}"}, "b": {"player": f"B{i}"}}}
            response = client.post("/games", json=body)
            response.raise_for_status()
            games.append(response.json())
    return games


def warm(url: str, games: list[dict]) -> dict[str, list[dict]]:
    """Read each game once through ``url`` (HAProxy), so the process it hashes to caches it as a
    running tournament's would be; the games grouped by the process that answered (X-Served-By)."""
    served: dict[str, list[dict]] = {}
    with httpx.Client(base_url=url, timeout=60) as client:
        for game in games:
            response = client.get(f"/games/{game['id']}")
            response.raise_for_status()
            served.setdefault(response.headers.get("x-served-by", "?"), []).append(game)
    return dict(sorted(served.items()))


def note_script(path: Path, groups: list[list[dict]]) -> Path:
    """A wrk script POSTing a note to each game of a group in turn, seat a's token; wrk's
    thread k (from 1) takes group k (modulo their number), so with one group per process a
    process's connections wait only on it, as a game's players wait only on their game."""
    rows = ",\n".join("{" + ", ".join(f'{{"{g["id"]}", "{g["seat_tokens"]["a"]}"}}' for g in group) + "}"
                      for group in groups)
    path.write_text(f"""
local groups = {{
{rows}
}}
local threads = 0
function setup(thread)
  thread:set("group", threads % #groups + 1)
  threads = threads + 1
end
local n = 0
request = function()
  local games = groups[group]
  n = n + 1
  local g = games[(n % #games) + 1]
  return wrk.format("POST", "/games/" .. g[1] .. "/commands",
    {{["Content-Type"] = "application/json", ["Authorization"] = "Bearer " .. g[2]}},
    '{{"seat": "a", "command": {{"type": "note", "text": "a move of the benchmark"}}}}')
end
""" + LUA_REPORT)
    return path


def measure(url: str, script: Path, *, threads: int, connections: int, seconds: float, herald_pids: list[int],
            proxy_pid: int, dbname: str) -> dict:
    """Run wrk against ``url`` with ``script`` and account for the time: commands/s, errors,
    latency, CPU seconds of each Herald process, of HAProxy (``proxy_pid`` and its children),
    of ``dbname``'s PostgreSQL backends, of PostgreSQL's background processes and of wrk; busy cores; events and transactions written.
    Figures ``*_per_1k`` are CPU seconds per 1,000 acknowledged commands."""
    herald_before = [cpu_seconds(pid) for pid in herald_pids]
    proxy_before, pg_before, tx_before = tree_cpu(proxy_pid), postgres_cpu(dbname), transactions(dbname)
    background_before = postgres_background_cpu()
    events_before = events_stored(dbname)
    wrk_before, machine_before = resource.getrusage(resource.RUSAGE_CHILDREN), busy_cores_seconds()
    out = subprocess.run(["wrk", f"-t{threads}", f"-c{connections}", f"-d{max(round(seconds), 1)}s", "-s", str(script),
                          url], capture_output=True, text=True, check=True).stdout
    wrk_after, machine_after = resource.getrusage(resource.RUSAGE_CHILDREN), busy_cores_seconds()
    report = json.loads(out.strip().splitlines()[-1])
    herald = [cpu_seconds(pid) - before for pid, before in zip(herald_pids, herald_before)]
    proxy = tree_cpu(proxy_pid) - proxy_before
    pg = sum(used - pg_before.get(pid, 0.0) for pid, used in postgres_cpu(dbname).items())
    background = postgres_background_cpu() - background_before
    tx = transactions(dbname) - tx_before
    events = events_stored(dbname) - events_before
    wrk_cpu = (wrk_after.ru_utime + wrk_after.ru_stime) - (wrk_before.ru_utime + wrk_before.ru_stime)
    busy = (machine_after[0] - machine_before[0]) / (machine_after[1] - machine_before[1]) * (os.cpu_count() or 1)
    ok = report["requests"] - report["errors"]
    per_k = 1000 / max(ok, 1)
    return {"rate": ok / report["seconds"], "seconds": report["seconds"], "errors": report["errors"],
            "p50_ms": report["p50_ms"], "p99_ms": report["p99_ms"], "events": events,
            "herald_cpu": herald, "herald_cpu_per_1k": sum(herald) * per_k, "haproxy_cpu_per_1k": proxy * per_k,
            "postgres_cpu_per_1k": pg * per_k, "postgres_background_cpu_per_1k": background * per_k,
            "wrk_cpu_per_1k": wrk_cpu * per_k, "busy_cores": busy,
            "events_per_transaction": events / max(tx, 1)}
