"""Benchmark of the production topology: commands/s through HAProxy to 1 and to 2 Herald
processes on one PostgreSQL database, over 100 concurrent games, beside the raw
eventsourcing PostgreSQL append rate measured in the same run.

(r) raw: ``recorder.insert_events`` of stored events (a DecisionTaken of the size (1) and
    (2) write, one per note), in transactions of as many events as (1)'s group commit put
    in each, from a few threads — the library's PostgreSQL append rate at that batch size,
    no HTTP, no deciding, no hashing — and from one thread, as one process's single flusher
    writes (through the recorder Herald uses, api/postgres_recorder.py, like with like)
(1) ``wrk`` (100 connections) POSTing notes to 100 open-table games through HAProxy to one
    ``herald serve`` process
(2) the same to two processes (HAProxy hashing each game's path to one of them)

Prints commands/s, latency, and where the time goes: CPU seconds per 1,000 commands in the
Herald processes, in HAProxy, in PostgreSQL's backends and in wrk, how many of the machine's
cores were busy, the events each transaction carried (group commit), and the bounds these
give (one process: one core, under the GIL; any number: the machine's cores, shared with
HAProxy, PostgreSQL and wrk). Goals on a 2-core machine: (2) ≥ 1.3 × (1), (1) ≥ 0.8 × (r).
The machine may be shared: the figures are ratios within one run, and say so.

    .venv/bin/python bench/bench_cluster.py [--seconds 8] [--games 100]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

import psycopg

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.bench_api import free_port  # noqa: E402
from bench.cluster_load import PG, herald_env, measure, note_script, open_games, scratch_database, warm  # noqa: E402


def raw_append_rate(env: dict[str, str], seconds: float, batch: int, writers: int, state: bytes) -> float:
    """Events/s appended in transactions of ``batch`` stored events (each on its own stream),
    by ``writers`` threads."""
    from eventsourcing.persistence import StoredEvent

    from api.store import HeraldStore, store_env

    store = HeraldStore(env={**store_env(env), "POSTGRES_POOL_SIZE": str(max(writers, 2)), "POSTGRES_MAX_OVERFLOW": "0"})
    recorder = store.recorder
    topic = "domain.game:Recorded"
    counts = [0] * writers
    stop = time.monotonic() + seconds

    def writer(i: int) -> None:
        streams, version = [uuid.uuid4() for _ in range(batch)], 0
        while time.monotonic() < stop:
            version += 1
            recorder.insert_events([StoredEvent(stream, version, topic, state) for stream in streams])
            counts[i] += batch

    started = time.monotonic()
    threads = [threading.Thread(target=writer, args=(i,)) for i in range(writers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.monotonic() - started
    store.close()
    return sum(counts) / elapsed


RAW_WRITERS = 4  # threads appending in (r): a few, as a few processes' flushers would


def start_herald(env: dict[str, str], folder: Path, name: str) -> tuple[subprocess.Popen, int]:
    port = free_port()
    log = (folder / f"{name}.log").open("wb")
    process = subprocess.Popen([str(Path(sys.executable).parent / "herald"), "serve", "--port", str(port),
                                "--log-level", "warning"], env=env, cwd=folder, stdout=log, stderr=subprocess.STDOUT)
    return process, port


def run_config(processes: int, env: dict[str, str], folder: Path, dbname: str, seconds: float,
               games: int) -> dict:
    from api.cluster import haproxy_binary, haproxy_config, wait_until_up

    servers = [start_herald(env, folder, f"herald-{processes}-{i}") for i in range(processes)]
    proxy_port = free_port()
    config = folder / f"haproxy-{processes}.cfg"
    config.write_text(haproxy_config(f"127.0.0.1:{proxy_port}", [f"127.0.0.1:{p}" for _, p in servers]))
    try:
        for _, port in servers:
            wait_until_up(f"http://127.0.0.1:{port}", timeout=120)
        proxy = subprocess.Popen([haproxy_binary(), "-W", "-db", "-f", str(config)],
                                 stdout=(folder / "haproxy.log").open("ab"), stderr=subprocess.STDOUT)
        url = f"http://127.0.0.1:{proxy_port}"
        wait_until_up(url, timeout=30)
        created = open_games(url, games)
        warm(url, created)
        script = note_script(folder / f"load-{processes}.lua", [created])
        found = measure(url, script, threads=2, connections=games, seconds=seconds,
                        herald_pids=[p.pid for p, _ in servers], proxy_pid=proxy.pid, dbname=dbname)
        proxy.terminate()
        proxy.wait(10)
        return {"processes": processes, **found}
    finally:
        for process, _ in servers:
            process.terminate()
        for process, _ in servers:
            try:
                process.wait(15)
            except subprocess.TimeoutExpired:
                process.kill()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=8)
    parser.add_argument("--games", type=int, default=100)
    args = parser.parse_args()
    with scratch_database("herald_bench") as dbname, \
            tempfile.TemporaryDirectory(prefix="herald-bench-cluster-") as tmp:
        folder = Path(tmp)
        env = herald_env(dbname, folder)
        one = run_config(1, env, folder, dbname, args.seconds, args.games)
        with psycopg.connect(dbname=dbname, **PG) as conn:
            state = bytes(conn.execute("SELECT state FROM herald_events WHERE topic LIKE '%%Recorded' "
                                       "ORDER BY notification_id DESC LIMIT 1").fetchone()[0])
        batch = max(1, round(one["events_per_transaction"]))
        raw = raw_append_rate(env, args.seconds, batch, RAW_WRITERS, state)
        raw_one = raw_append_rate(env, args.seconds, batch, 1, state)
        two = run_config(2, env, folder, dbname, args.seconds, args.games)
    load = os.getloadavg()
    print(f"machine: {os.cpu_count()} cores, load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f} "
          "(shared with other work: compare the ratios, not the absolute figures)")
    print(f"(r) raw eventsourcing append, {batch} events/transaction (as (1) wrote them), {RAW_WRITERS} threads: "
          f"{raw:8.0f} events/s")
    print(f"    the same from 1 thread (one writer, as one process's single flusher):                  {raw_one:8.0f} events/s")
    for r in (one, two):
        print(f"({r['processes']}) {r['processes']} process(es) through HAProxy: {r['rate']:8.0f} commands/s  "
              f"p50 {r['p50_ms']:.1f} ms  p99 {r['p99_ms']:.1f} ms  errors {r['errors']}  "
              f"events/transaction {r['events_per_transaction']:.1f}")
        others = r["haproxy_cpu_per_1k"] + r["postgres_cpu_per_1k"] + r["wrk_cpu_per_1k"]
        print(f"      CPU s per 1,000 commands: Herald {r['herald_cpu_per_1k']:.2f}  HAProxy "
              f"{r['haproxy_cpu_per_1k']:.2f}  PostgreSQL {r['postgres_cpu_per_1k']:.2f}  wrk {r['wrk_cpu_per_1k']:.2f}  "
              f"(all {r['herald_cpu_per_1k'] + others:.2f}); the machine busy on {r['busy_cores']:.2f} of "
              f"{os.cpu_count()} cores")
    print("where the time goes, read as a bound: one process runs on at most one core (the GIL), so (1) ≤ 1,000 / "
          "its Herald CPU s; every process shares the machine's cores with HAProxy, PostgreSQL and wrk, so (2) ≤ "
          "cores × 1,000 / (all CPU s); (2)/(1) ≥ 1.3 therefore needs Herald's CPU per command ≥ 1.86 × the rest's")
    for r in (one, two):
        others = r["haproxy_cpu_per_1k"] + r["postgres_cpu_per_1k"] + r["wrk_cpu_per_1k"]
        print(f"      ({r['processes']}): one process ≤ {1000 / r['herald_cpu_per_1k']:6.0f} commands/s, the machine ≤ "
              f"{(os.cpu_count() or 1) * 1000 / (r['herald_cpu_per_1k'] + others):6.0f}; Herald / the rest = "
              f"{r['herald_cpu_per_1k'] / others:.2f}")
    print(f"(2)/(1) = {two['rate'] / one['rate']:.2f}  (goal ≥ 1.3)")
    print(f"(1)/(r) = {one['rate'] / raw:.2f}  (goal ≥ 0.8); against one writer {one['rate'] / raw_one:.2f}")


if __name__ == "__main__":
    main()
