"""Saladin commands per second over HTTP, against a baseline from the same run.

A real ``herald serve`` on SQLite in a temporary folder. One client plays random legal
Saladin games (it reads ``legal-commands`` for the seat to act and posts one); the
baseline is the same client posting open-table notes. Both count only the POSTs.

    .venv/bin/python bench/bench_saladin_http.py [--games 5]
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=5)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="herald-bench-"))
    port = free_port()
    server = subprocess.Popen(
        [str(Path(sys.executable).parent / "herald"), "serve", "--port", str(port), "--log-level", "warning"],
        env={**os.environ, "HERALD_DB": str(work / "herald.db"), "HERALD_WRITES_PER_TOKEN": "0",
             "HERALD_WRITES_PER_ADDRESS": "0"}, cwd=work,  # one client, as fast as it can: no write limits
    )
    try:
        http = httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30)
        for _ in range(100):
            try:
                http.get("/health")
                break
            except httpx.HTTPError:
                time.sleep(0.1)
        rng = random.Random(7)
        post_seconds, posts = 0.0, 0
        for g in range(args.games):
            scenario = ("arsuf", "hattin")[g % 2]
            game = http.post("/games", json={"rules": "saladin", "scenario": scenario, "seats": {
                "crusaders": {"player": "C"}, "ayyubids": {"player": "A"}}}).json()
            while True:
                summary = http.get(f"/games/{game['id']}").json()
                if summary["status"] == "ended":
                    break
                seat = summary["to_act"][0]
                listed = http.get(f"/games/{game['id']}/legal-commands", params={"seat": seat}).json()
                command = rng.choice(listed["commands"])
                t0 = time.perf_counter()
                r = http.post(f"/games/{game['id']}/commands", json={"seat": seat, "command": command},
                              headers={"Authorization": f"Bearer {game['seat_tokens'][seat]}"})
                post_seconds += time.perf_counter() - t0
                posts += 1
                assert r.status_code == 201, r.text
        base = http.post("/games", json={"rules": "open-table", "seats": {"p1": {"player": "B"}}}).json()
        t0 = time.perf_counter()
        for _ in range(posts):
            http.post(f"/games/{base['id']}/commands", json={"seat": "p1", "command": {"type": "note", "text": "x"}},
                      headers={"Authorization": f"Bearer {base['seat_tokens']['p1']}"})
        base_seconds = time.perf_counter() - t0
        saladin_rate, base_rate = posts / post_seconds, posts / base_seconds
        print(f"saladin: {posts} commands in {args.games} games, {saladin_rate:.0f} commands/s "
              f"({post_seconds / posts * 1000:.2f} ms each, one client)")
        print(f"baseline open-table notes, same client: {base_rate:.0f} commands/s")
        print(f"ratio saladin/baseline = {saladin_rate / base_rate:.2f}")
    finally:
        server.terminate()
        server.wait()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
