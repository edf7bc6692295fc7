"""Input at the door (issue 11, points 3, 5 and 6): text a backend cannot store, numbers past
64 bits, JSON nested too deep, odd headers and bodies that are not JSON are refused with a
4xx problem+json before anything is recorded; a read model skips (and reports) an event it
cannot apply instead of failing for good."""

from __future__ import annotations

import json
import uuid
from datetime import datetime, timezone

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from api.config import Settings
from api.bootstrap import Herald
from api.wire.games import CreateGame, SeatRequest
from api.store import secrets_id
from domain.game import Recorded
from projections.dice import NAME as DICE
from tests.conftest import ADMIN_TOKEN, new_game, post

PROBLEM = "application/problem+json"
HUGE = 10**20


def assert_problem(response, status, code=None, field=None):
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith(PROBLEM), response.headers
    body = response.json()
    assert {"type", "title", "status", "detail"} <= body.keys() and body["status"] == status
    if code:
        assert body["code"] == code, body
    if field:
        assert body.get("field") == field, body
    return body


def history(client, game):
    return client.get(f"/games/{game['id']}/events", params={"limit": 1000}).json()["events"]


def games(client):
    return [g["id"] for g in client.get("/games", params={"limit": 500}).json()["games"]]


def tournament(client, name="Spring Cup"):
    response = client.post("/tournaments", json={"name": name, "rules": "open-table", "format": "swiss",
                                                 "rounds": 2})
    assert response.status_code == 201, response.text
    return response.json()


# -- point 3: text no backend can store ------------------------------------------------------------
@pytest.mark.parametrize("body, field", [
    ({"rules": "open-table", "seats": {"alice": {"player": "Al\u0000ice"}, "bob": {"player": "Bob"}}},
     "seats.alice.player"),
    ({"rules": "open-table", "seats": {"alice": {"player": "Alice"}}, "options": {"dice": {"coin": ["h\u0000", "t"]}}},
     "options.dice.coin[0]"),
    ({"rules": "open-table", "seats": {"alice": {"player": "Alice"}}, "client_seed": "\u0000"}, "client_seed"),
    ({"rules": "open-table", "seats": {"alice": {"player": "Alice"}}, "options": {"\u0000": 1}}, "options.\u0000"),
])
def test_nul_in_a_new_game_is_refused_naming_the_field(client, body, field):
    before = games(client)
    assert_problem(client.post("/games", json=body), 400, "unstorable_text", field)
    assert games(client) == before


def test_nul_in_commands_tournaments_and_queries_is_refused(client):
    game = new_game(client)
    before = history(client, game)
    assert_problem(post(client, game, "alice", {"type": "note", "text": "a\u0000b"}), 400, "unstorable_text",
                   "command.text")
    assert_problem(post(client, game, "alice", {"type": "roll", "label": "x", "dice": "1x\u0000"}), 400,
                   "unstorable_text", "command.dice")
    assert_problem(client.post(f"/games/{game['id']}/annotations", json={"text": "\u0000"},
                               headers={"Authorization": f"Bearer {ADMIN_TOKEN}"}), 400, "unstorable_text", "text")
    assert history(client, game) == before
    assert_problem(client.post("/tournaments", json={"name": "Cup\u0000", "rules": "open-table", "format": "swiss"}),
                   400, "unstorable_text", "name")
    assert client.get("/tournaments").json()["tournaments"] == []
    assert_problem(client.get("/games", params={"player": "A\u0000"}), 400, "unstorable_text", "player")
    assert_problem(client.get("/players/A%00/dice"), 400, "unstorable_text", "path")
    assert_problem(client.get("/players", params={"rules": "open-table", "scenario": "\u0000"}), 400,
                   "unstorable_text", "scenario")
    # and everything still answers
    assert client.get("/games").status_code == 200
    assert client.get("/players/Alice/dice").status_code == 200
    assert client.get("/tournaments").status_code == 200


def _poison(herald: Herald) -> uuid.UUID:
    """A stored game event the read models cannot apply (as a database written before the
    door refused such input might hold): a GameCreated without its fields."""
    game_id = uuid.uuid4()
    herald.store.append(Recorded(game_id, 1, datetime.now(timezone.utc), "GameCreated", {"rules": "open-table"},
                                 "0" * 64, "f" * 64))
    return game_id


