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
