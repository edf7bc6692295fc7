"""Issue 3: a whole Arsuf game and a whole Hattin game played over HTTP (real uvicorn, real
SQLite file) by two clients that only read ``legal-commands`` and post what they read;
then exported and verified offline by the CLI, and shown step by step."""

from __future__ import annotations

import json
import random
import threading

import httpx
import pytest
from tests.records import expanded



def client_loop(url: str, game: dict, seat: str, rng: random.Random, done: threading.Event, errors: list) -> None:
    """One player's client: poll whose turn it is, pick a listed command, post it."""
    headers = {"Authorization": f"Bearer {game['seat_tokens'][seat]}"}
    with httpx.Client(base_url=url, timeout=30) as http:
        while not done.is_set():
            summary = http.get(f"/games/{game['id']}").json()
            if summary["status"] == "ended":
                done.set()
                return
            if seat not in summary["to_act"]:
                continue
            listed = http.get(f"/games/{game['id']}/legal-commands", params={"seat": seat}).json()
            if not listed["commands"]:
                errors.append(f"{seat} is to act at version {listed['version']} but has no legal command")
                done.set()
                return
            command = rng.choice(listed["commands"])
            response = http.post(f"/games/{game['id']}/commands", headers=headers,
                                 json={"seat": seat, "command": command, "expected_version": listed["version"]})
            if response.status_code == 409:
                continue  # the other client moved first (a reaction window): read again
            if response.status_code != 201:
                errors.append(f"{seat} posted a listed command and got {response.status_code}: {response.text}")
                done.set()
                return


@pytest.mark.parametrize("scenario", ["arsuf", "hattin"])
def test_whole_game_over_http_by_two_clients_then_verified_offline(live_server, tmp_path, scenario):
    http = httpx.Client(base_url=live_server.url, timeout=30)
    rules = http.get("/rules/saladin").json()
    assert {s["id"] for s in rules["scenarios"]} == {"arsuf", "hattin"}
    created = http.post("/games", json={"rules": "saladin", "scenario": scenario,
                                        "seats": {"crusaders": {"player": "Richard"}, "ayyubids": {"player": "Saladin"}}})
    assert created.status_code == 201, created.text
    game = created.json()

    done, errors = threading.Event(), []
    clients = [threading.Thread(target=client_loop, args=(live_server.url, game, seat, random.Random(f"{scenario}-{seat}"),
                                                          done, errors))
               for seat in ("crusaders", "ayyubids")]
    for c in clients:
        c.start()
    for c in clients:
        c.join(timeout=600)
    assert not errors, errors
    summary = http.get(f"/games/{game['id']}").json()
    assert summary["status"] == "ended" and summary["outcome"] and summary["seed"]

    path = tmp_path / f"{scenario}.json"
    exported = live_server.cli("export", game["id"], "-o", str(path))
    assert exported.returncode == 0, exported.stderr
    verified = live_server.cli("replay", "verify", str(path), "--key", http.get("/keys").json()["keys"][0]["key"])
    assert verified.returncode == 0, verified.stdout + verified.stderr
    record = expanded(path.read_bytes())
    dice = [e for e in record["events"] if e["type"] == "DiceRolled"]
    assert dice and all(e["data"]["kind"] == "saladin-combat" for e in dice)

    middle = len(record["events"]) // 2
    shown = live_server.cli("replay", "show", str(path), "--step", str(middle))
    assert shown.returncode == 0 and f"step {middle} of {len(record['events'])}" in shown.stdout
    last = live_server.cli("replay", "show", str(path))
    assert last.returncode == 0 and "to act: nobody" in last.stdout
    assert "SeedRevealed" in last.stdout


def test_owners_cards_through_a_real_server_then_herald_rules_check_export_and_verify(live_server, tmp_path):
    """Issue 14 end to end: ``herald rules check`` accepts the owner's file; a real server takes
    it as ``options.cards``; 40 commands are played from what legal-commands lists; the exported
    record carries the cards and verifies offline on its own (the legality of every decision,
    the seed being still secret)."""
    from tests.rules.saladin.test_owner_cards import owners_arsuf

    cards = owners_arsuf()
    path = tmp_path / "cards.json"
    path.write_text(json.dumps(cards))
    checked = live_server.cli("rules", "check", str(path), "--scenario", "arsuf")
    assert checked.returncode == 0 and "usable as saladin cards" in checked.stdout, checked.stdout + checked.stderr
    http = httpx.Client(base_url=live_server.url, timeout=30)
    created = http.post("/games", json={"rules": "saladin", "scenario": "arsuf", "options": {"cards": cards},
                                        "seats": {"crusaders": {"player": "Richard"}, "ayyubids": {"player": "Saladin"}}})
    assert created.status_code == 201, created.text
    game = created.json()
    r = random.Random("owner")
    for _ in range(40):
        seat = http.get(f"/games/{game['id']}").json()["to_act"][0]
        listed = http.get(f"/games/{game['id']}/legal-commands", params={"seat": seat}).json()
        posted = http.post(f"/games/{game['id']}/commands", headers={"Authorization": f"Bearer {game['seat_tokens'][seat]}"},
                           json={"seat": seat, "command": r.choice(listed["commands"]), "expected_version": listed["version"]})
        assert posted.status_code == 201, posted.text
    assert http.get(f"/games/{game['id']}").json()["view"]["card_data"]["source"] == "owner"
    record_path = tmp_path / "owner.json"
    assert live_server.cli("export", game["id"], "-o", str(record_path)).returncode == 0
    record = expanded(record_path.read_bytes())
    assert record["events"][0]["data"]["options"]["cards"] == cards
    verified = live_server.cli("replay", "verify", str(record_path))
    assert verified.returncode == 0, verified.stdout + verified.stderr
