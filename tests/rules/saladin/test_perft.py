"""Legal-command counts from fixed positions (perft-style, STYLE.md): a silent change in what
is legal (card data, activation, reaction or initiative rules) changes these numbers.
If a change is intended, update the numbers and say why in the commit."""

from __future__ import annotations

import random

import pytest

from tests.rules.saladin.helpers import legal, new_game, play_seeded

OPENING = {
    # (seize step, choose-first step, first activation) counts
    "arsuf": (2, 2, 21),
    "hattin": (0, 2, 22),
}
SEQUENCE = {
    "arsuf": [
        2, 2, 18, 21, 15, 19, 10, 17, 2, 9, 15, 8, 15, 7, 13, 7, 13, 5, 13, 5, 13, 5, 11, 5, 10, 2, 9,
        9, 1, 2, 2, 21, 21, 20, 16, 18, 16, 14, 15, 14, 2, 4, 9, 3, 2, 9, 7, 1, 1, 1, 1, 2, 2, 19, 21,
        18, 15, 15, 12, 14,
    ],
    "hattin": [
        2, 22, 19, 19, 18, 15, 18, 15, 18, 14, 18, 11, 16, 8, 14, 3, 12, 2, 12, 12, 12, 9, 9, 8, 6, 2,
        2, 5, 1, 2, 20, 18, 2, 17, 16, 12, 14, 9, 14, 6, 13, 2, 2, 4, 1, 2, 1, 1, 1, 2, 23, 18, 18, 17,
        16, 13, 10, 10, 10, 7,
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
