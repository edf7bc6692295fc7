"""Issue 30 (trust, round two), points 6, 8 and 10: numbers too long for Python to read, keys
and headers given twice, and idempotency keys that belong to each seat. Each was a repro of
an outside attacker; each is now a 4xx problem+json (or the CLI's one line) and records
nothing."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from domain.rules.saxon_shore.state import decode_tokens
from tests.conftest import new_game

PROBLEM = "application/problem+json"
HERALD = str(Path(sys.executable).parent / "herald")


def versions(client, game) -> int:
    return client.get(f"/games/{game['id']}").json()["version"]


def refused(response, status: int, code: str) -> dict:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith(PROBLEM)
    body = response.json()
    assert body["code"] == code, body
    return body


# -- point 6: numbers Python refuses to read ---------------------------------------------------
@pytest.mark.parametrize("if_match", ["1" * 4301, "9" * 20, "\u00b2", "1\u00b2"])
def test_an_if_match_past_any_version_is_a_422_not_a_500(client, if_match):
    """Before: ``If-Match`` of 4,301 digits answered 500 (Python reads at most 4,300)."""
    game = new_game(client)
    token = game["seat_tokens"]["alice"]
    response = client.post(f"/games/{game['id']}/commands", json={"seat": "alice", "command": {"type": "note", "text": "x"}},
                           headers={"Authorization": f"Bearer {token}",
                                    "If-Match": if_match.encode("utf-8")})
    refused(response, 422, "bad_if_match")
    assert len(response.text) < 2000  # the detail quotes the header cut short
    assert versions(client, game) == 1


@pytest.mark.parametrize("count", ["\u00b2", "9" * 5000, "\u0663", "1" * 10])
def test_saxon_shore_offer_tokens_refuse_digits_int_cannot_read(count):
    """Before: the family-offer answer's tokens did ``isdigit()`` then ``int()`` ("²" and 5,000
    digits raised). Counts are ASCII digits, nine at most."""
    assert decode_tokens(f"gold={count}") is None
    assert decode_tokens("gold=2") == {"gold": 2}


@pytest.mark.parametrize("receipt", ["\u00b2:abc", "9" * 5000 + ":abc", ":abc", "12"])
def test_a_receipt_the_cli_cannot_read_is_one_line(tmp_path, receipt):
    record = tmp_path / "r.json"
    record.write_text('{"format": "herald-record/2"}')
    done = subprocess.run([HERALD, "replay", "verify", str(record), "--receipt", receipt], capture_output=True,
                          text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert done.returncode != 0 and "Traceback" not in done.stderr, done.stderr
    assert len([line for line in done.stderr.splitlines() if line.strip()]) == 1, done.stderr


# -- point 8: idempotency keys are each seat's own -------------------------------------------
def test_another_seats_use_of_a_key_does_not_block_yours(client):
    """Before: Bob posted with key "alice-next", and Alice's command with that key was refused
    422 ``idempotency_key_reused``. Keys are public (they are in the record)."""
    game = new_game(client)
    headers = {"Idempotency-Key": "alice-next"}
    bob = client.post(f"/games/{game['id']}/commands", json={"seat": "bob", "command": {"type": "note", "text": "b"}},
                      headers={**headers, "Authorization": f"Bearer {game['seat_tokens']['bob']}"})
    assert bob.status_code == 201, bob.text
    alice = client.post(f"/games/{game['id']}/commands",
                        json={"seat": "alice", "command": {"type": "note", "text": "a"}},
                        headers={**headers, "Authorization": f"Bearer {game['seat_tokens']['alice']}"})
    assert alice.status_code == 201 and "idempotent-replayed" not in alice.headers, alice.text
    again = client.post(f"/games/{game['id']}/commands",
                        json={"seat": "alice", "command": {"type": "note", "text": "a"}},
                        headers={**headers, "Authorization": f"Bearer {game['seat_tokens']['alice']}"})
    assert again.headers.get("idempotent-replayed") == "true" and again.json() == alice.json()
    other = client.post(f"/games/{game['id']}/commands",
                        json={"seat": "alice", "command": {"type": "note", "text": "other"}},
                        headers={**headers, "Authorization": f"Bearer {game['seat_tokens']['alice']}"})
    refused(other, 422, "idempotency_key_reused")
    assert versions(client, game) == 3


# -- point 10: keys and headers given twice ----------------------------------------------------
@pytest.mark.parametrize("body", [
    b'{"seat": "alice", "seat": "bob", "command": {"type": "note", "text": "x"}}',
    b'{"seat": "alice", "command": {"type": "note", "text": "x", "text": "y"}}',
    b'{"seat": "alice", "command": {"type": "note", "text": "x", "payload": {"a": 1, "\\u0061": 2}}}',
])
def test_a_body_naming_a_key_twice_is_refused(client, body):
    """Before: the last value was taken. Each key once: ``"\\u0061"`` is "a" too."""
    game = new_game(client)
    response = client.post(f"/games/{game['id']}/commands", content=body,
                           headers={"Content-Type": "application/json",
                                    "Authorization": f"Bearer {game['seat_tokens']['alice']}"})
    refused(response, 400, "duplicate_key")
    assert versions(client, game) == 1
    created = client.post("/games", content=b'{"rules": "open-table", "rules": "saladin", '
                          b'"seats": {"alice": {"player": "A"}, "bob": {"player": "B"}}}',
                          headers={"Content-Type": "application/json"})
    refused(created, 400, "duplicate_key")


def test_a_record_naming_a_key_twice_is_refused(client):
    game = new_game(client)
    record = client.get(f"/games/{game['id']}/record").content
    assert client.post("/records/verify", content=record, headers={"Content-Type": "application/json"}).json()["ok"]
    twice = record.replace(b'{', b'{"format": "herald-record/2", ', 1)
    refused(client.post("/records/verify", content=twice, headers={"Content-Type": "application/json"}),
            400, "duplicate_key")


@pytest.mark.parametrize("name", ["Authorization", "Content-Type", "Idempotency-Key", "If-Match"])
def test_a_header_read_once_given_twice_is_refused(client, name):
    """Before: two ``Authorization`` headers were taken (the command route used the last, the
    framework the first)."""
    game = new_game(client)
    bearer = f"Bearer {game['seat_tokens']['alice']}"
    values = {"Authorization": [bearer, f"Bearer {game['seat_tokens']['bob']}"],
              "Content-Type": ["application/json", "application/json"],
              "Idempotency-Key": ["k1", "k2"], "If-Match": ["1", "1"]}[name]
    headers = [("Content-Type", "application/json"), ("Authorization", bearer)]
    headers = [h for h in headers if h[0] != name] + [(name, v) for v in values]
    for path in (f"/games/{game['id']}/commands", f"/games/{game['id']}/commands/check"):
        response = client.post(path, content=b'{"seat": "alice", "command": {"type": "note", "text": "x"}}',
                               headers=headers)
        body = refused(response, 400, "repeated_header")
        assert body["field"] == name.lower()
    assert versions(client, game) == 1


# -- point 9: headers that never end -----------------------------------------------------------
def test_a_direct_herald_serve_times_out_headers_that_never_end(tmp_path):
    """Before: a direct ``herald serve`` held a request whose headers trickled in (a byte now and
    then) for as long as the client liked. Now HERALD_HEADER_TIMEOUT after the connection opens
    (or a request on it begins) the client gets 408 problem+json ``header_timeout`` and the
    connection closes; an ordinary request on the same server is answered as before."""
    import json
    import socket
    import time

    import httpx

    from tests.conftest import start_server

    server = start_server(tmp_path, {"HERALD_HEADER_TIMEOUT": "1.5"})
    try:
        host, port = server.url.removeprefix("http://").split(":")
        for opening in (b"GET /health HTTP/1.1\r\nHost: x\r\nX-Slow: ", b""):
            started = time.monotonic()
            with socket.create_connection((host, int(port)), timeout=10) as s:
                s.sendall(opening)
                s.settimeout(0.3)
                received = b""
                while time.monotonic() - started < 10:
                    try:
                        chunk = s.recv(65536)
                    except TimeoutError:
                        if opening:
                            s.sendall(b"a")  # a byte now and then: the deadline does not move
                        continue
                    except ConnectionResetError:
                        break
                    if not chunk:
                        break
                    received += chunk
            took = time.monotonic() - started
            head, _, body = received.partition(b"\r\n\r\n")
            assert head.startswith(b"HTTP/1.1 408"), received[:200]
            assert json.loads(body)["code"] == "header_timeout"
            assert 1.2 < took < 8, took
        assert httpx.get(server.url + "/health", timeout=10).status_code == 200
    finally:
        server.stop()
