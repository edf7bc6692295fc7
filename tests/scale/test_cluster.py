"""The production topology (issue 17): HAProxy in front of two Herald processes on one
PostgreSQL database, a tournament's worth of games played at once through it, one process
killed with SIGKILL mid-run. No acknowledged event is lost, the survivor serves the killed
process's games, and every record verifies."""

from __future__ import annotations

import signal
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest

from tests.scale.conftest import process_env, start, start_haproxy
from tests.records import expanded

GAMES = 16  # a round of a 32-player tournament
COMMANDS = 12  # per game


@pytest.mark.slow  # a process killed under load behind HAProxy (make test-slow; CI)
def test_a_round_through_haproxy_survives_a_process_killed_mid_run(pg, tmp_path):
    env = process_env(pg, tmp_path)
    servers = [start(tmp_path, env, f"herald-{i}") for i in range(2)]
    proxy = start_haproxy(tmp_path, servers)
    acknowledged: list[tuple[str, int, str]] = []  # (game, version, hash) of every 201
    served_by: dict[str, set[str]] = {}
    lock = threading.Lock()
    killed = threading.Event()
    try:
        with httpx.Client(base_url=proxy.url, timeout=30) as client:
            games = []
            for i in range(GAMES):
                body = {"rules": "open-table", "seats": {"a": {"player": f"P{2 * i}"}, "b": {"player": f"P{2 * i + 1}"}}}
                response = client.post("/games", json=body)
                assert response.status_code == 201, response.text
                games.append(response.json())

        def play(game: dict) -> None:
            with httpx.Client(base_url=proxy.url, timeout=30) as client:
                for n in range(COMMANDS):
                    seat = "ab"[n % 2]
                    body = {"seat": seat, "command": {"type": "roll", "label": f"{game['id']} {n}", "dice": "2d6"}}
                    headers = {"Authorization": f"Bearer {game['seat_tokens'][seat]}", "Idempotency-Key": f"c{n}"}
                    deadline = time.monotonic() + 60
                    while True:  # a client retries what got no answer, with the same key
                        try:
                            response = client.post(f"/games/{game['id']}/commands", json=body, headers=headers)
                        except httpx.HTTPError:
                            response = None
                        if response is not None and response.status_code == 201:
                            break
                        assert response is None or response.status_code in (409, 502, 503, 504), response.text
                        assert time.monotonic() < deadline, "a command never got through"
                        time.sleep(0.2)
                    head = response.json()["head"]
                    with lock:
                        acknowledged.append((game["id"], head["version"], head["hash"]))
                        served_by.setdefault(game["id"], set()).add(response.headers.get("x-served-by", "?"))
                        if len(acknowledged) == GAMES * COMMANDS // 3 and not killed.is_set():
                            servers[0].process.send_signal(signal.SIGKILL)
                            killed.set()

        with ThreadPoolExecutor(GAMES) as pool:
            list(pool.map(play, games))
        assert killed.is_set()
        assert len(acknowledged) == GAMES * COMMANDS
        moved = [g for g, names in served_by.items() if names == {"herald0", "herald1"}]
        assert moved, f"no game of the killed process was taken over: {served_by}"

        survivor = servers[1].url
        with httpx.Client(base_url=survivor, timeout=30) as client:
            chains = {}
            for game in games:
                record = expanded(client.get(f"/games/{game['id']}/record").json())
                assert client.post("/records/verify", json=record).json()["ok"]
                chains[game["id"]] = {e["version"]: e["hash"] for e in record["events"]}
                labels = [e["data"]["command"]["label"] for e in record["events"] if e["type"] == "DecisionTaken"]
                assert labels == [f"{game['id']} {n}" for n in range(COMMANDS)]  # each once, in order
        lost = [(g, v) for g, v, h in acknowledged if chains[g].get(v) != h]
        assert not lost, f"acknowledged but not stored: {lost[:5]}"
    finally:
        proxy.stop()
        for server in servers:
            server.stop()
