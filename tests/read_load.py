"""Load on the expensive reads (issue 30 point 3, api/budgets.py), for
tests/api/test_read_budgets.py and bench/bench_read_budgets.py: a real ``herald serve`` with
a long Saxon Shore game (3,722 events, imported) and its study forks, a bystander's latencies
(``GET /health`` and a command, in turn), and 8 clients hammering one expensive route from a
process of their own (``python -m tests.read_load URL ROUTE SECONDS TARGET``), who never wait
for Retry-After.

The hammering process runs niced (10 steps, as the server's workers): on a real server its
clients are other machines, not processes taking the server's own CPU. The bystander is this
process, alone in its thread."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path

import httpx

from tests.conftest import ADMIN_TOKEN
from tests.long_games import saxon_shore_record

ROUTES = ("verify", "outline", "past_states", "analysis")
CLIENTS = 8
GAME_EVENTS = 3_722  # the outline of the repro
VERIFY_EVENTS = 16_000  # a record of 1.8 MB, as the verify repro
ROLL = {"type": "roll", "label": "bystander", "dice": "1d6"}
# cold games (forks) for each route: a client of the outline or past positions asks its own
# game (a game asked by several is folded once: its checkpoints, as the others wait), the
# analysis clients one game with rollouts never asked before
FORKS = {"outline": CLIENTS, "past_states": CLIENTS, "analysis": 1}


def game_record() -> bytes:
    """The record of the game imported (3,722 events, 0.4 MB)."""
    return saxon_shore_record(2, 10, GAME_EVENTS)


def verify_record(folder: Path) -> Path:
    """The path of the 1.8 MB record the verify clients send (written there once)."""
    big = folder / "verify-record.json"
    if not big.exists():
        big.write_bytes(saxon_shore_record(2, 10, VERIFY_EVENTS))
    return big


class Stage:
    """What a loaded server holds: the imported game (cut before its end), forks of it at its
    last version for each hammered route (:data:`FORKS`: each starts cold, no outline,
    checkpoint or analysis of it yet, nor the game folded in the server), and an
    open-table game whose seat the bystander plays."""

    def __init__(self, url: str, record: bytes):
        self.url = url
        with httpx.Client(base_url=url, timeout=120) as client:
            imported = client.post("/records/import", content=record, headers={
                "Authorization": f"Bearer {ADMIN_TOKEN}", "Content-Type": "application/json"})
            assert imported.status_code == 201, imported.text
            self.game = imported.json()["id"]
            self.head = client.get(f"/games/{self.game}").json()["version"]
            self.forks: dict[str, list[str]] = {}
            for route, count in FORKS.items():
                self.forks[route] = []
                for _ in range(count):
                    fork = client.post(f"/games/{self.game}/fork", json={"version": self.head, "dice": "fresh"})
                    assert fork.status_code == 201, fork.text
                    self.forks[route].append(fork.json()["id"])
            table = client.post("/games", json={"rules": "open-table", "seats": {"p1": {"player": "Bystander"}}})
            assert table.status_code == 201, table.text
            self.table = table.json()["id"]
            self.token = table.json()["seat_tokens"]["p1"]


# The write limits are not what these runs measure: a bystander on a quiet machine sends a
# command about every 60 ms, near the default 20 a second a token may write.
NO_WRITE_LIMITS = {"HERALD_WRITES_PER_TOKEN": "0", "HERALD_WRITES_PER_ADDRESS": "0"}


def bystander(url: str, table: str, token: str, seconds: float, pause: float = 0.05) -> list[tuple[float, float]]:
    """When each request was sent (seconds from the first) and the seconds it took: ``GET
    /health`` and a command (a roll), in turn, for ``seconds``."""
    taken: list[tuple[float, float]] = []
    headers = {"Authorization": f"Bearer {token}"}
    command = {"seat": "p1", "command": ROLL}
    with httpx.Client(base_url=url, timeout=60) as client:
        client.get("/health")
        first = time.perf_counter()
        while time.perf_counter() < first + seconds:
            for ask in (lambda: client.get("/health"),
                        lambda: client.post(f"/games/{table}/commands", json=command, headers=headers)):
                start = time.perf_counter()
                answer = ask()
                taken.append((start - first, time.perf_counter() - start))
                assert answer.status_code in (200, 201), answer.text
            time.sleep(pause)
    return taken


def quantile(timed: list[tuple[float, float]], q: float) -> float:
    """The ``q`` quantile of the seconds taken."""
    ordered = sorted(taken for _, taken in timed)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def start_hammer(url: str, route: str, seconds: float, targets: list[str], head: int,
                 record: Path) -> subprocess.Popen:
    """The 8 hammering clients, in a niced process of their own; its output is JSON (:func:`hammer`)."""
    return subprocess.Popen([sys.executable, "-m", "tests.read_load", url, route, str(seconds), ",".join(targets),
                             str(head), str(record)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: os.nice(10))


def hammer(url: str, route: str, seconds: float, targets: list[str], head: int, record: Path) -> dict:
    """8 clients asking ``route`` of a game of ``targets`` (client n the n-th, in turn; past
    positions 1 to ``head``) as fast as answered, for ``seconds``: the statuses answered, and
    the Retry-After of each 429 and 503."""
    body = record.read_bytes() if route == "verify" else b""
    statuses: Counter[int] = Counter()
    waits: list[str | None] = []
    lock = threading.Lock()

    def client(n: int) -> None:
        rnd = random.Random(n)
        target = targets[n % len(targets)]
        with httpx.Client(base_url=url, timeout=120) as http:
            end = time.monotonic() + seconds
            while time.monotonic() < end:
                if route == "verify":
                    answer = http.post("/records/verify", content=body, headers={"Content-Type": "application/json"})
                elif route == "outline":
                    answer = http.get(f"/viewer/games/{target}/outline")
                elif route == "past_states":
                    answer = http.get(f"/games/{target}/state", params={"at": rnd.randint(1, head)})
                else:  # a new analysis each time (rollouts not asked before), by the umpire: the
                    # fork's game is still being played, and only an umpire analyses its forks then
                    answer = http.get(f"/games/{target}/analysis", params={"rollouts": rnd.randint(1, 2000)},
                                      headers={"Authorization": f"Bearer {ADMIN_TOKEN}"})
                with lock:
                    statuses[answer.status_code] += 1
                    if answer.status_code in (429, 503):
                        waits.append(answer.headers.get("retry-after"))

    threads = [threading.Thread(target=client, args=(n,)) for n in range(CLIENTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return {"statuses": {str(k): v for k, v in sorted(statuses.items())}, "retry_after": sorted(set(map(str, waits)))}


def loaded(url: str, stage: Stage, route: str, record: Path, seconds: float) -> tuple[list[tuple[float, float]], dict]:
    """The bystander's latencies while 8 clients hammer ``route`` (a cold game of its own), and
    what the hammering clients were answered."""
    process = start_hammer(url, route, seconds + 1.0, stage.forks.get(route, [stage.game]), stage.head, record)
    try:
        time.sleep(0.5)  # the clients are under way
        taken = bystander(url, stage.table, stage.token, seconds)
        out, err = process.communicate(timeout=300)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 0, err
    return taken, json.loads(out)


if __name__ == "__main__":
    print(json.dumps(hammer(sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4].split(","), int(sys.argv[5]),
                            Path(sys.argv[6]))))
