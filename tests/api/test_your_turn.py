"""Issue 29, "Your turn": "A per-player stream (SSE, with Last-Event-ID resume) of 'your move in
game G at version V' across all of their games, and optional signed webhooks (HMAC over the
body, retries with back-off, a delivery log per player), tested against a real local HTTP
receiver."

The stream and the webhooks run on a real ``herald serve``; the receiver is a real HTTP server
in this process. Several processes on one PostgreSQL database: tests/scale/test_your_turn_processes.py."""

from __future__ import annotations

import hashlib
import hmac
import json
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import httpx
import pytest

from api.services.webhooks import private_target
from tests.conftest import start_server

END = {"type": "end", "outcome": {"winner": "p1", "reason": "agreed"}}
ROLL = {"type": "roll", "label": "turn", "dice": "1d6"}


def register(http, name: str) -> dict[str, str]:
    made = http.post("/players", json={"name": name})
    assert made.status_code == 201, made.text
    return {"Authorization": f"Bearer {made.json()['player_token']}"}


def game_between(http, p1: str, p2: str) -> dict:
    made = http.post("/games", json={"rules": "open-table", "seats": {"p1": {"player": p1}, "p2": {"player": p2}}})
    assert made.status_code == 201, made.text
    return made.json()


def send(http, game: dict, seat: str, command: dict) -> None:
    answer = http.post(f"/games/{game['id']}/commands", json={"seat": seat, "command": command},
                       headers={"Authorization": f"Bearer {game['seat_tokens'][seat]}"})
    assert answer.status_code == 201, answer.text


def test_the_turns_page_lists_each_game_waiting_on_the_player(client):
    ann, bob = register(client, "Ann"), register(client, "Bob")
    first, second = game_between(client, "Ann", "Bob"), game_between(client, "Cy", "Ann")
    page = client.get("/players/Ann/turns", headers=ann).json()
    assert [(t["game"], t["version"], t["seats"]) for t in page["turns"]] == [
        (first["id"], 1, ["p1"]), (second["id"], 1, ["p2"])]
    # Ann plays in the first game: her turn there goes on (open-table: every seat may record),
    # so she is told again at the new version; Bob, still waited on, is not told twice
    send(client, first, "p1", ROLL)
    later = client.get("/players/Ann/turns", headers=ann, params={"after": page["last"]}).json()
    assert [(t["game"], t["version"]) for t in later["turns"]] == [(first["id"], 3)]
    assert [t["version"] for t in client.get("/players/Bob/turns", headers=bob).json()["turns"]] == [1]
    # once the game ends nobody is waited on, and nothing more is told
    for seat in ("p1", "p2"):
        send(client, first, seat, END)
    assert client.get("/players/Ann/turns", headers=ann, params={"after": later["last"]}).json()["turns"] == []
    # only Ann's own token reads Ann's turns
    assert client.get("/players/Ann/turns").status_code == 401
    refused = client.get("/players/Ann/turns", headers=bob)
    assert refused.status_code == 403 and refused.json()["code"] == "wrong_token"
    assert client.get("/players/Nobody/turns", headers=bob).status_code == 404


def read_events(sock: socket.socket, count: int, timeout: float = 20) -> list[dict]:
    """``count`` SSE events (id and parsed data) from an open stream."""
    found, buffer, deadline = [], b"", time.monotonic() + timeout
    while len(found) < count and time.monotonic() < deadline:
        chunk = sock.recv(65536)
        if not chunk:
            break
        buffer += chunk
        while b"\n\n" in buffer:
            block, buffer = buffer.split(b"\n\n", 1)
            lines = dict(line.split(": ", 1) for line in block.decode().splitlines() if ": " in line
                         and not line.startswith(":"))
            if "data" in lines:
                found.append({"id": int(lines["id"]), **json.loads(lines["data"])})
    return found


def open_stream(url: str, name: str, token: str, last: int | None = None) -> socket.socket:
    host, port = url.removeprefix("http://").split(":")
    sock = socket.create_connection((host, int(port)), timeout=30)
    resume = f"Last-Event-ID: {last}\r\n" if last is not None else ""
    sock.sendall(f"GET /players/{name}/turns/stream HTTP/1.1\r\nHost: herald\r\nAuthorization: {token}\r\n"
                 f"{resume}\r\n".encode())
    head = b""
    while b"\r\n\r\n" not in head:
        head += sock.recv(1)
    assert head.startswith(b"HTTP/1.1 200"), head
    return sock


def test_the_stream_tells_each_turn_as_it_comes_and_resumes_after_last_event_id(tmp_path):
    server = start_server(tmp_path, {"HERALD_SSE_POLL_SECONDS": "0.05"})
    try:
        with httpx.Client(base_url=server.url, timeout=30) as http:
            ann = register(http, "Ann")
            game = game_between(http, "Ann", "Bob")
            stream = open_stream(server.url, "Ann", ann["Authorization"])
            assert [(t["game"], t["version"]) for t in read_events(stream, 1)] == [(game["id"], 1)]
            other = game_between(http, "Bob", "Ann")  # a second game: the same stream tells it
            send(http, game, "p1", ROLL)
            told = read_events(stream, 2)
            assert [(t["game"], t["version"], t["seats"]) for t in told] == [
                (other["id"], 1, ["p2"]), (game["id"], 3, ["p1"])]
            stream.close()
            # away for a while: two more turns come; back with the last id seen, exactly those follow
            send(http, other, "p2", ROLL)
            send(http, game, "p1", ROLL)
            resumed = open_stream(server.url, "Ann", ann["Authorization"], last=told[0]["id"])
            again = read_events(resumed, 3)
            assert [(t["game"], t["version"]) for t in again] == [
                (game["id"], 3), (other["id"], 3), (game["id"], 5)]
            assert [t["id"] for t in again] == sorted(t["id"] for t in again)
            resumed.close()
            wrong = http.get("/players/Ann/turns/stream", headers={"Authorization": "Bearer nope"})
            assert wrong.status_code == 403
    finally:
        server.stop()


