"""What the tests make outside their own process is undone, even when the process that made
it dies without running a finalizer (SIGKILL, a CI time-out, a crashed xdist worker).

A test (or fixture) registers each thing it makes — a PostgreSQL database, a server process,
a private PostgreSQL server, a network namespace, a folder — and undoes it in its finalizer
with :meth:`Janitor.undo`. Each pytest process has one janitor process of its own
(``python -m tests.janitor``, started on first use in a session of its own, so a Ctrl-C at the
terminal does not reach it). It reads what is registered and undone on a pipe; when the pipe
closes (the pytest process exited, however it exited) it undoes whatever is still registered,
newest first, and exits. A run that ends normally leaves it nothing to do.

Run as a module it is that janitor; imported, :func:`janitor` is this process's client.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

STOP_TIMEOUT_S = 10.0  # a process gets SIGTERM, then SIGKILL after this long


def start_ticks(pid: int) -> int | None:
    """When ``pid`` started (clock ticks since boot, /proc/PID/stat field 22), or None if it is
    gone or a zombie: with the pid it names one process, never a later one given the same pid."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = stat[stat.rindex(")") + 2:].split()
    return None if fields[0] in ("Z", "X") else int(fields[19])


def _same(pid: int, ticks: int | None) -> bool:
    return ticks is not None and start_ticks(pid) == ticks


def _signal(pid: int, group: bool, signum: int) -> None:
    try:
        if group:
            os.killpg(pid, signum)
        else:
            os.kill(pid, signum)
    except (ProcessLookupError, PermissionError):
        pass


def stop_process(spec: dict[str, Any], popen: subprocess.Popen | None = None) -> None:
    """SIGTERM to the process (its whole group when it leads one), SIGKILL after
    :data:`STOP_TIMEOUT_S`; what is left of its group is killed too."""
    pid, ticks, group = spec["pid"], spec["ticks"], spec.get("group", False)
    if popen is not None and popen.poll() is None:
        _signal(pid, group, signal.SIGTERM)
        try:
            popen.wait(timeout=spec.get("timeout", STOP_TIMEOUT_S))
        except subprocess.TimeoutExpired:
            _signal(pid, group, signal.SIGKILL)
            popen.wait()
    elif popen is None and _same(pid, ticks):
        _signal(pid, group, signal.SIGTERM)
        deadline = time.monotonic() + spec.get("timeout", STOP_TIMEOUT_S)
        while _same(pid, ticks) and time.monotonic() < deadline:
            time.sleep(0.1)
        if _same(pid, ticks):
            _signal(pid, group, signal.SIGKILL)
    if group:  # the leader is gone; its group's other members may not be
        _signal(pid, True, signal.SIGKILL)


def drop_databases(spec: dict[str, Any]) -> list[str]:
    """DROP DATABASE the one named, or every one whose name starts with ``prefix``; the names
    dropped."""
    import psycopg

    params = {k: spec[k] for k in ("host", "port", "user", "password")}
    with psycopg.connect(dbname="postgres", autocommit=True, connect_timeout=10, **params) as conn:
        if "prefix" in spec:
            pattern = spec["prefix"].replace("_", r"\_") + "%"
            names = [r[0] for r in conn.execute("SELECT datname FROM pg_database WHERE datname LIKE %s ORDER BY 1",
                                                (pattern,))]
        else:
            names = [spec["name"]]
        for name in names:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    return names


def stop_postgres(spec: dict[str, Any]) -> None:
    """A private PostgreSQL server (tests/scale/test_database_away.py): stopped at once, its
    folder removed."""
    command = [spec["pg_ctl"], "-D", spec["data"], "-m", "immediate", "-w", "stop"]
    if spec.get("user"):
        command = ["runuser", "-u", spec["user"], "--", *command]
    if spec.get("netns"):
        command = ["ip", "netns", "exec", spec["netns"], *command]
    if Path(spec["data"], "postmaster.pid").exists():
        subprocess.run(command, capture_output=True, timeout=60)
    shutil.rmtree(spec["folder"], ignore_errors=True)


def remove_netns(spec: dict[str, Any]) -> None:
    """Network namespaces: every process in them killed, then each deleted."""
    for name in spec["names"]:
        pids = subprocess.run(["ip", "netns", "pids", name], capture_output=True, text=True).stdout.split()
        for pid in pids:
            _signal(int(pid), False, signal.SIGKILL)
        subprocess.run(["ip", "netns", "del", name], capture_output=True)


