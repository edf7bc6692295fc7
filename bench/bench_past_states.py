"""Past positions of a long game: ``GET /games/{id}/state?at=N`` at random versions of a
50,000-event game, over HTTP, on a real ``herald serve`` (issue 24 point 4).

The game: a 2-player Saxon Shore game played in process through the domain by seeded random
clients (``Patient``, tests/rules/saxon_shore/bots.py) until it reaches ``--events`` versions
(seed 10 reaches 50,000 in about 5 s), then stored in the server's database through the
store (its events and its private stream, with a seat token the bench knows) before the
server starts — as a game played there would be stored, nothing built for it.

One client, one request at a time on a kept-alive connection, picks at random (fixed seeds)
a spectator's request (no token), a seat's (p1's token) or the baseline ``GET /health``
(one request in eight), each ``at`` uniform over 1..N. Phases, each printed with count,
p50/p90/p99/max per kind and the ratios to the baseline measured in the same phase:

(0) first: the server's first start, the game never read before (whatever the first reader
    of a long game pays once)
(a) cold: the first ``--cold-seconds`` (60) after the server process is restarted (every
    in-memory cache empty)
(b) warm: the ``--warm-seconds`` after that
(c) loaded: the same while a second process (``wrk``, 2 connections) records one-die
    commands on another game of the same server

and the server's memory (VmRSS, and VmHWM: its peak) after each phase. Goals: p50 < 2 ms and
p99 < 20 ms, cold and warm, with a bounded memory figure. Timing targets live here only,
never in a test. The last line is a one-line JSON summary.

    .venv/bin/python bench/bench_past_states.py [--events 50000] [--postgres]
        [--cold-seconds 60] [--warm-seconds 30] [--loaded-seconds 30] [--code DIR]

``--code DIR`` serves the Herald in DIR (e.g. a worktree of an older commit, for a
before/after in one sitting); the game is made and stored by this checkout.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path
from uuid import UUID

import msgspec

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.bench_api import LUA_REPORT, UNTHROTTLED, cpu_seconds, free_port  # noqa: E402

SERVER_SEED = bytes(range(32))
SEAT_TOKEN = "bench-past-states-seat-token-p1"
NOW = datetime(2026, 11, 29, tzinfo=timezone.utc)


def long_game(seed: int, versions: int) -> tuple[UUID, list]:
    """A 2-player Saxon Shore game played by seeded random clients until its first
    version at or past ``versions`` (or its end): its id and stored events."""
    from domain.events import GameCreated, SeatInfo
    from domain.game import create_game, project_game, resolve_decision
    from domain.randomness import commitment
    from domain.rng import SeededRng
    from domain.rules.registry import RULE_SYSTEMS
    from tests.rules.saxon_shore.bots import Patient

    rules = RULE_SYSTEMS["saxon-shore"]
    created = GameCreated(rules=rules.id, rules_version=rules.version, scenario="standard",
                          data_hash=rules.data_hash("standard"),
                          seats={"p1": SeatInfo(player="P1"), "p2": SeatInfo(player="P2")},
                          seed_commitment=commitment(SERVER_SEED), options={})
    game_id = UUID(int=seed + 1)  # the dice follow the game's id: seed 10 plays 77,448 events to its end
    events = create_game(game_id, created, NOW)
    game = project_game(None, events)
    chooser = Patient(seed)
    decisions = 0
    while not game.ended and game.version < versions:
        seat = game.to_act()[0]
        commands = [msgspec.to_builtins(c) for c in rules.legal_commands(game.state, seat)]
        decision = resolve_decision(game, seat, chooser.choice(commands),
                                    SeededRng(SERVER_SEED, game_id, "", game.next_draw),
                                    NOW + timedelta(milliseconds=decisions), SERVER_SEED)
        events += decision.events
        game = decision.game
        decisions += 1
    return game_id, events


def store_game(env: dict[str, str], game_id: UUID, events: list) -> None:
    """Write the game's events and its private stream (seed, p1's token hash), a thousand
    events a transaction, as creating and playing it on the server would have left them."""
    from api.bootstrap import Herald
    from api.store import GameSecrets, secrets_id
    from api.tokens import hash_token

    herald = Herald(env=env)
    try:
        vault = GameSecrets(secrets_id(game_id), 1, events[0].timestamp, game_id, SERVER_SEED.hex(),
                            {"p1": hash_token(SEAT_TOKEN), "p2": hash_token(SEAT_TOKEN + "-p2")})
        herald.committer.write(*events[:1000], vault)
        for start in range(1000, len(events), 1000):  # one transaction of 50,000 took minutes on PostgreSQL
            herald.committer.write(*events[start:start + 1000])
    finally:
        herald.close()


class Client:
    """HTTP/1.1 on one kept-alive connection, one request at a time: as little client
    between the clock and the server as Python allows."""

    def __init__(self, port: int):
        self.sock = socket.create_connection(("127.0.0.1", port))
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.buf = b""

    def get(self, path: str, token: str | None = None) -> tuple[int, bytes]:
        auth = f"Authorization: Bearer {token}\r\n" if token else ""
        self.sock.sendall(f"GET {path} HTTP/1.1\r\nHost: bench\r\n{auth}\r\n".encode())
        while b"\r\n\r\n" not in self.buf:
            self._more()
        head, self.buf = self.buf.split(b"\r\n\r\n", 1)
        lines = head.split(b"\r\n")
        status = int(lines[0].split()[1])
        length = next(int(v) for k, _, v in (line.partition(b":") for line in lines[1:])
                      if k.strip().lower() == b"content-length")
        while len(self.buf) < length:
            self._more()
        body, self.buf = self.buf[:length], self.buf[length:]
        return status, body

    def _more(self) -> None:
        chunk = self.sock.recv(1 << 20)
        if not chunk:
            raise ConnectionError("the server closed the connection")
        self.buf += chunk

    def close(self) -> None:
        self.sock.close()


def percentiles(samples: list[float]) -> dict:
    if not samples:
        return {"n": 0}
    s = sorted(samples)

    def at(q: float) -> float:
        return round(s[min(len(s) - 1, int(q * len(s)))], 3)

    return {"n": len(s), "p50_ms": at(0.50), "p90_ms": at(0.90), "p99_ms": at(0.99), "max_ms": round(s[-1], 3)}


def memory(pid: int) -> dict:
    """The server's resident memory now and at its peak (MB), from /proc."""
    fields = dict(line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines() if ":" in line)
    return {"rss_mb": round(int(fields["VmRSS"].split()[0]) / 1024, 1),
            "hwm_mb": round(int(fields["VmHWM"].split()[0]) / 1024, 1)}


