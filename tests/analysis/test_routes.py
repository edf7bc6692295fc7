"""Issue 19, the analysis routes over HTTP: never during play (403 to its seats and to
everyone), 202 with progress then 200 with every decision's chances and the swings, the
commands of a step ranked with the one played marked, a study fork analysed while it is
played, and rule systems that do not play themselves refused by name."""

from __future__ import annotations

import random
import time

import pytest

from tests.conftest import new_game, post

SEATS = ("crusaders", "ayyubids")


@pytest.fixture(autouse=True)
def in_process_pool(monkeypatch):
    monkeypatch.setenv("HERALD_ANALYSIS_WORKERS", "0")  # rollouts in a thread of the test's process


def play(client, game: dict, r: random.Random, until_end: bool = True, steps: int = 10_000) -> None:
    for _ in range(steps):
        summary = client.get(f"/games/{game['id']}").json()
        if summary["status"] == "ended":
            return
        seat = summary["to_act"][0]
        listed = client.get(f"/games/{game['id']}/legal-commands", params={"seat": seat}).json()["commands"]
        assert post(client, game, seat, r.choice(listed)).status_code == 201


def finished(client, url: str, params: dict, token: str | None = None, seconds: float = 300) -> dict:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    deadline = time.monotonic() + seconds
    while True:
        response = client.get(url, params=params, headers=headers)
        if response.status_code == 200:
            return response.json()
        assert response.status_code == 202, response.text
        progress = response.json()
        assert progress["status"] == "running" and 0 <= progress["done"] <= progress["total"]
        assert response.headers["Retry-After"] == "1"
        assert time.monotonic() < deadline
        time.sleep(0.2)


def test_no_engine_help_during_play(client):
    game = new_game(client, "saladin", SEATS, scenario="arsuf")
    for token in (game["seat_tokens"]["crusaders"], game["seat_tokens"]["ayyubids"], None):
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        for url in (f"/games/{game['id']}/analysis", f"/games/{game['id']}/analysis/1/commands"):
            response = client.get(url, headers=headers)
            assert response.status_code == 403, response.text
            assert response.json()["code"] == "analysis_of_live_game"


def test_a_rule_system_that_does_not_play_itself_is_refused(client):
    game = new_game(client)  # the open table
    response = client.get(f"/games/{game['id']}/analysis")
    assert response.status_code == 422 and response.json()["code"] == "analysis_unavailable"


def test_an_ended_game_analysed_then_its_commands_ranked(client):
    game = new_game(client, "saladin", SEATS, scenario="arsuf")
    play(client, game, random.Random(3))
    ended = client.get(f"/games/{game['id']}").json()
    url = f"/games/{game['id']}/analysis"
    body = finished(client, url, {"rollouts": 3})
    assert body["policy"] == "random" and body["rollouts"] == 3 and body["complete"]
    points = body["points"]
    decisions = [p for p in points if "decision" in p and p["decision"] is not None]
    events = client.get(f"/games/{game['id']}/events", params={"limit": 1000}).json()["events"]
    taken = [e["version"] for e in events if e["type"] == "DecisionTaken"]
    assert [p["decision"] for p in decisions] == taken  # one point per decision, then the last board
    last = points[-1]
    winner = ended["outcome"]["winner"]
    assert last["version"] == ended["version"] and "decision" not in last  # the last board
    if winner is not None:  # a Saladin 2.1.0 game may also end with no winner (its server seed is random)
        assert last["win"][winner] == 1.0
    for p in points:
        assert sum(p["win"].values()) == pytest.approx(1.0, abs=1e-3)
        assert all(p["low"][k] <= p["win"][k] <= p["high"][k] for k in p["win"])
    assert body["swings"] and body["swings"][0]["size"] >= body["swings"][-1]["size"]
    assert body["swings"][0]["version"] in taken and body["swings"][0]["text"]
    assert finished(client, url, {"rollouts": 3}) == body  # cached: the same answer at once
    # the commands of the first Activation decision, ranked; the one played marked
    first = next(p for p in decisions if p["seat"] and p["version"] > 3)
    ranked = finished(client, f"{url}/{first['version']}/commands", {"rollouts": 2, "policy": "heuristic"})
    assert ranked["seat"] == first["seat"] and ranked["policy"] == "heuristic"
    assert sum(c["played"] for c in ranked["commands"]) == 1
    wins = [c["win"][first["seat"]] for c in ranked["commands"]]
    assert wins == sorted(wins, reverse=True)
    boards = {p["version"] for p in points}
    not_a_board = next(v for v in taken if v not in boards)
    missing = client.get(f"{url}/{not_a_board}/commands")
    assert missing.status_code == 404 and missing.json()["code"] == "no_such_position"


