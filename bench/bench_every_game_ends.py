"""Benchmark (issue 24 point 5): seeded random games played only from what ``legal_commands``
lists, in process, through the real aggregate path (``take_decision`` + ``project_game`` with
``SeededRng``), to their end by the rules (no turn limit). Counts the games that end, the games
that get stuck (a seat in ``to_act`` with an empty listing: the version, seat and phase are
printed) and the games still going at the decision cap.

Game ``i`` seats ``2 + i % 4`` players (Saxon Shore; other systems: their scenario's seats),
game id ``UUID(int=i + 1)``, server seed ``bytes(range(32))``; the acting seat is the one in
``to_act``, or a seeded choice among several (a reaction window, a ruling, the open table). Clients: ``patient`` (the default; tests/rules/saxon_shore/bots.Patient(i): a uniform
choice among the listed commands that says ``done`` half the time it is listed: the client of
the lead's reproduction, game 16 = 2 players, seed 16, stuck at version 17264 before the fix) or
``typed`` (tests/rules/listing_client.pick: a command type uniformly, then a command of it).

    .venv/bin/python bench/bench_every_game_ends.py [--rules saxon-shore] [--games 200]
        [--client patient|typed] [--max-decisions 60000] [--scenario ID] [--players N] [--first I]
        [--options '{"turn_limit": 5}']
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from datetime import datetime, timedelta, timezone
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
from tests.rules.listing_client import pick  # noqa: E402
from tests.rules.saxon_shore.bots import Patient  # noqa: E402

NOW = datetime(2026, 11, 29, tzinfo=timezone.utc)
SEED = bytes(range(32))


def seats_of(rules: str, scenario: str, i: int, players: int | None = None) -> list[str]:
    """``2 + i % 4`` seats (or ``players``), as many as the scenario seats."""
    spec = RULE_SYSTEMS[rules].scenarios[scenario]
    n = players or 2 + i % 4
    if rules == "saxon-shore":
        return [f"p{k}" for k in range(1, n + 1)]
    return list(spec.seats[:max(spec.min_players, min(spec.max_players, n))])


def play(rules: str, scenario: str, i: int, client: str, cap: int, players: int | None = None,
         options: dict | None = None) -> tuple[str, int, int, str]:
    """One game: (result, decisions, version, detail); result is ended, stuck, nobody or cap."""
    system = RULE_SYSTEMS[rules]
    seats = seats_of(rules, scenario, i, players)
    created = GameCreated(rules=rules, rules_version=system.version, scenario=scenario,
                          data_hash=system.data_hash(scenario),
                          seats={s: SeatInfo(player=s.title()) for s in seats},
                          seed_commitment=commitment(SEED), options=options or {})
    gid = UUID(int=i + 1)
    game = project_game(None, create_game(gid, created, NOW))
    rnd = Patient(i) if client == "patient" else random.Random(i)
    decisions = 0
    while not game.ended:
        if decisions >= cap:
            return "cap", decisions, game.version, ""
        to_act = game.to_act()
        if not to_act:
            return "nobody", decisions, game.version, getattr(game.state, "phase", "")
        seat = to_act[0] if len(to_act) == 1 else rnd.choice(to_act)
        commands = [msgspec.to_builtins(c) for c in system.legal_commands(game.state, seat)]
        if not commands:
            return "stuck", decisions, game.version, f"{seat} {getattr(game.state, 'phase', '')}"
        command = rnd.choice(commands) if client == "patient" else pick(rnd, commands)[0]
        result = take_decision(game, seat, command, SeededRng(SEED, gid, "", game.next_draw),
                               NOW + timedelta(milliseconds=decisions), SEED)
        game = result.game if hasattr(result, "game") else project_game(game, result)
        decisions += 1
    return "ended", decisions, game.version, game.outcome.reason


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rules", default="saxon-shore", choices=sorted(RULE_SYSTEMS))
    parser.add_argument("--scenario", default=None, help="default: the rule system's first scenario")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--first", type=int, default=0, help="the first game number")
    parser.add_argument("--client", default="patient", choices=("patient", "typed"))
    parser.add_argument("--max-decisions", type=int, default=60_000)
    parser.add_argument("--players", type=int, default=None, help="seats in every game (default 2 + i %% 4)")
    parser.add_argument("--options", default="{}", help="the games' options, JSON (a house rule: turn_limit)")
    args = parser.parse_args()
    scenario = args.scenario or next(iter(RULE_SYSTEMS[args.rules].scenarios))
    options = msgspec.json.decode(args.options)

    start = time.perf_counter()
    tally: dict[str, int] = {}
    reasons: dict[str, int] = {}
    lengths: list[int] = []
    for i in range(args.first, args.first + args.games):
        result, decisions, version, detail = play(args.rules, scenario, i, args.client, args.max_decisions, args.players, options)
        tally[result] = tally.get(result, 0) + 1
        lengths.append(decisions)
        if result == "ended":
            reasons[detail] = reasons.get(detail, 0) + 1
        else:
            print(f"game {i} ({len(seats_of(args.rules, scenario, i, args.players))} seats): {result.upper()} at version "
                  f"{version} after {decisions} decisions {detail}", flush=True)
    seconds = time.perf_counter() - start
    lengths.sort()
    print(f"{args.rules} {scenario}, options {args.options}, client {args.client}, {args.games} games (from {args.first}), cap "
          f"{args.max_decisions} decisions: ended {tally.get('ended', 0)}, stuck {tally.get('stuck', 0)}, "
          f"nobody to act {tally.get('nobody', 0)}, at the cap {tally.get('cap', 0)}")
    print(f"  decisions: min {lengths[0]}, median {lengths[len(lengths) // 2]}, max {lengths[-1]}; "
          f"{seconds:.1f} s ({sum(lengths) / seconds:,.0f} decisions/s)")
    print(f"  ended by: {reasons}")


if __name__ == "__main__":
    main()