def measure(port: int, pid: int, game_id: UUID, versions: int, seconds: float, seed: int) -> dict:
    """One client for ``seconds``: spectator, seat and baseline requests at random."""
    client = Client(port)
    pick, spectator_at, seat_at = random.Random(seed), random.Random(seed + 1), random.Random(seed + 2)
    times: dict[str, list[float]] = {"spectator": [], "seat": [], "health": []}
    errors: list[str] = []
    cpu0, start = cpu_seconds(pid), time.perf_counter()
    base = f"/games/{game_id}/state?at="
    while time.perf_counter() - start < seconds:
        kind = "health" if pick.random() < 0.125 else ("spectator" if pick.random() < 0.5 else "seat")
        if kind == "health":
            path, token, version = "/health", None, None
        else:
            version = (spectator_at if kind == "spectator" else seat_at).randint(1, versions)
            path, token = base + str(version), SEAT_TOKEN if kind == "seat" else None
        t0 = time.perf_counter_ns()
        status, body = client.get(path, token)
        times[kind].append((time.perf_counter_ns() - t0) / 1e6)
        if status != 200 or (version is not None and not body.startswith(b'{"version":%d,' % version)):
            errors.append(f"{path} {status} {body[:120]!r}")
    elapsed = time.perf_counter() - start
    client.close()
    requests = sum(len(t) for t in times.values())
    result = {kind: percentiles(t) for kind, t in times.items()}
    health = result["health"]
    for kind in ("spectator", "seat"):
        r = result[kind]
        if r["n"] and health["n"]:
            r["p50_over_health"] = round(r["p50_ms"] / health["p50_ms"], 2)
            r["p99_over_health"] = round(r["p99_ms"] / health["p99_ms"], 2)
    result.update(seconds=round(elapsed, 1), requests=requests, errors=len(errors),
                  server_cpu_us_per_request=round((cpu_seconds(pid) - cpu0) / max(requests, 1) * 1e6),
                  **memory(pid))
    if errors:
        result["first_errors"] = errors[:3]
    return result


