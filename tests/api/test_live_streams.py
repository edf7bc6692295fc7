"""Live streams (issue 11, point 8): idle SSE streams cost almost nothing — one follower of
the event log per process, streams woken by the write — and open streams are capped per
client address and in total (429 with Retry-After beyond)."""

from __future__ import annotations

import os
import socket
import time

import httpx

from tests.conftest import new_game, start_server


def _open_stream(url: str, game_id: str, source: str = "127.0.0.1") -> tuple[socket.socket, bytes]:
    """Open a raw SSE stream; return the socket and the response head."""
    host, port = url.removeprefix("http://").split(":")
    sock = socket.create_connection((host, int(port)), timeout=30, source_address=(source, 0))
    sock.sendall(f"GET /games/{game_id}/events/stream HTTP/1.1\r\nHost: herald\r\n\r\n".encode())
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = sock.recv(4096)
        if not chunk:
            break
        head += chunk
    return sock, head


def _cpu_seconds(pid: int) -> float:
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _stop(server) -> None:
    server.process.terminate()
    server.process.wait(timeout=15)


def test_200_idle_streams_cost_under_5_percent_of_a_core(tmp_path):
    """Before: a poll loop per stream; 200 idle streams cost a whole core."""
    server = start_server(tmp_path, {"HERALD_MAX_STREAMS_PER_CLIENT": "1000"})
    streams = []
    try:
        with httpx.Client(base_url=server.url, timeout=30) as client:
            games = [new_game(client) for _ in range(10)]
        for i in range(200):
            sock, head = _open_stream(server.url, games[i % 10]["id"])
            assert head.startswith(b"HTTP/1.1 200"), head
            streams.append(sock)
        time.sleep(1.0)  # every stream has sent its history and is waiting
        pid = server.process.pid
        before, started = _cpu_seconds(pid), time.monotonic()
        time.sleep(5.0)
        used = (_cpu_seconds(pid) - before) / (time.monotonic() - started)
        assert used < 0.05, f"200 idle streams cost {used:.1%} of a core"
    finally:
        for sock in streams:
            sock.close()
        _stop(server)


def test_a_write_wakes_its_streams_at_once(tmp_path):
    """The stream is woken by the write itself, not by a poll: with the cross-process poll
    set to a minute, a command's events still arrive within a second or two."""
    server = start_server(tmp_path, {"HERALD_SSE_POLL_SECONDS": "60"})
    try:
        with httpx.Client(base_url=server.url, timeout=30) as client:
            game = new_game(client)
            sock, head = _open_stream(server.url, game["id"])
            assert head.startswith(b"HTTP/1.1 200")
            time.sleep(0.5)
            sent = time.monotonic()
            response = client.post(f"/games/{game['id']}/commands",
                                   json={"seat": "alice", "command": {"type": "note", "text": "now"}},
                                   headers={"Authorization": f"Bearer {game['seat_tokens']['alice']}"})
            assert response.status_code == 201
            seen = head
            while b"DecisionTaken" not in seen:
                seen += sock.recv(65536)
            assert time.monotonic() - sent < 3
            sock.close()
    finally:
        _stop(server)


def test_streams_are_capped_per_client_and_in_total(tmp_path):
    server = start_server(tmp_path, {"HERALD_MAX_STREAMS_PER_CLIENT": "2", "HERALD_MAX_STREAMS": "3"})
    try:
        with httpx.Client(base_url=server.url, timeout=30) as client:
            game = new_game(client)
        first = [_open_stream(server.url, game["id"])[0] for _ in range(2)]
        sock, head = _open_stream(server.url, game["id"])
        assert head.startswith(b"HTTP/1.1 429") and b"retry-after:" in head.lower(), head
        sock.close()
        other, head = _open_stream(server.url, game["id"], source="127.0.0.2")  # another client
        assert head.startswith(b"HTTP/1.1 200"), head
        sock, head = _open_stream(server.url, game["id"], source="127.0.0.3")  # the total is reached
        assert head.startswith(b"HTTP/1.1 429"), head
        sock.close()
        first.pop().close()  # a closed stream gives its slot back
        deadline = time.monotonic() + 10
        while True:
            sock, head = _open_stream(server.url, game["id"])
            sock.close()
            if head.startswith(b"HTTP/1.1 200") or time.monotonic() > deadline:
                break
            time.sleep(0.2)
        assert head.startswith(b"HTTP/1.1 200"), head
        for s in [*first, other]:
            s.close()
    finally:
        _stop(server)
