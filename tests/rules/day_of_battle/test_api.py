"""Day of Battle at the HTTP door: bad input gets a problem+json 4xx naming the rule, and the
record is unchanged; the players' Army Profiles are checked at creation."""

from __future__ import annotations

import copy

import msgspec
import pytest

from domain.rules.day_of_battle.data import ARMIES
from domain.rules.registry import RULE_SYSTEMS
from tests.rules.day_of_battle.helpers import SEATS

BODY = {"rules": "day-of-battle", "scenario": "crusaders-seljuq-turks",
        "seats": {s: {"player": p} for s, p in SEATS.items()}}


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
def test_an_illegal_deployment_is_refused_naming_1_1_2_and_nothing_is_recorded(client, backend):
    game = client.post("/games", json=BODY).json()
    auth = {s: {"Authorization": f"Bearer {t}"} for s, t in game["seat_tokens"].items()}
    for seat, leaders in (("crusaders", ["bohemond", "tancred"]), ("seljuq-turks", ["kilij-arslan", "hasan"])):
        for leader in leaders:
            r = client.post(f"/games/{game['id']}/commands", headers=auth[seat],
                            json={"seat": seat, "command": {"type": "draw-leader", "leader": f"{seat}/{leader}"}})
            assert r.status_code == 201, r.text
    before = client.get(f"/games/{game['id']}").json()["version"]
    r = client.post(f"/games/{game['id']}/commands", headers=auth["crusaders"],
                    json={"seat": "crusaders", "command": {"type": "deploy", "unit": "crusaders/knights-bohemond",
                                                           "x": 36, "y": 20}})
    assert r.status_code == 422 and r.headers["content-type"].startswith("application/problem+json")
    problem = r.json()
    assert problem["code"] == "day-of-battle.outside_deployment_zone" and problem["rule"] == "1-1.2"
    assert client.get(f"/games/{game['id']}").json()["version"] == before


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
def test_the_players_army_profiles_are_checked_at_creation(client, backend):
    armies = {"crusaders": msgspec.to_builtins(ARMIES["crusaders"]),
              "seljuq-turks": msgspec.to_builtins(ARMIES["seljuq-turks"])}
    good = client.post("/games", json=BODY | {"options": {"armies": armies}})
    assert good.status_code == 201, good.text
    bad = copy.deepcopy(armies)
    bad["crusaders"]["units"][0]["weapon"] = "longbow"
    bad["seljuq-turks"]["units"][3]["figures_per_cos"] = 5
    r = client.post("/games", json=BODY | {"options": {"armies": bad}})
    assert r.status_code == 422, r.text
    problem = r.json()
    assert problem["code"] == "day-of-battle.bad_army_profile"
    assert any("longbow" in p for p in problem["problems"]) and any("3 figures" in p for p in problem["problems"])
    schema = client.get("/rules/day-of-battle").json()["owner_data"]["schema"]
    assert schema


def _rules_check(tmp_path, armies, *extra: str):
    import subprocess
    import sys

    path = tmp_path / "armies.json"
    path.write_bytes(msgspec.json.encode(armies))
    return subprocess.run([sys.executable, "-m", "api.cli", "rules", "check", str(path), *extra],
                          capture_output=True, text=True, check=False)


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
@pytest.mark.parametrize("armies", [{}, {"franks": msgspec.to_builtins(ARMIES["crusaders"])}], ids=["none", "no-seat"])
def test_rules_check_without_a_scenario_refuses_what_every_scenario_refuses(client, backend, tmp_path, armies):
    """``herald rules check`` never calls usable a file the server refuses for every scenario:
    ``{}`` (no seat's profile) and a profile for a seat no scenario has exit 1 naming the seats."""
    for scenario, spec in RULE_SYSTEMS["day-of-battle"].scenarios.items():
        r = client.post("/games", json={"rules": "day-of-battle", "scenario": scenario, "options": {"armies": armies},
                                        "seats": {seat: {"player": seat} for seat in spec.seats}})
        assert r.status_code == 422 and r.json()["code"] == "day-of-battle.bad_army_profile", (scenario, r.text)
    checked = _rules_check(tmp_path, armies, "--rules", "day-of-battle")
    assert checked.returncode == 1 and "usable" not in checked.stdout, checked.stdout
    assert "one profile for each seat of a scenario" in checked.stdout


def test_rules_check_without_a_scenario_names_the_scenarios_the_armies_fit(tmp_path):
    armies = {"crusaders": msgspec.to_builtins(ARMIES["crusaders"]),
              "seljuq-turks": msgspec.to_builtins(ARMIES["seljuq-turks"])}
    checked = _rules_check(tmp_path, armies, "--rules", "day-of-battle")
    assert checked.returncode == 0 and "for scenario crusaders-seljuq-turks " in checked.stdout, checked.stdout
    unknown = _rules_check(tmp_path, armies, "--rules", "day-of-battle", "--scenario", "hastings")
    assert unknown.returncode == 1 and "no scenario 'hastings'" in unknown.stdout, unknown.stdout
