"""RULES_NOTES.md, Versions: a record made under Saladin 2.0.0 is still replayed as 2.0.0 played
it (``Saladin.older_versions``), so it verifies; one made under 1.0.0 is named by the verifier
as made under a version this server does not play, not replayed under rules it was not played by."""

from __future__ import annotations

import random
from uuid import UUID

from domain.events import GameCreated, SeatInfo
from domain.game import create_game, project_game
from domain.randomness import commitment
from replays.record import build_record
from replays.verify import verify
from tests.records import played_to_the_end
from tests.rules.saladin.helpers import NOW, SALADIN, SEATS


def created(version: str, scenario: str = "arsuf") -> GameCreated:
    return GameCreated(rules="saladin", rules_version=version, scenario=scenario,
                       data_hash=SALADIN.data_hash(scenario),
                       seats={s: SeatInfo(player=s) for s in SEATS}, seed_commitment=commitment(SEED))


SEED = bytes(range(32))


def test_the_version_is_2_1_0_and_it_replays_2_0_0():
    assert (SALADIN.version, SALADIN.older_versions) == ("2.1.0", ("2.0.0",))


def test_a_version_one_record_is_named_as_made_under_an_older_version():
    record = build_record(create_game(UUID(int=7), created("1.0.0"), NOW))
    verdict = verify(record)
    assert not verdict.ok
    assert any(p.version == 1 and "recorded under saladin 1.0.0; this server has 2.1.0" in p.what
               for p in verdict.problems), verdict.problems


def test_a_whole_2_0_0_game_verifies_under_2_1_0():
    """A seeded random game recorded under 2.0.0, start to end: its state says the version it
    plays by, and the offline verifier replays every decision and finds the same events."""
    for scenario in ("arsuf", "hattin"):
        records = played_to_the_end(created("2.0.0", scenario), random.Random(scenario), SEED, NOW)
        game = project_game(None, records[:1])
        assert game.state.version == "2.0.0" and game.state.options.true_cross == "leader-action"
        verdict = verify(build_record(records, public_seed=SEED.hex()))
        assert verdict.ok, verdict.problems