def test_a_study_fork_is_analysed_while_it_is_played(client):
    game = new_game(client, "saladin", SEATS, scenario="hattin")
    play(client, game, random.Random(4), steps=6)
    fork = client.post(f"/games/{game['id']}/fork", json={"version": 5, "dice": "fresh"})
    assert fork.status_code == 201, fork.text
    fork_id = fork.json()["id"]
    assert client.get(f"/games/{game['id']}/analysis").status_code == 403  # the parent is still live
    # ... and forking it is no way round that: its fork is refused to anyone but the umpire
    # while it is played (issue 19: "no engine help during play")
    for token in (None, fork.json()["seat_tokens"]["crusaders"], game["seat_tokens"]["crusaders"]):
        refused = client.get(f"/games/{fork_id}/analysis", params={"rollouts": 2},
                             headers={"Authorization": f"Bearer {token}"} if token else {})
        assert refused.status_code == 403 and refused.json()["code"] == "analysis_of_live_game", refused.text
        assert game["id"] in refused.json()["detail"]
    from tests.conftest import ADMIN_TOKEN

    body = finished(client, f"/games/{fork_id}/analysis", {"rollouts": 2}, token=ADMIN_TOKEN)
    assert body["points"] and body["complete"]


def test_a_fork_with_hidden_hands_is_analysed_without_a_peek(client):
    """A Kingdoms of Crusaders game forked by the umpire before its reveal (fresh dice): its
    board holds hands. A spectator gets the analysis (the hands dealt again for each rollout)
    but not the commands of a seat, which name its cards (403); that seat gets them."""
    from tests.conftest import ADMIN_TOKEN

    game = new_game(client, "kingdoms-of-crusaders", ("p1", "p2"), scenario="standard")
    r = random.Random(6)
    for _ in range(5):
        summary = client.get(f"/games/{game['id']}").json()
        seat = summary["to_act"][0]
        listed = client.get(f"/games/{game['id']}/legal-commands", params={"seat": seat},
                            headers={"Authorization": f"Bearer {game['seat_tokens'][seat]}"}).json()["commands"]
        assert post(client, game, seat, r.choice(listed)).status_code == 201
    version = client.get(f"/games/{game['id']}").json()["version"]
    fork = client.post(f"/games/{game['id']}/fork", json={"version": version, "dice": "fresh"},
                       headers={"Authorization": f"Bearer {ADMIN_TOKEN}"})
    assert fork.status_code == 201, fork.text
    fork = fork.json()
    for seat in ("p1", "p2"):  # the parent ends (abandoned): its forks may now be studied by anyone
        ended = client.post(f"/games/{game['id']}/abandon", json={"seat": seat},
                            headers={"Authorization": f"Bearer {game['seat_tokens'][seat]}"})
        assert ended.status_code == 201, ended.text
    body = finished(client, f"/games/{fork['id']}/analysis", {"rollouts": 2})
    board = body["points"][-1]
    assert board["rollouts"] == 2
    to_act = client.get(f"/games/{fork['id']}").json()["to_act"][0]
    url = f"/games/{fork['id']}/analysis/{board['version']}/commands"
    refused = client.get(url, params={"rollouts": 2})
    assert refused.status_code == 403 and refused.json()["code"] == "hidden_commands"
    mine = finished(client, url, {"rollouts": 2}, token=fork["seat_tokens"][to_act])
    assert mine["seat"] == to_act and mine["commands"]