def remove_folder(spec: dict[str, Any]) -> None:
    shutil.rmtree(spec["path"], ignore_errors=True)


def processes_of_run(run: str, leave: set[int] = frozenset()) -> dict[int, str]:
    """Live processes whose environment names the test run ``run`` (``PYTEST_HERALD_RUN``), but
    those in ``leave``, this process and janitors: pid → command line."""
    marker = f"PYTEST_HERALD_RUN={run}".encode()
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) in leave or int(entry.name) == os.getpid():
            continue
        try:
            stat = (entry / "stat").read_text()
            if stat[stat.rindex(")") + 2] in "ZX":
                continue
            if marker in (entry / "environ").read_bytes().split(b"\0"):
                command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
                if "-m tests.janitor" not in command:
                    found[int(entry.name)] = command
        except (OSError, ValueError):
            continue
    return found


UNDO = {"process": stop_process, "database": drop_databases, "databases": drop_databases,
        "postgres": stop_postgres, "netns": remove_netns, "folder": remove_folder}


class Janitor:
    """This process's client of its janitor process."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._process: subprocess.Popen | None = None
        self._next = 0
        self._pid = os.getpid()

    def _send(self, message: dict[str, Any]) -> None:
        with self._lock:
            if self._process is None or self._pid != os.getpid():
                self._pid = os.getpid()
                self._process = subprocess.Popen(
                    [sys.executable, "-m", "tests.janitor"], stdin=subprocess.PIPE,
                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
                    cwd=Path(__file__).resolve().parent.parent, close_fds=True)
            assert self._process.stdin is not None
            self._process.stdin.write(json.dumps(message).encode() + b"\n")
            self._process.stdin.flush()

    def register(self, kind: str, **spec: Any) -> int:
        """Register a thing made; returns its ticket for :meth:`undo` / :meth:`forget`."""
        assert kind in UNDO, kind
        with self._lock:
            self._next += 1
            ticket = self._next
        self._send({"op": "add", "id": ticket, "kind": kind, "spec": spec})
        return ticket

    def forget(self, ticket: int) -> None:
        """The thing is gone (undone here, or by what made it)."""
        self._send({"op": "done", "id": ticket})

    def undo(self, ticket: int, kind: str, popen: subprocess.Popen | None = None, **spec: Any) -> Any:
        """Undo it now, in this process, then forget it."""
        try:
            return UNDO[kind](spec, popen) if kind == "process" else UNDO[kind](spec)
        finally:
            self.forget(ticket)

    # -- what the fixtures use ---------------------------------------------------------------
    def process(self, popen: subprocess.Popen, group: bool = False) -> int:
        """Register a child process (``group``: it leads its own process group, stopped whole)."""
        return self.register("process", pid=popen.pid, ticks=start_ticks(popen.pid), group=group)

    def stop(self, ticket: int, popen: subprocess.Popen, group: bool = False, timeout: float = STOP_TIMEOUT_S) -> None:
        """Stop a child registered with :meth:`process`, now."""
        self.undo(ticket, "process", popen, pid=popen.pid, ticks=None, group=group, timeout=timeout)


_janitor: Janitor | None = None


def janitor() -> Janitor:
    """This process's janitor client (its janitor process starts on first use)."""
    global _janitor
    if _janitor is None or _janitor._pid != os.getpid():
        _janitor = Janitor()
    return _janitor


def serve() -> None:  # pragma: no cover - runs as the janitor process
    """Read registrations until the pipe closes; then undo what is left, newest first."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGHUP, signal.SIG_IGN)
    left: dict[int, tuple[str, dict[str, Any]]] = {}
    for line in sys.stdin.buffer:
        try:
            message = json.loads(line)
        except ValueError:
            continue
        if message["op"] == "add":
            left[message["id"]] = (message["kind"], message["spec"])
        else:
            left.pop(message["id"], None)
    for _, (kind, spec) in sorted(left.items(), reverse=True):
        try:
            UNDO[kind](spec)
        except Exception:  # noqa: BLE001 - undo all the others
            pass


if __name__ == "__main__":
    serve()
