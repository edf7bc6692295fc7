"""A body that stops arriving (a client gone quiet half-way, or slowloris trickling it) is
answered 408 problem+json ``body_timeout`` once no part of it has come for BODY_IDLE_SECONDS,
on the command route (ahead of the framework) and on the framework's routes alike; nothing is
recorded."""

from __future__ import annotations

import asyncio
import json

import pytest

import api.http
from api.app import create_app
from tests.conftest import new_game


async def stalled_request(app, path: str, first: bytes, headers: list[tuple[bytes, bytes]]) -> tuple[dict, bytes]:
    """Send ``first`` of a body announced longer, then nothing; return the response start and body."""
    sent: list[dict] = []
    parts = [{"type": "http.request", "body": first, "more_body": True}]

    async def receive() -> dict:
        if parts:
            return parts.pop(0)
        await asyncio.Event().wait()  # the rest never comes
        raise AssertionError("unreachable")

    async def send(message: dict) -> None:
        sent.append(message)

    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST", "scheme": "http",
             "path": path, "raw_path": path.encode(), "query_string": b"", "root_path": "",
             "headers": [(b"content-type", b"application/json"), (b"content-length", b"100"), *headers],
             "client": ("127.0.0.1", 5555), "server": ("127.0.0.1", 80), "state": {}}
    await asyncio.wait_for(app(scope, receive, send), 10)
    start = next(m for m in sent if m["type"] == "http.response.start")
    return start, b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")


@pytest.fixture
def quick(monkeypatch):
    monkeypatch.setattr(api.http, "BODY_IDLE_SECONDS", 0.2)


def test_a_stalled_command_body_is_a_408_and_records_nothing(herald, client, quick):
    game = new_game(client)
    app = create_app(herald)
    token = game["seat_tokens"]["alice"].encode()
    start, body = asyncio.run(stalled_request(app, f"/games/{game['id']}/commands", b'{"se',
                                              [(b"authorization", b"Bearer " + token)]))
    assert start["status"] == 408
    assert dict(start["headers"])[b"content-type"] == b"application/problem+json"
    assert json.loads(body)["code"] == "body_timeout"
    assert client.get(f"/games/{game['id']}").json()["version"] == game["head"]["version"]


def test_a_stalled_body_on_a_framework_route_is_a_408(herald, quick):
    app = create_app(herald)
    start, body = asyncio.run(stalled_request(app, "/games", b'{"ru', []))
    assert start["status"] == 408
    assert json.loads(body)["code"] == "body_timeout"
