"""The production topology on one machine (docs/deploy.md): HAProxy in front of N Herald
processes on one PostgreSQL database, each game's requests sent to one process by
consistent hashing of the game id in the path. ``herald cluster`` (``make cluster``)
starts it; the tests start the same configuration.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import httpx


def haproxy_config(bind: str, servers: list[str], *, check_interval_ms: int = 1000,
                   request_timeout_s: int = 10) -> str:
    """HAProxy's configuration: ``bind`` (host:port) in front of ``servers`` (host:port each).

    - ``balance uri path-only depth 2`` + ``hash-type consistent``: the hash key is
      ``/games/<id>`` (or ``/tournaments/<id>``), so each game's commands, reads and streams
      go to one process (its cache stays hot and group commit batches its commands), and a
      process that goes down moves only its own games.
    - ``/ready`` health checks: a process whose database is away, or that died, gets nothing.
    - ``retry-on conn-failure`` with ``redispatch``: a request that could not reach a dead
      process goes to another; a request already sent is never sent twice (the client
      retries it with its Idempotency-Key).
    - ``option forwardfor``: Herald sees the client's address (uvicorn trusts
      X-Forwarded-For from the addresses in FORWARDED_ALLOW_IPS, 127.0.0.1 by default), for
      its per-client limits.
    - ``timeout http-request`` + ``option http-buffer-request``: a request's headers *and*
      body must arrive within ``request_timeout_s`` of its first byte, or HAProxy answers
      408 and closes the connection (a slowloris client trickling headers or a body holds
      nothing for long; the timeout alone covers only the headers). Bodies are buffered up
      to HAProxy's buffer (16 kB) before a process is chosen, so a slow client does not hold
      a connection to Herald either.
    - ``timeout tunnel``: live (SSE) streams stay open.
    - ``X-Served-By``: the process that answered, for operators (and the tests).
    """
    lines = [
        "global",
        "    maxconn 4000",
        "",
        "defaults",
        "    mode http",
        "    timeout connect 2s",
        "    timeout client 60s",
        f"    timeout http-request {request_timeout_s}s",
        "    timeout server 60s",
        "    timeout tunnel 1h",
        "    timeout check 3s",
        "    timeout http-keep-alive 60s",
        "    option forwardfor",
        "    option http-keep-alive",
        "    option http-buffer-request",
        "    retries 3",
        "    retry-on conn-failure",
        "    option redispatch 1",
        "",
        "frontend herald",
        f"    bind {bind}",
        "    default_backend herald",
        "",
        "backend herald",
        "    balance uri path-only depth 2",
        "    hash-type consistent",
        "    http-response set-header X-Served-By %[srv_name]",
        "    option httpchk GET /ready",
        "    http-check expect status 200",
        f"    default-server inter {check_interval_ms} fastinter {check_interval_ms // 2} fall 3 rise 2 maxconn 500",
    ]
    lines += [f"    server herald{i} {address} check" for i, address in enumerate(servers)]
    return "\n".join(lines) + "\n"


def haproxy_binary() -> str:
    found = shutil.which("haproxy") or ("/usr/sbin/haproxy" if Path("/usr/sbin/haproxy").exists() else None)
    if found is None:
        raise SystemExit("herald: HAProxy is not installed (Debian: apt-get install haproxy)")
    return found


def ensure_database() -> None:
    """Create the configured PostgreSQL database when it does not exist yet; a database that
    cannot be reached or made stops the cluster with one line saying why and what to do."""
    from api.preflight import postgres_problem

    problem = postgres_problem(dict(os.environ), create=True)
    if problem:
        raise SystemExit(f"herald cluster: {problem}")


def ports_problem(host: str, port: int, first_port: int, ports: list[int]) -> str | None:
    """The first port the cluster would listen on that is taken, in one line; None if all are free."""
    from api.preflight import port_problem

    found = port_problem(host, port, "HAProxy, --port",
                         f"stop what uses it, or choose another with --port (`make cluster PORT={port + 1}`)")
    for i, p in enumerate(ports):
        found = found or port_problem("127.0.0.1", p, f"Herald process {i}, --first-port {first_port} and up",
                                      f"stop what uses it, or move the processes with --first-port "
                                      f"(`make cluster FIRST_PORT={max(ports) + 1}`)")
    return found


def wait_until_up(url: str, timeout: float = 60, path: str = "/health") -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if httpx.get(url + path, timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    raise TimeoutError(f"{url}{path} did not answer within {timeout:.0f} s")


# The supervisor (``herald cluster``): restarts a Herald process that exits, stops everything
# on SIGTERM, SIGINT or SIGHUP, and gives up when HAProxy itself exits (docs/deploy.md, "Faults").
STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)
STOP_TIMEOUT_S = 10.0  # children get SIGTERM, then SIGKILL after this long
FIRST_RESTART_DELAY_S = 1.0
MAX_RESTART_DELAY_S = 30.0
STABLE_AFTER_S = 60.0  # a process that ran this long before exiting is restarted after the first delay
POLL_S = 0.2


def restart_delay(quick_exits: int) -> float:
    """The pause before starting a process again after its ``quick_exits``-th exit in a row
    within ``STABLE_AFTER_S`` of its start: 1 s, 2 s, 4 s, ... at most 30 s, so a process that
    crashes at once is started at most twice a minute instead of spinning a core."""
    return min(FIRST_RESTART_DELAY_S * 2 ** max(quick_exits - 1, 0), MAX_RESTART_DELAY_S)


def say(message: str) -> None:
    print(f"herald cluster: {message}", file=sys.stderr, flush=True)


def describe_exit(code: int) -> str:
    if code < 0:
        try:
            return f"code {code} (killed by {signal.Signals(-code).name})"
        except ValueError:
            pass
    return f"code {code}"


def end_with_supervisor(supervisor: int) -> Callable[[], None] | None:
    """A ``preexec_fn`` giving the child PR_SET_PDEATHSIG (SIGTERM): it is told to stop when
    the supervisor ends, however it ends. The supervisor starts its children from its main
    thread, which lives as long as it does (the signal follows the thread that forked). None
    where there is no prctl (not Linux)."""
    import ctypes
    import ctypes.util

    try:
        prctl = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True).prctl
    except (OSError, AttributeError):
        return None
    pr_set_pdeathsig = 1

    def set_death_signal() -> None:  # in the child, between fork and exec
        prctl(pr_set_pdeathsig, int(signal.SIGTERM), 0, 0, 0)
        if os.getppid() != supervisor:  # it died before the line above
            os._exit(1)

    return set_death_signal


@dataclass
class Child:
    """One process the supervisor runs: a Herald process or HAProxy."""

    name: str
    argv: list[str]
    process: subprocess.Popen | None = None
    started: float = 0.0
    quick_exits: int = 0
    restart_at: float | None = None  # set while it waits to be started again

    def start(self) -> None:
        # Its own process group: a Ctrl-C at the terminal reaches the supervisor only, which
        # stops the children itself (in order, SIGKILL after a timeout). SIGTERM if the
        # supervisor dies (kill -9 included): no Herald or HAProxy outlives it.
        self.process = subprocess.Popen(self.argv, process_group=0, preexec_fn=end_with_supervisor(os.getpid()))
        self.started = time.monotonic()
        self.restart_at = None

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def watch(self, now: float) -> None:
        """Notice an exit and schedule the restart (bounded back-off); restart when due."""
        if self.restart_at is None:
            assert self.process is not None
            code = self.process.poll()
            if code is None:
                return
            ran = now - self.started
            self.quick_exits = 0 if ran >= STABLE_AFTER_S else self.quick_exits + 1
            delay = restart_delay(self.quick_exits)
            self.restart_at = now + delay
            say(f"{self.name} exited with {describe_exit(code)} after {ran:.0f} s; "
                f"starting it again in {delay:.0f} s")
        elif now >= self.restart_at:
            self.start()
            assert self.process is not None
            say(f"{self.name} started again (pid {self.process.pid}); HAProxy sends it requests "
                f"once its checks pass")


@dataclass
class Supervisor:
    heralds: list[Child]
    proxy: Child
    stop_signal: int | None = None
    sleep: Callable[[float], None] = field(default=time.sleep)

    def on_signal(self, signum: int, _frame: object) -> None:
        self.stop_signal = signum

    def wait_up(self, child: Child, url: str, timeout: float = 60) -> bool:
        """True once ``url`` answers /health; False if a stop signal came first. A child that
        exits while starting is a configuration error (port taken, database refused): give up."""
        deadline = time.monotonic() + timeout
        while self.stop_signal is None:
            if not child.alive():
                assert child.process is not None
                raise SystemExit(f"herald cluster: {child.name} exited with "
                                 f"{describe_exit(child.process.returncode)} while starting")
            try:
                if httpx.get(url + "/health", timeout=1).status_code == 200:
                    return True
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise SystemExit(f"herald cluster: {child.name} did not answer {url}/health within {timeout:.0f} s")
            self.sleep(0.1)
        return False

    def supervise(self) -> int:
        """Until a stop signal (0) or HAProxy's exit (1), restart the Herald processes that exit."""
        while self.stop_signal is None:
            if not self.proxy.alive():
                assert self.proxy.process is not None
                say(f"HAProxy exited with {describe_exit(self.proxy.process.returncode)}: stopping the cluster")
                return 1
            now = time.monotonic()
            for child in self.heralds:
                child.watch(now)
            self.sleep(POLL_S)
        return 0

    def stop_all(self, timeout: float = STOP_TIMEOUT_S) -> None:
        """SIGTERM to every running child, SIGKILL to those still running after ``timeout``."""
        running = [c.process for c in (self.proxy, *self.heralds) if c.alive()]
        for process in running:
            process.terminate()
        deadline = time.monotonic() + timeout
        for process in running:
            try:
                process.wait(timeout=max(deadline - time.monotonic(), 0))
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def run(processes: int, host: str, port: int, first_port: int) -> int:
    """Start ``processes`` Herald processes and HAProxy in front of them and supervise them:
    a Herald process that exits is started again on its port; SIGTERM, SIGINT (Ctrl-C) or
    SIGHUP stops every child and exits 0; HAProxy exiting stops every child and exits 1."""
    if os.environ.setdefault("PERSISTENCE_MODULE", "eventsourcing.postgres") != "eventsourcing.postgres":
        raise SystemExit("herald cluster: several processes share one PostgreSQL database (PERSISTENCE_MODULE)")
    ports = [first_port + i for i in range(processes)]
    if port in ports:
        raise SystemExit(f"herald cluster: --port {port} is one of the processes' ports (--first-port {first_port})")
    problem = ports_problem(host, port, first_port, ports)
    if problem:
        raise SystemExit(f"herald cluster: {problem}")
    herald = str(Path(sys.executable).parent / "herald")
    heralds = [Child(f"process {i} (port {p})",
                     [herald, "serve", "--host", "127.0.0.1", "--port", str(p), "--log-level", "warning"])
               for i, p in enumerate(ports)]
    with tempfile.TemporaryDirectory(prefix="herald-haproxy-") as folder:
        config = Path(folder) / "haproxy.cfg"
        supervisor = Supervisor(heralds, Child("HAProxy", [haproxy_binary(), "-W", "-db", "-f", str(config)]))
        previous = {s: signal.signal(s, supervisor.on_signal) for s in STOP_SIGNALS}
        try:
            ensure_database()
            for child in heralds:
                if supervisor.stop_signal is None:
                    child.start()
            for child, p in zip(heralds, ports):
                if not supervisor.wait_up(child, f"http://127.0.0.1:{p}"):
                    return 0
            config.write_text(haproxy_config(f"{host}:{port}", [f"127.0.0.1:{p}" for p in ports]))
            supervisor.proxy.start()
            if not supervisor.wait_up(supervisor.proxy, f"http://{host}:{port}"):
                return 0
            print(f"herald cluster: http://{host}:{port} -> {processes} processes on ports "
                  f"{', '.join(map(str, ports))} (Ctrl-C or SIGTERM stops them)", flush=True)
            code = supervisor.supervise()
            if supervisor.stop_signal is not None:
                say(f"{signal.Signals(supervisor.stop_signal).name}: stopping the cluster")
            return code
        finally:
            supervisor.stop_all()
            for s, handler in previous.items():
                signal.signal(s, handler)
