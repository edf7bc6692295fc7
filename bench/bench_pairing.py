"""Benchmark of Swiss pairing, every figure measured in one run on one machine.

(a) baseline: a naive pairing of the same field — sort by points and seed, pair neighbours,
    skip rematches greedily (no side balance, no optimality); what pairing costs at least
(b) Herald's pair_swiss for 1,000 players, round 1 (one score group of 1,000)
(c) Herald's pair_swiss for 1,000 players, round 6 (after five simulated rounds: score
    groups, 5,000 earlier meetings, side histories, byes)
(d) one exact matching of a 48-player field (the largest paired in one piece)
(e) the whole domain path for the same round of a 1,000-player tournament built from events:
    plan_round (standings, entrants, pairing) and standings + crosstable

Each figure is the best and the median of ``--repeat`` runs; the target for (b) and (c) is
"under a few seconds". Prints a table and a JSON line.

    .venv/bin/python bench/bench_pairing.py [--players 1000] [--rounds 6] [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

import msgspec

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from datetime import datetime, timezone  # noqa: E402
from uuid import UUID  # noqa: E402

from domain.events import Outcome  # noqa: E402
from domain.tournaments.events import TournamentCreated  # noqa: E402
from domain.tournaments.model import (  # noqa: E402
    Tournament,
    decide_create,
    decide_register,
    decide_result,
    plan_round,
    project_tournament,
    record_round,
)
from domain.tournaments.pairing import Entrant, pair_swiss  # noqa: E402
from domain.tournaments.standings import crosstable, standings  # noqa: E402

NOW = datetime(2026, 1, 1, tzinfo=timezone.utc)


def tournament(players: int, rounds: int, rng: random.Random) -> Tournament:
    """A Swiss tournament of ``players`` built from events, ``rounds`` rounds played."""
    created = TournamentCreated(name="bench", rules="open-table", scenarios=["table"], format="swiss",
                                rounds=rounds + 1)
    t = project_tournament(None, decide_create(UUID(int=1), created, NOW))
    for i in range(players):
        t = project_tournament(t, decide_register(t, f"p{i:05d}", None, NOW))
    for _ in range(rounds):
        plan = plan_round(t)
        games = {x.table: f"r{plan.round}t{x.table}" for x in plan.tables}
        t = project_tournament(t, record_round(t, plan, games, NOW))
        for x in plan.tables:
            outcome = rng.choice((Outcome(winner="p1"), Outcome(winner="p2"), Outcome(draw=True)))
            t = project_tournament(t, decide_result(t, games[x.table], outcome, 2, "h" * 64, NOW))
    return t


def naive(ranked: list[Entrant]) -> list[tuple[str, str]]:
    left = list(ranked)
    pairs = []
    while len(left) > 1:
        a = left.pop(0)
        k = next((i for i, b in enumerate(left) if b.name not in a.opponents), 0)
        pairs.append((a.name, left.pop(k).name))
    return pairs


def play(players: dict[str, Entrant], rounds: int, rng: random.Random) -> dict[str, Entrant]:
    """Pair and play ``rounds`` rounds with random results (pairing by pair_swiss)."""
    for _ in range(rounds):
        pairing = pair_swiss(ranked(players))
        if pairing.bye:
            e = players[pairing.bye]
            players[pairing.bye] = msgspec.structs.replace(e, points=e.points + 1, byes=e.byes + 1)
        for a, b in pairing.pairs:
            result = rng.choice((1.0, 0.5, 0.0))
            for me, other, side, score in ((a, b, 0, result), (b, a, 1, 1 - result)):
                e = players[me]
                players[me] = msgspec.structs.replace(e, points=e.points + score, opponents=e.opponents | {other},
                                                      sides=e.sides + (side,))
    return players


def ranked(players: dict[str, Entrant]) -> list[Entrant]:
    return sorted(players.values(), key=lambda e: (-e.points, e.seed))


def timed(fn, repeat: int) -> dict[str, float]:
    runs = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        runs.append(time.perf_counter() - start)
    return {"best_s": round(min(runs), 4), "median_s": round(statistics.median(runs), 4)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=6, help="the round to pair in (c)")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    rng = random.Random("bench")
    fresh = {f"p{i:05d}": Entrant(f"p{i:05d}", seed=i + 1) for i in range(args.players)}
    first = ranked(fresh)
    later = ranked(play(dict(fresh), args.rounds - 1, rng))
    small = later[:48]

    built = tournament(args.players, args.rounds - 1, random.Random("bench-domain"))
    figures = {
        "a_naive_round1": timed(lambda: naive(first), args.repeat),
        "a_naive_later": timed(lambda: naive(later), args.repeat),
        "b_pair_swiss_round1": timed(lambda: pair_swiss(first), args.repeat),
        f"c_pair_swiss_round{args.rounds}": timed(lambda: pair_swiss(later), args.repeat),
        "d_exact_48": timed(lambda: pair_swiss(small), args.repeat),
        f"e_plan_round{args.rounds}": timed(lambda: plan_round(built), args.repeat),
        "e_standings_crosstable": timed(lambda: crosstable(built, standings(built)), args.repeat),
    }
    pairing = pair_swiss(later)
    balanced = all(abs(e.balance) <= 1 for e in later)
    print(f"Swiss pairing, {args.players} players ({args.repeat} runs each)")
    for name, f in figures.items():
        print(f"  {name:<24} best {f['best_s']:8.4f} s   median {f['median_s']:8.4f} s")
    print(f"  round {args.rounds}: {len(pairing.pairs)} tables, bye {pairing.bye}, "
          f"sides within one before it: {balanced}")
    print(json.dumps({"players": args.players, "round": args.rounds, **figures}))


if __name__ == "__main__":
    main()
