"""Several Herald processes on one PostgreSQL database (issue 17, "Correct with many
processes"): the schema is created once when they start together, a command that loses a
race to another process is decided again or answered 409 (never 500), caches and
idempotency keys stay right, live streams follow what any process writes, and each read
model is caught up by one process at a time."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from uuid import UUID

import httpx
import pytest

from api.bootstrap import Herald
from api.wire.games import AnnotationRequest, CommandRequest, CreateGame, DisputeRequest, SeatRequest
from tests.api.test_live_streams import _open_stream
from tests.conftest import ADMIN_TOKEN, Backend
from tests.scale.conftest import HERALD, process_env, start
from tests.records import expanded

OPEN = "from api.bootstrap import Herald\nh = Herald()\nh.close()\n"


def test_processes_starting_together_on_a_fresh_database_all_start(pg, tmp_path):
    """Before: two servers started together crashed with UniqueViolation creating tables."""
    env = process_env(pg, tmp_path)
    runs = [subprocess.Popen([sys.executable, "-c", OPEN], env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT) for _ in range(4)]
    outputs = [(run.wait(timeout=120), run.stdout.read().decode(errors="replace")) for run in runs]
    assert [code for code, _ in outputs] == [0] * 4, "\n".join(out for _, out in outputs)


def _create(url: str, seats=("alice", "bob")) -> dict:
    body = {"rules": "open-table", "seats": {s: {"player": s.title()} for s in seats}}
    response = httpx.post(url + "/games", json=body, timeout=30)
    assert response.status_code == 201, response.text
    return response.json()


@pytest.mark.slow  # two processes under racing load (make test-slow; CI)
def test_racing_commands_over_two_processes_are_decided_again_never_500(pg, tmp_path):
    """Before: 60 concurrent commands over two processes gave IntegrityError 500s."""
    env = process_env(pg, tmp_path)
    servers = [start(tmp_path, env, f"herald-{i}") for i in range(2)]
    try:
        games = [_create(servers[0].url) for _ in range(3)]
        # a live stream on the second process follows what the first one writes too
        stream, head = _open_stream(servers[1].url, games[0]["id"])
        assert head.startswith(b"HTTP/1.1 200"), head

        def send(i: int) -> tuple[int, dict, dict]:
            game, seat = games[i % 3], ("alice", "bob")[i % 2]
            body = {"seat": seat, "command": {"type": "roll", "label": f"race {i}", "dice": "2d6"}}
            headers = {"Authorization": f"Bearer {game['seat_tokens'][seat]}", "Idempotency-Key": f"k{i}"}
            url = servers[i % 2].url + f"/games/{game['id']}/commands"
            response = httpx.post(url, json=body, headers=headers, timeout=60)
            return response.status_code, response.json(), {"url": url, "body": body, "headers": headers}

        with ThreadPoolExecutor(30) as pool:
            answers = list(pool.map(send, range(60)))
        statuses = sorted({status for status, _, _ in answers})
        assert set(statuses) <= {201, 409}, [a for a in answers if a[0] not in (201, 409)][:3]
        accepted = [(body, sent) for status, body, sent in answers if status == 201]
        assert len(accepted) >= 40  # decided again on the newer game, not refused
        # every acknowledged head is in the stored chain, which verifies; no event twice
        for game in games:
            record = expanded(httpx.get(servers[1].url + f"/games/{game['id']}/record", timeout=30).json())
            hashes = {e["version"]: e["hash"] for e in record["events"]}
            verdict = httpx.post(servers[0].url + "/records/verify", json=record, timeout=30).json()
            assert verdict["ok"], verdict
            labels = [e["data"]["command"]["label"] for e in record["events"] if e["type"] == "DecisionTaken"]
            assert len(labels) == len(set(labels))
        for body, sent in accepted:
            game = next(g for g in games if g["id"] in sent["url"])
            record = expanded(httpx.get(servers[0].url + f"/games/{game['id']}/record", timeout=30).json())
            assert {e["version"]: e["hash"] for e in record["events"]}[body["head"]["version"]] == body["head"]["hash"]
        # the stream on process 1 follows what process 0 alone writes (its follower polls the log)
        note = httpx.post(servers[0].url + f"/games/{games[0]['id']}/commands", timeout=30,
                          json={"seat": "alice", "command": {"type": "note", "text": "seen elsewhere?"}},
                          headers={"Authorization": f"Bearer {games[0]['seat_tokens']['alice']}"})
        assert note.status_code == 201, note.text
        last = note.json()["version"]
        seen, deadline = head, time.monotonic() + 30
        while f"id: {last}\n".encode() not in seen and time.monotonic() < deadline:
            seen += stream.recv(65536)
        stream.close()
        assert f"id: {last}\n".encode() in seen
        # an idempotent retry sent to the other process answers the first response, no new dice
        _, first, sent = next(a for a in answers if a[0] == 201)
        other = sent["url"].replace(servers[0].url, "X").replace(servers[1].url, servers[0].url).replace("X", servers[1].url)
        again = httpx.post(other, json=sent["body"], headers=sent["headers"], timeout=30)
        assert again.status_code == 201 and again.headers.get("idempotent-replayed") == "true"
        assert again.json()["head"] == first["head"]
    finally:
        for server in servers:
            server.stop()


def test_the_cache_follows_games_another_process_writes(pg):
    """A process's cached game is fast-forwarded with the events another process wrote,
    and a command decided on the stale copy is decided again on the fresh one."""
    one = Herald(env=pg.env, admin_token=ADMIN_TOKEN, signing_key_path=pg.key)
    two = Herald(env=pg.env, admin_token=ADMIN_TOKEN, signing_key_path=pg.key)
    try:
        created = one.games.create(CreateGame("open-table", {"a": SeatRequest("A"), "b": SeatRequest("B")}))
        game_id = UUID(created.id)
        token = created.seat_tokens["a"]
        roll = CommandRequest("a", {"type": "roll", "label": "x", "dice": "1d6"})
        one.games.command(game_id, roll, token, "key-1")
        assert two.games.game(game_id).version == one.games.game(game_id).version  # two caches it now
        for i in range(3):
            one.games.command(game_id, CommandRequest("a", {"type": "note", "text": f"n{i}"}), token)
        response, replayed = two.games.command(game_id, CommandRequest("a", {"type": "note", "text": "late"}), token)
        assert not replayed and response.version == one.games.game(game_id).version
        again, replayed = two.games.command(game_id, roll, token, "key-1")  # written by the other process
        assert replayed and again.head.version < response.version
    finally:
        one.close()
        two.close()


def test_each_read_model_is_caught_up_by_one_process_at_a_time(pg):
    """Two processes catching the game index up at once apply each event once: the count
    of open disputes (an increment, not idempotent) stays exact."""
    writer = Herald(env=pg.env, admin_token=ADMIN_TOKEN, signing_key_path=pg.key)
    readers = [Herald(env=pg.env, admin_token=ADMIN_TOKEN, signing_key_path=pg.key) for _ in range(3)]
    try:
        games = []
        for _ in range(30):
            created = writer.games.create(CreateGame("open-table", {"a": SeatRequest("A"), "b": SeatRequest("B")}))
            game_id = UUID(created.id)
            token = created.seat_tokens["a"]
            writer.games.command(game_id, CommandRequest("a", {"type": "note", "text": "x"}), token)
            writer.games.raise_dispute(game_id, DisputeRequest("a", 2, "why"), token)
            writer.games.annotate(game_id, AnnotationRequest("a note"), ADMIN_TOKEN)
            games.append(created.id)
        start = threading.Barrier(len(readers))

        def catch_up(reader: Herald) -> None:
            start.wait()
            reader.games.index.catch_up()
            reader.games.dice.catch_up()

        threads = [threading.Thread(target=catch_up, args=(r,)) for r in readers]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        rows, _ = readers[0].games.index.list(limit=500)
        assert len(rows) == 30
        assert {row.open_disputes for row in rows} == {1}
        assert {row.version for row in rows} == {4}
    finally:
        writer.close()
        for reader in readers:
            reader.close()


def test_serve_with_workers_runs_several_processes_on_one_port(pg, tmp_path):
    env = process_env(pg, tmp_path)
    server = start(tmp_path, env, "herald-workers", "--workers", "2")
    try:
        children = Path(f"/proc/{server.process.pid}/task/{server.process.pid}/children").read_text().split()
        assert len(children) >= 2  # uvicorn's supervisor and its two workers
        game = _create(server.url)

        def send(i: int) -> int:
            body = {"seat": "alice", "command": {"type": "note", "text": f"n{i}"}}
            headers = {"Authorization": f"Bearer {game['seat_tokens']['alice']}"}
            with httpx.Client(timeout=60) as fresh:  # a connection each: the kernel spreads them
                return fresh.post(server.url + f"/games/{game['id']}/commands", json=body, headers=headers).status_code

        with ThreadPoolExecutor(10) as pool:
            assert set(pool.map(send, range(20))) <= {201, 409}
        record = httpx.get(server.url + f"/games/{game['id']}/record", timeout=30).json()
        assert httpx.post(server.url + "/records/verify", json=record, timeout=30).json()["ok"]
    finally:
        server.stop()


def test_serve_with_workers_refuses_sqlite(tmp_path):
    env = {k: v for k, v in process_env(Backend("sqlite", {}), tmp_path).items() if k != "PERSISTENCE_MODULE"}
    done = subprocess.run([HERALD, "serve", "--workers", "2"], env=env, cwd=tmp_path, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode != 0 and "PostgreSQL" in done.stderr
