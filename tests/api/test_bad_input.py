"""Bad input gets a clear 4xx problem+json naming what is wrong, and the record is unchanged."""

import uuid

import pytest

from tests.conftest import new_game, post

PROBLEM = "application/problem+json"
JSON = {"Content-Type": "application/json"}


def events_of(client, game):
    return client.get(f"/games/{game['id']}/events", params={"limit": 1000}).json()["events"]


def assert_problem(response, status, code=None):
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith(PROBLEM)
    body = response.json()
    assert {"type", "title", "status", "detail"} <= body.keys() and body["status"] == status
    if code:
        assert body["code"] == code, body
    return body


def test_unknown_game(client):
    assert_problem(client.get(f"/games/{uuid.uuid4()}"), 404)
    assert_problem(client.get("/games/not-a-uuid"), 422)
    assert_problem(client.post(f"/games/{uuid.uuid4()}/commands", json={"seat": "a", "command": {"type": "note", "text": ""}},
                               headers={"Authorization": "Bearer x"}), 404)


def test_unknown_route_is_a_problem(client):
    assert_problem(client.get("/nowhere"), 404)


@pytest.mark.parametrize(
    "mutate, status, code",
    [
        (lambda g: ({"seat": "zoe", "command": {"type": "note", "text": "x"}}, g["seat_tokens"]["alice"]), 404, "unknown_seat"),
        (lambda g: ({"seat": "alice", "command": {"type": "note", "text": "x"}}, g["seat_tokens"]["bob"]), 403, "wrong_token"),
        (lambda g: ({"seat": "alice", "command": {"type": "note", "text": "x"}}, None), 401, "unauthorized"),
        (lambda g: ({"seat": "alice", "command": {"type": "fly"}}, g["seat_tokens"]["alice"]), 422, "unknown_command"),
        (lambda g: ({"seat": "alice", "command": {"type": "roll", "label": 3, "dice": "3d6"}}, g["seat_tokens"]["alice"]), 422, "unknown_command"),
        (lambda g: ({"seat": "alice", "command": {"type": "roll", "label": "x", "dice": "3d7"}}, g["seat_tokens"]["alice"]), 422, "open-table.bad_dice"),
        (lambda g: ({"seat": "alice", "command": {"type": "roll", "label": "x", "dice": "1000d6"}}, g["seat_tokens"]["alice"]), 422, "open-table.bad_dice"),
        (lambda g: ({"seat": "alice", "command": {"type": "draw", "deck": "tarot"}}, g["seat_tokens"]["alice"]), 422, "open-table.unknown_deck"),
        (lambda g: ({"seat": "alice", "command": {"type": "draw", "deck": "standard-54", "count": 55}}, g["seat_tokens"]["alice"]), 422, "open-table.not_enough_cards"),
        (lambda g: ({"seat": "alice", "command": {"type": "end", "outcome": {"winner": "mallory"}}}, g["seat_tokens"]["alice"]), 422, "open-table.unknown_seat_in_outcome"),
        (lambda g: ({"seat": "alice", "command": "note"}, g["seat_tokens"]["alice"]), 422, "invalid_body"),
        (lambda g: ({"seat": "alice", "command": {"type": "note", "text": "x"}, "expected_version": "one"}, g["seat_tokens"]["alice"]), 422, "invalid_body"),
        (lambda g: ({"seat": "alice", "command": {"type": "note", "text": "x"}, "extra": 1}, g["seat_tokens"]["alice"]), 422, "invalid_body"),
    ],
)
def test_bad_commands_leave_the_record_unchanged(client, mutate, status, code):
    game = new_game(client)
    before = events_of(client, game)
    body, token = mutate(game)
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    assert_problem(client.post(f"/games/{game['id']}/commands", json=body, headers=headers), status, code)
    assert events_of(client, game) == before


def test_malformed_json(client):
    game = new_game(client)
    before = events_of(client, game)
    response = client.post(f"/games/{game['id']}/commands", content=b'{"seat": "alice", ',
                           headers={"Authorization": f"Bearer {game['seat_tokens']['alice']}",
                                    "Content-Type": "application/json"})
    assert_problem(response, 400, "malformed_json")
    assert_problem(client.post("/games", content=b"not json", headers=JSON), 400, "malformed_json")
    assert events_of(client, game) == before


def test_oversize_bodies(client):
    game = new_game(client)
    before = events_of(client, game)
    big = {"seat": "alice", "command": {"type": "note", "text": "x", "payload": "y" * 200_000}}
    response = client.post(f"/games/{game['id']}/commands", json=big,
                           headers={"Authorization": f"Bearer {game['seat_tokens']['alice']}"})
    assert_problem(response, 413, "too_large")
    assert_problem(post(client, game, "alice", {"type": "note", "text": "x" * 5000}), 422, "open-table.text_too_long")
    assert events_of(client, game) == before


def test_commands_after_the_game_ended(client):
    game = new_game(client)
    for seat in ("alice", "bob"):
        assert post(client, game, seat, {"type": "end", "outcome": {"draw": True}}).status_code == 201
    before = events_of(client, game)
    assert_problem(post(client, game, "alice", {"type": "roll", "label": "late", "dice": "1d6"}), 422, "game_over")
    assert events_of(client, game) == before


@pytest.mark.parametrize(
    "body, code",
    [
        ({"rules": "chess", "seats": {"a": {"player": "A"}}}, "unknown_rules"),
        ({"rules": "open-table", "seats": {}}, "wrong_seat_count"),
        ({"rules": "open-table", "seats": {f"p{i}": {"player": "x"} for i in range(9)}}, "wrong_seat_count"),
        ({"rules": "open-table", "seats": {"Bad Seat": {"player": "x"}}}, "bad_seat"),
        ({"rules": "open-table", "seats": {"a": {"player": ""}}}, "bad_player"),
        ({"rules": "open-table", "scenario": "nope", "seats": {"a": {"player": "A"}}}, "unknown_scenario"),
        ({"rules": "open-table", "seats": {"a": {"player": "A"}}, "seed": "zz"}, "bad_seed"),
        ({"rules": "open-table", "seats": {"a": {"player": "A"}}, "options": {"dice": {"d6": [1, 2]}}}, "open-table.bad_option"),
        ({"rules": "open-table", "seats": {"a": {"player": 7}}}, "invalid_body"),
    ],
)
def test_bad_game_creation(client, body, code):
    assert_problem(client.post("/games", json=body), 422, code)


def test_bad_query_parameters(client):
    assert_problem(client.get("/games", params={"limit": 0}), 422, "invalid_request")
    game = new_game(client)
    assert_problem(client.get(f"/games/{game['id']}/state", params={"at": 99}), 404, "no_such_version")
    assert_problem(client.get(f"/games/{game['id']}/legal-commands", params={"seat": "zoe"}), 404, "unknown_seat")
    assert_problem(client.get(f"/games/{game['id']}/legal-commands"), 422)


def test_verify_rejects_garbage(client):
    assert_problem(client.post("/records/verify", content=b"{\"header\": ", headers=JSON), 400, "malformed_json")
    assert_problem(client.post("/records/verify", json={"header": 1}), 422, "invalid_body")


def test_other_methods_on_the_command_path(client):
    game = new_game(client)
    before = events_of(client, game)
    for method in ("GET", "PUT", "DELETE"):
        response = client.request(method, f"/games/{game['id']}/commands")
        assert_problem(response, 405, "http_405")
        assert response.headers["allow"] == "POST"
    assert events_of(client, game) == before
