"""Benchmark of the expensive reads' fair shares (issue 30 point 3, api/budgets.py), every
figure measured in one run on one real ``herald serve``.

A bystander (``GET /health`` and a command, in turn) is timed alone (quiet), then while 8
clients hammer each expensive route without waiting for Retry-After (tests/read_load.py):
``POST /records/verify`` of a 1.8 MB record, and the outline, past positions and analysis of
a 3,722-event Saxon Shore game (a study fork of it each, cold). Prints the bystander's p50 and
p99, quiet and loaded, their ratio, what the hammering clients were answered, the CPU of the
server's own process in each phase (the bystander's requests included; not its workers') and the
machine's load (``os.getloadavg``), then a JSON line. ``--workers 0`` runs the work in
the server's threads (the shares still apply), to compare.

    PYTHONPATH=. .venv/bin/python bench/bench_read_budgets.py [--seconds 8] [--workers 2]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.conftest import start_server  # noqa: E402
from tests.read_load import NO_WRITE_LIMITS, ROUTES, Stage, bystander, game_record, loaded, quantile, verify_record  # noqa: E402


def cpu_of(pid: int) -> float:
    """CPU seconds of a process and its children that ended (utime + stime, /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return sum(int(f) for f in fields[11:15]) / os.sysconf("SC_CLK_TCK")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    os.environ.setdefault("PYTEST_HERALD_RUN", "bench")
    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        record, big = game_record(), verify_record(tmp)
        server = start_server(tmp, {**NO_WRITE_LIMITS, "HERALD_ANALYSIS_BUDGET": "5",
                                   "HERALD_READ_WORKERS": str(args.workers)})
        try:
            stage = Stage(server.url, record)
            before = cpu_of(server.process.pid)
            quiet = bystander(server.url, stage.table, stage.token, args.seconds)
            quiet_cpu = cpu_of(server.process.pid) - before
            q50, q99 = quantile(quiet, 0.5), quantile(quiet, 0.99)
            rows = {"quiet": {"p50_ms": round(q50 * 1e3, 1), "p99_ms": round(q99 * 1e3, 1), "n": len(quiet),
                              "server_main_cpu_s": round(quiet_cpu, 2), "load": round(os.getloadavg()[0], 2)}}
            print(f"load average {os.getloadavg()}; read workers {args.workers}")
            print(f"{'phase':12} {'p50 ms':>8} {'p99 ms':>8} {'p99/quiet':>10} {'server CPU s':>13}  hammering clients")
            print(f"{'quiet':12} {q50 * 1e3:8.1f} {q99 * 1e3:8.1f} {1.0:10.2f} {quiet_cpu:13.2f}")
            for route in ROUTES:
                before = cpu_of(server.process.pid)
                taken, hammered = loaded(server.url, stage, route, big, args.seconds)
                spent = cpu_of(server.process.pid) - before
                p50, p99 = quantile(taken, 0.5), quantile(taken, 0.99)
                rows[route] = {"p50_ms": round(p50 * 1e3, 1), "p99_ms": round(p99 * 1e3, 1), "n": len(taken),
                               "ratio_p99": round(p99 / q99, 2), "server_main_cpu_s": round(spent, 2),
                               "load": round(os.getloadavg()[0], 2), **hammered}
                worst = sorted(taken, key=lambda t: -t[1])[:3]
                print(f"{route:12} {p50 * 1e3:8.1f} {p99 * 1e3:8.1f} {p99 / q99:10.2f} {spent:13.2f}  {hammered}; "
                      f"slowest {', '.join(f'{t * 1e3:.0f} ms at {at:.1f} s' for at, t in worst)}")
        finally:
            server.stop()
    print(json.dumps({"bench": "read_budgets", "workers": args.workers, **rows}))


if __name__ == "__main__":
    main()
