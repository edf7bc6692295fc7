"""Benchmark of one PostgreSQL write: the CPU a transaction of stored events costs the writing
thread, through Herald's recorder (api/postgres_recorder.py) and through the eventsourcing
library's own, taking turns in one process on one database, so the noise of a shared machine
falls on both. Also checks that the two wrote the same rows.

    .venv/bin/python bench/bench_recorder.py [--batch 13] [--rounds 300]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
import uuid
from pathlib import Path

import psycopg

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.cluster_load import PG  # noqa: E402

RECORDERS = {"library": "eventsourcing.postgres:PostgresApplicationRecorder",
             "herald": "api.postgres_recorder:HeraldPostgresRecorder"}
# a DecisionTaken of a note, as the store writes it
STATE = (b'{"originator_id":"2b0f6a9e-5a4c-4f0e-9b1e-0c7f4e6e2a11","originator_version":87,'
         b'"timestamp":"2026-11-30T19:00:00.123456+00:00","type":"DecisionTaken","data":{"seat":"a",'
         b'"command":{"type":"note","text":"a move of the benchmark","payload":null},"idempotency_key":null},'
         b'"prev_hash":"' + b"ab" * 32 + b'","hash":"' + b"cd" * 32 + b'","readers":null,"seal":null}')


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batch", type=int, default=13)
    parser.add_argument("--rounds", type=int, default=300)
    args = parser.parse_args()
    from eventsourcing.persistence import StoredEvent

    from api.store import HeraldStore, store_env

    dbname = f"herald_bench_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(dbname="postgres", autocommit=True, **PG) as conn:
        conn.execute(f'CREATE DATABASE "{dbname}"')
    try:
        with tempfile.TemporaryDirectory() as folder:
            base = store_env({"PERSISTENCE_MODULE": "eventsourcing.postgres", "POSTGRES_DBNAME": dbname,
                              "POSTGRES_HOST": PG["host"], "POSTGRES_PORT": PG["port"], "POSTGRES_USER": PG["user"],
                              "POSTGRES_PASSWORD": PG["password"], "HERALD_DATA_DIR": folder})
            stores = {name: HeraldStore(env={**base, "APPLICATION_RECORDER_TOPIC": topic})
                      for name, topic in RECORDERS.items()}
            streams = {name: [uuid.uuid4() for _ in range(args.batch)] for name in stores}
            cpu = dict.fromkeys(stores, 0.0)
            for version in range(1, args.rounds + 1):
                for name, store in stores.items():
                    events = [StoredEvent(s, version, "domain.game:Recorded", STATE) for s in streams[name]]
                    started = time.thread_time()
                    store.recorder.insert_events(events)
                    cpu[name] += time.thread_time() - started
            with psycopg.connect(dbname=dbname, **PG) as conn:
                rows = {name: conn.execute("SELECT originator_version, topic, state FROM herald_events WHERE "
                                           "originator_id = ANY(%s) ORDER BY notification_id", (ids,)).fetchall()
                        for name, ids in streams.items()}
            for store in stores.values():
                store.close()
    finally:
        with psycopg.connect(dbname="postgres", autocommit=True, **PG) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{dbname}" WITH (FORCE)')
    load = os.getloadavg()
    print(f"machine: {os.cpu_count()} cores, load average {load[0]:.1f} (compare the ratio, not the figures)")
    for name in stores:
        print(f"{name:8s} recorder: {cpu[name] / args.rounds * 1e6:7.0f} µs of the writing thread's CPU a "
              f"{args.batch}-event transaction")
    print(f"herald / library = {cpu['herald'] / cpu['library']:.2f}; the same rows: {rows['herald'] == rows['library']}")


if __name__ == "__main__":
    main()
