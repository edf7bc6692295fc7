"""Seeded random-legal Saline games for 2, 3 and 4 players through the real aggregate path, with the
issue's invariants after every event (simulate.py: salt cubes and liards conserved, a mulon at most
10, hands at most 2 after the night draw, at most 8 œillets, one objective claimed per turn).
Many more games are played by bench/bench_saline_sim.py; a bounded number here. Listed commands
accepted and the record decided again byte for byte: tests/rules/conformance.py."""

from __future__ import annotations

from collections import Counter

import pytest

from domain.events import CardsShuffled
from domain.rules.saline.data import END_LIARDS, MAX_OEILLETS
from domain.rules.saline.events import CardPlayed, DrawnEventCards, EventCardDiscarded
from domain.rules.saline.rules import collections
from tests.rules.saline.simulate import play_random

GAMES = {2: 8, 3: 6, 4: 6}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_end_and_score(players):
    """End of Game and Scoring: "The game ends if either of the following conditions is met: A player
    has completed their saline, with 8 œillets around their mulon. A player has 20 liards or more at
    the end of a turn." — every game ends so, scored."""
    winners: Counter = Counter()
    for n in range(GAMES[players]):
        game, _, _ = play_random(players, n)
        state = game.state
        assert any(len(state.salines[p]) >= MAX_OEILLETS or state.liards[p] >= END_LIARDS for p in state.seats)
        outcome = game.outcome
        assert sorted(outcome.ranking) == sorted(state.seats)
        assert outcome.draw or outcome.scores[outcome.winner] == max(outcome.scores.values())
        winners[outcome.winner] += 1
    assert len(winners) >= 2, winners


def test_the_empty_event_deck_is_the_discards_shuffled():
    """RULES_NOTES.md, "The empty event deck" (the book is silent): when a draw finds the event deck
    empty, the discards are shuffled into a new deck and the draw goes on — reached by play."""
    for n in range(6):
        game, records, _ = play_random(3, n)
        typed = [r.typed() for r in records]
        again = [i for i, e in enumerate(typed) if isinstance(e, CardsShuffled) and e.deck == "events"][1:]
        if again:
            break
    else:
        raise AssertionError("no game of these seeds emptied the event deck")
    i = again[0]
    reshuffle = typed[i]
    assert reshuffle.purpose == "the event deck is empty: the discards are shuffled"
    discards = sum(1 for e in typed[:i] if isinstance(e, (CardPlayed, EventCardDiscarded)) and e.card != "favour")
    assert reshuffle.size == discards  # every card played or discarded so far (the first reshuffle)
    after = next(e for e in typed[i:] if isinstance(e, DrawnEventCards))
    assert after.cards  # the draw goes on from the new deck


def test_an_oeillet_in_both_collections_or_one():
    """End of Game and Scoring: "Add up the points from sets of the same colour, sets of different
    colours, …" — RULES_NOTES.md, "Scoring": every œillet in both kinds (default), or, with option
    ``collections: "one"``, each in one only, split as scores best. The same game played under each
    reading: the same play, other points."""
    both, _, _ = play_random(3, 1)
    one, _, _ = play_random(3, 1, options={"collections": "one"})
    assert [e for e in both.state.salines.items()] == [e for e in one.state.salines.items()]
    s = both.state
    differ = 0
    for seat in s.seats:
        colours = [s.colour(o) for o in s.salines[seat].values()]
        b, o = sum(collections(colours)), sum(collections(colours, "one"))
        assert both.outcome.scores[seat] - one.outcome.scores[seat] == b - o
        differ += b != o
    assert differ
    assert collections(["green", "red", "yellow", "blue"], "one") == (0, 12)
    assert collections(["green"] * 4 + ["red", "yellow", "blue"], "one") == (4, 12)  # 3 greens alone, 1 in the set
    assert collections(["green"] * 4 + ["red", "yellow", "blue"]) == (8 + 1 + 1 + 1, 12)  # 23 in both
