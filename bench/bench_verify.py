"""Benchmark of record verification (issue 11, point 4), every figure measured in one run.

(a) baseline: verifying a record of plain dice rolls (one 1d6 per command) with as many
    commands as (b)
(b) verifying an open-table record with a 1,000-card custom deck, shuffled once, then one card
    drawn per command until the deck is empty: the record that took 16.7 s before deck orders
    were cached (target: under 1 s)
(c) verifying a record of as many commands, each followed by a dispute upheld with a ruling that
    voids play from version 2 (each void once refolded the whole game: quadratic)
(d) as many face-up draws from the shuffled standard deck, each voided by a ruling that then
    shuffles the deck again (issue 30: 53 draws a void)

Both records are built through the domain (create_game, take_decision with the seeded rng),
exported by ``build_record`` and verified from their JSON bytes, seed revealed, as
``POST /records/verify`` and ``herald replay verify`` do. Each figure is the best and the median
of ``--repeat`` runs. Prints a table and a JSON line.

    .venv/bin/python bench/bench_verify.py [--cards 1000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path
from uuid import UUID

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from domain.audit import raise_dispute, reshuffle_after_void, rule_dispute  # noqa: E402
from domain.events import GameCreated, SeatInfo  # noqa: E402
from domain.game import apply, chain, create_game, game_rng, project_game, take_decision  # noqa: E402
from domain.randomness import commitment  # noqa: E402
from domain.rules.registry import RULE_SYSTEMS  # noqa: E402
from replays.record import build_record  # noqa: E402
from replays.record_format import decode_record, encode_record  # noqa: E402
from replays.verify import verify  # noqa: E402

SEED = bytes(range(32))
START = datetime(2026, 1, 1, tzinfo=timezone.utc)


def open_table_record(commands: list[dict], options: dict, game_id: UUID) -> bytes:
    """The portable record (JSON bytes, seed revealed) of an open-table game of one seat
    sending ``commands`` in turn, then ending it."""
    rules = RULE_SYSTEMS["open-table"]
    created = GameCreated(rules=rules.id, rules_version=rules.version, scenario="table",
                          data_hash=rules.data_hash("table"), seats={"p1": SeatInfo("bench")},
                          seed_commitment=commitment(SEED), options=options)
    events = create_game(game_id, created, START)
    game = apply(None, events[0])
    for i, command in enumerate([*commands, {"type": "end", "outcome": {"winner": "p1", "reason": "bench"}}]):
        new = take_decision(game, "p1", command, game_rng(game, SEED), START + timedelta(seconds=i + 1), SEED)
        for event in new:
            game = apply(game, event)
        events += new
    return encode_record(build_record(events))


def voids_record(commands: int, game_id: UUID, deck: bool = False) -> bytes:
    """An open-table game of ``commands`` rolls, each followed by a dispute upheld with a
    ruling voiding play from version 2 (umpire's events made through the domain's audit rules).
    With ``deck``: the standard deck shuffled first, then ``commands`` face-up draws of a card,
    each voided from its own version, so each ruling shuffles the deck again (issue 30)."""
    rules = RULE_SYSTEMS["open-table"]
    created = GameCreated(rules=rules.id, rules_version=rules.version, scenario="table",
                          data_hash=rules.data_hash("table"), seats={"p1": SeatInfo("bench")},
                          seed_commitment=commitment(SEED))
    events = create_game(game_id, created, START)
    game = apply(None, events[0])
    if deck:
        events += (new := take_decision(game, "p1", {"type": "shuffle", "deck": "standard-54"}, game_rng(game, SEED),
                                        START, SEED))
        game = project_game(game, new)
    for i in range(commands):
        at = START + timedelta(seconds=i + 1)
        command = ({"type": "draw", "deck": "standard-54", "count": 1} if deck
                   else {"type": "roll", "label": f"roll {i}", "dice": "1d6"})
        new = take_decision(game, "p1", command, game_rng(game, SEED), at, SEED)
        start = new[0].version if deck else 2
        raised = chain(game_id, game.version + len(new) + 1, new[-1].hash,
                       raise_dispute(project_game(game, new), "p1", start, "again"), at)
        game = project_game(game, new + raised)
        events += new + raised
        ruled = chain(game_id, game.version + 1, game.head,
                      rule_dispute(game, raised[0].version, "upheld", "void", "umpire", start, False, None), at)
        game = project_game(game, ruled)
        reshuffled = chain(game_id, game.version + 1, game.head, reshuffle_after_void(game, game_rng(game, SEED)), at)
        game = project_game(game, reshuffled)
        events += ruled + reshuffled
    return encode_record(build_record(events, SEED.hex()))


def timed(raw: bytes, repeat: int) -> list[float]:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        verdict = verify(decode_record(raw))
        times.append(time.perf_counter() - start)
        if not verdict.ok:
            raise SystemExit(f"the bench record does not verify: {verdict.problems[:3]}")
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cards", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    deck = [f"card {i:04d} " + "of the long-named bench deck " * 16 for i in range(args.cards)]  # ~1.8 MB in all
    draws = [{"type": "shuffle", "deck": "bench"}] + [{"type": "draw", "deck": "bench", "count": 1}] * args.cards
    rolls = [{"type": "roll", "label": f"roll {i}", "dice": "1d6"} for i in range(len(draws))]
    built = time.perf_counter()
    baseline = open_table_record(rolls, {}, UUID(int=1))
    cards = open_table_record(draws, {"decks": {"bench": deck}}, UUID(int=2))
    voids = voids_record(len(draws), UUID(int=3))
    reshuffles = voids_record(len(draws), UUID(int=4), deck=True)
    built = time.perf_counter() - built
    rows = [("(a) baseline: dice rolls, one per command", baseline, timed(baseline, args.repeat)),
            (f"(b) {args.cards}-card deck, one card drawn per command", cards, timed(cards, args.repeat)),
            ("(c) each roll voided by an upheld ruling", voids, timed(voids, args.repeat)),
            ("(d) each draw voided, the deck shuffled again", reshuffles, timed(reshuffles, args.repeat))]
    print(f"records built in {built:.2f} s; {len(draws)} commands each")
    print(f"{'record':<48} {'bytes':>10} {'best s':>8} {'median s':>9} {'x (a)':>7}")
    base = min(rows[0][2])
    for name, raw, times in rows:
        print(f"{name:<48} {len(raw):>10,} {min(times):>8.3f} {statistics.median(times):>9.3f} "
              f"{min(times) / base:>7.2f}")
    print(json.dumps({"bench": "verify", "commands": len(draws), "cards": args.cards,
                      "baseline_s": round(base, 4), "deck_s": round(min(rows[1][2]), 4),
                      "deck_bytes": len(cards), "ratio": round(min(rows[1][2]) / base, 2),
                      "voids_s": round(min(rows[2][2]), 4), "voids_ratio": round(min(rows[2][2]) / base, 2),
                      "reshuffles_s": round(min(rows[3][2]), 4), "reshuffles_ratio": round(min(rows[3][2]) / base, 2),
                      "target_deck_s": 1.0}))


if __name__ == "__main__":
    main()
