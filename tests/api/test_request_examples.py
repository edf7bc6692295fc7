"""Issue 27 point 1: "examples on every request body" of the served OpenAPI document — examples a
client can send as they are. Each request body's example is posted to its route on a real app, in
a short story that gives the example's references something to point at (a game made by the
`POST /games` example, a dispute raised by the `POST /disputes` example, a tournament made by the
`POST /tournaments` example): only those ids are put in (the path's, and ``dispute``, ``game``,
``about_version``, ``version``, ``at_version``, ``player`` where the example names one); every
other field is sent as the document gives it, and the route must accept it (2xx)."""

from __future__ import annotations

import copy

import pytest

from tests.conftest import ADMIN_TOKEN

ADMIN = {"Authorization": f"Bearer {ADMIN_TOKEN}"}


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
def test_every_request_body_example_is_accepted_as_it_is(client, backend):
    spec = client.get("/openapi.json").json()
    examples = {(path, method): media["example"] for path, ops in spec["paths"].items() for method, op in ops.items()
                for media in op.get("requestBody", {}).get("content", {}).values()}
    sent: set[tuple[str, str]] = set()

    def send(path: str, method: str = "post", headers: dict | None = None, fill: dict | None = None, **params):
        body = copy.deepcopy(examples[(path, method)])
        for key, value in (fill or {}).items():
            if key in body:
                body[key] = value
        answer = client.request(method, path.format(**params), json=body, headers=headers or {})
        assert 200 <= answer.status_code < 300, f"{method.upper()} {path} with its example {body}: {answer.text}"
        sent.add((path, method))
        return answer.json()

    created = send("/games")  # the example creates a game ...
    saladin = client.post("/games", json={"rules": "saladin", "scenario": "arsuf",  # ... and a Saladin one
                                          "seats": {"crusaders": {"player": "Richard"}, "ayyubids": {"player": "Saladin"}}})
    assert saladin.status_code == 201, saladin.text
    games = [created, saladin.json()]

    def game_of(seat: str) -> tuple[str, dict]:
        """The game whose seats the example names (the open table's alice, Saladin's crusaders)."""
        found = next(g for g in games if seat in g["seat_tokens"])
        return found["id"], found["seat_tokens"]

    for path in ("/games/{game_id}/commands/check", "/games/{game_id}/commands"):
        gid, tokens = game_of(examples[(path, "post")]["seat"])
        send(path, headers=bearer(tokens[examples[(path, "post")]["seat"]]), game_id=gid)
    gid, tokens = game_of(examples[("/games/{game_id}/disputes", "post")]["seat"])
    seat = examples[("/games/{game_id}/disputes", "post")]["seat"]
    send("/games/{game_id}/annotations", headers=bearer(tokens[seat]), game_id=gid, fill={"at_version": 2})
    raised = send("/games/{game_id}/disputes", headers=bearer(tokens[seat]), game_id=gid, fill={"about_version": 2})
    send("/games/{game_id}/inspections", headers=ADMIN, game_id=gid)
    send("/games/{game_id}/fork", game_id=gid, fill={"version": 2})
    send("/games/{game_id}/rulings", headers=ADMIN, game_id=gid, fill={"dispute": raised["events"][0]["version"]})
    gid, tokens = game_of(examples[("/games/{game_id}/abandon", "post")]["seat"])
    send("/games/{game_id}/abandon", headers=bearer(tokens[examples[("/games/{game_id}/abandon", "post")]["seat"]]),
         game_id=gid)
    assert send("/records/verify")["ok"]  # a whole record that verifies
    send("/records/import", headers=ADMIN)
    guy = send("/players", headers=ADMIN)
    guy_token = bearer(guy["player_token"])
    send("/players/{name}/webhook", headers=guy_token, name=guy["name"])
    # seats at a distance (issue 29): an invitation to a game of blind seeds, taken with the
    # example (and its seed) and the creator's seat giving its own; another invitation declined
    invited = {"rules": "open-table", "blind_seeds": True,
               "seats": {"alice": {"player": "Alice"}, "guy": {"player": guy["name"], "invite": True}}}
    blind = client.post("/games", json=invited).json()
    send("/games/{game_id}/seats/{seat}/take", headers=guy_token, game_id=blind["id"], seat="guy")
    send("/games/{game_id}/seats/{seat}/seed", headers=bearer(blind["seat_tokens"]["alice"]),
         game_id=blind["id"], seat="alice")
    offered = client.post("/games", json={**invited, "blind_seeds": False}).json()
    send("/games/{game_id}/seats/{seat}/decline", headers=guy_token, game_id=offered["id"], seat="guy")
    tournament = send("/tournaments", headers=ADMIN)
    tid = tournament["id"]
    send("/tournaments/{tournament_id}/players", headers=ADMIN, tournament_id=tid)
    player = examples[("/tournaments/{tournament_id}/players", "post")]["name"]
    send("/tournaments/{tournament_id}/adjustments", headers=ADMIN, tournament_id=tid, fill={"player": player})
    send("/tournaments/{tournament_id}/players/{player}/withdraw", headers=ADMIN, tournament_id=tid, player=player)
    unsent = set(examples) - sent
    # a release is a server without an umpire's (tests/audit/test_freeze_without_umpire.py); its
    # body is the abandon's, one seat, sent above
    assert examples[("/games/{game_id}/disputes/{dispute}/release", "post")].keys() == {"seat"}
    # a forfeit names a game of the tournament's pairings (tests/tournaments); its example names players
    assert examples[("/tournaments/{tournament_id}/forfeits", "post")]["forfeited"] == [player]
    # an adjudication follows a flag's fall (tests/api/test_clocks.py); its example is an outcome
    assert examples[("/games/{game_id}/adjudication", "post")]["outcome"]["winner"]
    assert unsent == {("/tournaments/{tournament_id}/forfeits", "post"),
                      ("/games/{game_id}/disputes/{dispute}/release", "post"),
                      ("/games/{game_id}/adjudication", "post")}, unsent
