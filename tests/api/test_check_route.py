"""POST /games/{id}/commands/check (issue 15, point 8), for every rule system: the same body as
a command; 200 with ``accepted`` and the problem a refused command would get; nothing recorded,
no die drawn. And GET /legal-commands says whether its listing is ``complete``."""

from __future__ import annotations

import pytest

from domain.rules.registry import RULE_SYSTEMS


def new_game(client, system: str) -> dict:
    rules = RULE_SYSTEMS[system]
    scenario = next(iter(rules.scenarios.values()))
    seats = scenario.seats[: max(scenario.min_players, 2 if scenario.max_players >= 2 else 1)]
    created = client.post("/games", json={"rules": system, "scenario": scenario.id,
                                          "seats": {s: {"player": f"Player {s}"} for s in seats}})
    assert created.status_code == 201, created.text
    return created.json()


@pytest.mark.parametrize("system", sorted(RULE_SYSTEMS))
def test_check_says_whether_a_command_would_be_recorded_and_records_nothing(client, system):
    game = new_game(client, system)
    before = client.get(f"/games/{game['id']}").json()
    seat = before["to_act"][0]
    auth = {"Authorization": f"Bearer {game['seat_tokens'][seat]}"}
    listed = client.get(f"/games/{game['id']}/legal-commands", params={"seat": seat}, headers=auth).json()
    assert isinstance(listed["complete"], bool) and isinstance(listed["choices"], list)
    good = {"seat": seat, "command": listed["commands"][0], "expected_version": before["version"]}
    answer = client.post(f"/games/{game['id']}/commands/check", json=good, headers=auth)
    assert answer.status_code == 200, answer.text
    assert answer.json() == {"accepted": True, "problem": None}

    bad = client.post(f"/games/{game['id']}/commands/check", headers=auth,
                      json={"seat": seat, "command": {"type": "no-such-command"}})
    assert bad.status_code == 200 and bad.json()["accepted"] is False
    assert bad.json()["problem"]["status"] == 422 and bad.json()["problem"]["code"] == "unknown_command"
    stale = client.post(f"/games/{game['id']}/commands/check", headers=auth, json={**good, "expected_version": 999})
    assert stale.json()["accepted"] is False and stale.json()["problem"]["status"] == 409
    assert client.post(f"/games/{game['id']}/commands/check", json=good).status_code == 401

    after = client.get(f"/games/{game['id']}").json()
    assert after["version"] == before["version"] and after["view"] == before["view"]
    recorded = client.post(f"/games/{game['id']}/commands", json=good, headers=auth)
    assert recorded.status_code == 201, recorded.text  # the checked command is then recorded as said


@pytest.mark.parametrize("system", sorted(set(RULE_SYSTEMS) - {"open-table"}))  # at the open table all may act
def test_a_seat_not_to_act_is_told_who_is_and_why(client, system):
    """Issue 27 point 2: "legal-commands for a seat not to act says who is and why"; its empty
    listing is everything it may send, so it is ``complete``."""
    game = new_game(client, system)
    summary = client.get(f"/games/{game['id']}").json()
    idle = [s for s in game["seat_tokens"] if s not in summary["to_act"]]
    for _ in range(20):  # every seat acts at once at the start (Saline's preparation): the first answers
        if idle:
            break
        seat = summary["to_act"][0]
        auth = {"Authorization": f"Bearer {game['seat_tokens'][seat]}"}
        listed = client.get(f"/games/{game['id']}/legal-commands", params={"seat": seat}, headers=auth).json()
        assert client.post(f"/games/{game['id']}/commands", headers=auth,
                           json={"seat": seat, "command": listed["commands"][0]}).status_code == 201
        summary = client.get(f"/games/{game['id']}").json()
        idle = [s for s in game["seat_tokens"] if s not in summary["to_act"]]
    seat = idle[0]
    auth = {"Authorization": f"Bearer {game['seat_tokens'][seat]}"}
    listed = client.get(f"/games/{game['id']}/legal-commands", params={"seat": seat}, headers=auth).json()
    assert listed["commands"] == [] and listed["complete"] is True and listed["prompt"] is None
    assert listed["to_act"] == summary["to_act"] and listed["rules"] == system
    for other in summary["to_act"]:
        assert f"Player {other} ({other})" in listed["waiting"], listed["waiting"]
    acting = summary["to_act"][0]
    theirs = client.get(f"/games/{game['id']}/legal-commands", params={"seat": acting},
                        headers={"Authorization": f"Bearer {game['seat_tokens'][acting]}"}).json()
    assert theirs["waiting"] is None and theirs["prompt"] and theirs["prompt"] in listed["waiting"]


def test_an_ended_game_says_so_to_every_seat(client):
    game = new_game(client, "open-table")
    for seat in game["seat_tokens"]:
        auth = {"Authorization": f"Bearer {game['seat_tokens'][seat]}"}
        end = {"type": "end", "outcome": {"draw": True, "reason": "agreed"}}
        assert client.post(f"/games/{game['id']}/commands", headers=auth,
                           json={"seat": seat, "command": end}).status_code == 201
    listed = client.get(f"/games/{game['id']}/legal-commands", params={"seat": "p1"}).json()
    assert listed["to_act"] == [] and listed["complete"] is True and "the game has ended" in listed["waiting"]
