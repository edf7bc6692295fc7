"""Legal-command counts from fixed positions (perft-style, STYLE.md): a silent change in what
is legal (card data, activation, reaction or initiative rules) changes these numbers.
If a change is intended, update the numbers and say why in the commit."""

from __future__ import annotations

import random

import pytest

from tests.rules.saladin.helpers import legal, new_game, play_seeded

OPENING = {
    # (seize step, choose-first step, first activation) counts
    "arsuf": (2, 2, 25),
    "hattin": (0, 2, 20),
}
SEQUENCE = {
    "arsuf": [
        2, 2, 16, 25, 15, 22, 14, 20, 14, 18, 2, 13, 16, 11, 14, 11, 12, 11, 12, 10, 12, 10, 7, 10, 1,
        10, 1, 1, 2, 2, 17, 25, 16, 21, 13, 19, 12, 19, 11, 5, 11, 11, 10, 3, 10, 2, 10, 1, 8, 1, 1, 2,
        2, 23, 19, 21, 17, 19, 14, 16,
    ],
    "hattin": [
        2, 20, 22, 19, 20, 18, 18, 18, 17, 18, 17, 2, 17, 15, 17, 15, 13, 11, 13, 1, 13, 1, 13, 13, 12,
        12, 11, 1, 2, 21, 21, 19, 20, 17, 19, 15, 19, 14, 18, 12, 17, 10, 13, 10, 13, 10, 13, 1, 12, 1,
        12, 2, 21, 21, 19, 20, 17, 16, 15, 16,
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
