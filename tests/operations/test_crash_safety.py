"""Issue 11, point 13: crash safety. A real ``herald serve`` under sustained load from
several clients, killed with SIGKILL mid-load, then restarted on the same store (SQLite file
or PostgreSQL database): every event a client was acknowledged is there with its hash,
every game's chain verifies, and the read models catch up to exactly what a rebuild from
zero gives. Bounded: a few seconds of load per backend."""

from __future__ import annotations

import signal
import threading
import time

import httpx
import pytest

from tests.conftest import start_server

pytestmark = pytest.mark.slow

LOAD_SECONDS = 2.0  # at least, and until MIN_ACKED events were acknowledged (at most MAX_LOAD_SECONDS)
MIN_ACKED = 120
MAX_LOAD_SECONDS = 20.0
GAMES = 3
WRITERS_PER_GAME = 2
# One test client sends as fast as it can: the write limits are set off here, explicitly.
UNLIMITED = {"HERALD_WRITES_PER_TOKEN": "0", "HERALD_WRITES_PER_ADDRESS": "0"}


def all_events(http: httpx.Client, game: str) -> list[dict]:
    events, after = [], 0
    while True:
        page = http.get(f"/games/{game}/events", params={"after": after, "limit": 1000}).json()
        events += page["events"]
        if page["next"] is None:
            return events
        after = page["next"]


def read_models(http: httpx.Client, games: list[str]) -> dict:
    """What the read models answer: the game index, each game's dice statistics."""
    index = {row["id"]: row for row in http.get("/games", params={"limit": 500}).json()["games"]}
    return {"index": {g: index.get(g) for g in games},
            "dice": {g: http.get(f"/games/{g}/dice").json() for g in games},
            "players": http.get("/players/P1/dice").json()}


def test_every_acknowledged_event_survives_sigkill(backend, tmp_path):
    env = {**UNLIMITED, **(backend.env if backend.name == "postgres" else {})}
    server = start_server(tmp_path, env)
    acked: dict[str, dict[int, str]] = {}
    try:
        http = httpx.Client(base_url=server.url, timeout=30)
        games = []
        for _ in range(GAMES):
            made = http.post("/games", json={"rules": "open-table", "seats": {"p1": {"player": "P1"},
                                                                              "p2": {"player": "P2"}}})
            assert made.status_code == 201, made.text
            games.append(made.json())
            acked[made.json()["id"]] = {made.json()["head"]["version"]: made.json()["head"]["hash"]}
        stop = threading.Event()
        lock = threading.Lock()

        def writer(game: dict, seat: str) -> None:
            headers = {"Authorization": f"Bearer {game['seat_tokens'][seat]}"}
            body = {"seat": seat, "command": {"type": "roll", "label": "load", "dice": "2d6"}}
            with httpx.Client(base_url=server.url, timeout=10) as client:
                while not stop.is_set():
                    try:
                        answer = client.post(f"/games/{game['id']}/commands", json=body, headers=headers)
                    except httpx.HTTPError:
                        return  # the server is gone
                    if answer.status_code == 201:
                        with lock:
                            for event in answer.json()["events"]:
                                acked[game["id"]][event["version"]] = event["hash"]

        threads = [threading.Thread(target=writer, args=(game, seat), daemon=True)
                   for game in games for seat in ("p1", "p2")[:WRITERS_PER_GAME]]
        for thread in threads:
            thread.start()
        started = time.monotonic()
        while time.monotonic() - started < MAX_LOAD_SECONDS and (
                time.monotonic() - started < LOAD_SECONDS or sum(len(v) for v in acked.values()) < MIN_ACKED):
            time.sleep(0.05)
        server.process.send_signal(signal.SIGKILL)  # mid-load: requests are in flight
        server.process.wait(timeout=10)
        stop.set()
        for thread in threads:
            thread.join(timeout=15)
        http.close()
    finally:
        if server.process.poll() is None:
            server.process.kill()
    acknowledged = sum(len(v) for v in acked.values())
    assert acknowledged >= MIN_ACKED, f"too little load reached the server ({acknowledged} events)"

    server = start_server(tmp_path, env)
    try:
        http = httpx.Client(base_url=server.url, timeout=60)
        for game, versions in acked.items():
            stored = {e["version"]: e["hash"] for e in all_events(http, game)}
            missing = {v: h for v, h in versions.items() if stored.get(v) != h}
            assert not missing, f"{len(missing)} acknowledged event(s) of {game} lost or changed"
            assert sorted(stored) == list(range(1, len(stored) + 1))
            record = http.get(f"/games/{game}/record").json()
            verdict = http.post("/records/verify", json=record).json()
            assert verdict["ok"], verdict["problems"][:3]
            assert http.get(f"/games/{game}").json()["version"] == len(stored)

        caught_up = read_models(http, list(acked))
        skipped = {name: lag["skipped"] for name, lag in http.get("/health").json()["read_models"].items() if lag["skipped"]}
        assert not skipped, f"read models skipped events: {skipped}"
        for game in acked:
            assert caught_up["index"][game]["version"] == len(all_events(http, game))
        rebuilt = server.cli("projections", "rebuild")
        assert rebuilt.returncode == 0, rebuilt.stderr
        assert read_models(http, list(acked)) == caught_up
        http.close()
    finally:
        server.process.terminate()
        try:
            server.process.wait(timeout=10)
        except Exception:
            server.process.kill()
