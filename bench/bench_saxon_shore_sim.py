"""Benchmark: Saxon Shore random games simulated per second, in process, through the real
aggregate path (``take_decision`` + ``project_game`` with ``SeededRng``), against a baseline
measured in the same run: the same number of open-table decisions (a note) through
``take_decision``. Prints games/s, decisions/s for both, and the ratio of the per-decision cost.

    .venv/bin/python bench/bench_saxon_shore_sim.py [--games 8] [--players 2,3,4,5] [--turn-limit 20]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from datetime import datetime, timezone
from pathlib import Path
from uuid import UUID

import msgspec

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from domain.events import GameCreated, SeatInfo  # noqa: E402
from domain.game import create_game, project_game, take_decision  # noqa: E402
from domain.randomness import commitment  # noqa: E402
from domain.rng import SeededRng  # noqa: E402
from domain.rules.registry import RULE_SYSTEMS  # noqa: E402

NOW = datetime(2026, 11, 29, tzinfo=timezone.utc)
SEED = bytes(range(32))


def decide(game, seat, command):
    """take_decision, then the game it leaves (the core returns a Decision or the events)."""
    result = take_decision(game, seat, command, SeededRng(SEED, game.id, "", game.next_draw), NOW, SEED)
    if hasattr(result, "events"):
        return result.events, result.game
    return result, project_game(game, result)


def new_game(rules: str, scenario: str, seats: int, options: dict, game_id: UUID):
    system = RULE_SYSTEMS[rules]
    created = GameCreated(rules=rules, rules_version=system.version, scenario=scenario,
                          data_hash=system.data_hash(scenario),
                          seats={f"p{i}": SeatInfo(player=f"P{i}") for i in range(1, seats + 1)},
                          seed_commitment=commitment(SEED), options=options)
    return project_game(None, create_game(game_id, created, NOW))


def saxon_game(players: int, seed: int, turn_limit: int) -> tuple[int, int, str]:
    """One random-legal game to its end: (decisions, events, outcome reason)."""
    rules = RULE_SYSTEMS["saxon-shore"]
    rnd = random.Random(seed)
    game = new_game("saxon-shore", "standard", players, {"turn_limit": turn_limit}, UUID(int=seed + 1))
    decisions = events = 0
    while not game.ended:
        [seat] = game.to_act()
        commands = rules.legal_commands(game.state, seat)
        undone = [c for c in commands if msgspec.to_builtins(c)["type"] != "done"]
        command = rnd.choice(undone) if undone and rnd.random() < 0.8 else rnd.choice(commands)
        recorded, game = decide(game, seat, msgspec.to_builtins(command))
        decisions += 1
        events += len(recorded)
    return decisions, events, game.outcome.reason


def open_table(decisions: int) -> None:
    game = new_game("open-table", "table", 2, {}, UUID(int=999))
    for i in range(decisions):
        seat = "p1" if i % 2 == 0 else "p2"
        _, game = decide(game, seat, {"type": "note", "text": f"n{i}"})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=8, help="games per player count")
    parser.add_argument("--players", default="2,3,4,5")
    parser.add_argument("--turn-limit", type=int, default=20)
    args = parser.parse_args()
    counts = [int(p) for p in args.players.split(",")]

    start = time.perf_counter()
    total_decisions = total_events = games = 0
    reasons: dict[str, int] = {}
    for players in counts:
        for seed in range(args.games):
            d, e, reason = saxon_game(players, seed * 7 + players, args.turn_limit)
            total_decisions += d
            total_events += e
            games += 1
            key = "turn limit" if reason.startswith("turn limit") else reason
            reasons[key] = reasons.get(key, 0) + 1
    saxon_seconds = time.perf_counter() - start

    start = time.perf_counter()
    open_table(total_decisions)
    base_seconds = time.perf_counter() - start

    saxon_rate = total_decisions / saxon_seconds
    base_rate = total_decisions / base_seconds
    print(f"Saxon Shore: {games} random games ({args.players} players, turn limit {args.turn_limit}) "
          f"in {saxon_seconds:.2f} s = {games / saxon_seconds:.2f} games/s")
    print(f"  {total_decisions} decisions ({saxon_rate:,.0f}/s), {total_events} events "
          f"({total_events / saxon_seconds:,.0f}/s); outcomes {reasons}")
    print(f"baseline: {total_decisions} open-table notes through take_decision in {base_seconds:.2f} s "
          f"= {base_rate:,.0f} decisions/s")
    print(f"ratio: a Saxon Shore decision (with its legal-command listing and automatic steps) costs "
          f"{base_rate / saxon_rate:.1f}x an open-table decision")


if __name__ == "__main__":
    main()
