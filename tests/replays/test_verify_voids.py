"""Issue 11, point 4: a record of many voided ranges verifies in linear time. The verifier
folds each DecisionsVoided from a snapshot instead of refolding the whole game; these tests
check it leaves exactly the state the domain's full refold leaves, for random voids
(nested, overlapping, reaching back before earlier ones), and that a record of thousands of
voids needs no refold at all, also when each void of play shuffles a deck again (issue 30)."""

from __future__ import annotations

import random
from datetime import datetime, timedelta, timezone
from uuid import UUID

import pytest

import domain.game as game_module
from domain.audit import raise_dispute, reshuffle_after_void, rule_dispute
from domain.events import GameCreated, SeatInfo
from domain.game import apply, chain, create_game, game_rng, project_game, take_decision
from domain.randomness import commitment
from domain.rules.registry import RULE_SYSTEMS
from replays.record import build_record, to_record_event
from replays.record_format import decode_record, encode_record
from replays.verify import _Voids, verify

SEED = bytes(range(32))
START = datetime(2026, 1, 1, tzinfo=timezone.utc)


DECK = {"type": "shuffle", "deck": "court"}


def played(rng: random.Random, plays: int, voids: int, cards: bool = False) -> list:
    """An open-table game of rolls and notes (with ``cards``, also shuffles and face-up draws of a
    12-card deck) with ``voids`` upheld rulings voiding from random versions, each ruling's block
    closed by its reshuffles (issue 30) as the server records them."""
    rules = RULE_SYSTEMS["open-table"]
    created = GameCreated(rules=rules.id, rules_version=rules.version, scenario="table",
                          data_hash=rules.data_hash("table"), seats={"p1": SeatInfo("solo")},
                          seed_commitment=commitment(SEED), options={"decks": {"court": [f"c{i}" for i in range(12)]}})
    game_id = UUID(int=11)
    events = create_game(game_id, created, START)
    game = apply(None, events[0])
    moments = iter(START + timedelta(seconds=i) for i in range(1, 10**6))
    void_at = set(rng.sample(range(plays), voids))
    for turn in range(plays):
        command = rng.choice([{"type": "roll", "label": f"t{turn}", "dice": "2d6"}, {"type": "note", "text": f"n{turn}"},
                              *([DECK, {"type": "draw", "deck": "court", "count": 1}] * cards)])
        if command["type"] == "draw" and (game.state.decks["court"].left == 0 or not game.state.decks["court"].shuffle):
            command = DECK
        new = take_decision(game, "p1", command, game_rng(game, SEED), next(moments), SEED)
        game = project_game(game, new)
        events += new
        if turn in void_at:
            raised = chain(game_id, game.version + 1, game.head, raise_dispute(game, "p1", 1, "again"), next(moments))
            game = project_game(game, raised)
            events += raised
            # with cards, a dispute is about recent play (a void from far back leaves no deck shuffled)
            void_from = rng.randint(max(2, game.version - 15) if cards else 2, game.version - 1)
            ruled = chain(game_id, game.version + 1, game.head,
                          rule_dispute(game, raised[0].version, "upheld", "void", "umpire", void_from, False, None),
                          next(moments))
            game = project_game(game, ruled)
            events += ruled
            reshuffled = chain(game_id, game.version + 1, game.head, reshuffle_after_void(game, game_rng(game, SEED)),
                               next(moments))
            game = project_game(game, reshuffled)
            events += reshuffled
    return events


@pytest.mark.parametrize("trial", range(6))
def test_the_fast_void_fold_leaves_the_state_the_full_refold_leaves(trial):
    """Odd trials shuffle and draw cards too (issue 30: a void then shuffles the deck again)."""
    rng = random.Random(trial)
    events = played(rng, plays=40, voids=12, cards=trial % 2 == 1)
    assert any(e.type == "VoidedCardsReshuffled" for e in events) == (trial % 2 == 1)
    voids = _Voids([to_record_event(e) for e in events])
    fast = voids.keep(apply(None, events[0]))
    full = apply(None, events[0])
    for event in events[1:]:
        fast, full = voids.fold(fast, event), apply(full, event)
        assert fast == full, f"trial {trial}: the states differ after version {event.version}"
    assert verify(decode_record(encode_record(build_record(events, SEED.hex())))).ok


def test_a_record_of_many_voids_verifies_without_a_single_full_refold(monkeypatch):
    events = played(random.Random(99), plays=300, voids=200, cards=True)
    assert sum(e.type == "VoidedCardsReshuffled" for e in events) > 20  # issue 30: voids of play with a deck
    record = decode_record(encode_record(build_record(events, SEED.hex())))
    refolded = []
    real = game_module.refold_state
    monkeypatch.setattr(game_module, "refold_state",
                        lambda created, played, voided: refolded.append(len(played)) or real(created, played, voided))
    verdict = verify(record)
    assert verdict.ok, verdict.problems
    assert refolded == []  # every void folded from a snapshot: nothing refolded


@pytest.mark.parametrize("trial", range(4))
def test_the_refold_leaves_out_exactly_the_voided_versions(trial):
    """The domain's refold looks each event up among merged ranges; the same as asking every range."""
    rng = random.Random(100 + trial)
    events = played(rng, plays=30, voids=0)
    game = project_game(None, events)
    rules = game.rules
    for _ in range(10):
        voided = tuple(sorted((a, a + rng.randint(0, 12)) for a in rng.sample(range(2, len(events) + 1), 4)))
        naive = rules.setup("table", ("p1",), game.created.options)
        for event in events[1:]:
            if not any(a <= event.version < b for a, b in voided):
                naive = rules.evolve(naive, event.typed())
        folded = [(e.version, e.typed()) for e in events[1:]]
        assert game_module.refold_state(game.created, folded, voided) == naive, voided
