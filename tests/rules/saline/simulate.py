"""Seeded random-legal Saline games through the real aggregate path, with the issue's invariants
checked after every event. Shared by the suite (test_simulation.py) and the bench
(bench/bench_saline_sim.py)."""

from __future__ import annotations

import random

import msgspec

from domain.game import Game, project_game, take_decision
from domain.rules.saline.data import HAND_LIMIT, LIARDS, MAX_OEILLETS, MULON_MAX, SALT_CUBES
from domain.rules.saline.events import ObjectiveClaimed
from domain.rules.saline.state import SalineState
from tests.rules.saline.helpers import NOW, SALINE, FastRng, new_game


def check_invariants(state: SalineState) -> None:
    """After every event: salt cubes and liards conserved; a mulon holds at most 10; at most 8
    œillets; every œillet in one place at most; hands at most 2 once no discard is owed."""
    on_table = sum(state.salt.values()) + sum(state.mulons.values())
    assert on_table + state.salt_reserve == SALT_CUBES, (on_table, state.salt_reserve)
    assert all(v >= 0 for v in state.liards.values())
    assert sum(state.liards.values()) <= LIARDS
    assert all(0 <= m <= MULON_MAX for m in state.mulons.values()), state.mulons
    placed = [o for s in state.salines.values() for o in s.values()]
    assert len(placed) == len(set(placed)) and not set(placed) & {m for m in state.market if m}
    assert all(len(s) <= MAX_OEILLETS for s in state.salines.values())
    for o in placed:
        assert 0 <= state.salt[o] <= state.cat.capacity[state.colour(o)]
    held = [c for h in state.hands.values() for c in h]
    assert len(held) == len(set(held)) and not set(held) & set(state.event_discard)
    assert 1 <= state.gabelle <= 6 and 0 <= state.rain < 3


def check_settled(state: SalineState) -> None:
    """After a whole decision: every hand at most 2 but for the discards still owed."""
    for seat, hand in state.hands.items():
        assert len(hand) - state.discarding.count(seat) <= HAND_LIMIT, state.hands


def play_random(players: int, n: int, options: dict | None = None
                ) -> tuple[Game, list, bytes]:
    """One seeded random-legal game; returns (game, records, seed)."""
    r = random.Random(f"saline-{players}-{n}")
    game: Game = new_game(players, game_id=n + 1, options=options)
    seed = bytes([n % 256, players]) * 16
    orders: dict = {}
    records = []
    steps = 0
    while game.outcome is None:
        acting = SALINE.to_act(game.state)
        seat = r.choice(acting)  # in an out-of-turn window, any of its waiting seats may act first
        listed = SALINE.legal_commands(game.state, seat)
        assert listed, SALINE.render_text(game.state)
        options = [msgspec.to_builtins(c) for c in listed]
        for other in game.state.seats:
            if other not in acting:
                assert SALINE.legal_commands(game.state, other) == []

        def fresh() -> FastRng:
            rng = FastRng(seed, game.id, "", game.next_draw)
            rng._orders = orders
            return rng

        # prefer actions over cards, so games move on as people play them
        plays = [o for o in options if o["type"] == "play"]
        rest = [o for o in options if o["type"] != "play"]
        command = r.choice(plays) if plays and (not rest or r.random() < 0.25) else r.choice(rest)
        new = take_decision(game, seat, command, fresh(), NOW, seed)
        state = game.state
        claims: dict[str, int] = {}
        for rec in new[1:]:
            event = rec.typed()
            state = SALINE.evolve(state, event)
            check_invariants(state)
            if isinstance(event, ObjectiveClaimed):
                claims[event.seat] = claims.get(event.seat, 0) + 1
                assert claims[event.seat] == 1, "two objectives claimed in one turn"
        check_settled(state)
        records += new
        game = project_game(game, new)
        steps += 1
        assert steps < 5000, "a game that never ends"
    return game, records, seed

