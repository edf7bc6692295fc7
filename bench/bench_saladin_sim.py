"""How many random Saladin games per second Herald simulates in-process, per scenario.

Plays seeded random-legal games through the real aggregate path (domain.game.take_decision
with a SeededRng), then, as a baseline measured in the same run, the same number of
open-table decisions (a 1d6 roll each) through take_decision. Prints the figures and the
ratio of Saladin to open-table decisions per second.

    .venv/bin/python bench/bench_saladin_sim.py [games per scenario, default 100]
"""

from __future__ import annotations

import random
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


def new_game(rules: str, scenario: str, seats: tuple[str, ...], n: int):
    system = RULE_SYSTEMS[rules]
    created = GameCreated(rules=rules, rules_version=system.version, scenario=scenario,
                          data_hash=system.data_hash(scenario),
                          seats={s: SeatInfo(player=s) for s in seats}, seed_commitment="0" * 64)
    return project_game(None, create_game(UUID(int=n + 1), created, NOW))


def saladin_games(scenario: str, games: int) -> tuple[int, float, dict]:
    system = RULE_SYSTEMS["saladin"]
    decisions, wins = 0, {}
    start = time.perf_counter()
    for n in range(games):
        r = random.Random(n)
        game = new_game("saladin", scenario, ("crusaders", "ayyubids"), n)
        while game.outcome is None:
            seat = game.to_act()[0]
            command = msgspec.to_builtins(r.choice(system.legal_commands(game.state, seat)))
            rng = SeededRng(SEED, game.id, "", game.next_draw)
            game = project_game(game, take_decision(game, seat, command, rng, NOW, SEED))
            decisions += 1
        wins[game.outcome.winner or "draw"] = wins.get(game.outcome.winner or "draw", 0) + 1
    return decisions, time.perf_counter() - start, wins


def open_table_decisions(count: int) -> float:
    game = new_game("open-table", "table", ("p1",), 0)
    start = time.perf_counter()
    for _ in range(count):
        rng = SeededRng(SEED, game.id, "", game.next_draw)
        game = project_game(game, take_decision(game, "p1", {"type": "roll", "label": "d", "dice": "1d6"},
                                                rng, NOW, SEED))
    return time.perf_counter() - start


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    open_table_decisions(500)  # warm-up
    for scenario in ("arsuf", "hattin"):
        decisions, seconds, wins = saladin_games(scenario, games)
        baseline = open_table_decisions(decisions)
        print(f"saladin/{scenario}: {games} games, {decisions} decisions in {seconds:.2f} s: "
              f"{games / seconds:.1f} games/s, {decisions / seconds:.0f} decisions/s; wins {wins}")
        print(f"  baseline open-table: {decisions} decisions in {baseline:.2f} s: "
              f"{decisions / baseline:.0f} decisions/s")
        print(f"  ratio saladin/open-table decisions per second: {(decisions / seconds) / (decisions / baseline):.2f}")


if __name__ == "__main__":
    main()
