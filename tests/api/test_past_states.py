"""Past positions answered from memory (api/past_states.py): a spectator's ``GET
/games/{id}/state?at=N`` is rendered once and then answered ahead of the framework, with the
same bytes; a seat's answer is kept under its seat only; a cross-origin request, a version not
recorded yet and a malformed query still go to the route and get what they always got. A miss
renders the version asked for only (issue 24 point 4), ahead of the framework too."""

from __future__ import annotations

from uuid import UUID

import pytest

import msgspec

from api.past_states import RenderedStates, keep, spectator_key
from api.store import secrets_id
from api.wire.games import StateAt
from tests.conftest import new_game, post

COURT = ["Bailli", "Sénéchal", "Prévôt", "Échanson"]


def played(client) -> dict:
    """alice holds two cards of the court (a hand only alice reads), then a few notes."""
    game = new_game(client, options={"decks": {"court": COURT}})
    for seat, command in (("alice", {"type": "shuffle", "deck": "court"}),
                          ("alice", {"type": "take", "deck": "court", "count": 2}),
                          ("bob", {"type": "note", "text": "a move"}),
                          ("alice", {"type": "note", "text": "another"})):
        assert post(client, game, seat, command).status_code == 201
    return game


def served_from_memory(client, game: dict, version: int) -> bool:
    return client.app.past_states.get((UUID(game["id"]), version, None)) is not None


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
def test_a_spectator_gets_the_same_bytes_rendered_and_remembered(client):
    game = played(client)
    latest = client.get(f"/games/{game['id']}").json()["version"]
    for version in range(1, latest + 1):
        url = f"/games/{game['id']}/state?at={version}"
        first = client.get(url)
        assert first.status_code == 200 and served_from_memory(client, game, version)
        again = client.get(url)
        assert again.status_code == 200 and again.content == first.content
        assert again.headers["content-type"] == "application/json"
        assert again.json()["version"] == version
    # the hand is a count for a spectator, remembered or not
    assert client.get(f"/games/{game['id']}/state?at={latest}").json()["view"]["hands"]["alice"] == 2


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
def test_a_miss_is_rendered_ahead_of_the_framework_and_a_refusal_worded_by_the_route(client, monkeypatch):
    """Issue 19: a restarted server's first readers miss every block once; the miss skips the
    framework's routing (a worker thread renders the block), and only what it cannot answer
    reaches the route."""
    from fastapi import FastAPI

    game = played(client)
    latest = client.get(f"/games/{game['id']}").json()["version"]
    framework = FastAPI.__call__
    routed: list[str] = []

    async def counted(self, scope, receive, send):
        routed.append(scope["path"])
        await framework(self, scope, receive, send)

    monkeypatch.setattr(FastAPI, "__call__", counted)
    assert client.get(f"/games/{game['id']}/state?at={latest}").status_code == 200
    assert routed == [] and served_from_memory(client, game, latest)
    missing = client.get(f"/games/{game['id']}/state?at={latest + 1}")
    assert missing.status_code == 404 and missing.json()["code"] == "no_such_version"
    assert routed == [f"/games/{game['id']}/state"]


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
def test_a_seat_reads_its_own_hand_never_the_spectators_copy(client):
    game = played(client)
    latest = client.get(f"/games/{game['id']}").json()["version"]
    url = f"/games/{game['id']}/state?at={latest}"
    client.get(url)
    client.get(url)  # remembered for spectators
    mine = client.get(url, headers={"Authorization": f"Bearer {game['seat_tokens']['alice']}"}).json()
    assert sorted(mine["view"]["hands"]["alice"]) != [] and all(c in COURT for c in mine["view"]["hands"]["alice"])
    bobs = client.get(url, headers={"Authorization": f"Bearer {game['seat_tokens']['bob']}"}).json()
    assert bobs["view"]["hands"]["alice"] == 2


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
def test_what_is_not_remembered_goes_to_the_route(client):
    game = played(client)
    latest = client.get(f"/games/{game['id']}").json()["version"]
    client.get(f"/games/{game['id']}/state?at=1")
    assert client.get(f"/games/{game['id']}/state?at={latest + 1}").status_code == 404
    assert client.get(f"/games/{game['id']}/state?at=0").status_code == 422
    assert client.get(f"/games/{game['id']}/state?at=x1").status_code == 422
    assert client.get("/games/not-a-game/state?at=1").status_code == 422
    unknown = "00000000-0000-4000-8000-000000000000"
    assert client.get(f"/games/{unknown}/state?at=1").status_code == 404
    assert client.post(f"/games/{game['id']}/state?at=1").status_code == 405


def test_only_a_plain_spectator_request_is_answered_from_memory():
    game = "0b5a4c6e-9d3f-4c4e-8f0a-6c1d2e3f4a5b"

    def scope(query: bytes, method: str = "GET", headers=()) -> dict:
        return {"type": "http", "method": method, "path": f"/games/{game}/state", "query_string": query,
                "headers": [(b"host", b"x"), *headers]}

    assert spectator_key(scope(b"at=7")) == (UUID(game), 7, None)
    for refused in (scope(b"at=7", "POST"), scope(b""), scope(b"at=0"), scope(b"at=7&x=1"), scope(b"at=-1"),
                    scope(b"at=99999999999999999999"), scope(b"at=7", headers=[(b"authorization", b"Bearer t")]),
                    scope(b"at=7", headers=[(b"origin", b"https://elsewhere")])):
        assert spectator_key(refused) is None


