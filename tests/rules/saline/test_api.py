"""Saline through the API: the owner's printed components given at creation (validated, their hash
in GameCreated, played), refusals as problem+json naming the rule, nothing recorded."""

from __future__ import annotations

import hashlib
import json

import msgspec

from domain.rules.saline.data import PACKAGE

SEATS = {"p1": {"player": "Anne"}, "p2": {"player": "Yves"}, "p3": {"player": "Soizic"}}


def test_rules_describe_the_system(client):
    rules = client.get("/rules/saline").json()
    assert rules["id"] == "saline"
    (scenario,) = rules["scenarios"]
    assert scenario["seats"] == ["p1", "p2", "p3", "p4"] and scenario["players"] == {"min": 2, "max": 4}
    assert {"saline-weather", "saline-first-player-4"} <= set(rules["die_kinds"])


def test_owner_cards_given_at_creation_are_played(client):
    """Components: the owner's printed data in GameCreated (its hash the game's data_hash), used for
    every price and card."""
    cards = json.loads((PACKAGE / "cards.json").read_text())
    cards["market_prices"] = [0, 1, 2, 3]
    made = client.post("/games", json={"rules": "saline", "seats": SEATS, "options": {"cards": cards}})
    assert made.status_code == 201, made.text
    game = made.json()
    created = client.get(f"/games/{game['id']}/events").json()["events"][0]
    assert created["data"]["options"]["cards"] == cards
    assert created["data"]["data_hash"] == hashlib.sha256(msgspec.json.encode(cards, order="sorted")).hexdigest()
    token = game["seat_tokens"]["p1"]
    posted = client.post(f"/games/{game['id']}/commands", headers={"Authorization": f"Bearer {token}"},
                         json={"seat": "p1", "command": {"type": "prepare"}, "expected_version": game["version"]})
    assert posted.status_code == 201, posted.text
    view = client.get(f"/games/{game['id']}", headers={"Authorization": f"Bearer {token}"}).json()["view"]
    assert [m["price"] for m in view["market"]] == [0, 1, 2, 3]


def test_bad_owner_cards_are_a_problem_naming_the_rule(client):
    cards = json.loads((PACKAGE / "cards.json").read_text())
    cards["events"] = cards["events"][:-1]
    made = client.post("/games", json={"rules": "saline", "seats": SEATS, "options": {"cards": cards}})
    assert made.status_code in (400, 422), made.text
    assert made.headers["content-type"].startswith("application/problem+json")
    assert "49 event cards" in made.text
    assert client.get("/games", params={"rules": "saline"}).json()["games"] == []


def test_a_refused_command_is_a_problem_naming_the_rule_and_records_nothing(client):
    made = client.post("/games", json={"rules": "saline", "seats": SEATS}).json()
    token = made["seat_tokens"]["p1"]
    auth = {"Authorization": f"Bearer {token}"}
    posted = client.post(f"/games/{made['id']}/commands", headers=auth,
                         json={"seat": "p1", "command": {"type": "buy", "space": 1, "position": "N"},
                               "expected_version": made["version"]})
    assert posted.status_code in (400, 409, 422), posted.text
    problem = posted.json()
    assert posted.headers["content-type"].startswith("application/problem+json")
    assert problem["code"] == "saline.set_up_first" and "Setup" in json.dumps(problem)
    assert client.get(f"/games/{made['id']}").json()["version"] == made["version"]


def test_owner_meteo_faces_in_the_dice_statistics(client):
    """The owner's météo dice (option ``cards``: here two dice, each with its own faces) are the dice
    the game rolls: ``GET /games/{id}/dice`` and ``/players/{name}/dice`` count them against the
    game's own faces (never the reconstruction's), and ``/rules/saline`` says the faces are the game's."""
    cards = json.loads((PACKAGE / "cards.json").read_text())
    die1, die2 = ["wind"] * 3 + ["sun"] * 3, ["sun+1", "sun+1", "wind+1", "wind+1", "sun", "wind"]
    cards["weather_faces"] = [die1, die2]
    made = client.post("/games", json={"rules": "saline", "seats": SEATS, "options": {"cards": cards}}).json()
    auth = lambda seat: {"Authorization": f"Bearer {made['seat_tokens'][seat]}"}  # noqa: E731
    assert client.post(f"/games/{made['id']}/commands", headers=auth("p1"),
                       json={"seat": "p1", "command": {"type": "prepare"}}).status_code == 201
    while (summary := client.get(f"/games/{made['id']}").json())["view"]["phase"] == "placing":
        seat = summary["to_act"][0]
        assert client.post(f"/games/{made['id']}/commands", headers=auth(seat),
                           json={"seat": seat, "command": {"type": "place", "position": "N"}}).status_code == 201
    dice = client.get(f"/games/{made['id']}/dice")
    assert dice.status_code == 200, dice.text
    kinds = {k["kind"]: k for k in dice.json()["kinds"]}
    assert kinds["saline-weather-1"]["faces"] == die1 and kinds["saline-weather-2"]["faces"] == die2
    assert kinds["saline-weather-1"]["rolls"] >= 1 and set(kinds["saline-weather-2"]["counts"]) <= set(die2)
    roller = SEATS[summary["view"]["first"]]["player"]  # the first player rolls the météo dice
    player = client.get(f"/players/{roller}/dice")
    assert player.status_code == 200, player.text
    assert {k["kind"] for k in player.json()["kinds"]} >= {"saline-weather-1", "saline-weather-2"}
    rules = client.get("/rules/saline").json()
    assert "game's own faces" in json.dumps(rules, ensure_ascii=False)