def test_an_event_a_read_model_cannot_apply_is_skipped_and_reported(herald, backend):
    app = create_app(herald, Settings(admin_token=ADMIN_TOKEN))
    with TestClient(app) as client:
        first = new_game(client)
        _poison(herald)
        # stored without the door: a NUL in a player name and in a die face; PostgreSQL cannot keep them in a row
        nul = herald.games.create(CreateGame(rules="open-table", seats={"alice": SeatRequest("Ev\u0000e")},
                                       options={"dice": {"coin": ["h\u0000", "t"]}}))
        herald.games.command(uuid.UUID(nul.id), msgspec_command("alice", {"type": "roll", "label": "x", "dice": "2xcoin"}),
                       nul.seat_tokens["alice"])
        second = new_game(client)
        listed = games(client)
        assert first["id"] in listed and second["id"] in listed
        assert client.get("/players/Alice/dice").status_code == 200
        assert client.get(f"/games/{second['id']}/dice").status_code == 200
        assert client.get("/tournaments").status_code == 200
        health = client.get("/health").json()
        assert health["ok"] is True
        skipped = health["read_models"]["game-index/2"]["skipped"]
        assert skipped and "KeyError" in skipped[0]["error"]
        if backend.name == "postgres":
            assert len(skipped) == 2  # the poisoned event, and the NUL player name
            assert health["read_models"][DICE]["skipped"]
    # across a restart the read models stay up, and a new game still reaches the index
    again = Herald(env=backend.env, admin_token=ADMIN_TOKEN, signing_key_path=backend.key)
    try:
        with TestClient(create_app(again, Settings(admin_token=ADMIN_TOKEN))) as client:
            third = new_game(client)
            assert {first["id"], second["id"], third["id"]} <= set(games(client))
            assert client.get("/health").json()["read_models"]["game-index/2"]["skipped"]
    finally:
        again.close()


def msgspec_command(seat, command):
    from api.wire.games import CommandRequest

    return CommandRequest(seat=seat, command=command)


# -- point 5: 500s for bad input ---------------------------------------------------------------------
def test_cursors_past_64_bits(client):
    game = new_game(client)
    cup = tournament(client)
    for path, params in [
        ("/games", {"after": HUGE}),
        (f"/games/{game['id']}/events", {"after": HUGE}),
        (f"/games/{game['id']}/timeline", {"after": HUGE}),
        (f"/games/{game['id']}/events/stream", {"after": HUGE}),
        (f"/games/{game['id']}/state", {"at": HUGE}),
        ("/tournaments", {"after": HUGE}),
        (f"/tournaments/{cup['id']}/events", {"after": HUGE}),
        (f"/tournaments/{cup['id']}/rounds/{HUGE}", {}),
        ("/games", {"after": -1}),
    ]:
        assert_problem(client.get(path, params=params), 422, "invalid_request")
    # the largest 64-bit cursor is an empty page, not an error
    assert client.get(f"/games/{game['id']}/events", params={"after": 2**63 - 1}).json()["events"] == []
    assert client.get("/games", params={"after": 2**63 - 1}).status_code == 200


@pytest.mark.parametrize("value", ["abc", "\u0663", "\u00b2", "1" * 25, "-1", "9223372036854775808"])
def test_garbage_last_event_id(client, value):
    game = new_game(client)
    for seat in ("alice", "bob"):  # an ended game's stream closes, so a wrong answer cannot hang the test
        post(client, game, seat, {"type": "end", "outcome": {"draw": True}})
    response = client.get(f"/games/{game['id']}/events/stream",
                          headers={"Last-Event-ID": value.encode("utf-8")})
    assert 400 <= response.status_code < 500
    assert_problem(response, response.status_code)


def test_a_good_last_event_id_resumes_the_stream(client):
    game = new_game(client)
    for seat in ("alice", "bob"):
        post(client, game, seat, {"type": "end", "outcome": {"draw": True}})
    with client.stream("GET", f"/games/{game['id']}/events/stream", headers={"Last-Event-ID": "2"}) as stream:
        text = "".join(stream.iter_text())
    assert "id: 2\n" not in text and "id: 3\n" in text


