"""Issue 11, point 4: verifying a record costs work linear in its length. A deck shuffled
once and drawn one card per command used to recompute the whole deck order (size - 1 HMACs)
for every card; it is now computed once per shuffle. Counted in HMAC draws, not timed (the
time is bench/bench_verify.py's)."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from uuid import UUID

import pytest

import domain.randomness as randomness
from domain.events import GameCreated, SeatInfo
from domain.game import apply, create_game, game_rng, take_decision
from domain.randomness import commitment
from domain.rules.registry import RULE_SYSTEMS
from replays.record import build_record
from replays.record_format import decode_record, encode_record
from replays.verify import verify

SEED = bytes(range(32))
START = datetime(2026, 1, 1, tzinfo=timezone.utc)


def deck_record(cards: int) -> bytes:
    """An open-table game: a ``cards``-card deck shuffled once, then drawn one card per command."""
    rules = RULE_SYSTEMS["open-table"]
    created = GameCreated(rules=rules.id, rules_version=rules.version, scenario="table",
                          data_hash=rules.data_hash("table"), seats={"p1": SeatInfo("solo")},
                          seed_commitment=commitment(SEED), options={"decks": {"long": [f"c{i}" for i in range(cards)]}})
    game_id = UUID(int=7)
    events = create_game(game_id, created, START)
    game = apply(None, events[0])
    commands = [{"type": "shuffle", "deck": "long"}] + [{"type": "draw", "deck": "long", "count": 1}] * cards
    for i, command in enumerate([*commands, {"type": "end", "outcome": {"winner": "p1"}}]):
        new = take_decision(game, "p1", command, game_rng(game, SEED), START + timedelta(seconds=i), SEED)
        for event in new:
            game = apply(game, event)
        events += new
    return encode_record(build_record(events))


def test_verifying_a_long_deck_drawn_card_by_card_draws_each_shuffle_value_once(monkeypatch):
    cards = 150
    raw = deck_record(cards)
    randomness.shuffle_order.cache_clear()
    calls = 0
    real = randomness.uniform

    def counted(*args):
        nonlocal calls
        calls += 1
        return real(*args)

    monkeypatch.setattr(randomness, "uniform", counted)
    verdict = verify(decode_record(raw))
    assert verdict.ok, verdict.problems
    assert calls <= 2 * cards  # the shuffle's 149 draws, each once (not 149 per card: 22,350)


@pytest.mark.parametrize("cards", [1, 2, 30])
def test_a_deck_drawn_to_the_end_verifies_and_deals_every_card_once(cards):
    record = decode_record(deck_record(cards))
    assert verify(record).ok
    drawn = [c for e in record.events if e.type == "open-table.CardsDrawn" for c in e.data["cards"]]
    assert sorted(drawn) == sorted(f"c{i}" for i in range(cards))
