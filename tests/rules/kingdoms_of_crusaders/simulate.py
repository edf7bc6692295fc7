"""Seeded random-legal Kingdoms of Crusaders games through the real aggregate path, with the
invariants checked after every event. Shared by the suite (test_simulation.py) and the bench
(bench/bench_koc_sim.py)."""

from __future__ import annotations

import random
from collections import Counter

import msgspec

from domain.game import Game, project_game, take_decision
from domain.rules.kingdoms_of_crusaders.data import HAND, SECTOR_CAPACITY, TERRITORIES
from domain.rules.kingdoms_of_crusaders.rules import dominates
from domain.rules.kingdoms_of_crusaders.state import KingdomsOfCrusadersState
from tests.rules.kingdoms_of_crusaders.helpers import KOC, NOW, FastRng, new_game


def check_invariants(state: KingdomsOfCrusadersState, order: list[int] | None) -> None:
    """After every event: cards conserved across deck, hands and sectors (and exactly the cards
    drawn from the top so far); at most four per sector; markers numbered once each; the unseen
    pool is the deck and the hands."""
    in_hands = [c for h in state.hands.values() for c in h]
    placed = [c for p in state.seats for sector in state.sectors[p] for c in sector]
    assert len(set(in_hands + placed)) == len(in_hands) + len(placed), "a card in two places"
    assert len(state.deck) - state.drawn + len(in_hands) + len(placed) == len(state.deck)
    if order is not None:
        assert set(in_hands + placed) == {state.deck[i] for i in order[:state.drawn]}
    for p in state.seats:
        assert len(state.sectors[p]) == len(TERRITORIES)
        assert all(len(sector) <= SECTOR_CAPACITY for sector in state.sectors[p])
    numbers = [m.number for m in state.markers]
    assert numbers == list(range(1, len(numbers) + 1))
    assert len({m.sector for m in state.markers}) == len(numbers)
    on_table = set(placed)
    unseen = Counter(state.cards[c] for c in state.deck if c not in on_table)
    assert {m: n for m, n in unseen.items() if n} == {m: n for m, n in state.unseen.items() if n}
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


def play_random(players: int, n: int, options: dict | None = None):
    """One seeded random-legal game; returns (game, records)."""
    r = random.Random(f"koc-{players}-{n}")
    game: Game = new_game(players, game_id=n + 1, options=options)
    seed = bytes([n % 256, players]) * 16
    orders: dict = {}
    records = []
    steps = 0
    while game.outcome is None:
        (seat,) = KOC.to_act(game.state)
        options_now = [msgspec.to_builtins(c) for c in KOC.legal_commands(game.state, seat)]
        assert options_now, KOC.render_text(game.state)
        for other in game.state.seats:
            if other != seat:
                assert KOC.legal_commands(game.state, other) == []
        def fresh() -> FastRng:
            rng = FastRng(seed, game.id, "", game.next_draw)
            rng._orders = orders
            return rng

        rng = fresh()
        command = r.choice(options_now)
        new = take_decision(game, seat, command, rng, NOW, seed)
        state = game.state
        for rec in new[1:]:
            state = KOC.evolve(state, rec.typed())
            check_invariants(state, rng.order(state.shuffle) if state.shuffle else None)
        check_settled(state)
        records += new
        game = project_game(game, new)
        steps += 1
        assert steps <= 1 + 20 * players, "a game that never ends"
    assert steps == 1 + 20 * players or len(game.state.markers) == len(TERRITORIES)
    return game, records, seed

