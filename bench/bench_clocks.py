"""What a clock costs a decision (issue 29): decisions/s through ``domain.game.resolve_decision``
(decided, chained, folded), the same game with and without a clock, in the same run.

Two games of two seats each: open-table notes (the cheapest decision there is: a clock adds a
``TimeUsed`` event to a block of one, so this is the worst case) and seeded Saladin play at
Arsuf (a real rule system, dice and several events a decision). Best of ``--repeat`` runs; the
ratio is clocked / unclocked.

    .venv/bin/python bench/bench_clocks.py [--decisions 3000] [--repeat 5]
"""

from __future__ import annotations

import argparse
import random
import time
from datetime import datetime, timedelta, timezone
from uuid import UUID

from domain.creation import first_events, game_created
from domain.events import TimeControl
from domain.game import game_rng, project_game, resolve_decision

CLOCK = TimeControl(kind="fischer", base_seconds=10 ** 6, increment_seconds=5)
START = datetime(2026, 1, 1, tzinfo=timezone.utc)


def notes(clock: TimeControl | None, decisions: int) -> float:
    created, seed = game_created("open-table", None, {"a": "A", "b": "B"}, bytes(32), clock=clock)
    game = project_game(None, first_events(UUID(int=7), created, START))
    began = time.perf_counter()
    for i in range(decisions):
        game = resolve_decision(game, "ab"[i % 2], {"type": "note", "text": "x"}, game_rng(game, seed),
                                START + timedelta(milliseconds=i), seed).game
    return decisions / (time.perf_counter() - began)


def saladin(clock: TimeControl | None, decisions: int) -> float:
    """Random legal Saladin play (seeded), games started again as they end, ``decisions`` in all."""
    pick, done, spent = random.Random(29), 0, 0.0
    while done < decisions:
        created, seed = game_created("saladin", "arsuf", {"crusaders": "A", "ayyubids": "B"}, bytes(32), clock=clock)
        game = project_game(None, first_events(UUID(int=done + 1), created, START))
        while not game.ended and done < decisions:
            seat = game.to_act()[0]
            command = pick.choice(game.rules.legal_commands(game.state, seat))
            began = time.perf_counter()
            game = resolve_decision(game, seat, game.rules.recorded_command(command), game_rng(game, seed),
                                    START + timedelta(milliseconds=done), seed).game
            spent += time.perf_counter() - began
            done += 1
    return decisions / spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=int, default=3000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    for name, play in (("open-table notes", notes), ("saladin at arsuf", saladin)):
        plain = max(play(None, args.decisions) for _ in range(args.repeat))
        timed = max(play(CLOCK, args.decisions) for _ in range(args.repeat))
        print(f"{name:18} no clock {plain:8.0f} decisions/s   fischer clock {timed:8.0f} decisions/s   "
              f"ratio {timed / plain:.2f}")


if __name__ == "__main__":
    main()
