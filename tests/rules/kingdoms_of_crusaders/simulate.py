"""Seeded random-legal Kingdoms of Crusaders games through the real aggregate path (the shared
loop, tests/rules/playout.py: the declared invariants after every event), with this game's own
checks as its hooks. Shared by the suite (test_simulation.py) and the bench
(bench/bench_koc_sim.py)."""

from __future__ import annotations

import random

from domain.game import Game
from domain.rules.kingdoms_of_crusaders.data import HAND, SECTOR_CAPACITY, TERRITORIES
from domain.rules.kingdoms_of_crusaders.rules import dominates
from domain.rules.kingdoms_of_crusaders.state import KingdomsOfCrusadersState
from tests.rules.kingdoms_of_crusaders.helpers import KOC, NOW, new_game
from tests.rules.playout import Playout, Step, nobody_else_acts, one_seat, playout


def check_invariants(state: KingdomsOfCrusadersState, order: list[int] | None) -> None:
    """After every event, beyond the declared invariants (every card drawn in one place, the
    unseen counts, at most four per sector): the cards placed or in hand are exactly the cards
    drawn from the top so far; five sectors a seat; markers numbered once each; a territory
    completed by exactly the seats with four cards there."""
    in_hands = [c for h in state.hands.values() for c in h]
    placed = [c for p in state.seats for sector in state.sectors[p] for c in sector]
    if order is not None:
        assert set(in_hands + placed) == {state.deck[i] for i in order[:state.drawn]}
    for p in state.seats:
        assert len(state.sectors[p]) == len(TERRITORIES)
    numbers = [m.number for m in state.markers]
    assert numbers == list(range(1, len(numbers) + 1))
    assert len({m.sector for m in state.markers}) == len(numbers)
    for n in TERRITORIES:
        done = state.completed[n - 1]
        assert sorted(done) == sorted(p for p in state.seats if len(state.sectors[p][n - 1]) == SECTOR_CAPACITY)


def check_settled(state: KingdomsOfCrusadersState) -> None:
    """After a whole decision: hand sizes, and no territory left that should have been won."""
    for p in state.seats:
        expected = HAND + 1 if state.phase == "play" and p == state.current else HAND
        assert len(state.hands[p]) == expected, (p, state.hands[p])
    for n in TERRITORIES:
        if state.winner_of(n) is None:
            assert dominates(state, n) is None, f"territory {n} should have been won"
    if state.phase == "over":
        assert len(state.markers) == len(TERRITORIES)
    else:
        assert len(state.markers) < len(TERRITORIES)


def after_event(step: Step, game: Game) -> None:
    state = game.state
    check_invariants(state, step.rng.order(state.shuffle) if state.shuffle else None)


def play_random(players: int, n: int, options: dict | None = None) -> tuple[Game, list, bytes]:
    """One seeded random-legal game; returns (game, records, seed)."""
    seed = bytes([n % 256, players]) * 16
    played: Playout = playout(KOC, new_game(players, game_id=n + 1, options=options), random.Random(f"koc-{players}-{n}"),
                              decisions=1 + 20 * players, seed=seed, now=NOW, seat=one_seat, before=nobody_else_acts,
                              after_event=after_event, after_decision=lambda _, game: check_settled(game.state))
    game = played.game
    assert len(played.decisions) == 1 + 20 * players or len(game.state.markers) == len(TERRITORIES)
    return game, played.events, seed
