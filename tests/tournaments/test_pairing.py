"""The pure pairing functions: Berger tables, the seeded bracket, table sizes, and Swiss
pairing under its hard rules over many simulated rounds, small fields and large ones."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import msgspec
import pytest

from domain.tournaments.pairing import (
    Entrant,
    PairingImpossible,
    assign_seats,
    berger_round,
    bracket_order,
    knockout_slots,
    pair_swiss,
    round_robin_rounds,
    table_sizes,
)


def test_berger_tables_match_the_published_table_for_six():
    assert [berger_round(6, r) for r in range(1, 6)] == [
        [(1, 6), (2, 5), (3, 4)],
        [(6, 4), (5, 3), (1, 2)],
        [(2, 6), (3, 1), (4, 5)],
        [(6, 5), (1, 4), (2, 3)],
        [(3, 6), (4, 2), (5, 1)],
    ]


@pytest.mark.parametrize("count", range(2, 15))
def test_berger_everyone_meets_everyone_once_sides_within_one(count):
    n = count + count % 2
    met: Counter[frozenset[int]] = Counter()
    first: Counter[int] = Counter()
    second: Counter[int] = Counter()
    for r in range(1, round_robin_rounds(count) + 1):
        pairs = berger_round(count, r)
        assert sorted(p for pair in pairs for p in pair) == list(range(1, n + 1))
        for a, b in pairs:
            met[frozenset((a, b))] += 1
            first[a] += 1
            second[b] += 1
    assert set(met) == {frozenset(p) for p in combinations(range(1, n + 1), 2)} and set(met.values()) == {1}
    for seed in range(1, count + 1):
        if count % 2 == 0:
            assert abs(first[seed] - second[seed]) <= 1
        else:  # the resting round counts for neither side
            dummy = n
            played_first = first[seed] - sum(1 for r in range(1, n) if (seed, dummy) in berger_round(count, r))
            played_second = second[seed] - sum(1 for r in range(1, n) if (dummy, seed) in berger_round(count, r))
            assert abs(played_first - played_second) <= 1


def test_seeded_bracket_keeps_the_top_seeds_apart():
    assert bracket_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    order = bracket_order(16)
    assert order[:8].count(1) == 1 and 2 in order[8:]  # 1 and 2 in different halves
    for quarter in range(4):  # each quarter holds one of the top four seeds
        assert len({1, 2, 3, 4} & set(order[quarter * 4:(quarter + 1) * 4])) == 1
    for i in range(0, 16, 2):
        assert order[i] + order[i + 1] == 17
    assert knockout_slots(["a", "b", "c"]) == ["a", None, "b", "c"]


def test_table_sizes():
    assert table_sizes(10, 4, 3, 4) == [4, 3, 3]
    assert table_sizes(12, 4, 3, 4) == [4, 4, 4]
    assert table_sizes(7, 5, 2, 5) == [4, 3]
    assert table_sizes(5, 4, 3, 4) == []  # needs a bye
    assert table_sizes(2, 4, 2, 5) == [2]


def test_seats_go_to_whoever_had_them_least():
    seats = ("p1", "p2", "p3")
    used = {"a": {"p1": 2}, "b": {"p2": 2}, "c": {"p3": 2}}
    got = assign_seats(["a", "b", "c"], seats, used)
    assert sorted(got) == list(seats) and all(used[player].get(seat, 0) == 0 for seat, player in got.items())


def simulate_swiss(count: int, rounds: int, seed: str, **options) -> list[Entrant]:
    """Pure Swiss rounds with random results; asserts the hard rules after every round."""
    rng = random.Random(seed)
    players = {f"x{i:04d}": Entrant(f"x{i:04d}", seed=i + 1) for i in range(count)}
    for _ in range(rounds):
        ranked = sorted(players.values(), key=lambda e: (-e.points, e.seed))
        pairing = pair_swiss(ranked, **options)
        assert pairing == pair_swiss(ranked, **options), "pairing must be deterministic"
        seen = [p for pair in pairing.pairs for p in pair] + ([pairing.bye] if pairing.bye else [])
        assert sorted(seen) == sorted(players), "everyone paired exactly once"
        assert (pairing.bye is not None) == (count % 2 == 1)
        if pairing.bye:
            bye = players[pairing.bye]
            assert bye.byes == 0, "a second bye"
            players[pairing.bye] = msgspec.structs.replace(bye, points=bye.points + 1, byes=1)
        for a, b in pairing.pairs:
            assert b not in players[a].opponents, "a rematch"
            result = rng.choice((1.0, 0.5, 0.0))
            for me, other, side, score in ((a, b, 0, result), (b, a, 1, 1 - result)):
                e = players[me]
                players[me] = msgspec.structs.replace(e, points=e.points + score, opponents=e.opponents | {other},
                                                      sides=e.sides + (side,))
    return list(players.values())


@pytest.mark.parametrize("count,rounds", [(9, 5), (10, 7), (16, 6), (25, 8)])
def test_swiss_no_rematch_no_second_bye_sides_within_one(count, rounds):
    for e in simulate_swiss(count, rounds, f"swiss-{count}"):
        assert abs(e.balance) <= 1, (e.name, e.sides)


def test_swiss_score_groups_pair_together_when_they_can():
    ranked = [Entrant(f"w{i}", points=1.0, seed=i) for i in range(4)] + \
             [Entrant(f"l{i}", points=0.0, seed=i + 4) for i in range(4)]
    pairing = pair_swiss(ranked)
    for a, b in pairing.pairs:
        assert a[0] == b[0], pairing.pairs
    # The Dutch order inside a score group: top half meets bottom half.
    assert {frozenset(p) for p in pairing.pairs} >= {frozenset(("w0", "w2")), frozenset(("w1", "w3"))}


def test_swiss_sides_alternate_and_balance():
    ranked = [Entrant("a", points=1, seed=1, opponents=frozenset({"x"}), sides=(0,)),
              Entrant("b", points=1, seed=2, opponents=frozenset({"y"}), sides=(1,))]
    assert pair_swiss(ranked).pairs == [("b", "a")]


def test_swiss_large_fields_in_chunks_keep_the_hard_rules():
    """The chunked path of large fields, exercised small and fast."""
    for e in simulate_swiss(61, 6, "chunks", global_limit=10, chunk=8):
        assert abs(e.balance) <= 1


def test_swiss_refuses_an_impossible_round():
    ranked = [Entrant("a", opponents=frozenset({"b"})), Entrant("b", opponents=frozenset({"a"}))]
    with pytest.raises(PairingImpossible):
        pair_swiss(ranked)
    with pytest.raises(PairingImpossible):
        pair_swiss([Entrant("a", byes=1), Entrant("b", byes=1), Entrant("c", byes=1)])
