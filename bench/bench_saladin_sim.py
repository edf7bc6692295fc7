"""Random Saladin games per scenario: how fast Herald simulates them in-process, and the win
rates and game lengths random-legal play gives with the card data (reported, never tuned:
RULES_NOTES.md, "Random play").

Plays seeded random-legal games through the real aggregate path (domain.game.take_decision
with a SeededRng), then, as a baseline measured in the same run, the same number of
open-table decisions (a 1d6 roll each) through take_decision. Prints wins (share of games),
game lengths (turns and decisions: mean, median, 10th and 90th percentile) and the ratio of
Saladin to open-table decisions per second.

    .venv/bin/python bench/bench_saladin_sim.py [games per scenario, default 2000] [options JSON]
"""

from __future__ import annotations

import json
import random
import statistics
import sys
import time
from datetime import datetime, timezone
from pathlib import Path
from uuid import UUID

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import msgspec  # noqa: E402

from domain.events import GameCreated, SeatInfo  # noqa: E402
from domain.game import create_game, project_game, take_decision  # noqa: E402
from domain.rng import SeededRng  # noqa: E402
from domain.rules.registry import RULE_SYSTEMS  # noqa: E402

NOW = datetime(2026, 1, 1, tzinfo=timezone.utc)
SEED = bytes(range(32))


def new_game(rules: str, scenario: str, seats: tuple[str, ...], n: int, options: dict | None = None):
    system = RULE_SYSTEMS[rules]
    created = GameCreated(rules=rules, rules_version=system.version, scenario=scenario,
                          data_hash=system.data_hash(scenario), options=options or {},
                          seats={s: SeatInfo(player=s) for s in seats}, seed_commitment="0" * 64)
    return project_game(None, create_game(UUID(int=n + 1), created, NOW))


def saladin_games(scenario: str, games: int, options: dict | None = None) -> tuple[int, float, dict, list, list]:
    system = RULE_SYSTEMS["saladin"]
    decisions, wins, turns, lengths = 0, {}, [], []
    start = time.perf_counter()
    for n in range(games):
        r = random.Random(n)
        game = new_game("saladin", scenario, ("crusaders", "ayyubids"), n, options)
        length = 0
        while game.outcome is None:
            seat = game.to_act()[0]
            command = msgspec.to_builtins(r.choice(system.legal_commands(game.state, seat)))
            rng = SeededRng(SEED, game.id, "", game.next_draw)
            game = project_game(game, take_decision(game, seat, command, rng, NOW, SEED))
            length += 1
        decisions += length
        lengths.append(length)
        turns.append(game.state.turn)
        wins[game.outcome.winner or "draw"] = wins.get(game.outcome.winner or "draw", 0) + 1
    return decisions, time.perf_counter() - start, wins, turns, lengths


def spread(values: list[int]) -> str:
    ordered = sorted(values)
    pick = lambda q: ordered[min(len(ordered) - 1, int(q * len(ordered)))]  # noqa: E731
    return f"mean {statistics.mean(ordered):.1f}, median {statistics.median(ordered):g}, p10 {pick(0.1)}, p90 {pick(0.9)}"


def open_table_decisions(count: int) -> float:
    game = new_game("open-table", "table", ("p1",), 0)
    start = time.perf_counter()
    for _ in range(count):
        rng = SeededRng(SEED, game.id, "", game.next_draw)
        game = project_game(game, take_decision(game, "p1", {"type": "roll", "label": "d", "dice": "1d6"},
                                                rng, NOW, SEED))
    return time.perf_counter() - start


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    options = json.loads(sys.argv[2]) if len(sys.argv) > 2 else None
    open_table_decisions(500)  # warm-up
    print(f"saladin {RULE_SYSTEMS['saladin'].version}, options {options or 'default'}")
    for scenario in ("arsuf", "hattin"):
        decisions, seconds, wins, turns, lengths = saladin_games(scenario, games, options)
        baseline = open_table_decisions(decisions)
        shares = ", ".join(f"{side} {wins.get(side, 0)} ({100 * wins.get(side, 0) / games:.1f} %)"
                           for side in ("crusaders", "ayyubids", "draw"))
        print(f"saladin/{scenario}: {games} games, {decisions} decisions in {seconds:.2f} s: "
              f"{games / seconds:.1f} games/s, {decisions / seconds:.0f} decisions/s")
        print(f"  wins: {shares}")
        print(f"  turns per game: {spread(turns)}; decisions per game: {spread(lengths)}")
        print(f"  baseline open-table: {decisions} decisions in {baseline:.2f} s: "
              f"{decisions / baseline:.0f} decisions/s")
        print(f"  ratio saladin/open-table decisions per second: {(decisions / seconds) / (decisions / baseline):.2f}")


if __name__ == "__main__":
    main()
