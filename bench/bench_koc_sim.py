"""Seeded random-legal Kingdoms of Crusaders games for 2, 3 and 4 players, with the invariants
checked after every event (tests/rules/kingdoms_of_crusaders/simulate.py): the 1,000 games per
player count the suite does not play. Reports games per second and, as a baseline measured in the
same run, open-table decisions (a 1d6 roll each) per second through the same take_decision path.

    .venv/bin/python bench/bench_koc_sim.py [games per player count, default 1000] [--points]
"""

from __future__ import annotations

import sys
import time
from collections import Counter
from datetime import datetime, timezone
from pathlib import Path
from uuid import UUID

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from domain.events import GameCreated, SeatInfo  # noqa: E402
from domain.game import create_game, project_game, take_decision  # noqa: E402
from domain.rng import SeededRng  # noqa: E402
from domain.rules.registry import RULE_SYSTEMS  # noqa: E402
from tests.rules.kingdoms_of_crusaders.simulate import play_random  # noqa: E402

NOW = datetime(2026, 1, 1, tzinfo=timezone.utc)
SEED = bytes(range(32))


def baseline(decisions: int) -> float:
    """Open-table 1d6 rolls per second through take_decision."""
    rules = RULE_SYSTEMS["open-table"]
    created = GameCreated(rules=rules.id, rules_version=rules.version, scenario="table",
                          data_hash=rules.data_hash("table"), seats={"p1": SeatInfo("p1")}, seed_commitment="0" * 64)
    game = project_game(None, create_game(UUID(int=1), created, NOW))
    start = time.perf_counter()
    for _ in range(decisions):
        rng = SeededRng(SEED, game.id, "", game.next_draw)
        game = project_game(game, take_decision(game, "p1", {"type": "roll", "label": "x", "dice": "1d6"}, rng,
                                                NOW, None))
    return decisions / (time.perf_counter() - start)


def main() -> None:
    games = int(next((a for a in sys.argv[1:] if a.isdigit()), "1000"))
    options = {"points": True} if "--points" in sys.argv else None
    for players in (2, 3, 4):
        wins: Counter = Counter()
        decisions = 0
        start = time.perf_counter()
        for n in range(100_000, 100_000 + games):  # seeds the suite does not play
            game, records, _ = play_random(players, n, options=options)
            wins[game.outcome.winner] += 1
            decisions += sum(1 for r in records if r.type == "DecisionTaken")
        elapsed = time.perf_counter() - start
        base = baseline(min(decisions, 5000))
        rate = decisions / elapsed
        print(f"{players} players: {games} games in {elapsed:.1f} s ({games / elapsed:.1f} games/s, "
              f"{rate:.0f} decisions/s with invariants after every event); open-table baseline "
              f"{base:.0f} decisions/s; ratio {rate / base:.2f}; wins {dict(sorted(wins.items()))}")


if __name__ == "__main__":
    main()