def test_remembered_answers_stay_within_their_bytes():
    states = RenderedStates(max_bytes=1600)
    game = UUID(int=1)
    for version in range(1, 41):
        states.put((game, version, None), bytes(100))
    kept = [v for v in range(1, 41) if states.get((game, v, None)) is not None]
    assert kept == list(range(25, 41))  # the most recently used, 16 x 100 bytes
    states.put((game, 99, None), bytes(101))  # larger than a sixteenth: rendered each time
    assert states.get((game, 99, None)) is None


def longer(client, game: dict, notes: int) -> int:
    """``notes`` more notes; the game's version after them."""
    for i in range(notes):
        assert post(client, game, "bob", {"type": "note", "text": f"n{i}"}).status_code == 201
    return client.get(f"/games/{game['id']}").json()["version"]


def remembered(client) -> dict:
    return dict(client.app.past_states._held)


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
def test_a_miss_renders_the_version_asked_from_what_the_last_fold_kept(client, herald, monkeypatch):
    """Issue 24 point 4: a long game's board costs more to render than the fold from the
    checkpoint below it, so a miss renders only the version asked for."""
    game = played(client)
    latest = longer(client, game, 36)
    assert latest < 48
    reads = []
    stream = herald.games.store.stream
    monkeypatch.setattr(herald.games.store, "stream", lambda *args, **kw: reads.append(args) or stream(*args, **kw))
    assert client.get(f"/games/{game['id']}/state?at=40").status_code == 200
    assert sorted(v for _, v, _ in remembered(client)) == [40]
    reads.clear()
    assert client.get(f"/games/{game['id']}/state?at=20").status_code == 200
    assert reads == []  # the fold to 40 kept the checkpoint at 16 and its block's events: no read
    assert sorted(v for _, v, _ in remembered(client)) == [20, 40]
    gid = UUID(game["id"])
    for version in range(1, latest + 1):
        client.get(f"/games/{game['id']}/state?at={version}")
    for (_, version, seat), body in remembered(client).items():
        assert seat is None
        assert body == msgspec.json.encode(herald.games.state_at(gid, version, None))
        assert client.get(f"/games/{game['id']}/state?at={version}").content == body


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
def test_a_seat_reads_its_own_view_kept_under_its_seat(client):
    game = played(client)
    longer(client, game, 20)
    url = f"/games/{game['id']}/state?at="
    gid = UUID(game["id"])
    alice_token = {"Authorization": f"Bearer {game['seat_tokens']['alice']}"}
    bob_token = {"Authorization": f"Bearer {game['seat_tokens']['bob']}"}
    for _ in range(2):  # rendered, then remembered
        for version in (16, 20, 24):
            alice = client.get(url + str(version), headers=alice_token)
            spectator = client.get(url + str(version)).json()["view"]["hands"]["alice"]
            bob = client.get(url + str(version), headers=bob_token)
            wrong = client.get(url + str(version), headers={"Authorization": "Bearer not-a-seat-token"})
            assert spectator == 2 and bob.json()["view"]["hands"]["alice"] == 2
            assert wrong.json()["view"]["hands"]["alice"] == 2
            hand = alice.json()["view"]["hands"]["alice"]
            assert len(hand) == 2 and all(c in COURT for c in hand)
    held = remembered(client)
    assert {seat for _, _, seat in held} == {None, "alice", "bob"}
    for (_, version, seat), body in held.items():  # each under the seat whose view it is, only
        assert isinstance(msgspec.json.decode(body)["view"]["hands"]["alice"], list) == (seat == "alice")
    assert held[(gid, 20, "alice")] != held[(gid, 20, None)]


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
def test_versions_beyond_the_game_and_streams_not_games_are_refused(client, herald):
    game = played(client)
    latest = longer(client, game, 20)
    url = f"/games/{game['id']}/state?at="
    assert client.get(url + str(latest)).status_code == 200  # its block runs past the game's end
    for version in (latest + 1, latest - latest % 16 + 15, 10**12):
        response = client.get(url + str(version))
        assert response.status_code == 404 and response.json()["code"] == "no_such_version"
    # a version written after its block was rendered is rendered then
    latest = longer(client, game, 1)
    assert client.get(url + str(latest)).json()["version"] == latest
    for stream in (secrets_id(UUID(game["id"])), UUID(int=7)):  # a game's secrets, nothing at all
        assert client.get(f"/games/{stream}/state?at=1").status_code == 404
    assert not any(gid != UUID(game["id"]) for gid, _, _ in remembered(client))


def test_a_kept_answer_stays_within_the_bytes_and_a_board_too_large_is_rendered_each_time():
    game = UUID(int=1)
    states = RenderedStates(max_bytes=16 * 200)
    for version in range(1, 40):
        asked = keep(states, (game, version, None), StateAt(version, [], "x" * 100, ""))
        assert msgspec.json.decode(asked)["version"] == version
        assert states.size <= 16 * 200
    assert states.get((game, 39, None)) == asked and states.get((game, 1, None)) is None
    big = keep(states, (game, 49, "p1"), StateAt(49, [], "x" * 300, ""))  # larger than a sixteenth
    assert msgspec.json.decode(big)["version"] == 49 and states.get((game, 49, "p1")) is None
