"""Rollouts per second per rule system (issue 19), and a whole Arsuf game analysed.

1. Rollouts: random-legal games from each scenario's opening through the analysis path
   (``analysis.rollout.play_out``: legal commands, ``RuleSystem.play``, a seeded
   ``random.Random`` for the dice), one process: games/s and decisions/s. Saxon Shore games
   are cut at the rollout cap (analysis/rollout.py ``CAP``) and counted as unfinished.
2. Baselines in the same run: the same Saladin games through the aggregate path
   (``domain.game.take_decision`` with the HMAC-seeded rng, as bench_saladin_sim.py plays
   them: today's "decisions/s in process"), and with ``--before REV`` the Saladin engine as
   it stood at git revision REV (its domain/ extracted to a temporary folder, played by the
   same rollout loop in a subprocess).
3. ``--arsuf N``: one seeded random Arsuf game analysed with N rollouts per decision by the
   worker pool (``--workers``, default 2), wall time, with the load average before and after
   and the ratio of the pool's rollouts/s to one process's measured in step 1.

    .venv/bin/python bench/bench_rollouts.py [--games 200] [--before REV] [--arsuf 200] [--workers 2]
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path
from uuid import UUID

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import msgspec  # noqa: E402

from analysis import engine  # noqa: E402
from analysis.pool import Analyst  # noqa: E402
from analysis.rollout import DRAW, UNFINISHED, play_out, policy_for  # noqa: E402
from domain.events import GameCreated, SeatInfo  # noqa: E402
from domain.game import create_game, project_game, take_decision  # noqa: E402
from domain.rng import SeededRng  # noqa: E402
from domain.rules.registry import RULE_SYSTEMS  # noqa: E402

NOW = datetime(2026, 1, 1, tzinfo=timezone.utc)
SEED = bytes(range(32))
SYSTEMS = [("saladin", "arsuf", ("crusaders", "ayyubids")), ("saladin", "hattin", ("crusaders", "ayyubids")),
           ("kingdoms-of-crusaders", "standard", ("p1", "p2", "p3")), ("saline", None, ("p1", "p2", "p3")),
           ("saxon-shore", None, ("p1", "p2", "p3"))]


def rollouts(rules_id: str, scenario: str | None, seats: tuple[str, ...], games: int, policy: str = "random"):
    rules = RULE_SYSTEMS[rules_id]
    state = rules.setup(scenario or next(iter(rules.scenarios)), seats, {})
    chosen = policy_for(rules, policy)
    count, results = [0], {}
    start = time.process_time()
    for n in range(games):
        result = play_out(rules, state, chosen, random.Random(f"bench|{n}"), 0, count)
        results[result] = results.get(result, 0) + 1
    return count[0], time.process_time() - start, results


def aggregate_path(scenario: str, games: int) -> tuple[int, float]:
    """Today's path: each decision through take_decision (hash chain, HMAC dice), folded."""
    rules = RULE_SYSTEMS["saladin"]
    decisions = 0
    start = time.process_time()
    for n in range(games):
        created = GameCreated(rules="saladin", rules_version=rules.version, scenario=scenario,
                              data_hash=rules.data_hash(scenario), seats={s: SeatInfo(player=s) for s in
                                                                          ("crusaders", "ayyubids")},
                              seed_commitment="0" * 64)
        game = project_game(None, create_game(UUID(int=n + 1), created, NOW))
        r = random.Random(n)
        while game.outcome is None:
            seat = game.to_act()[0]
            command = msgspec.to_builtins(r.choice(rules.legal_commands(game.state, seat)))
            game = project_game(game, take_decision(game, seat, command, SeededRng(SEED, game.id, "", game.next_draw),
                                                    NOW, SEED))
            decisions += 1
    return decisions, time.process_time() - start


ENGINE_LOOP = """
import random, sys, time
sys.path.insert(0, sys.argv[1])
from uuid import UUID
from domain.rules.registry import RULE_SYSTEMS
from domain.rng import SeededRng
S = RULE_SYSTEMS["saladin"]
decisions, start = 0, time.process_time()
for n in range(int(sys.argv[3])):
    r, st = random.Random(n), S.setup(sys.argv[2], ("crusaders", "ayyubids"), {})
    rng = SeededRng(bytes(range(32)), UUID(int=n + 1), "", 0)
    while S.outcome(st) is None:
        seat = S.to_act(st)[0]
        for e in S.decide(st, seat, r.choice(S.legal_commands(st, seat)), rng):
            st = S.evolve(st, e)
        decisions += 1
print(decisions, time.process_time() - start)
"""


def engine_at(root: Path, scenario: str, games: int) -> tuple[int, float]:
    """The Saladin engine under ``root`` (legal, decide, evolve, the HMAC rng), in a subprocess."""
    out = subprocess.run([sys.executable, "-c", ENGINE_LOOP, str(root), scenario, str(games)], check=True,
                         capture_output=True, text=True, cwd=root).stdout.split()
    return int(out[0]), float(out[1])


