"""A whole 4-player Kingdoms of Crusaders game over HTTP (real uvicorn, real SQLite file) by four
clients, each holding only its own seat token: each reads the game with its token, sees its own
hand face up and the others as counts, asks for its own legal commands and posts one; the
record is then verified."""

from __future__ import annotations

import random
import threading
import time

import httpx

SEATS = {"p1": "Baldwin", "p2": "Bohemond", "p3": "Raymond", "p4": "Joscelin"}


def client_loop(url: str, game_id: str, seat: str, token: str, rng: random.Random, done: threading.Event,
                errors: list, seen: dict) -> None:
    """One player's client: read the game with its token, pick a listed command, post it."""
    headers = {"Authorization": f"Bearer {token}"}
    with httpx.Client(base_url=url, timeout=30, headers=headers) as http:
        while not done.is_set():
            summary = http.get(f"/games/{game_id}").json()
            if summary["status"] == "ended":
                done.set()
                return
            view = summary["view"]
            own = view["hands"][seat]["cards"]
            others = {s: h["cards"] for s, h in view["hands"].items() if s != seat}
            if own is None or any(c is not None for c in others.values()):
                errors.append(f"{seat} at v{summary['version']}: own hand {own}, others {others}")
                done.set()
                return
            seen[seat] = max(seen.get(seat, 0), len(own))
            if seat not in summary["to_act"]:
                time.sleep(0.02)
                continue
            listed = http.get(f"/games/{game_id}/legal-commands", params={"seat": seat}).json()
            if listed["version"] != summary["version"]:
                continue
            mine = {c["id"] for c in own}
            if not listed["commands"] or any(c["type"] == "place" and c["card"] not in mine for c in listed["commands"]):
                errors.append(f"{seat} at v{listed['version']}: listed {listed['commands'][:3]}…, hand {sorted(mine)}")
                done.set()
                return
            command = rng.choice(listed["commands"])
            response = http.post(f"/games/{game_id}/commands",
                                 json={"seat": seat, "command": command, "expected_version": listed["version"]})
            if response.status_code != 201:
                errors.append(f"{seat} posted a listed command and got {response.status_code}: {response.text}")
                done.set()
                return


def test_whole_four_player_game_over_http_each_client_with_its_own_token(live_server):
    http = httpx.Client(base_url=live_server.url, timeout=30)
    rules = http.get("/rules/kingdoms-of-crusaders").json()
    assert rules["scenarios"][0]["players"] == {"min": 2, "max": 4}
    created = http.post("/games", json={"rules": "kingdoms-of-crusaders", "seats": {s: {"player": p} for s, p in SEATS.items()}})
    assert created.status_code == 201, created.text
    game = created.json()
    tokens = game["seat_tokens"]

    done, errors, seen = threading.Event(), [], {}
    clients = [threading.Thread(target=client_loop, args=(live_server.url, game["id"], seat, tokens[seat],
                                                          random.Random(f"koc-{seat}"), done, errors, seen))
               for seat in SEATS]
    for c in clients:
        c.start()
    for c in clients:
        c.join(timeout=900)
    assert not errors, errors
    assert seen == {s: 6 for s in SEATS}  # each saw its own hand, six cards on its turn

    summary = http.get(f"/games/{game['id']}").json()
    assert summary["status"] == "ended" and summary["to_act"] == []
    outcome = summary["outcome"]
    assert outcome["winner"] in SEATS and sum(outcome["scores"].values()) == 5
    view = summary["view"]
    assert sorted(m["number"] for m in view["markers"]) == [1, 2, 3, 4, 5]
    assert all(len(a["cards"]) <= 4 for t in view["territories"] for a in t["armies"].values())
    assert all(h["cards"] is not None for h in view["hands"].values())  # shown at the end
    decisions = [e for e in http.get(f"/games/{game['id']}/events", params={"limit": 1000}).json()["events"]
                 if e["type"] == "DecisionTaken"]
    assert len(decisions) <= 1 + 4 * 20
    record = http.get(f"/games/{game['id']}/record").json()
    verified = http.post("/records/verify", json=record).json()
    assert verified["ok"], verified["problems"]
