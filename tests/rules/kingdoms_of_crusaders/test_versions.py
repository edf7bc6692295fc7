"""RULES_NOTES.md, Versions: a record made under 1.0.0 is replayed as 1.0.0 played it
(``KingdomsOfCrusaders.older_versions``), so a whole such game verifies offline; its state
says the version it plays by."""

from __future__ import annotations

import random

from domain.events import GameCreated, SeatInfo
from domain.game import project_game
from domain.randomness import commitment
from replays.record import build_record
from replays.verify import verify
from tests.records import played_to_the_end
from tests.rules.kingdoms_of_crusaders.helpers import KOC, NOW, SEED


def test_the_version_is_1_2_0_and_it_replays_1_1_0_and_1_0_0():
    """1.2.0 (issue 30): a void shuffles the deck again; 1.1.0 and 1.0.0 records replay as they were."""
    assert (KOC.version, KOC.older_versions) == ("1.2.0", ("1.1.0", "1.0.0"))
    assert KOC.voids_keep_order == ("1.1.0", "1.0.0")
    assert [KOC.at_version(v).version for v in ("1.1.0", "1.0.0")] == ["1.1.0", "1.0.0"]


def test_a_whole_1_0_0_points_game_verifies():
    created = GameCreated(rules=KOC.id, rules_version="1.0.0", scenario="standard",
                          data_hash=KOC.at_version("1.0.0").data_hash("standard"), options={"points": True},
                          seats={s: SeatInfo(player=s) for s in ("p1", "p2", "p3")}, seed_commitment=commitment(SEED))
    records = played_to_the_end(created, random.Random(5), SEED, NOW, game_id=21)
    assert project_game(None, records[:1]).state.version == "1.0.0"
    verdict = verify(build_record(records, public_seed=SEED.hex()))
    assert verdict.ok, verdict.problems