def show(name: str, r: dict) -> None:
    def one(kind: str) -> str:
        k = r[kind]
        if not k["n"]:
            return f"{kind} none"
        ratio = f" ({k['p50_over_health']}x/{k['p99_over_health']}x health)" if "p50_over_health" in k else ""
        return f"{kind} n={k['n']} p50 {k['p50_ms']:.2f} p99 {k['p99_ms']:.2f} max {k['max_ms']:.1f} ms{ratio}"

    print(f"{name}: {one('spectator')}; {one('seat')}; {one('health')}; {r['requests']} requests in "
          f"{r['seconds']} s, {r['errors']} errors, {r['server_cpu_us_per_request']} us server CPU a request, "
          f"RSS {r['rss_mb']} MB (peak {r['hwm_mb']} MB)", flush=True)
    for line in r.get("first_errors", ()):
        print("   error:", line)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--events", type=int, default=50_000, help="the game's length in versions")
    parser.add_argument("--seed", type=int, default=10, help="the random clients' seed (10 reaches 50,000)")
    parser.add_argument("--first-seconds", type=float, default=60)
    parser.add_argument("--cold-seconds", type=float, default=60)
    parser.add_argument("--warm-seconds", type=float, default=30)
    parser.add_argument("--loaded-seconds", type=float, default=30)
    parser.add_argument("--postgres", action="store_true", help="PostgreSQL (a fresh database) instead of SQLite")
    parser.add_argument("--code", type=Path, default=ROOT, help="serve the Herald in this folder")
    args = parser.parse_args()

    work = Path(tempfile.mkdtemp(prefix="herald-bench-past-"))
    env = {**UNTHROTTLED, **os.environ, "HERALD_DATA_DIR": str(work)}
    dbname = None
    if args.postgres:
        import psycopg

        from bench.cluster_load import PG

        dbname = f"herald_bench_past_{os.getpid()}"
        with psycopg.connect(dbname="postgres", autocommit=True, **PG) as conn:
            conn.execute(f'CREATE DATABASE "{dbname}"')
        env.update(PERSISTENCE_MODULE="eventsourcing.postgres", POSTGRES_DBNAME=dbname,
                   **{f"POSTGRES_{k.upper()}": str(v) for k, v in PG.items()})
    else:
        env["HERALD_DB"] = str(work / "herald.db")
    code = args.code.resolve()
    env["PYTHONPATH"] = str(code)
    server = None
    summary: dict = {"events": args.events, "backend": "postgres" if args.postgres else "sqlite",
                     "code": str(code), "load_average": os.getloadavg()[0]}
    try:
        t0 = time.perf_counter()
        game_id, events = long_game(args.seed, args.events)
        versions = events[-1].version
        if versions < args.events:
            raise SystemExit(f"bench: seed {args.seed} ends at {versions} versions; try another --seed")
        print(f"game {game_id}: {versions} versions, played in {time.perf_counter() - t0:.1f} s", flush=True)
        t0 = time.perf_counter()
        store_game(env, game_id, events)
        print(f"stored in {time.perf_counter() - t0:.1f} s", flush=True)
        del events
        summary["versions"] = versions
        port = free_port()

        def start() -> subprocess.Popen:
            process = subprocess.Popen([sys.executable, "-m", "api.cli", "serve", "--port", str(port),
                                        "--log-level", "warning"], env=env, cwd=work,
                                       stdout=subprocess.DEVNULL)
            for _ in range(1200):
                try:
                    Client(port).get("/health")
                    return process
                except OSError:
                    time.sleep(0.05)
            raise SystemExit("bench: the server did not start")

        results: dict[str, dict] = {}
        server = start()
        summary["start_rss_mb"] = memory(server.pid)["rss_mb"]
        print(f"server started: RSS {summary['start_rss_mb']} MB", flush=True)
        results["first"] = measure(port, server.pid, game_id, versions, args.first_seconds, 100)
        show("(0) first start, the game never read", results["first"])
        server.terminate()
        server.wait()
        server = start()
        summary["restart_rss_mb"] = memory(server.pid)["rss_mb"]
        results["cold"] = measure(port, server.pid, game_id, versions, args.cold_seconds, 200)
        show(f"(a) cold: the first {args.cold_seconds:g} s after a restart", results["cold"])
        results["warm"] = measure(port, server.pid, game_id, versions, args.warm_seconds, 300)
        show("(b) warm", results["warm"])
        if shutil.which("wrk"):
            import httpx

            http = httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30)
            other = http.post("/games", json={"rules": "open-table", "seats": {"p1": {"player": "Load"}}}).json()
            body = json.dumps({"seat": "p1", "command": {"type": "roll", "label": "load", "dice": "1d6"}})
            script = (f'wrk.method = "POST"\nwrk.body = {json.dumps(body)}\n'
                      f'wrk.headers["Content-Type"] = "application/json"\n'
                      f'wrk.headers["Authorization"] = "Bearer {other["seat_tokens"]["p1"]}"\n') + LUA_REPORT
            lua = work / "load.lua"
            lua.write_text(script)
            load = subprocess.Popen(["wrk", "-t1", "-c2", f"-d{int(args.loaded_seconds) + 2}s", "-s", str(lua),
                                     f"http://127.0.0.1:{port}/games/{other['id']}/commands"],
                                    stdout=subprocess.PIPE, text=True)
            time.sleep(1)
            results["loaded"] = measure(port, server.pid, game_id, versions, args.loaded_seconds, 400)
            out, _ = load.communicate()
            report = json.loads(out.strip().splitlines()[-1])
            results["loaded"]["load_commands_per_second"] = round(report["requests"] / report["seconds"])
            show(f"(c) loaded ({results['loaded']['load_commands_per_second']} commands/s on another game "
                 f"beside)", results["loaded"])
        else:
            print("(c) loaded: skipped (needs wrk: apt-get install wrk)")
        summary["peak_rss_mb"] = memory(server.pid)["hwm_mb"]
        for phase, r in results.items():
            summary[phase] = {kind: {k: r[kind].get(k) for k in ("n", "p50_ms", "p99_ms")}
                              for kind in ("spectator", "seat", "health")}
            summary[phase]["rss_mb"] = r["rss_mb"]
            summary[phase]["errors"] = r["errors"]
        goals = {phase: all(results[phase][kind].get("p50_ms", 1e9) < 2 and results[phase][kind].get("p99_ms", 1e9) < 20
                            for kind in ("spectator", "seat"))
                 for phase in ("cold", "warm", "loaded") if phase in results}
        print("goals (p50 < 2 ms and p99 < 20 ms, spectator and seat):",
              ", ".join(f"{p} {'met' if ok else 'NOT met'}" for p, ok in goals.items()))
        summary["goals_met"] = goals
        print(json.dumps(summary, separators=(",", ":")))
    finally:
        if server is not None:
            server.terminate()
            server.wait()
        if dbname is not None:
            import psycopg

            from bench.cluster_load import PG

            with psycopg.connect(dbname="postgres", autocommit=True, **PG) as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{dbname}" WITH (FORCE)')
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
