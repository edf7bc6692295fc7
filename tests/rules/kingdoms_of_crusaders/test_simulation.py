"""Seeded random-legal games for 2, 3 and 4 players (Turn sequence; Armies and domination; End of
a game and a Winner), invariants after every event (simulate.py); 1,000 games per player count
are played by bench/bench_koc_sim.py, a bounded number here. Listed commands accepted, unlisted
ones refused and the record decided again byte for byte: tests/rules/conformance.py."""

from __future__ import annotations

from collections import Counter

import pytest

from tests.rules.kingdoms_of_crusaders.simulate import play_random

GAMES = {2: 60, 3: 40, 4: 30}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_end_with_every_marker_and_a_winner(players):
    """End of a game and a Winner: "A game ends when the last «victory marker» is placed"; every seat
    wins some games."""
    wins: Counter = Counter()
    for n in range(GAMES[players]):
        game, _, _ = play_random(players, n)
        outcome = game.outcome
        assert outcome.winner in game.state.seats and not outcome.draw
        assert sorted(outcome.ranking) == sorted(game.state.seats)
        assert sum(outcome.scores.values()) == 5
        assert outcome.scores[outcome.winner] == max(outcome.scores.values())
        wins[outcome.winner] += 1
    assert len(wins) == players, wins


def test_random_games_points_variant():
    """Winner by the points: 3, 2, 1 points per territory; totals add up."""
    for n in range(20):
        game, _, _ = play_random(3, 1000 + n, options={"points": True})
        assert sum(game.outcome.scores.values()) == 5 * (3 + 2 + 1)
        assert game.outcome.winner == game.outcome.ranking[0]