class Receiver:
    """A real local HTTP server taking webhook deliveries: it answers 500 to the first
    ``failures`` of them, then 204; it keeps every request (time, headers, body)."""

    def __init__(self, failures: int):
        self.failures, self.got = failures, []
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers["Content-Length"]))
                receiver.got.append((time.monotonic(), dict(self.headers), body))
                self.send_response(500 if len(receiver.got) <= receiver.failures else 204)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/herald"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def receiver():
    found = Receiver(failures=2)
    yield found
    found.close()


def test_webhooks_are_signed_retried_with_back_off_and_logged(tmp_path, receiver):
    server = start_server(tmp_path, {"HERALD_WEBHOOK_RETRY_SECONDS": "0.4", "HERALD_WEBHOOK_POLL_SECONDS": "0.05",
                                     "HERALD_WEBHOOK_PRIVATE": "1"})  # the receiver is on 127.0.0.1
    try:
        with httpx.Client(base_url=server.url, timeout=30) as http:
            ann = register(http, "Ann")
            bad = http.post("/players/Ann/webhook", headers=ann, json={"url": "file:///etc/passwd"})
            assert bad.status_code == 422 and bad.json()["code"] == "bad_webhook"
            assert http.post("/players/Ann/webhook", json={"url": receiver.url}).status_code == 401
            hook = http.post("/players/Ann/webhook", headers=ann, json={"url": receiver.url})
            assert hook.status_code == 201, hook.text
            secret = hook.json()["secret"]
            game = game_between(http, "Ann", "Bob")

            def received(count: int) -> None:
                deadline = time.monotonic() + 60
                while len(receiver.got) < count and time.monotonic() < deadline:
                    time.sleep(0.05)
                assert len(receiver.got) == count, receiver.got

            received(3)  # two refused, then the first notice delivered
            send(http, game, "p1", ROLL)
            received(4)  # the second notice
            bodies = [json.loads(body) for _, _, body in receiver.got]
            assert [(b["game"], b["version"]) for b in bodies] == [(game["id"], 1)] * 3 + [(game["id"], 3)]
            for _, headers, body in receiver.got:
                expected = "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()
                assert headers["X-Herald-Signature"] == expected
                assert headers["X-Herald-Event"] == "turn"
            assert [h["X-Herald-Delivery"] for _, h, _ in receiver.got][:3] == [
                f"{bodies[0]['id']}.1", f"{bodies[0]['id']}.2", f"{bodies[0]['id']}.3"]
            # back-off doubles: 0.4 s, then 0.8 s
            gaps = [b - a for (a, _, _), (b, _, _) in zip(receiver.got, receiver.got[1:3])]
            assert 0.35 <= gaps[0] and 0.75 <= gaps[1], gaps
            deadline = time.monotonic() + 10  # each attempt is logged once its answer is in
            while len(log := http.get("/players/Ann/webhook/deliveries", headers=ann).json()["deliveries"]) < 4 \
                    and time.monotonic() < deadline:
                time.sleep(0.05)
            log = http.get("/players/Ann/webhook/deliveries", headers=ann).json()
            assert log["url"] == receiver.url
            assert [(d["attempt"], d["status"], d["outcome"]) for d in log["deliveries"]] == [
                (1, 204, "delivered"), (3, 204, "delivered"), (2, 500, "retry"), (1, 500, "retry")]
            assert log["deliveries"][-1]["next_at"] is not None
            assert http.get("/players/Ann/webhook/deliveries",
                            headers=register(http, "Bob")).status_code == 403
            assert http.delete("/players/Ann/webhook", headers=ann).status_code == 204
            send(http, game, "p1", ROLL)
            time.sleep(0.5)
            assert len(receiver.got) == 4  # removed: nothing more is sent
    finally:
        server.stop()


def test_a_webhook_never_points_into_the_servers_own_network(tmp_path, receiver):
    """A request forgery: without HERALD_WEBHOOK_PRIVATE a webhook naming a loopback, private or
    link-local address is refused when set, and one whose name resolves to such an address is
    refused at delivery (logged, never sent)."""
    server = start_server(tmp_path, {"HERALD_WEBHOOK_RETRY_SECONDS": "0.2", "HERALD_WEBHOOK_POLL_SECONDS": "0.05"})
    try:
        with httpx.Client(base_url=server.url, timeout=30) as http:
            ann = register(http, "Ann")
            for url in (receiver.url, "http://localhost:5432/", "http://10.1.2.3/hook", "http://[::1]/",
                        "http://169.254.169.254/latest/meta-data", "http://[::ffff:127.0.0.1]/", "http://0.0.0.0/"):
                bad = http.post("/players/Ann/webhook", headers=ann, json={"url": url})
                assert bad.status_code == 422 and bad.json()["code"] == "bad_webhook", (url, bad.text)
    finally:
        server.stop()
    assert receiver.got == []


def test_a_delivery_resolves_the_name_and_refuses_an_address_that_is_not_public():
    """At delivery the host's name is resolved: "localhost" names the loopback address."""
    assert "not public" in private_target("http://localhost:8000/hook")
    assert "not public" in private_target("http://[fd00::1]/hook")
    assert private_target("http://93.184.216.34/hook") is None
