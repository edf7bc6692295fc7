"""Benchmark of full-length games (issue 24, points 1 and 3), every figure from one run.

The game: a 2-player Saxon Shore game played from the listed commands to its §1 victory
(tests/long_games.py, SAXON_FULL: 22,501 decisions, 77,448 events, longer than the game the issue
reports; seed 23 gave 49,028 events before Saxon Shore 2.1.0).

First the play's seconds and the fold's: the stored events folded from scratch (the rule
system's evolve, no decide; issue 31), in µs an event and against the play of the same run.

(a) the record's size: format 1 (every event with its version and hash links, as exported
    before herald-record/2) against format 2, plain and gzipped, in bytes a decision
    (goal: format 2 at most 400);
(b) verifying the record (decode, chain, seed, every draw, full replay) and its peak memory, at
    1,000, 10,000 and the whole game's events (prefixes of it), each in a fresh process, in
    both formats: seconds, microseconds an event (linear: the same at every length), and the
    process's peak resident memory above an idle interpreter's (goal: the whole game in under
    5 s);
(c) the viewer: opening the record (verify, checkpoints, outline) and the board at random
    versions, p50 / p99.

    .venv/bin/python bench/bench_long_games.py [--seed 10] [--steps 400]
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import msgspec

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from api.collector import settled  # noqa: E402
from domain.game import project_game  # noqa: E402
from replays.opened import OpenedRecord  # noqa: E402
from replays.record import build_record  # noqa: E402
from replays.record_format import decode_record, encode_record  # noqa: E402
from tests.long_games import SEED, saxon_shore_events  # noqa: E402

MEASURE = """
import sys, time
sys.path.insert(0, {root!r})
from api.collector import settled
from replays.record_format import decode_record
from replays.verify import verify


def peak_kib():
    status = open("/proc/self/status").read()
    return int(status.split("VmHWM:")[1].split()[0])


idle = peak_kib()
with settled():  # the collector as the server and the CLI set it
    raw = open(sys.argv[1], "rb").read()
    start = time.perf_counter()
    record = decode_record(raw)
    verdict = verify(record)
    seconds = time.perf_counter() - start
assert verdict.ok, verdict.problems[:3]
print(seconds, (peak_kib() - idle) / 1024)
"""


def measure(path: Path) -> tuple[float, float]:
    """(seconds, peak MiB above idle) of verifying the record at ``path`` in a fresh process."""
    done = subprocess.run([sys.executable, "-c", MEASURE.format(root=str(ROOT)), str(path)], capture_output=True,
                          text=True, check=True)
    seconds, mib = done.stdout.split()
    return float(seconds), float(mib)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seed", type=int, default=10)
    parser.add_argument("--steps", type=int, default=400)
    args = parser.parse_args()

    built = time.perf_counter()
    events = saxon_shore_events(2, args.seed)
    built = time.perf_counter() - built
    decisions = sum(e.type == "DecisionTaken" for e in events)
    print(f"the game: 2-player Saxon Shore, {decisions:,} decisions, {len(events):,} events "
          f"(played in {built:.1f} s)")
    folded = time.perf_counter()
    project_game(None, events)  # the rule system's fold alone, from the stored events (issue 31)
    folded = time.perf_counter() - folded
    print(f"the fold: the whole record folded from scratch in {folded:.2f} s, {1e6 * folded / len(events):.1f} µs "
          f"an event, {folded / built:.2f} of the play")

    # (a) size
    whole = build_record(events, SEED.hex())
    v1, v2 = msgspec.json.encode(whole), encode_record(whole)
    sizes = {"format 1": v1, "format 2": v2}
    print(f"\n(a) {'record':<10} {'bytes':>12} {'a decision':>11} {'gzipped':>10} {'a decision':>11}")
    for name, raw in sizes.items():
        zipped = len(gzip.compress(raw, 6))
        print(f"    {name:<10} {len(raw):>12,} {len(raw) / decisions:>11.0f} {zipped:>10,} {zipped / decisions:>11.1f}")
    print(f"    format 2 / format 1: {len(v2) / len(v1):.2f}")

    # (b) verify: time and peak memory against length
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for n in (1_000, 10_000, len(events)):
            n = max(i for i, e in enumerate(events[:n + 1]) if i == len(events) or e.type == "DecisionTaken") \
                if n < len(events) else n  # a whole number of decisions
            part = build_record(events[:n], SEED.hex())
            for name, raw in (("format 1", msgspec.json.encode(part)), ("format 2", encode_record(part))):
                path = Path(folder) / f"{n}-{name[-1]}.json"
                path.write_bytes(raw)
                seconds, mib = measure(path)
                rows.append((n, name, len(raw), seconds, mib))
    print(f"\n(b) {'events':>7} {'record':<9} {'MB':>6} {'verify s':>9} {'µs/event':>9} {'peak MiB':>9} {'KiB/event':>9}")
    for n, name, size, seconds, mib in rows:
        print(f"    {n:>7,} {name:<9} {size / 1e6:>6.1f} {seconds:>9.2f} {1e6 * seconds / n:>9.1f} {mib:>9.1f} "
              f"{1024 * mib / n:>9.2f}")
    whole_v2 = next(r for r in rows if r[0] == len(events) and r[1] == "format 2")
    small_v2 = [r for r in rows if r[1] == "format 2"][1]
    print(f"    linear: µs an event at {len(events):,} / at {small_v2[0]:,} = "
          f"{(whole_v2[3] / whole_v2[0]) / (small_v2[3] / small_v2[0]):.2f} (format 2)")

    # (c) the viewer, with the collector as a served process sets it
    with settled():
        start = time.perf_counter()
        opened = OpenedRecord("bench", decode_record(v2))
        opening = time.perf_counter() - start
    rnd = random.Random(1)
    times = []
    for _ in range(args.steps):
        at = rnd.randint(1, opened.head)
        t = time.perf_counter()
        msgspec.json.encode(opened.step(at))
        times.append(time.perf_counter() - t)
    times.sort()
    p50, p99 = statistics.median(times) * 1e3, times[int(0.99 * len(times)) - 1] * 1e3
    print(f"\n(c) viewer: opened in {opening:.2f} s ({len(opened.sections):,} sections); the board at "
          f"{args.steps} random versions: p50 {p50:.2f} ms, p99 {p99:.2f} ms")
    print(json.dumps({"bench": "long_games", "events": len(events), "decisions": decisions, "fold_us_per_event": round(1e6 * folded / len(events), 1),
                      "bytes_per_decision_v1": round(len(v1) / decisions), "bytes_per_decision_v2": round(len(v2) / decisions),
                      "gzip_bytes_per_decision_v2": round(len(gzip.compress(v2, 6)) / decisions, 1),
                      "verify_s": round(whole_v2[3], 2), "verify_peak_mib": round(whole_v2[4], 1),
                      "viewer_open_s": round(opening, 2), "viewer_step_p50_ms": round(p50, 2),
                      "viewer_step_p99_ms": round(p99, 2), "target_bytes_per_decision": 400, "target_verify_s": 5}))


if __name__ == "__main__":
    main()
