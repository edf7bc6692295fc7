"""No leader's secret leaks (DESIGN.md "Hidden information": "Day of Battle (cards drawn for rank
and command) keep secrets from some seats"): a battle driven through the API by the two seats'
clients from their legal commands; after every command the shared leak harness
(tests/secrets/leak.py) scans what every other reader receives, with a full scan of every read path
at the start of move 2. The secrets: the cards each leader drew for his
esteem, motivation, skills and command, from the sealed event that holds them
until they are public (the seed revealed at the end)."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

import pytest

from tests.conftest import ADMIN_TOKEN
from tests.rules.day_of_battle.helpers import SEATS, choose
from tests.secrets.leak import LeakScan


def secrets(event_type: str, data: dict[str, Any]) -> Iterable[str]:
    """A card id alone ("8S") is two characters that any random token may hold, so each secret is
    the card as its sealed event's JSON holds it: ``"morale":"8D"``, ``"cards":["9H","8C"]``."""
    if event_type == "day-of-battle.LeaderAttributesDrawn":
        return [f'"esteem_card":"{data["esteem_card"]}"', f'"motivation_card":"{data["motivation_card"]}"',
                *(f'"{k}":"{v}"' for k, v in data["skill_cards"].items())]
    if event_type == "day-of-battle.CommandCardsDrawn":  # the leader's name too: a card comes round again
        return [f'"leader":"{data["leader"]}","seat":"{data["seat"]}","cards":'
                + json.dumps(data["cards"], separators=(",", ":"))]
    return []


@pytest.mark.slow  # over 20 s of this 2-core machine (README, "Tests"): make test-slow, run by CI
@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
def test_no_leader_card_leaks_on_any_read_path(client, herald, tmp_path, backend):
    made = client.post("/games", json={"rules": "day-of-battle", "scenario": "crusaders-seljuq-turks",
                                       "seats": {s: {"player": p} for s, p in SEATS.items()}})
    assert made.status_code == 201, made.text
    game = made.json()
    scan = LeakScan(client, herald, game, umpire_token=ADMIN_TOKEN, secret_values=secrets)
    done: set[str] = set()
    for n in range(1, 200):
        summary = client.get(f"/games/{game['id']}").json()
        if summary["status"] == "ended":
            break
        seat = summary["to_act"][0]
        auth = {"Authorization": f"Bearer {game['seat_tokens'][seat]}"}
        listed = client.get(f"/games/{game['id']}/legal-commands", params={"seat": seat}, headers=auth).json()
        command = choose(seat, listed["commands"], done, summary["view"]["move"])
        if summary["view"]["move"] >= 5 and seat == "crusaders" and command["type"] == "end-move":
            done |= {"fire", "charge", "dismount"}  # enough moves scanned: the policy proposes the end
            command = choose(seat, listed["commands"], done, summary["view"]["move"])
        if command["type"] == "propose-ruling" and not scan.secrets_checked:
            pytest.fail("the battle ended before any secret was checked")
        posted = client.post(f"/games/{game['id']}/commands", headers=auth,
                             json={"seat": seat, "command": command, "expected_version": listed["version"]})
        assert posted.status_code == 201, posted.text
        kinds = {e["type"] for e in posted.json()["events"]}
        if command["type"] == "return-fire":
            done.add("fire")
        if command["type"] in ("fall-back", "terrain-check", "stand", "defensive-fire"):
            done.add("charge")
        if "day-of-battle.KnightsDismounted" in kinds:
            done.add("dismount")
        scan.step()
        if "day-of-battle.MoveBegan" in kinds and summary["view"]["move"] == 2:
            scan.full(tmp_path)
    assert client.get(f"/games/{game['id']}").json()["status"] == "ended"
    assert len(scan.secrets_checked) >= 10 and scan.owners_saw >= scan.secrets_checked
