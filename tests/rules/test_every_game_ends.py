"""Issue 24 point 5, "Every game can be finished from what the API lists": every rule system's
game is played to its end through the HTTP API by a client that knows no rule system — it
posts only a command taken from ``GET /games/{id}/legal-commands`` ``commands``, or one composed
strictly from the generic forms its ``choices`` describe (tests/rules/listing_client.py) — with
seeded random choices, until ``GET /games/{id}`` says ``status: ended``, within a bound. A seat in
``to_act`` with nothing listed fails the test, naming the version.

Every case ends by the rule system's own end (a victory of its rulebook, the agreed end of the
open table and of Day of Battle: RULES_NOTES.md) but those marked ``turn_limit``, a house rule
in the options (Saxon Shore: a random game to a §1 victory is thousands of decisions; one case
per system ends by the rulebook). The game id and server seed are fixed (``uuid4`` and the
seed source of the game service replaced), so each case is the same game on every run: the
decisions it takes are the bound's measure, not luck. Longer sweeps: bench/bench_every_game_ends.py.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any, NamedTuple
from uuid import UUID

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from api.config import Settings
from domain.rules.registry import RULE_SYSTEMS
from tests.conftest import ADMIN_TOKEN
from tests.rules.listing_client import pick

SEED = bytes(range(32))


class Case(NamedTuple):
    rules: str
    scenario: str
    seats: tuple[str, ...]
    seed: int  # the client's random seed; the game id is UUID(int=seed + 1), as in bench/bench_every_game_ends.py
    limit: int  # decisions (posts) within which the game must end
    options: dict[str, Any] = {}

    @property
    def by_rulebook(self) -> bool:
        return "turn_limit" not in self.options

    def __str__(self) -> str:
        house = f"-turn-limit-{self.options['turn_limit']}" if not self.by_rulebook else ""
        return f"{self.rules}-{self.scenario}-{len(self.seats)}-seats-seed-{self.seed}{house}"

    @classmethod
    def first(cls, system_id: str, limit: int = 600) -> Case:
        """A registered rule system's first scenario with its fewest seats, seed 1: the case a
        rule system gets until it names its own (no list of the registry to keep)."""
        scenario = next(iter(RULE_SYSTEMS[system_id].scenarios.values()))
        return cls(system_id, scenario.id, scenario.seats[:scenario.min_players], 1, limit)


def covering(chosen: list[Case]) -> list[Case]:
    """``chosen``, then the first case of every registered rule system it leaves out."""
    named = {c.rules for c in chosen}
    return chosen + [Case.first(system_id) for system_id in sorted(RULE_SYSTEMS) if system_id not in named]


P = ("p1", "p2", "p3", "p4", "p5")
CASES = covering([
    Case("open-table", "table", P[:2], 1, 300),
    Case("open-table", "table", P[:4], 2, 300),
    Case("saladin", "arsuf", ("crusaders", "ayyubids"), 1, 600),
    Case("saladin", "arsuf", ("crusaders", "ayyubids"), 2, 600),
    Case("saladin", "hattin", ("crusaders", "ayyubids"), 1, 600),
    Case("saladin", "hattin", ("crusaders", "ayyubids"), 2, 600),
    Case("saxon-shore", "standard", P[:2], 7, 300),
    Case("saxon-shore", "standard", P[:2], 16, 1000),
    Case("saxon-shore", "standard", P[:2], 6, 1000, {"turn_limit": 3}),  # stuck at version 317 before the fix
    Case("saxon-shore", "standard", P[:3], 3, 1000, {"turn_limit": 1}),
    Case("saline", "standard", P[:2], 0, 1000),
    Case("saline", "standard", P[:3], 3, 1000),
    Case("kingdoms-of-crusaders", "standard", P[:2], 1, 600),
    Case("kingdoms-of-crusaders", "standard", P[:4], 2, 600),
    Case("day-of-battle", "crusaders-seljuq-turks", ("crusaders", "seljuq-turks"), 1, 600),
    Case("day-of-battle", "crusaders-seljuq-turks", ("crusaders", "seljuq-turks"), 2, 600),
    Case("day-of-battle", "dorylaeum", ("crusaders", "byzantines", "seljuq-turks", "danishmends"), 3, 600),
])


def test_every_rule_system_has_a_case_that_ends_by_its_own_rules():
    """Each system of the registry is played here (a system no case names gets its first case),
    and at least one case of each ends by the rule system's own end, not a house rule's turn limit."""
    assert {c.rules for c in CASES if c.by_rulebook} == set(RULE_SYSTEMS)
    assert {c.scenario for c in CASES if c.rules == "saladin"} == set(RULE_SYSTEMS["saladin"].scenarios)


def fixed_game(monkeypatch, seed: int) -> None:
    """The next game created gets id ``UUID(int=seed + 1)`` and server seed ``bytes(range(32))``."""
    import api.services.games.commands as games  # where a game is created

    class Seeds:
        @staticmethod
        def token_bytes(n: int) -> bytes:
            return SEED[:n]

    monkeypatch.setattr(games, "uuid4", lambda: UUID(int=seed + 1))
    monkeypatch.setattr(games, "token_source", Seeds)


class Played(NamedTuple):
    decisions: int
    composed: int
    refused: int  # composed commands the rules refused (422): the client then reads again
    summary: dict[str, Any]


def play(client, case: Case) -> Played:
    """Create the game, then one client per seat (its own token) reads and posts until the end."""
    created = client.post("/games", json={"rules": case.rules, "scenario": case.scenario, "options": case.options,
                                          "seats": {s: {"player": f"Player {s}"} for s in case.seats}})
    assert created.status_code == 201, created.text
    game = created.json()
    gid, tokens = game["id"], game["seat_tokens"]
    rnd = random.Random(case.seed)
    composed = refused = 0
    for decisions in range(case.limit + 1):
        summary = client.get(f"/games/{gid}").json()
        if summary["status"] == "ended":
            return Played(decisions, composed, refused, summary)
        to_act = summary["to_act"]
        assert to_act, f"{case}: nobody to act at version {summary['version']}, and the game is not ended"
        seat = to_act[0] if len(to_act) == 1 else rnd.choice(to_act)
        auth = {"Authorization": f"Bearer {tokens[seat]}"}
        listed = client.get(f"/games/{gid}/legal-commands", params={"seat": seat}, headers=auth).json()
        assert listed["commands"], (f"{case}: {seat} is to act at version {listed['version']} and "
                                    f"legal-commands lists nothing (prompt: {listed.get('prompt')})")
        command, was_composed = pick(rnd, listed["commands"], listed["choices"], compose_share=0.1)
        posted = client.post(f"/games/{gid}/commands", headers=auth,
                             json={"seat": seat, "command": command, "expected_version": listed["version"]})
        composed += was_composed
        if was_composed and posted.status_code == 422:
            refused += 1  # a composed command may break a rule the description leaves to decide
            continue
        assert posted.status_code == 201, (f"{case}: {seat} posted a {'composed' if was_composed else 'listed'} "
                                           f"command at version {listed['version']}: {command} -> {posted.text}")
    raise AssertionError(f"{case}: not ended within {case.limit} decisions (version {summary['version']})")


@pytest.fixture
def api(herald) -> Iterator[TestClient]:
    """The in-process app on the test's Herald, its write limits off: one client plays every seat
    as fast as it can, far beyond the 20 writes a second a token is allowed."""
    settings = Settings(admin_token=ADMIN_TOKEN, writes_per_token=0, writes_per_address=0)
    with TestClient(create_app(herald, settings)) as test_client:
        yield test_client


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
@pytest.mark.parametrize("case", CASES, ids=str)
def test_the_game_ends_from_what_legal_commands_lists(api, monkeypatch, case):
    fixed_game(monkeypatch, case.seed)
    played = play(api, case)
    outcome = played.summary["outcome"]
    assert outcome and (outcome.get("winner") or outcome.get("draw")), outcome
    if case.by_rulebook:
        assert "turn limit" not in (outcome.get("reason") or ""), outcome
