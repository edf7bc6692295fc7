"""Full-length games for tests and benchmarks (issue 24): a Saxon Shore game played to its
§1 victory by a client that takes every decision from the listed commands, through the real
aggregate path (``take_decision``, ``project_game``, the seeded rng), exported as a portable
record with its seed revealed. Deterministic: the same arguments give the same record, byte
for byte."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from uuid import UUID

import msgspec

from domain.events import GameCreated, SeatInfo
from domain.game import Recorded, create_game, project_game, take_decision
from domain.randomness import commitment
from domain.rng import SeededRng
from domain.rules.registry import RULE_SYSTEMS
from replays.record import build_record
from replays.record_format import encode_record
from tests.rules.saxon_shore.bots import Patient

SEED = bytes(range(32))
START = datetime(2026, 11, 29, 9, 0, tzinfo=timezone.utc)
# (players, client seed) of games that end by a §1 victory, and their lengths in events
# at least as long as the game issue 24 reports (48,295 events): seed 23 was (14,334 decisions,
# 49,028 events) until Saxon Shore 2.1.0's §9.2 (issue 26) shortened it to 44,877 events
SAXON_FULL = (2, 10)  # 22,501 decisions, 77,448 events under 2.1.0 and 2.2.0
SAXON_LONGER = (2, 10)  # 22,501 decisions, 77,448 events


def saxon_shore_events(players: int, seed: int, max_events: int | None = None,
                       max_decisions: int = 100_000) -> list[Recorded]:
    """The events of a Saxon Shore game of ``players`` played from the listed commands by a
    seeded client (``Patient``: any listed command, ``done`` half the time it is listed), to
    its end or to the first decision that takes it past ``max_events``. Each decision is
    recorded 1.7 s after the one before, as at a table."""
    rules = RULE_SYSTEMS["saxon-shore"]
    created = GameCreated(rules=rules.id, rules_version=rules.version, scenario="standard",
                          data_hash=rules.data_hash("standard"),
                          seats={f"p{i}": SeatInfo(player=f"Player {i}") for i in range(1, players + 1)},
                          seed_commitment=commitment(SEED))
    game_id = UUID(int=seed + 1)
    events = create_game(game_id, created, START)
    game = project_game(None, events)
    rnd = Patient(seed)
    for n in range(max_decisions):
        if game.ended or (max_events is not None and len(events) >= max_events):
            break
        seat = game.to_act()[0]
        commands = [msgspec.to_builtins(c) for c in rules.legal_commands(game.state, seat)]
        result = take_decision(game, seat, rnd.choice(commands), SeededRng(SEED, game_id, "", game.next_draw),
                               START + timedelta(milliseconds=1700 * (n + 1)), SEED)
        new = result.events if hasattr(result, "events") else result
        game = result.game if hasattr(result, "game") else project_game(game, new)
        events += new
    return events


def saxon_shore_record(players: int, seed: int, max_events: int | None = None) -> bytes:
    """That game's portable record (herald-record/2), its seed revealed."""
    return encode_record(build_record(saxon_shore_events(players, seed, max_events), SEED.hex()))
