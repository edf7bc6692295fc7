"""Legal-command counts from fixed positions (perft-style, STYLE.md): a silent change in what
is legal (card data, activation, reaction or initiative rules) changes these numbers.
If a change is intended, update the numbers and say why in the commit."""

from __future__ import annotations

import random

import pytest

from tests.rules.saladin.helpers import legal, new_game, play_seeded

OPENING = {
    # (seize step, choose-first step, first activation) counts
    "arsuf": (2, 2, 24),
    "hattin": (0, 2, 22),
}
SEQUENCE = {
    "arsuf": [
        2, 2, 18, 24, 15, 21, 10, 19, 9, 17, 8, 17, 7, 15, 5, 13, 5, 13, 13, 13, 13, 12, 2, 1, 11, 1,
        2, 2, 24, 20, 22, 17, 18, 12, 18, 10, 18, 9, 11, 8, 3, 8, 8, 2, 2, 3, 1, 1, 1, 1, 2, 2, 21, 19,
        19, 14, 17, 13, 13, 8,
    ],
    "hattin": [
        2, 22, 21, 19, 20, 15, 18, 10, 18, 8, 18, 5, 16, 2, 14, 2, 11, 11, 11, 11, 9, 9, 9, 6, 1, 1, 2,
        21, 23, 19, 21, 18, 17, 16, 12, 13, 11, 9, 7, 2, 5, 1, 4, 2, 1, 1, 2, 14, 11, 9, 9, 5, 7, 3, 6,
        2, 3, 1, 3, 3,
    ],
}
STEPS = 60


def opening(scenario: str) -> tuple[int, int, int]:
    g = new_game(scenario)
    seize = 0
    if g.state.phase == "seize":
        seize = len(legal(g, g.state.active))
        g = play_seeded(g, g.state.active, {"type": "decline-seize"})
    choose = len(legal(g, g.state.active))
    g = play_seeded(g, g.state.active, {"type": "choose-first", "seat": g.state.active})
    return seize, choose, len(legal(g, g.state.active))


@pytest.mark.parametrize("scenario", ["arsuf", "hattin"])
def test_opening_counts(scenario):
    """Sequence of Play — Initiative and Activation: the commands open at the start."""
    assert opening(scenario) == OPENING[scenario]


def counts(scenario: str) -> list[int]:
    r = random.Random(f"perft-{scenario}")
    g = new_game(scenario, game_id=99)
    out = []
    for _ in range(STEPS):
        if g.outcome is not None:
            break
        options = legal(g, g.state.active)
        out.append(len(options))
        g = play_seeded(g, g.state.active, r.choice(options))
    return out


@pytest.mark.parametrize("scenario", ["arsuf", "hattin"])
def test_counts_along_a_seeded_game(scenario):
    """Every step of a seeded game: the number of legal commands."""
    assert counts(scenario) == SEQUENCE[scenario]
