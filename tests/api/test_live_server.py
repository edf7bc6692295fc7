"""End to end through the real path: ``herald serve`` (uvicorn) on a free port, a real
SQLite file, the real ``herald`` CLI."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import threading

import httpx

from tests.conftest import ADMIN_TOKEN
from tests.records import expanded


def create(http, seats=("alice", "bob")):
    response = http.post("/games", json={"rules": "open-table", "seats": {s: {"player": s.title()} for s in seats}})
    assert response.status_code == 201, response.text
    return response.json()


def send(http, game, seat, command, **extra):
    return http.post(f"/games/{game['id']}/commands", json={"seat": seat, "command": command, **extra},
                     headers={"Authorization": f"Bearer {game['seat_tokens'][seat]}"})


def play_a_game(http) -> dict:
    game = create(http)
    send(http, game, "alice", {"type": "roll", "label": "3d6 for the charge", "dice": "3d6"})
    send(http, game, "bob", {"type": "shuffle", "deck": "standard-54"})
    send(http, game, "bob", {"type": "draw", "deck": "standard-54", "count": 3})
    send(http, game, "alice", {"type": "note", "text": "Raymond holds", "payload": {"hex": "B4"}})
    send(http, game, "bob", {"type": "roll", "label": "Loose at Ala Afdal", "dice": "2xsaladin-combat"})
    for seat in ("alice", "bob"):
        assert send(http, game, seat, {"type": "end", "outcome": {"winner": "bob", "reason": "rout"}}).status_code == 201
    return game


def test_record_export_verify_then_tamper(live_server, tmp_path):
    http = httpx.Client(base_url=live_server.url, timeout=10)
    game = play_a_game(http)

    exported = live_server.cli("export", game["id"], "-o", str(tmp_path / "game.json"))
    assert exported.returncode == 0, exported.stderr
    verified = live_server.cli("replay", "verify", str(tmp_path / "game.json"))
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert verified.stdout.startswith("OK:")
    shown = live_server.cli("replay", "show", str(tmp_path / "game.json"), "--step", "3")
    assert "step 3 of" in shown.stdout and "3d6 for the charge" in shown.stdout

    record = expanded(http.get(f"/games/{game['id']}/record").content)
    verdict = http.post("/records/verify", json=record).json()
    assert verdict["ok"] is True and verdict["problems"] == []

    # Change one byte of one stored event in the database file: a die face.
    dice_version = next(e["version"] for e in record["events"] if e["type"] == "DiceRolled")
    with sqlite3.connect(live_server.db) as db:
        (state,) = db.execute("SELECT state FROM stored_events WHERE originator_id = ? AND originator_version = ?",
                              (game["id"].replace("-", ""), dice_version)).fetchone() or (None,)
        if state is None:  # ids stored with dashes
            (state,) = db.execute("SELECT state FROM stored_events WHERE originator_id = ? AND originator_version = ?",
                                  (game["id"], dice_version)).fetchone()
        at = state.index(b'"faces":[') + len(b'"faces":[')
        changed = state[:at] + (b"6" if state[at:at + 1] != b"6" else b"1") + state[at + 1:]
        assert len(changed) == len(state) and changed != state
        db.execute("UPDATE stored_events SET state = ? WHERE state = ?", (changed, state))

    # The record as exported (format 2) carries no hash per event: its chain, recomputed, misses
    # the signed head, and the replay names the changed roll (dice not the seed's).
    exported = http.get(f"/games/{game['id']}/record").content
    verdict = http.post("/records/verify", content=exported, headers={"Content-Type": "application/json"}).json()
    assert verdict["ok"] is False
    last = json.loads(exported)["head"]["version"]
    assert {p["version"] for p in verdict["problems"]} <= {dice_version, last}
    assert any("does not end at the record's head" in p["what"] for p in verdict["problems"])
    assert any(p["version"] == dice_version and "replay differs" in p["what"] for p in verdict["problems"]), verdict
    # The events as stored name the changed one by its own hash (format 1 of the same record too).
    tampered = expanded(exported)
    for e, stored in zip(tampered["events"], http.get(f"/games/{game['id']}/events?limit=1000").json()["events"]):
        e["prev_hash"], e["hash"] = stored["prev_hash"], stored["hash"]
    verdict = http.post("/records/verify", json=tampered).json()
    assert verdict["ok"] is False
    assert {p["version"] for p in verdict["problems"]} == {dice_version}
    assert any("hash mismatch" in p["what"] for p in verdict["problems"])

    (tmp_path / "tampered.json").write_text(json.dumps(tampered))
    result = live_server.cli("replay", "verify", str(tmp_path / "tampered.json"))
    assert result.returncode == 1
    assert f"FAIL version {dice_version}" in result.stdout


def test_seed_never_leaves_the_server_before_it_is_revealed(live_server):
    """Everything the server emitted — responses, errors, SSE, its log — is scanned for
    the seed; it may appear only from SeedRevealed on."""
    http = httpx.Client(base_url=live_server.url, timeout=10)
    seen: list[str] = []

    def get(path, **kw):
        response = http.get(path, **kw)
        seen.append(response.text)
        return response

    games = []
    for _ in range(3):
        game = create(http, seats=("alice", "bob", "carol"))
        seen.append(json.dumps(game))
        games.append(game)
        for i, seat in enumerate(("alice", "bob", "carol") * 3):
            seen.append(send(http, game, seat, {"type": "roll", "label": f"r{i}", "dice": "4d20"}).text)
            seen.append(send(http, game, seat, {"type": "roll", "label": "bad", "dice": "4d7"}).text)
            seen.append(http.post(f"/games/{game['id']}/commands", json={"seat": seat, "command": {}},
                                  headers={"Authorization": "Bearer wrong"}).text)
        for path in ("", "/events?limit=1000", "/state", "/state?at=2", "/record", "/timeline",
                     "/legal-commands?seat=alice"):
            get(f"/games/{game['id']}{path}")
        seen.append(http.post("/records/verify", json=expanded(http.get(f"/games/{game['id']}/record").content)).text)
    get("/games")
    get("/openapi.json")
    # a live SSE reader of a game that is still going
    stream_text: list[str] = []

    def read_stream():
        with httpx.stream("GET", f"{live_server.url}/games/{games[0]['id']}/events/stream", timeout=10) as r:
            for line in r.iter_lines():
                stream_text.append(line)
                if line.startswith("data: ") and '"type":"SeedRevealed"' in line:
                    return

    reader = threading.Thread(target=read_stream)
    reader.start()
    # end game 0: only now is its seed revealed
    for seat in ("alice", "bob", "carol"):
        send(http, games[0], seat, {"type": "end", "outcome": {"draw": True}})
    reader.join(timeout=15)
    revealed = http.get(f"/games/{games[0]['id']}").json()["seed"]
    assert revealed and any(revealed in line for line in stream_text)

    seeds = {}
    with sqlite3.connect(live_server.db) as db:
        for (state,) in db.execute("SELECT state FROM stored_events"):
            event = json.loads(state)
            if "token_hashes" in event:
                seeds[event["game"]] = event["seed"]
    assert len(seeds) == 3
    before_reveal = "\n".join(seen + stream_text[:-1])
    for game_id, seed in seeds.items():
        assert seed not in before_reveal, f"the seed of {game_id} leaked before it was revealed"
        assert seed not in live_server.output(), "a seed reached the server log"
        if game_id != games[0]["id"]:
            assert seed not in stream_text[-1]
    # the admin token is never echoed either
    assert ADMIN_TOKEN not in before_reveal + live_server.output()


def test_twenty_http_clients_one_expected_version(live_server):
    http = httpx.Client(base_url=live_server.url, timeout=10)
    game = create(http)
    barrier = threading.Barrier(20)
    codes: list[int] = []
    bodies: list[dict] = []

    def client():
        with httpx.Client(base_url=live_server.url, timeout=20) as own:
            barrier.wait()
            r = send(own, game, "alice", {"type": "roll", "label": "race", "dice": "1d6"}, expected_version=1)
            codes.append(r.status_code)
            bodies.append(r.json())

    threads = [threading.Thread(target=client) for _ in range(20)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(codes) == [201] + [409] * 19
    assert all(b["code"] == "stale_version" for b in bodies if b.get("status") == 409)
    events = http.get(f"/games/{game['id']}/events").json()["events"]
    assert [e["version"] for e in events] == [1, 2, 3]
    assert events[2]["data"]["draws"] == [0]

    # an idempotent retry returns the same body and draws nothing new
    headers = {"Authorization": f"Bearer {game['seat_tokens']['bob']}", "Idempotency-Key": "retry-1"}
    body = {"seat": "bob", "command": {"type": "roll", "label": "retry", "dice": "2d6"}}
    first = http.post(f"/games/{game['id']}/commands", json=body, headers=headers)
    second = http.post(f"/games/{game['id']}/commands", json=body, headers=headers)
    assert first.status_code == second.status_code == 201
    assert first.content == second.content
    assert second.headers["idempotent-replayed"] == "true"
    assert http.get(f"/games/{game['id']}").json()["version"] == 5


def test_cli_checks_key_and_receipts_and_imports_a_record(live_server, tmp_path):
    http = httpx.Client(base_url=live_server.url, timeout=10)
    game = create(http)
    head = send(http, game, "alice", {"type": "roll", "label": "receipted", "dice": "2d6"}).json()["head"]
    for seat in ("alice", "bob"):
        send(http, game, seat, {"type": "end", "outcome": {"draw": True}})
    key = http.get("/keys").json()["keys"][0]["key"]
    path = tmp_path / "game.json"
    path.write_bytes(http.get(f"/games/{game['id']}/record").content)

    ok = live_server.cli("replay", "verify", str(path), "--key", key, "--receipt", f"{head['version']}:{head['hash']}")
    assert ok.returncode == 0 and "1 receipt(s) held, signed by the given key" in ok.stdout, ok.stdout
    wrong = live_server.cli("replay", "verify", str(path), "--receipt", f"{head['version']}:{'0' * 64}")
    assert wrong.returncode == 1 and f"FAIL version {head['version']}" in wrong.stdout
    other_key = live_server.cli("replay", "verify", str(path), "--key", "11" * 32)
    assert other_key.returncode == 1 and "not by the key given" in other_key.stdout

    # import into another Herald (its own data folder): the same record comes back out
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {**live_server.env, "HERALD_DB": str(elsewhere / "herald.db")}
    herald_bin = live_server.cli("--help").args[0]
    imported = subprocess.run([herald_bin, "import", str(path)], env=env, cwd=elsewhere, capture_output=True, text=True)
    assert imported.returncode == 0, imported.stderr
    assert imported.stdout.strip() == game["id"]
    again = subprocess.run([herald_bin, "import", str(path)], env=env, cwd=elsewhere, capture_output=True, text=True)
    assert again.returncode == 1 and "already exists" in again.stderr
    exported = subprocess.run([herald_bin, "export", game["id"]], env=env, cwd=elsewhere, capture_output=True)
    original = json.loads(path.read_text())
    copy = json.loads(exported.stdout)
    assert copy["events"] == original["events"] and copy["seed"] == original["seed"]
    rebuilt = live_server.cli("projections", "rebuild", "--progress")
    assert rebuilt.returncode == 0, rebuilt.stderr
    assert "game index" in rebuilt.stderr and "dice statistics" in rebuilt.stderr  # the progress bars
    assert game["id"] in {g["id"] for g in http.get("/games", params={"player": "Alice"}).json()["games"]}
    shown = live_server.cli("replay", "show", str(path), "--step", "99")
    assert shown.returncode != 0 and "steps 1 to" in shown.stderr


def test_the_command_route_reads_chunked_bodies_and_refuses_oversize_streams(live_server):
    """The command route reads the body itself (api/command_route.py): a body sent in chunks
    with no Content-Length is joined; one that streams past the limit is a 413, recorded nowhere."""
    with httpx.Client(base_url=live_server.url, timeout=30) as http:
        game = create(http)
        headers = {"Authorization": f"Bearer {game['seat_tokens']['alice']}", "Content-Type": "application/json"}
        body = json.dumps({"seat": "alice", "command": {"type": "note", "text": "sent in pieces"}}).encode()

        def pieces(data: bytes, size: int):
            for i in range(0, len(data), size):
                yield data[i:i + size]

        ok = http.post(f"/games/{game['id']}/commands", content=pieces(body, 7), headers=headers)
        assert ok.status_code == 201, ok.text
        assert "content-length" not in ok.request.headers
        assert ok.json()["events"][0]["data"]["command"]["text"] == "sent in pieces"

        huge = json.dumps({"seat": "alice", "command": {"type": "note", "text": "x", "payload": "y" * 100_000}}).encode()
        refused = http.post(f"/games/{game['id']}/commands", content=pieces(huge, 16_384), headers=headers)
        assert refused.status_code == 413 and refused.headers["content-type"] == "application/problem+json"
        assert refused.json()["code"] == "too_large"
        events = http.get(f"/games/{game['id']}/events").json()["events"]
        assert [e["version"] for e in events] == [1, 2]
