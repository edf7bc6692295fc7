"""Seeded random-legal Saline games through the real aggregate path (the shared loop,
tests/rules/playout.py: the declared invariants after every event), with the issue's other
invariants as its hooks. Shared by the suite (test_simulation.py) and the bench
(bench/bench_saline_sim.py)."""

from __future__ import annotations

import random
from collections import Counter

from domain.game import Game
from domain.rules.saline.data import HAND_LIMIT, LIARDS, MAX_OEILLETS, MULON_MAX
from domain.rules.saline.state import SalineState
from tests.rules.playout import Step, any_seat, nobody_else_acts, playout
from tests.rules.saline.helpers import NOW, SALINE, new_game


def check_invariants(state: SalineState) -> None:
    """After every event, beyond the declared invariants (salt cubes conserved, every œillet and
    event card in one place): liards conserved; a mulon holds at most 10; at most 8 œillets; an
    œillet holds at most its capacity; the gabelle and the rain on their tracks."""
    assert all(v >= 0 for v in state.liards.values())
    assert sum(state.liards.values()) <= LIARDS
    assert all(m <= MULON_MAX for m in state.mulons.values()), state.mulons
    assert all(len(s) <= MAX_OEILLETS for s in state.salines.values())
    for s in state.salines.values():
        for o in s.values():
            assert state.salt[o] <= state.cat.capacity[state.colour(o)]
    assert 1 <= state.gabelle <= 6 and 0 <= state.rain < 3


def check_settled(step: Step, game: Game) -> None:
    """After a whole decision: every hand at most 2 but for the discards still owed; one objective
    claimed a turn at most."""
    state = game.state
    for seat, hand in state.hands.items():
        assert len(hand) - state.discarding.count(seat) <= HAND_LIMIT, state.hands
    claims = Counter(e.typed().seat for e in step.events if e.type == "saline.ObjectiveClaimed")
    assert all(n == 1 for n in claims.values()), "two objectives claimed in one turn"


def prefer_actions(step: Step) -> dict:
    """Actions over cards, so games move on as people play them."""
    r = step.rnd
    plays = [o for o in step.listed if o["type"] == "play"]
    rest = [o for o in step.listed if o["type"] != "play"]
    return r.choice(plays) if plays and (not rest or r.random() < 0.25) else r.choice(rest)


def play_random(players: int, n: int, options: dict | None = None) -> tuple[Game, list, bytes]:
    """One seeded random-legal game; returns (game, records, seed)."""
    seed = bytes([n % 256, players]) * 16
    played = playout(SALINE, new_game(players, game_id=n + 1, options=options), random.Random(f"saline-{players}-{n}"),
                     decisions=4999, seed=seed, now=NOW, seat=any_seat, pick=prefer_actions, before=nobody_else_acts,
                     after_event=lambda _, game: check_invariants(game.state), after_decision=check_settled)
    return played.game, played.events, seed
