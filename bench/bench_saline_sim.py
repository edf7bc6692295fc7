"""Seeded random-legal Saline games for 2, 3 and 4 players, with the issue's invariants checked
after every event (tests/rules/saline/simulate.py): the many games per player count the suite does
not play. Reports games per second and, as a baseline measured in the same run, open-table
decisions (a 1d6 roll each) per second through the same take_decision path.

    .venv/bin/python bench/bench_saline_sim.py [games per player count, default 200]
"""

from __future__ import annotations

import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.bench_koc_sim import baseline  # noqa: E402
from tests.rules.saline.simulate import play_random  # noqa: E402


def main() -> None:
    games = int(next((a for a in sys.argv[1:] if a.isdigit()), "200"))
    for players in (2, 3, 4):
        wins: Counter = Counter()
        decisions = days = 0
        start = time.perf_counter()
        for n in range(100_000, 100_000 + games):  # seeds the suite does not play
            game, records, _ = play_random(players, n)
            wins[game.outcome.winner or "draw"] += 1
            decisions += sum(1 for r in records if r.type == "DecisionTaken")
            days += game.state.day
        elapsed = time.perf_counter() - start
        base = baseline(min(decisions, 5000))
        rate = decisions / elapsed
        print(f"{players} players: {games} games in {elapsed:.1f} s ({games / elapsed:.1f} games/s, "
              f"{days / games:.1f} days a game, {rate:.0f} decisions/s with invariants after every event); "
              f"open-table baseline {base:.0f} decisions/s; ratio {rate / base:.2f}; wins {dict(sorted(wins.items()))}")


if __name__ == "__main__":
    main()
