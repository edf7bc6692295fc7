"""No Saline secret leaks while it is secret (issue 13, DESIGN.md "Hidden information"): whole games
(2 and 4 players) played through the API, each seat with its own token, by a player who picks from
the commands the server lists for it; the shared leak harness (tests/secrets/leak.py) scans what
every other reader (a spectator, every other seat, the umpire) receives: a quick scan (game, newest
events, board, timeline, every seat's legal commands) after every few commands, and full scans
(every read path: events, SSE, the board at every version, record, dice, annotations, disputes,
forks, `herald export` / `herald replay show`) at the set-up, in the middle and near the end.
The secrets: the event cards in a hand (from ``DrawnEventCards`` until played or shown), the card
discarded to the hand limit, and the secret objective (until claimed or shown)."""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

import pytest

from tests.conftest import ADMIN_TOKEN
from tests.rules.saline.policy import choose
from tests.rules.test_every_game_ends import fixed_game
from tests.secrets.leak import LeakScan


def secret_values(event_type: str, data: dict[str, Any]) -> Iterable[str]:
    match event_type:
        case "saline.DrawnEventCards":
            return [card["id"] for card in data["cards"]]
        case "saline.EventCardDiscarded":
            return [data["card"]]
        case "saline.SecretObjectiveDealt":
            return [data["objective"]["id"], data["objective"]["name"]]
        case "DecisionTaken":
            return [data["command"]["card"]] if data.get("command", {}).get("card") else []
    return []


@pytest.mark.slow  # over 20 s of this 2-core machine (README, "Tests"): make test-slow, run by CI
@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
@pytest.mark.parametrize("players,every,full_at,limit", [(2, 8, {2}, None), (4, 8, {40}, 80)])
def test_no_saline_secret_leaks_on_any_read_path(client, herald, tmp_path, backend, players, every, full_at, limit,
                                                 monkeypatch):
    """Two players: a whole game, a quick scan every 8 commands and after each draw that
    brings a discard (so each owner is seen holding every card), full scans after the set-up and at
    the night where the end comes near. Four players: the first 80 commands (the set-up and the first
    days, answers and discards included), a full scan in the middle (bounded: the suite's time)."""
    fixed_game(monkeypatch, players)  # the same deal every run: with a fresh server seed, a card could
    # pass through a hand between two scans, and the check that owners see their secrets then missed it
    seats = {f"p{i}": {"player": name} for i, name in enumerate(["Anne", "Yves", "Soizic", "Loïc"][:players], 1)}
    made = client.post("/games", json={"rules": "saline", "seats": seats})
    assert made.status_code == 201, made.text
    game = made.json()
    scan = LeakScan(client, herald, game, umpire_token=ADMIN_TOKEN, secret_values=secret_values)
    rnd = random.Random(f"saline-leaks-{players}")
    commands = 0
    near_end = False
    while True:
        summary = client.get(f"/games/{game['id']}").json()
        if not summary["to_act"] or commands == limit:
            break
        seat = summary["to_act"][0]
        auth = {"Authorization": f"Bearer {game['seat_tokens'][seat]}"}
        view = client.get(f"/games/{game['id']}", headers=auth).json()["view"]
        if not near_end and view["phase"] == "night" and any(
                p["liards"] >= 17 or p["oeillets"] >= 7 for p in view["players"].values()):
            near_end = True
            scan.full(tmp_path)
            summary = client.get(f"/games/{game['id']}").json()
        listed = client.get(f"/games/{game['id']}/legal-commands", params={"seat": seat}, headers=auth).json()
        command = choose(listed["commands"], rnd)
        posted = client.post(f"/games/{game['id']}/commands", headers=auth,
                             json={"seat": seat, "command": command, "expected_version": summary["version"]})
        assert posted.status_code == 201, posted.text
        commands += 1
        if commands % every == 0 or (command["type"] == "draw" and summary["view"]["discarding"] == []
                                     and len(view["players"][seat]["hand"]["cards"]) >= 2):
            scan.step()
        if commands in full_at:
            scan.full(tmp_path)
    if limit is None:
        assert summary["status"] == "ended" and near_end
    values = {s.value for s in scan.secrets()}
    assert any(v.startswith("E") for v in values) and any(v.startswith("J") for v in values)
    assert scan.secrets_checked and scan.scanned > 10_000
    assert scan.owners_saw >= scan.secrets_checked
