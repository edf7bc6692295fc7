"""Benchmark: Saxon Shore seeded random games with NO turn limit, in process, through the real
aggregate path (``take_decision`` + ``project_game`` with ``SeededRng``). Every game must end by
a §1 victory. Reports, per player count, game lengths (turns and decisions: min, median, max),
how the games were won, and each seat's win rate (the seat's place in the first game order,
§10), and the speed against a baseline measured in the same run: the same number of open-table
decisions (a note) through ``take_decision``. The players are the tests' expansionist bots
(tests/rules/saxon_shore/bots.py); nothing here is tuned.

    .venv/bin/python bench/bench_saxon_shore_sim.py [--games 25] [--players 2,3,4,5]
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
from tests.rules.saxon_shore.bots import choose_command  # noqa: E402

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


def saxon_game(players: int, seed: int, max_decisions: int = 50_000) -> tuple[int, int, int, str, str]:
    """One random game to its end: (decisions, events, turns, winner, reason)."""
    rules = RULE_SYSTEMS["saxon-shore"]
    rnd = random.Random(seed)
    game = new_game("saxon-shore", "standard", players, {}, UUID(int=seed + 1))
    decisions = events = 0
    used: dict[tuple, int] = {}
    while not game.ended:
        if decisions >= max_decisions:
            raise SystemExit(f"game {seed} ({players} players) did not end in {max_decisions} decisions")
        [seat] = game.to_act()
        commands = [msgspec.to_builtins(c) for c in rules.legal_commands(game.state, seat)]
        recorded, game = decide(game, seat, choose_command(rnd, game.state, seat, commands, True, used))
        decisions += 1
        events += len(recorded)
    return decisions, events, game.state.turn, game.outcome.winner or "draw", game.outcome.reason


def open_table(decisions: int) -> None:
    game = new_game("open-table", "table", 2, {}, UUID(int=999))
    for i in range(decisions):
        seat = "p1" if i % 2 == 0 else "p2"
        _, game = decide(game, seat, {"type": "note", "text": f"n{i}"})


def spread(values: list[int]) -> str:
    ordered = sorted(values)
    return f"min {ordered[0]}, median {ordered[len(ordered) // 2]}, max {ordered[-1]}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=25, help="games per player count")
    parser.add_argument("--players", default="2,3,4,5")
    args = parser.parse_args()
    counts = [int(p) for p in args.players.split(",")]

    start = time.perf_counter()
    total_decisions = total_events = games = 0
    for players in counts:
        turns, lengths, wins, reasons = [], [], {f"p{i}": 0 for i in range(1, players + 1)}, {}
        for seed in range(args.games):
            d, e, t, winner, reason = saxon_game(players, seed * 7 + players)
            total_decisions += d
            total_events += e
            games += 1
            turns.append(t)
            lengths.append(d)
            wins[winner] = wins.get(winner, 0) + 1
            reasons[reason] = reasons.get(reason, 0) + 1
        rates = ", ".join(f"{s} {100 * n / args.games:.0f}%" for s, n in wins.items())
        print(f"{players} players, {args.games} games, no turn limit: turns {spread(turns)}; "
              f"decisions {spread(lengths)}")
        print(f"  won by {reasons}; seat win rates (first game order): {rates}")
    saxon_seconds = time.perf_counter() - start

    start = time.perf_counter()
    open_table(total_decisions)
    base_seconds = time.perf_counter() - start

    saxon_rate = total_decisions / saxon_seconds
    base_rate = total_decisions / base_seconds
    print(f"Saxon Shore: {games} games in {saxon_seconds:.2f} s = {games / saxon_seconds:.2f} games/s; "
          f"{total_decisions} decisions ({saxon_rate:,.0f}/s), {total_events} events")
    print(f"baseline: {total_decisions} open-table notes through take_decision in {base_seconds:.2f} s "
          f"= {base_rate:,.0f} decisions/s")
    print(f"ratio: a Saxon Shore decision (with its legal-command listing and automatic steps) costs "
          f"{base_rate / saxon_rate:.1f}x an open-table decision")


if __name__ == "__main__":
    main()
