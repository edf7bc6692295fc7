"""The Kingdoms of Crusaders through the API: creation with options (the points variant, the
owner's printed deck), refusals as problem+json naming the rule, nothing recorded."""

from __future__ import annotations

import json

from domain.rules.kingdoms_of_crusaders.data import PACKAGE

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
    assert problem["code"] == "kingdoms-of-crusaders.bad_deck" and "56" in problem["detail"]
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