def before(rev: str, scenario: str, games: int) -> tuple[tuple[int, float], tuple[int, float]]:
    """(the engine at ``rev``, this one), played alternately by the same loop."""
    with tempfile.TemporaryDirectory() as folder:
        archive = subprocess.run(["git", "archive", rev, "domain"], cwd=ROOT, check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", folder], input=archive, check=True)
        old, new = [0, 0.0], [0, 0.0]
        for _ in range(2):  # alternate, so a change in the machine's load touches both
            for acc, root in ((old, Path(folder)), (new, ROOT)):
                d, s = engine_at(root, scenario, games // 2)
                acc[0] += d
                acc[1] += s
        return (old[0], old[1]), (new[0], new[1])


def arsuf(rollouts_per_board: int, workers: int, single_rate: float) -> None:
    rules = RULE_SYSTEMS["saladin"]
    created = GameCreated(rules="saladin", rules_version=rules.version, scenario="arsuf",
                          data_hash=rules.data_hash("arsuf"),
                          seats={s: SeatInfo(player=s) for s in ("crusaders", "ayyubids")}, seed_commitment="0" * 64)
    events = create_game(UUID(int=19), created, NOW)
    game, r = project_game(None, events), random.Random(19)
    while game.outcome is None:
        seat = game.to_act()[0]
        command = msgspec.to_builtins(r.choice(rules.legal_commands(game.state, seat)))
        new = take_decision(game, seat, command, SeededRng(SEED, game.id, "", game.next_draw), NOW, SEED)
        events += new
        game = project_game(game, new)
    boards = engine.positions(events)
    units = engine.game_units(rules, boards, None, "random", rollouts_per_board, str(game.id))
    analyst = Analyst(workers, budget=3600)
    load = os.getloadavg()
    before_cpu = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    result = analyst.run(units, len(boards), lambda t, c: engine.game_analysis(
        rules, boards, t, "random", rollouts_per_board, ("crusaders", "ayyubids"), c))
    wall = time.perf_counter() - start
    analyst.close(wait=True)  # the workers reaped: their CPU time is counted below
    after_cpu = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after_cpu.ru_utime + after_cpu.ru_stime) - (before_cpu.ru_utime + before_cpu.ru_stime)
    total = rollouts_per_board * len(boards)
    print(f"\nwhole Arsuf game (seeded random, {len(boards) - 1} decisions, {len(boards)} boards), "
          f"{rollouts_per_board} rollouts per board, {workers} worker processes: {total} rollouts in {wall:.1f} s "
          f"({total / wall:.0f} rollouts/s); complete {result['complete']}")
    print(f"  load average (1, 5, 15 min) before {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}, "
          f"after {os.getloadavg()[0]:.1f}; cores {os.cpu_count()}")
    print(f"  CPU time of the worker processes {cpu:.1f} s (their start included): {cpu / workers:.1f} s of wall "
          f"time on {workers} free cores; wall / (CPU / workers) = {wall / (cpu / workers):.2f} (the load's toll)")
    print(f"  ratio to one process's rollouts/s from the opening measured above: {total / wall / single_rate:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--before", help="a git revision: its Saladin engine as a baseline")
    parser.add_argument("--arsuf", type=int, default=0, help="rollouts per board for the whole-game analysis")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    print(f"{args.games} random-legal rollouts per rule system from its opening, one process (CPU time)")
    arsuf_rate = 0.0
    for rules_id, scenario, seats in SYSTEMS:
        games = args.games if rules_id != "saxon-shore" else max(2, args.games // 50)
        decisions, seconds, results = rollouts(rules_id, scenario, seats, games)
        name = f"{rules_id}/{scenario or next(iter(RULE_SYSTEMS[rules_id].scenarios))}"
        ended = games - results.get(UNFINISHED, 0)
        print(f"{name:32} {games / seconds:8.1f} games/s {decisions / seconds:9.0f} decisions/s "
              f"({decisions / games:.0f} decisions a game; {ended} of {games} ended, {results.get(DRAW, 0)} drawn)")
        if scenario == "arsuf":
            arsuf_rate = games / seconds
    rd, rs, d, s = 0, 0.0, 0, 0.0
    for _ in range(4):  # alternate, so a change in the machine's load touches both
        x, y, _ = rollouts("saladin", "arsuf", ("crusaders", "ayyubids"), max(5, args.games // 4))
        rd, rs = rd + x, rs + y
        x, y = aggregate_path("arsuf", max(5, args.games // 8))
        d, s = d + x, s + y
    print(f"saladin/arsuf rollouts {rd / rs:.0f} decisions/s, alternating with the same engine through "
          f"take_decision (today's path) {d / s:.0f} decisions/s: ratio {(rd / rs) / (d / s):.2f}")
    if args.before:
        (od, os_), (nd, ns) = before(args.before, "arsuf", max(20, args.games // 2))
        print(f"saladin engine at {args.before}: {od / os_:.0f} decisions/s; this engine, same loop: {nd / ns:.0f} "
              f"decisions/s; ratio {(nd / ns) / (od / os_):.2f}")
    if args.arsuf:
        arsuf(args.arsuf, args.workers, arsuf_rate)


if __name__ == "__main__":
    main()
