"""A whole 4-player Saline game over HTTP (real uvicorn, real SQLite file) by four clients, each
holding only its own seat token: each reads the game with its token, sees its own hand and secret
objective face up and the others' as counts / face down, asks for its own legal commands and posts
one; the record is then verified. In an out-of-turn window several seats act at once: the one
recorded first wins, the other's command (naming the version it expected) is refused 409 and it
looks again (base.py, "Out-of-turn play")."""

from __future__ import annotations

import pytest

import random
import threading
import time

import httpx

from tests.rules.saline.policy import choose

SEATS = {"p1": "Anne", "p2": "Yves", "p3": "Soizic", "p4": "Loïc"}


def client_loop(url: str, game_id: str, seat: str, token: str, rng: random.Random, done: threading.Event,
                errors: list, seen: dict, stale: dict) -> None:
    headers = {"Authorization": f"Bearer {token}"}
    with httpx.Client(base_url=url, timeout=30, headers=headers) as http:
        while not done.is_set():
            summary = http.get(f"/games/{game_id}").json()
            if summary["status"] == "ended":
                done.set()
                return
            view = summary["view"]
            players = view["players"]
            own, others = players[seat], {s: p for s, p in players.items() if s != seat}
            if view["phase"] not in ("preparation",) and (
                    own["hand"]["cards"] is None or own["secret_objective"] is None
                    or own["secret_objective"].get("face_down")
                    or any(p["hand"]["cards"] is not None for p in others.values())
                    or any(p["secret_objective"] and "id" in p["secret_objective"]
                           and p["secret_objective"]["id"] not in {c["id"] for c in p["claimed"]}
                           for p in others.values())):
                errors.append(f"{seat} at v{summary['version']}: sees {own['hand']}, others {others}")
                done.set()
                return
            if own["hand"]["cards"] is not None:
                seen[seat] = max(seen.get(seat, 0), len(own["hand"]["cards"]))
            if seat not in summary["to_act"]:
                time.sleep(0.02)
                continue
            listed = http.get(f"/games/{game_id}/legal-commands", params={"seat": seat}).json()
            if listed["version"] != summary["version"]:
                continue
            mine = {c["id"] for c in own["hand"]["cards"] or []}
            if not listed["commands"] or any(c.get("card") not in mine | {"favour", None} for c in listed["commands"]):
                errors.append(f"{seat} at v{listed['version']}: listed {listed['commands'][:3]}…, hand {sorted(mine)}")
                done.set()
                return
            response = http.post(f"/games/{game_id}/commands", json={
                "seat": seat, "command": choose(listed["commands"], rng), "expected_version": listed["version"]})
            if response.status_code == 409 and response.json()["code"] == "stale_version":
                stale[seat] = stale.get(seat, 0) + 1  # another seat of the same window acted first: look again
                continue
            if response.status_code != 201:
                errors.append(f"{seat} posted a listed command and got {response.status_code}: {response.text}")
                done.set()
                return


@pytest.mark.slow  # over 20 s of this 2-core machine (README, "Tests"): make test-slow, run by CI
def test_whole_four_player_game_over_http_each_client_with_its_own_token(live_server):
    http = httpx.Client(base_url=live_server.url, timeout=30)
    rules = http.get("/rules/saline").json()
    assert rules["scenarios"][0]["players"] == {"min": 2, "max": 4}
    created = http.post("/games", json={"rules": "saline", "seats": {s: {"player": p} for s, p in SEATS.items()}})
    assert created.status_code == 201, created.text
    game = created.json()
    tokens = game["seat_tokens"]
    # p1 sets the game up first (the others have nothing to read before)
    posted = http.post(f"/games/{game['id']}/commands", headers={"Authorization": f"Bearer {tokens['p1']}"},
                       json={"seat": "p1", "command": {"type": "prepare"}, "expected_version": game["version"]})
    assert posted.status_code == 201, posted.text

    done, errors, seen, stale = threading.Event(), [], {}, {}
    clients = [threading.Thread(target=client_loop, args=(live_server.url, game["id"], seat, tokens[seat],
                                                          random.Random(f"saline-{seat}"), done, errors, seen, stale))
               for seat in SEATS]
    for c in clients:
        c.start()
    for c in clients:
        c.join(timeout=900)
    assert not errors, errors
    assert set(seen) == set(SEATS) and all(n >= 2 for n in seen.values())

    summary = http.get(f"/games/{game['id']}").json()
    assert summary["status"] == "ended" and summary["to_act"] == []
    outcome = summary["outcome"]
    assert sorted(outcome["ranking"]) == sorted(SEATS)
    view = summary["view"]
    assert any(p["liards"] >= 20 or p["oeillets"] == 8 for p in view["players"].values())
    assert all(p["hand"]["cards"] is not None for p in view["players"].values())  # shown at the end
    assert all("id" in p["secret_objective"] for p in view["players"].values())
    record = http.get(f"/games/{game['id']}/record").json()
    verified = http.post("/records/verify", json=record).json()
    assert verified["ok"], verified["problems"]
