"""The Kingdoms of Crusaders through the API: creation with options (the points variant, the
owner's printed deck), refusals as problem+json naming the rule, nothing recorded."""

from __future__ import annotations

import hashlib
import json
import random

import msgspec

from domain.rules.kingdoms_of_crusaders.data import PACKAGE, canonical_deck
from tests.conftest import ADMIN_TOKEN

SEATS = {"p1": {"player": "Baldwin"}, "p2": {"player": "Saladin"}}


def test_rules_describe_the_system(client):
    rules = client.get("/rules/kingdoms-of-crusaders").json()
    assert rules["id"] == "kingdoms-of-crusaders"
    (scenario,) = rules["scenarios"]
    assert scenario["seats"] == ["p1", "p2", "p3", "p4"] and scenario["players"] == {"min": 2, "max": 4}
    assert {"first-player-2", "first-player-3", "first-player-4"} <= set(rules["die_kinds"])


def test_owner_deck_given_at_creation_is_played(client):
    """Unit Cards: the owner's printed deck in GameCreated, used for every card dealt."""
    deck = json.loads((PACKAGE / "units.json").read_text())
    deck["cards"] = [{"number": c["number"], "symbols": list(reversed(c["symbols"]))} for c in deck["cards"]]
    deck["cards"][0]["symbols"] = ["banner", "helmet", "sword", "bow", "lance"]
    made = client.post("/games", json={"rules": "kingdoms-of-crusaders", "seats": SEATS,
                                       "options": {"deck": deck, "points": True}})
    assert made.status_code == 201, made.text
    game = made.json()
    created = client.get(f"/games/{game['id']}/events").json()["events"][0]
    assert created["type"] == "GameCreated" and created["data"]["options"]["deck"] == deck
    assert created["data"]["options"]["points"] is True
    canonical = canonical_deck(deck)  # cards by number, symbols weakest first (issue 26 point 16)
    assert created["data"]["data_hash"] == hashlib.sha256(msgspec.json.encode(canonical, order="sorted")).hexdigest()
    token = game["seat_tokens"]["p1"]
    posted = client.post(f"/games/{game['id']}/commands", headers={"Authorization": f"Bearer {token}"},
                         json={"seat": "p1", "command": {"type": "prepare"}, "expected_version": 1})
    assert posted.status_code == 201, posted.text
    view = client.get(f"/games/{game['id']}", headers={"Authorization": f"Bearer {token}"}).json()["view"]
    assert view["points_variant"] is True
    for card in view["hands"]["p1"]["cards"]:
        number = int(card["id"][1:])
        printed = next(c for c in deck["cards"] if c["number"] == number)["symbols"]
        assert sorted(card["symbols"]) == sorted(printed)


def test_a_bad_owner_deck_is_a_problem_naming_the_rule(client):
    cards = [{"number": n, "symbols": ["lance"]} for n in range(1, 50)]
    made = client.post("/games", json={"rules": "kingdoms-of-crusaders", "seats": SEATS,
                                       "options": {"deck": {"cards": cards}}})
    assert made.status_code in (400, 422), made.text
    problem = made.json()
    assert made.headers["content-type"].startswith("application/problem+json")
    assert problem["code"] == "kingdoms-of-crusaders.bad_deck" and "at least 50" in problem["detail"]
    assert client.get("/games", params={"rules": "kingdoms-of-crusaders"}).json()["games"] == []


def test_seats_must_be_p1_to_pn(client):
    made = client.post("/games", json={"rules": "kingdoms-of-crusaders",
                                       "seats": {"p1": {"player": "A"}, "p3": {"player": "B"}}})
    assert made.status_code in (400, 422), made.text
    assert made.json()["code"] == "kingdoms-of-crusaders.bad_seats"


def test_an_illegal_placement_is_refused_and_records_nothing(client):
    game = client.post("/games", json={"rules": "kingdoms-of-crusaders", "seats": SEATS}).json()
    tokens = game["seat_tokens"]
    client.post(f"/games/{game['id']}/commands", headers={"Authorization": f"Bearer {tokens['p1']}"},
                json={"seat": "p1", "command": {"type": "prepare"}})
    summary = client.get(f"/games/{game['id']}").json()
    seat = summary["to_act"][0]
    auth = {"Authorization": f"Bearer {tokens[seat]}"}
    hand = client.get(f"/games/{game['id']}", headers=auth).json()["view"]["hands"][seat]["cards"]
    refused = client.post(f"/games/{game['id']}/commands", headers=auth,
                          json={"seat": seat, "command": {"type": "place", "card": hand[0]["id"], "sector": 9}})
    assert refused.status_code in (400, 409, 422), refused.text
    assert refused.json()["code"] == "kingdoms-of-crusaders.no_such_sector"
    assert refused.json()["rule"] == "Location card"
    assert client.get(f"/games/{game['id']}").json()["version"] == summary["version"]


def test_a_fork_in_play_draws_a_fresh_consistent_order_and_plays_to_the_end(client):
    """DESIGN.md "Hidden information": a fork before the reveal (an umpire's, since its seat tokens
    read every seat's secrets) starts with fresh dice; the cards
    already in hands and sectors stay where they are, and each later draw takes the first card of
    the fresh order still in the deck (reading 13), so the fork plays on to its end."""
    game = client.post("/games", json={"rules": "kingdoms-of-crusaders", "seats": SEATS}).json()
    tokens = game["seat_tokens"]
    rnd = random.Random(5)

    def play(game_id: str, tokens: dict, commands: int | None) -> dict:
        while commands is None or commands > 0:
            summary = client.get(f"/games/{game_id}").json()
            if not summary["to_act"]:
                return summary
            seat = summary["to_act"][0]
            auth = {"Authorization": f"Bearer {tokens[seat]}"}
            listed = client.get(f"/games/{game_id}/legal-commands", params={"seat": seat}, headers=auth).json()
            posted = client.post(f"/games/{game_id}/commands", headers=auth,
                                 json={"seat": seat, "command": rnd.choice(listed["commands"])})
            assert posted.status_code == 201, posted.text
            commands = None if commands is None else commands - 1
        return client.get(f"/games/{game_id}").json()

    at = play(game["id"], tokens, 12)["version"]
    before = {s: client.get(f"/games/{game['id']}", headers={"Authorization": f"Bearer {t}"}).json()["view"]
              for s, t in tokens.items()}
    refused = client.post(f"/games/{game['id']}/fork", headers={"Authorization": f"Bearer {tokens['p1']}"},
                          json={"version": at, "dice": "fresh"})
    assert refused.status_code == 403
    fork = client.post(f"/games/{game['id']}/fork", headers={"Authorization": f"Bearer {ADMIN_TOKEN}"},
                       json={"version": at, "dice": "fresh"})
    assert fork.status_code == 201, fork.text
    forked = fork.json()
    for seat, token in forked["seat_tokens"].items():
        view = client.get(f"/games/{forked['id']}", headers={"Authorization": f"Bearer {token}"}).json()["view"]
        assert view["hands"][seat] == before[seat]["hands"][seat]
        assert view["territories"] == before[seat]["territories"]
    end = play(forked["id"], forked["seat_tokens"], None)
    assert end["status"] == "ended" and len(end["view"]["markers"]) == 5
    placed = [c["id"] for t in end["view"]["territories"] for a in t["armies"].values() for c in a["cards"]]
    held = [c["id"] for h in end["view"]["hands"].values() for c in h["cards"]]
    assert len(set(placed + held)) == len(placed) + len(held)  # no card twice