@pytest.mark.parametrize("token", ["é".encode("latin-1"), "✓".encode(), b"tok en\x01"])
def test_non_ascii_bearer_tokens(client, token):
    game = new_game(client)
    cup = tournament(client)
    before = history(client, game)
    auth = {"Authorization": b"Bearer " + token}
    assert_problem(client.get(f"/games/{game['id']}", headers=auth), 401, "bad_token")
    assert_problem(client.post(f"/games/{game['id']}/commands", json={"seat": "alice", "command": {
        "type": "note", "text": "x"}}, headers=auth), 401, "bad_token")
    assert_problem(client.post(f"/games/{game['id']}/annotations", json={"text": "x"}, headers=auth), 401, "bad_token")
    assert_problem(client.post(f"/games/{game['id']}/rulings", json={"dispute": 1, "ruling": "upheld", "reason": "x"},
                               headers=auth), 401, "bad_token")
    assert_problem(client.post(f"/tournaments/{cup['id']}/players", json={"name": "Ann"}, headers=auth), 401,
                   "bad_token")
    assert history(client, game) == before


def nested(depth: int) -> object:
    value: object = "deep"
    for _ in range(depth):
        value = [value]
    return value


def nested_json(depth: int) -> str:
    return "[" * depth + '"deep"' + "]" * depth


@pytest.mark.parametrize("depth", [40, 5000])
def test_json_nested_too_deep_is_refused(client, depth):
    game = new_game(client)
    before = history(client, game)
    body = '{"seat": "alice", "command": {"type": "note", "text": "x", "payload": %s}}' % nested_json(depth)
    response = client.post(f"/games/{game['id']}/commands", content=body,
                           headers={"Authorization": f"Bearer {game['seat_tokens']['alice']}",
                                    "Content-Type": "application/json"})
    assert_problem(response, 400, "too_deep")
    assert history(client, game) == before
    record = client.get(f"/games/{game['id']}/record").text
    assert '"options":{}' in record
    deep = record.replace('"options":{}', '"options":{"x":%s}' % nested_json(depth + 64), 1)
    for path in ("/records/verify", "/viewer/record"):
        assert_problem(client.post(path, content=deep, headers={"Content-Type": "application/json"}), 400, "too_deep")


def test_the_deepest_payload_taken_still_verifies_in_its_record(client):
    game = new_game(client)
    assert post(client, game, "alice", {"type": "note", "text": "x", "payload": nested(29)}).status_code == 201
    record = client.get(f"/games/{game['id']}/record").json()
    verdict = client.post("/records/verify", json=record).json()
    assert verdict["ok"] is True, verdict
    assert client.post("/viewer/record", json=record).status_code == 200


def test_integers_past_64_bits_in_a_body(client):
    game = new_game(client)
    before = history(client, game)
    assert_problem(post(client, game, "alice", {"type": "note", "text": "x"}, expected_version=HUGE), 400,
                   "integer_out_of_range", "expected_version")
    assert_problem(client.post(f"/games/{game['id']}/fork", json={"version": -HUGE}), 400, "integer_out_of_range",
                   "version")
    assert history(client, game) == before


def test_one_die_name_with_different_faces_is_counted_apart(client):
    coin = new_game(client, options={"dice": {"coin": ["heads", "tails"]}})
    three = new_game(client, options={"dice": {"coin": ["a", "b", "c"]}})
    for game in (coin, three):
        assert post(client, game, "alice", {"type": "roll", "label": "flip", "dice": "20xcoin"}).status_code == 201
    report = client.get("/players/Alice/dice")
    assert report.status_code == 200, report.text
    coins = [k for k in report.json()["kinds"] if k["kind"] == "coin"]
    assert sorted(map(tuple, (k["faces"] for k in coins))) == [("a", "b", "c"), ("heads", "tails")]
    assert all(k["rolls"] == 20 and sum(k["counts"].values()) == 20 for k in coins)


@pytest.mark.parametrize("dice", ["\u0663d6", "3d\u0666", "\uff13d6", "3\u2009d6"])
def test_non_ascii_digits_in_dice_expressions(client, dice):
    game = new_game(client)
    before = history(client, game)
    assert_problem(post(client, game, "alice", {"type": "roll", "label": "x", "dice": dice}), 422,
                   "open-table.bad_dice")
    assert history(client, game) == before


def test_an_annotation_at_version_zero(client):
    game = new_game(client)
    before = history(client, game)
    response = client.post(f"/games/{game['id']}/annotations", json={"text": "before it began", "at_version": 0},
                           headers={"Authorization": f"Bearer {game['seat_tokens']['alice']}"})
    assert 400 <= response.status_code < 500
    assert_problem(response, response.status_code)
    assert history(client, game) == before


