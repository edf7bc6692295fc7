"""Issue 18: the command route answers ahead of FastAPI (api/command_route.py), its OpenAPI
entry is an ordinary route declaration, and no middleware is silently skipped: every
middleware added to the app wraps the fast path too, and every layer of the framework's own
that it does without is named with what stands in for it (api/app.py, FAST_PATH_WITHOUT)."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

import api.app
from api.app import FAST_PATH_WITHOUT
from api.command_route import CommandRoute
from api.config import Settings
from tests.conftest import ADMIN_TOKEN, new_game, post


class Stamp:
    """A middleware that marks every answer it passes."""

    def __init__(self, app: Any, name: str) -> None:
        self.app, self.name = app, name

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        async def stamped(message: dict) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message["headers"], (b"x-stamp", self.name.encode())]}
            await send(message)

        await self.app(scope, receive, stamped)


def _layers(app: Any, stop: type) -> list[Any]:
    found = []
    while not isinstance(app, stop):
        found.append(app)
        app = app.app
    return found


def test_a_middleware_added_to_the_app_wraps_the_command_route_too(herald):
    app = api.app.create_app(herald, Settings(admin_token=ADMIN_TOKEN, cors_origins=("https://club.example",)))
    app.add_middleware(Stamp, name="seen")
    with TestClient(app) as client:
        game = new_game(client)
        recorded = client.post(
            f"/games/{game['id']}/commands", json={"seat": "alice", "command": {"type": "note", "text": "hi"}},
            headers={"Authorization": f"Bearer {game['seat_tokens']['alice']}", "Origin": "https://club.example"})
        assert recorded.status_code == 201, recorded.text
        assert recorded.headers["x-stamp"] == "seen"
        assert recorded.headers["access-control-allow-origin"] == "https://club.example"
        for _ in range(2):  # the second read of a past position is the rendered one: still through CORS
            state = client.get(f"/games/{game['id']}/state", params={"at": 1},
                               headers={"Origin": "https://club.example"})
            assert state.status_code == 200
            assert state.headers["access-control-allow-origin"] == "https://club.example"
            assert state.headers["x-stamp"] == "seen"
        fast = [type(layer) for layer in _layers(app.commands, CommandRoute)]
        assert fast == [m.cls for m in app.user_middleware]
        skipped = {type(layer).__name__ for layer in _layers(app.middleware_stack, type(app.router))} - {
            m.cls.__name__ for m in app.user_middleware}
        assert skipped <= set(FAST_PATH_WITHOUT), f"the fast path skips {skipped - set(FAST_PATH_WITHOUT)} unnamed"


def test_the_openapi_entry_is_the_declared_route_and_it_answers_the_same(client, monkeypatch):
    operation = client.get("/openapi.json").json()["paths"]["/games/{game_id}/commands"]["post"]
    assert operation["operationId"] == "post_command"
    assert {p["name"] for p in operation["parameters"]} == {"game_id", "Idempotency-Key", "If-Match"}
    assert operation["security"] == [{"bearer": []}]  # the seat's token: the bearer scheme (issue 27)
    game = new_game(client)
    fast = post(client, game, "alice", {"type": "note", "text": "fast"}).json()
    monkeypatch.setattr(api.app, "command_target", lambda scope: None)  # through FastAPI's router instead
    routed = post(client, game, "alice", {"type": "note", "text": "routed"})
    assert routed.status_code == 201
    assert routed.json()["version"] == fast["version"] + 1
    assert post(client, game, "alice", {"type": "nonsense"}).status_code == 422
