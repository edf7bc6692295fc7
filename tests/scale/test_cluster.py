"""The production topology (issues 17 and 28): HAProxy in front of three Herald processes on one
PostgreSQL database, a tournament's worth of games played at once through it, each game's live
feed (SSE) read through it as a browser's EventSource reads it, one process killed with SIGKILL
mid-run. No acknowledged command is lost or stored twice, every feed resumes from its
Last-Event-ID through another process without a gap or a repeat, the survivors serve the killed
process's games, every record verifies, and the read models agree on every process afterwards,
one started again in place of the killed one included."""

from __future__ import annotations

import json
import signal
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest

from tests.records import expanded
from tests.scale.conftest import process_env, start, start_haproxy

GAMES = 16  # a round of a 32-player tournament
COMMANDS = 12  # per game, each a roll of 2d6
PROCESSES = 3
KILLED = "herald0"  # HAProxy's name of servers[0]


class Feed:
    """One game's live feed through HAProxy, read as an EventSource reads it: when the connection
    drops (its process died) or stays quiet for 2 s, it connects again with ``Last-Event-ID``,
    wherever HAProxy sends it then."""

    def __init__(self, url: str, game_id: str) -> None:
        self.url, self.game_id = url, game_id
        self.events: list[tuple[int, str]] = []  # (version, hash), in the order received
        self.connections: list[tuple[int | None, str]] = []  # (Last-Event-ID sent, X-Served-By)
        self.until: int | None = None  # the game's last version, once its commands are done
        self.failure: BaseException | None = None

    def last(self) -> int | None:
        return self.events[-1][0] if self.events else None

    def read(self) -> None:
        try:
            deadline = time.monotonic() + 180
            with httpx.Client(base_url=self.url, timeout=httpx.Timeout(30, read=2)) as client:
                while self.until is None or (self.last() or 0) < self.until:
                    assert time.monotonic() < deadline, f"feed of {self.game_id} stopped at {self.last()}"
                    sent = self.last()
                    headers = {} if sent is None else {"Last-Event-ID": str(sent)}
                    try:
                        with client.stream("GET", f"/games/{self.game_id}/events/stream", headers=headers) as response:
                            if response.status_code != 200:  # 502/503 while HAProxy notices the death
                                time.sleep(0.2)
                                continue
                            self.connections.append((sent, response.headers.get("x-served-by", "?")))
                            for line in response.iter_lines():
                                if line.startswith("data: "):
                                    event = json.loads(line.removeprefix("data: "))
                                    self.events.append((event["version"], event["hash"]))
                                    if self.until is not None and event["version"] >= self.until:
                                        return
                    except httpx.HTTPError:
                        time.sleep(0.1)
        except BaseException as failure:  # noqa: BLE001 - reported by the test's thread
            self.failure = failure


def read_models(url: str, games: list[dict]) -> dict[str, tuple]:
    """What a process's read models say of each game: the index's version and status, and the
    dice statistics' rolls per seat and die kind."""
    with httpx.Client(base_url=url, timeout=30) as client:
        rows = {row["id"]: row for row in client.get("/games", params={"limit": 500}).json()["games"]}
        found = {}
        for game in games:
            dice = client.get(f"/games/{game['id']}/dice").json()
            rolls = sorted((seat, k["kind"], k["rolls"], tuple(sorted(k["counts"].items())))
                           for seat, kinds in dice["by_seat"].items() for k in kinds)
            row = rows.get(game["id"], {})
            found[game["id"]] = (row.get("version"), row.get("status"), tuple(rolls))
        return found


@pytest.mark.slow  # three processes under load behind HAProxy, one killed (make test-slow; CI)
def test_three_processes_under_load_lose_nothing_when_one_is_killed(pg, tmp_path):
    env = process_env(pg, tmp_path, HERALD_MAX_STREAMS_PER_CLIENT="200")
    servers = [start(tmp_path, env, f"herald-{i}") for i in range(PROCESSES)]
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
        feeds = {game["id"]: Feed(proxy.url, game["id"]) for game in games}
        readers = [threading.Thread(target=feed.read) for feed in feeds.values()]
        for reader in readers:
            reader.start()

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
                feeds[game["id"]].until = head["version"]

        with ThreadPoolExecutor(GAMES) as pool:
            list(pool.map(play, games))
        for reader in readers:
            reader.join(timeout=120)
        assert killed.is_set()
        assert len(acknowledged) == GAMES * COMMANDS
        moved = [g for g, names in served_by.items() if KILLED in names and len(names) > 1]
        assert moved, f"no game of the killed process was taken over: {served_by}"

        survivor = servers[1].url
        with httpx.Client(base_url=survivor, timeout=30) as client:
            chains = {}
            for game in games:
                record = expanded(client.get(f"/games/{game['id']}/record").json())
                assert client.post("/records/verify", json=record).json()["ok"]
                chains[game["id"]] = [(e["version"], e["hash"]) for e in record["events"]]
                labels = [e["data"]["command"]["label"] for e in record["events"] if e["type"] == "DecisionTaken"]
                assert labels == [f"{game['id']} {n}" for n in range(COMMANDS)]  # each once, in order
        lost = [(g, v) for g, v, h in acknowledged if (v, h) not in chains[g]]
        assert not lost, f"acknowledged but not stored: {lost[:5]}"

        # every feed got every event once, in order, across its connections; those that were on
        # the killed process resumed after their Last-Event-ID on another
        for game_id, feed in feeds.items():
            assert feed.failure is None, f"feed of {game_id}: {feed.failure!r}"
            assert feed.events == chains[game_id], f"feed of {game_id}: {feed.events} != {chains[game_id]}"
        cut = [feed for feed in feeds.values() if feed.connections[0][1] == KILLED]
        assert cut, "no feed was on the killed process"
        for feed in cut:
            resumed = [(sent, by) for sent, by in feed.connections if sent is not None and by != KILLED]
            assert resumed, f"feed of {feed.game_id} did not resume on another process: {feed.connections}"

        # the read models agree on every process: the survivors and one started in the killed one's place
        servers[0] = start(tmp_path, env, "herald-0-again", port=servers[0].port)
        expected = {g: chain[-1][0] for g, chain in chains.items()}
        deadline = time.monotonic() + 30
        while True:
            seen = [read_models(server.url, games) for server in servers]
            agree = all(s == seen[0] for s in seen) and {g: v for g, (v, _, _) in seen[0].items()} == expected
            if agree or time.monotonic() > deadline:
                break
            time.sleep(0.5)
        assert agree, f"read models differ: {seen}"
        for version, status, rolls in seen[0].values():
            assert status == "active"
            assert sum(n for _, kind, n, _ in rolls if kind == "d6") == 2 * COMMANDS  # 2d6 a command, each once
    finally:
        proxy.stop()
        for server in servers:
            server.stop()