def test_private_streams_are_not_games(client):
    game = new_game(client)
    cup = tournament(client)
    for other in (secrets_id(uuid.UUID(game["id"])), cup["id"]):
        for path in ("", "/events", "/events/stream", "/record", "/state", "/timeline", "/legal-commands?seat=alice",
                     "/dice", "/forks", "/annotations"):
            assert_problem(client.get(f"/games/{other}{path}"), 404)
        assert_problem(client.post(f"/games/{other}/commands", json={"seat": "alice", "command": {
            "type": "note", "text": "x"}}, headers={"Authorization": f"Bearer {game['seat_tokens']['alice']}"}), 404)
        assert_problem(client.post(f"/games/{other}/fork", json={"version": 1}), 404)
    assert_problem(client.get(f"/tournaments/{game['id']}"), 404)


# -- point 6: cross-site requests ------------------------------------------------------------------
@pytest.mark.parametrize("content_type", [None, "text/plain", "application/x-www-form-urlencoded",
                                          "multipart/form-data; boundary=x", "application/jsonx"])
def test_json_routes_take_only_json(client, content_type):
    game = new_game(client)
    before, listed = history(client, game), games(client)
    headers = {"Content-Type": content_type} if content_type else {}
    record = client.get(f"/games/{game['id']}/record").content
    for path, body, extra in [
        ("/games", {"rules": "open-table", "seats": {"alice": {"player": "A"}}}, {}),
        (f"/games/{game['id']}/commands", {"seat": "alice", "command": {"type": "note", "text": "x"}},
         {"Authorization": f"Bearer {game['seat_tokens']['alice']}"}),
        (f"/games/{game['id']}/annotations", {"text": "x"}, {"Authorization": f"Bearer {ADMIN_TOKEN}"}),
        (f"/games/{game['id']}/fork", {"version": 1}, {}),
        ("/tournaments", {"name": "Cup", "rules": "open-table", "format": "swiss"}, {}),
        ("/records/verify", None, {}),
        ("/viewer/record", None, {}),
    ]:
        raw = record if body is None else json.dumps(body).encode()
        assert_problem(client.post(path, content=raw, headers={**headers, **extra}), 415, "unsupported_media_type")
    assert history(client, game) == before and games(client) == listed
    assert client.get("/tournaments").json()["tournaments"] == []


@pytest.mark.parametrize("content_type", ["application/json; charset=utf-8", "APPLICATION/JSON",
                                          "application/vnd.herald+json"])
def test_json_media_types_accepted(client, content_type):
    body = json.dumps({"rules": "open-table", "seats": {"alice": {"player": "A"}}})
    assert client.post("/games", content=body, headers={"Content-Type": content_type}).status_code == 201


PREFLIGHT = {"Origin": "https://club.example", "Access-Control-Request-Method": "POST",
             "Access-Control-Request-Headers": "authorization, content-type"}


def test_cors_is_off_unless_configured(client):
    game = new_game(client)
    for path in ("/games", f"/games/{game['id']}/commands"):
        response = client.options(path, headers=PREFLIGHT)
        assert "access-control-allow-origin" not in response.headers
    response = client.get("/games", headers={"Origin": "https://club.example"})
    assert "access-control-allow-origin" not in response.headers


def test_cors_for_configured_origins(herald):
    app = create_app(herald, Settings(admin_token=ADMIN_TOKEN, cors_origins=("https://club.example",)))
    with TestClient(app) as client:
        game = new_game(client)
        for path in ("/games", f"/games/{game['id']}/commands"):
            response = client.options(path, headers=PREFLIGHT)
            assert response.status_code == 200
            assert response.headers["access-control-allow-origin"] == "https://club.example"
            evil = client.options(path, headers={**PREFLIGHT, "Origin": "https://evil.example"})
            assert "access-control-allow-origin" not in evil.headers
        answer = post(client, game, "alice", {"type": "note", "text": "x"})
        assert answer.status_code == 201
        read = client.get("/games", headers={"Origin": "https://club.example"})
        assert read.headers["access-control-allow-origin"] == "https://club.example"


def test_cors_setting_from_the_environment():
    settings = Settings.from_env({"HERALD_CORS_ORIGINS": "https://a.example, https://b.example"})
    assert settings.cors_origins == ("https://a.example", "https://b.example")
    assert Settings.from_env({}).cors_origins == ()


def test_405_lists_every_method_of_the_path(client):
    response = client.request("OPTIONS", "/games")
    assert_problem(response, 405, "http_405")
    assert set(response.headers["allow"].split(", ")) >= {"GET", "POST"}
    assert client.request("DELETE", "/tournaments").headers["allow"].count("POST") == 1
