"""Seeded random-legal Saline games for 2, 3 and 4 players through the real aggregate path, with the
issue's invariants after every event (simulate.py: salt cubes and liards conserved, a mulon at most
10, hands at most 2 after the night draw, at most 8 œillets, one objective claimed per turn).
Many more games are played by bench/bench_saline_sim.py; a bounded number here."""

from __future__ import annotations

from collections import Counter

import pytest

from domain.rules.saline.data import END_LIARDS, MAX_OEILLETS
from tests.rules.saline.simulate import play_random, replay

GAMES = {2: 8, 3: 6, 4: 6}
THOROUGH = 1


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_end_and_score(players):
    """End of Game and Scoring: "The game ends if either of the following conditions is met: A player
    has completed their saline, with 8 œillets around their mulon. A player has 20 liards or more at
    the end of a turn." — every game ends so, scored, and replays byte for byte."""
    winners: Counter = Counter()
    for n in range(GAMES[players]):
        game, records, seed = play_random(players, n, thorough=n < THOROUGH)
        state = game.state
        assert any(len(state.salines[p]) >= MAX_OEILLETS or state.liards[p] >= END_LIARDS for p in state.seats)
        outcome = game.outcome
        assert sorted(outcome.ranking) == sorted(state.seats)
        assert outcome.draw or outcome.scores[outcome.winner] == max(outcome.scores.values())
        winners[outcome.winner] += 1
        if n == 0:
            assert replay(records, players, n, seed).state == state
    assert len(winners) >= 2, winners
