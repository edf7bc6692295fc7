"""Scale-out measured under CPU quotas (issue 28): 1, 2 and 4 Herald processes, each in its own
cgroup capped at the same share of a core, on one PostgreSQL database behind HAProxy.

On a 2-core machine shared with PostgreSQL, HAProxy and the load generator, a second uncapped
process has no core of its own to add (bench_cluster.py shows why). Capped at a share of a core
(the cgroup v1 cpu controller's ``cpu.cfs_quota_us`` / ``cpu.cfs_period_us``), each process
stands for a small machine of its own, and the question a user outgrowing one machine asks is
answerable here: do N processes on one PostgreSQL carry N times the load of one, and if not,
is PostgreSQL the limit?

Each run is a real ``herald cluster --processes N`` (HAProxy hashing each game's path to one
process, PostgreSQL behind them all); once it answers, the bench moves each Herald process into
its cgroup (``cgroup.procs``). ``wrk`` POSTs notes through HAProxy to the games: one wrk thread
per process and ``--connections`` connections per process, each thread cycling over the games
HAProxy sends to its process (learned from ``X-Served-By``), so a process's clients wait only
on it, as a game's players wait only on their game. Runs of 1, 2 and 4 processes take turns,
``--rounds`` rounds (the order rotated each round), so the noise of a shared machine falls on
all of them.

Prints, for each run: commands/s, p50/p99 latency, each process's CPU (cores used against its
quota, and the share of periods in which the kernel throttled it), CPU ms per command in Herald,
PostgreSQL, HAProxy and wrk; then the medians, the goals (2 processes ≥ 1.8 × 1, 4 ≥ 3.2 × 1)
and, where they are not met, the ceilings that explain it: the quotas' (N × share / Herald's CPU
per command) and PostgreSQL's (the cores the quotas, HAProxy and wrk leave it / its CPU per
command). The last line is ``scale: 2/1 = R2, 4/1 = R4``, each the median of the rounds' ratios.

Needs root (it makes cgroups under /sys/fs/cgroup/cpu; every one is removed at the end, also
on Ctrl-C or SIGTERM), wrk and HAProxy (Debian's packages), and PostgreSQL (POSTGRES_*).

    .venv/bin/python bench/bench_scale.py [--seconds 20] [--rounds 3] [--share 0.2] [--period-ms 20]
                                          [--connections 32] [--games 200]
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.cluster_load import herald_env, measure, note_script, open_games, scratch_database, warm  # noqa: E402
from tests.conftest import free_port, free_ports  # noqa: E402

CPU_CGROUPS = Path("/sys/fs/cgroup/cpu")  # the cgroup v1 cpu controller's hierarchy
PREFIX = "herald-bench-scale-"
PROCESSES = (1, 2, 4)
GOALS = {2: 1.8, 4: 3.2}


def say(message: str) -> None:
    print(f"bench_scale: {message}", file=sys.stderr, flush=True)


def cannot_run() -> str | None:
    """Why this machine cannot run the bench, in one line; None if it can."""
    if os.geteuid() != 0:
        return "needs root: it caps each Herald process with a cgroup under /sys/fs/cgroup/cpu (run it as root)"
    if not (CPU_CGROUPS / "cpu.cfs_quota_us").exists():
        return (f"no cgroup v1 cpu controller at {CPU_CGROUPS} (cpu.cfs_quota_us): it cannot cap the processes' "
                "CPU on this machine")
    for tool, package in (("wrk", "wrk"), ("haproxy", "haproxy")):
        if not (shutil.which(tool) or Path(f"/usr/sbin/{tool}").exists()):
            return f"{tool} is not installed (apt-get install -y {package})"
    return None


class Cgroups:
    """One cgroup per Herald process under ``herald-bench-scale-<pid>`` in the cpu hierarchy,
    each capped at ``share`` of a core: ``cpu.cfs_quota_us`` = share × ``cpu.cfs_period_us``."""

    def __init__(self, count: int, share: float, period_us: int) -> None:
        self.root = CPU_CGROUPS / f"{PREFIX}{os.getpid()}"
        self.share, self.period_us = share, period_us
        self.root.mkdir()  # PermissionError / OSError here: the caller says it cannot make cgroups
        self.groups = []
        for i in range(count):
            group = self.root / f"process-{i}"
            group.mkdir()
            (group / "cpu.cfs_period_us").write_text(str(period_us))
            (group / "cpu.cfs_quota_us").write_text(str(round(share * period_us)))
            self.groups.append(group)

    def place(self, index: int, pid: int) -> None:
        """Move ``pid`` (all its threads) and its descendants into cgroup ``index``; what they
        start later is born in it."""
        (self.groups[index] / "cgroup.procs").write_text(str(pid))
        for child in children(pid):
            self.place(index, child)

    def throttling(self, index: int) -> tuple[int, int]:
        """(periods, throttled periods) of cgroup ``index`` so far (``cpu.stat``)."""
        stat = dict(line.split() for line in (self.groups[index] / "cpu.stat").read_text().splitlines())
        return int(stat["nr_periods"]), int(stat["nr_throttled"])

    def remove(self) -> None:
        remove_cgroup(self.root)

    @staticmethod
    def remove_stale() -> None:
        """Remove the cgroups of earlier runs that could not clean up (killed with SIGKILL)."""
        for root in CPU_CGROUPS.glob(f"{PREFIX}*"):
            pid = root.name.removeprefix(PREFIX)
            if pid.isdigit() and not Path(f"/proc/{pid}").exists():
                remove_cgroup(root)


def remove_cgroup(root: Path) -> None:
    """Remove a cgroup and those under it, moving any process still in them to the top."""
    for group in [*(p for p in root.iterdir() if p.is_dir()), root]:
        for pid in (group / "cgroup.procs").read_text().split():
            try:
                (CPU_CGROUPS / "cgroup.procs").write_text(pid)
            except ProcessLookupError:
                pass
        for _ in range(50):  # a process that just exited leaves its cgroup a moment later
            try:
                group.rmdir()
                break
            except OSError:
                time.sleep(0.1)
        else:
            group.rmdir()


def children(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            found += [int(c) for c in (task / "children").read_text().split()]
        except OSError:
            pass
    return found


def command_line(pid: int) -> list[str]:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().decode().split("\0")
    except OSError:
        return []


@dataclass
class Cluster:
    url: str
    herald_pids: list[int]  # in the order of their ports (HAProxy's herald0, herald1, ...)
    proxy_pid: int


@contextmanager
def herald_cluster(processes: int, env: dict[str, str], folder: Path, cgroups: Cgroups) -> Iterator[Cluster]:
    """``herald cluster --processes N`` on fresh ports, each Herald process in its own cgroup;
    stopped (SIGTERM: the supervisor stops its children) when the block ends, however it ends."""
    port, first = free_port(), free_ports(processes)
    log = folder / f"cluster-{processes}.log"
    argv = [str(Path(sys.executable).parent / "herald"), "cluster", "--processes", str(processes),
            "--port", str(port), "--first-port", str(first)]
    # its own session: a Ctrl-C at the terminal reaches the bench, which stops the cluster itself
    supervisor = subprocess.Popen(argv, env=env, cwd=folder, stdout=log.open("wb"), stderr=subprocess.STDOUT,
                                  start_new_session=True)
    try:
        deadline = time.monotonic() + 180
        while "herald cluster: http://" not in log.read_text(errors="replace"):
            if supervisor.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"herald cluster did not start:\n{log.read_text(errors='replace')}")
            time.sleep(0.2)
        kids = {pid: command_line(pid) for pid in children(supervisor.pid)}
        heralds = []
        for p in range(first, first + processes):
            heralds += [pid for pid, argv in kids.items() if "serve" in argv and argv[argv.index("--port") + 1] == str(p)]
        proxies = [pid for pid, argv in kids.items() if argv and argv[0].endswith("haproxy")]
        if len(heralds) != processes or len(proxies) != 1:
            raise RuntimeError(f"herald cluster's children are not {processes} Herald processes and HAProxy: {kids}")
        for index, pid in enumerate(heralds):
            cgroups.place(index, pid)
        yield Cluster(f"http://127.0.0.1:{port}", heralds, proxies[0])
        restarted = [pid for pid in heralds if pid not in children(supervisor.pid)]
        if restarted:  # a restarted process would run outside its cgroup: the figures would be void
            raise RuntimeError(f"Herald process(es) {restarted} exited during the run:\n"
                               f"{log.read_text(errors='replace')}")
    finally:
        supervisor.terminate()
        try:
            supervisor.wait(30)
        except subprocess.TimeoutExpired:
            supervisor.kill()  # its children get SIGTERM (PR_SET_PDEATHSIG)
            supervisor.wait()


def run(processes: int, env: dict[str, str], folder: Path, dbname: str, cgroups: Cgroups, games: list[dict],
        args: argparse.Namespace) -> dict:
    """One measured run of ``processes`` capped processes over ``games`` (created on first use)."""
    with herald_cluster(processes, env, folder, cgroups) as cluster:
        if not games:
            games += open_games(cluster.url, args.games)
        served = warm(cluster.url, games)  # also caches each game in its process, as in a running tournament
        if len(served) != processes:
            raise RuntimeError(f"HAProxy sent the {len(games)} games to {len(served)} of {processes} processes "
                               f"({ {name: len(g) for name, g in served.items()} }): use more --games")
        script = note_script(folder / f"load-{processes}.lua", list(served.values()))
        before = [cgroups.throttling(i) for i in range(processes)]
        found = measure(cluster.url, script, threads=processes, connections=processes * args.connections,
                        seconds=args.seconds, herald_pids=cluster.herald_pids, proxy_pid=cluster.proxy_pid,
                        dbname=dbname)
        after = [cgroups.throttling(i) for i in range(processes)]
    throttled = [(t1 - t0) / max(p1 - p0, 1) for (p0, t0), (p1, t1) in zip(before, after)]
    others_per_command = (found["haproxy_cpu_per_1k"] + found["wrk_cpu_per_1k"]) / 1000
    pg_per_command = (found["postgres_cpu_per_1k"] + found["postgres_background_cpu_per_1k"]) / 1000
    cores = os.cpu_count() or 1
    ours = found["herald_cpu_per_1k"] / 1000 + pg_per_command + others_per_command
    other_work = max(found["busy_cores"] - ours * found["rate"], 0.0)  # the machine's other tenants
    left_to_postgres = cores - processes * cgroups.share - others_per_command * found["rate"]
    return {**found, "processes": processes, "games": {name: len(g) for name, g in served.items()},
            "cores_used": [cpu / found["seconds"] for cpu in found["herald_cpu"]], "throttled": throttled,
            "quota_bound": processes * cgroups.share / (found["herald_cpu_per_1k"] / 1000),
            "postgres_ceiling": max(left_to_postgres, 0) / max(pg_per_command, 1e-9),
            "left_to_postgres": left_to_postgres, "other_work": other_work, "postgres_per_command": pg_per_command}


def show(r: dict, share: float) -> None:
    n = r["processes"]
    print(f"  ({n}) {n} process{'es' if n > 1 else ''}: {r['rate']:7.0f} commands/s  p50 {r['p50_ms']:6.1f} ms  "
          f"p99 {r['p99_ms']:6.1f} ms  errors {r['errors']}  events/transaction {r['events_per_transaction']:.1f}",
          flush=True)
    print("      each process, cores used (quota {:.2f}) / periods throttled / games: {}".format(
        share, "  ".join(f"{c:.2f}/{t:.0%}/{g}" for c, t, g in zip(r["cores_used"], r["throttled"], r["games"].values()))))
    print(f"      CPU ms per command: Herald {r['herald_cpu_per_1k']:.2f}  PostgreSQL {r['postgres_per_command'] * 1000:.3f} "
          f"(backends {r['postgres_cpu_per_1k']:.3f}, background {r['postgres_background_cpu_per_1k']:.3f})  "
          f"HAProxy {r['haproxy_cpu_per_1k']:.3f}  wrk {r['wrk_cpu_per_1k']:.3f}; machine busy on "
          f"{r['busy_cores']:.2f} of {os.cpu_count()} cores, {r['other_work']:.2f} of them by other work",
          flush=True)


def summary(results: dict[int, list[dict]], share: float, rounds: int) -> None:
    """The medians, the goals, and the ceilings where a goal is not met; the last line."""
    def median(n: int, key: str) -> float:
        return statistics.median(r[key] for r in results[n])

    ratios = {n: statistics.median(results[n][i]["rate"] / results[1][i]["rate"] for i in range(rounds))
              for n in GOALS}
    def quota_used(n: int) -> float:
        return statistics.median(statistics.mean(r["cores_used"]) for r in results[n]) / share

    print(f"medians of {rounds} round(s), each process capped at {share:.2f} of a core (a process that used less "
          "than ~90 % of its cap was held back by something else: the machine, PostgreSQL, the load):")
    for n in PROCESSES:
        print(f"  ({n}) {median(n, 'rate'):7.0f} commands/s  cap used {quota_used(n):.0%}  p50 {median(n, 'p50_ms'):.1f} ms  "
              f"p99 {median(n, 'p99_ms'):.1f} ms  PostgreSQL {median(n, 'postgres_per_command') * 1000:.3f} CPU ms a command; "
              f"ceilings: the quotas {median(n, 'quota_bound'):.0f}, PostgreSQL {median(n, 'postgres_ceiling'):.0f} "
              "commands/s")
    print("  (the quotas' ceiling: N × share / Herald's CPU s per command; PostgreSQL's: the cores the quotas, "
          "HAProxy and wrk leave it / its CPU s per command, backends and background processes; the machine's "
          "other work is left out)")
    one = median(1, "rate")
    pg = statistics.median(r["postgres_per_command"] for runs in results.values() for r in runs)
    print(f"PostgreSQL's limit: {pg * 1000:.3f} CPU ms a command (median of every run), so each core PostgreSQL has "
          f"carries about {1 / pg:.0f} commands/s, what {1 / pg / one:.1f} processes capped like these carry")
    for n, goal in GOALS.items():
        verdict = f"goal {n}/1 ≥ {goal}: {ratios[n]:.2f}, " + ("met" if ratios[n] >= goal else "not met")
        ceiling = median(n, "postgres_ceiling")
        if ratios[n] < goal and ceiling < goal * one:
            verdict += (f"; PostgreSQL's ceiling on this machine is lower: {ceiling:.0f} commands/s "
                        f"(= {ceiling / one:.2f} × (1); {median(n, 'left_to_postgres'):.2f} cores left to it at "
                        f"{median(n, 'postgres_per_command') * 1000:.3f} CPU ms a command), and {n} processes reached "
                        f"{median(n, 'rate') / ceiling:.2f} of it")
        elif ratios[n] < goal:
            used = quota_used(n)
            verdict += f"; not PostgreSQL's ceiling ({ceiling:.0f} commands/s): the processes used {used:.0%} of their quotas"
            if used < 0.9:
                verdict += (f" with the machine busy on {median(n, 'busy_cores'):.2f} of {os.cpu_count()} cores "
                            f"({median(n, 'other_work'):.2f} by other work): they did not get their share")
        print(verdict)
    print(f"scale: 2/1 = {ratios[2]:.2f}, 4/1 = {ratios[4]:.2f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20, help="each run's length (default 20)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of 1, 2 and 4 processes (default 3)")
    parser.add_argument("--share", type=float, default=0.2, help="each process's cap, in cores (default 0.2)")
    parser.add_argument("--period-ms", type=float, default=20,
                        help="the quota's period (default 20 ms: a throttled process waits at most ~16 ms)")
    parser.add_argument("--connections", type=int, default=32, help="wrk connections per process (default 32)")
    parser.add_argument("--games", type=int, default=200, help="games, spread over the processes (default 200)")
    args = parser.parse_args()
    problem = cannot_run()
    if problem:
        say(problem)
        return 2

    def stop(signum: int, _frame: object) -> None:  # the first Ctrl-C or SIGTERM stops; cleanup is not interrupted
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        raise KeyboardInterrupt

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    Cgroups.remove_stale()
    try:
        cgroups = Cgroups(max(PROCESSES), args.share, round(args.period_ms * 1000))
    except OSError as error:
        say(f"cannot create cgroups under {CPU_CGROUPS} ({error}): it needs root and a writable cgroup v1 cpu "
            "controller")
        return 2
    results: dict[int, list[dict]] = {n: [] for n in PROCESSES}
    try:
        load = os.getloadavg()
        print(f"machine: {os.cpu_count()} cores, load average {load[0]:.1f} (shared work makes the figures noisy: "
              f"compare the ratios); each Herald process capped at {args.share:.2f} of a core "
              f"(cpu.cfs_quota_us {round(args.share * args.period_ms * 1000)} / cpu.cfs_period_us "
              f"{round(args.period_ms * 1000)}), {args.connections} wrk connections per process, "
              f"{args.games} games, {args.seconds:.0f} s a run", flush=True)
        with scratch_database("herald_scale") as dbname, \
                tempfile.TemporaryDirectory(prefix="herald-bench-scale-") as tmp:
            folder, games = Path(tmp), []
            env = herald_env(dbname, folder)
            for i in range(args.rounds):
                print(f"round {i + 1}:", flush=True)
                order = PROCESSES[i % len(PROCESSES):] + PROCESSES[:i % len(PROCESSES)]
                for n in order:
                    results[n].append(run(n, env, folder, dbname, cgroups, games, args))
                    show(results[n][-1], args.share)
        summary(results, args.share, args.rounds)
        return 0
    except KeyboardInterrupt:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        cgroups.remove()
        say(f"interrupted: the cluster stopped, the database dropped, the cgroups ({cgroups.root}) removed")
        return 130
    finally:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        if cgroups.root.exists():
            cgroups.remove()


if __name__ == "__main__":
    sys.exit(main())
