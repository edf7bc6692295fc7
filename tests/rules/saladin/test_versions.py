"""RULES_NOTES.md, Versions: a record made under Saladin 1.0.0 is named by the verifier as made
under an older version, not replayed under rules it was not played by."""

from __future__ import annotations

from uuid import UUID

from domain.events import GameCreated, SeatInfo
from domain.game import create_game
from replays.record import build_record
from replays.verify import verify
from tests.rules.saladin.helpers import NOW, SALADIN, SEATS


def test_a_version_one_record_is_named_as_made_under_an_older_version():
    created = GameCreated(rules="saladin", rules_version="1.0.0", scenario="arsuf",
                          data_hash=SALADIN.data_hash("arsuf"),
                          seats={s: SeatInfo(player=s) for s in SEATS}, seed_commitment="0" * 64)
    record = build_record(create_game(UUID(int=7), created, NOW))
    verdict = verify(record)
    assert not verdict.ok
    assert any(p.version == 1 and "recorded under saladin 1.0.0; this server has 2.0.0" in p.what
               for p in verdict.problems), verdict.problems
