"""Past positions answered from memory (api/past_states.py): a spectator's ``GET
/games/{id}/state?at=N`` is rendered once and then answered ahead of the framework, with the
same bytes; a reader with a token, a cross-origin request, a version not recorded yet and a
malformed query still go to the route and get what they always got."""

from __future__ import annotations

from uuid import UUID

import pytest

from api.past_states import RenderedStates, spectator_key
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
