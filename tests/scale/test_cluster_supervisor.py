"""`herald cluster` as a supervisor (docs/deploy.md, "On one machine" and "Faults"):

- a Herald process killed with SIGKILL under load is started again on its port, HAProxy keeps
  answering meanwhile and sends the process requests again once its checks pass; it is
  restarted again when it dies again; HAProxy itself exiting stops everything (exit 1);
- SIGTERM, SIGHUP and SIGINT (even when SIGINT was ignored, as for a cluster started in the
  background by a shell) stop every child and remove the temporary HAProxy folder (exit 0);
- HAProxy closes a connection whose request headers or body trickle in (slowloris) with 408
  within `timeout http-request` (10 s), while ordinary requests pass.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import SimpleNamespace

import httpx
import pytest

from api.cluster import STOP_SIGNALS, haproxy_config, restart_delay
from tests.conftest import free_port, free_ports, track
from tests.scale.conftest import HERALD, process_env, start_haproxy


def children(pid: int) -> dict[int, str]:
    """The live child processes of ``pid``: their pid and command line."""
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            fields = stat[stat.rindex(")") + 2:].split()
            if int(fields[1]) == pid and fields[0] != "Z":
                found[int(entry.name)] = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except (OSError, ValueError):
            continue
    return found


def alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rindex(")") + 2] != "Z"


@dataclass
class Cluster:
    process: subprocess.Popen
    url: str
    first_port: int
    log: Path

    def herald_pid(self, index: int) -> int | None:
        wanted = f"--port {self.first_port + index} "
        found = [pid for pid, cmd in children(self.process.pid).items() if " serve " in cmd and wanted in cmd + " "]
        return found[0] if found else None

    def haproxy_pid(self) -> int:
        return next(pid for pid, cmd in children(self.process.pid).items() if "haproxy" in cmd)

    def output(self) -> str:
        return self.log.read_text(errors="replace")


@contextmanager
def cluster(pg, tmp_path: Path, *, ignore_sigint: bool = False) -> Iterator[Cluster]:
    """`herald cluster` with two processes on fresh ports, its temporary files in ``tmp_path``."""
    port, first = free_port(), free_ports(2)
    log = tmp_path / "cluster.log"
    env = process_env(pg, tmp_path, TMPDIR=str(tmp_path))

    def prepare() -> None:  # as a shell does for `herald cluster &`
        if ignore_sigint:
            signal.signal(signal.SIGINT, signal.SIG_IGN)

    process = subprocess.Popen([HERALD, "cluster", "--processes", "2", "--port", str(port), "--first-port", str(first)],
                               env=env, cwd=tmp_path, stdout=log.open("wb"), stderr=subprocess.STDOUT,
                               preexec_fn=prepare, start_new_session=True)
    running = track(process, group=True, timeout=20)  # the supervisor stops its children on SIGTERM
    found = Cluster(process, f"http://127.0.0.1:{port}", first, log)
    first_children: dict[int, str] = {}
    try:
        deadline = time.monotonic() + 120
        while "herald cluster: http://" not in found.output():
            assert process.poll() is None, f"herald cluster exited: {found.output()}"
            assert time.monotonic() < deadline, f"herald cluster did not start: {found.output()}"
            time.sleep(0.2)
        first_children = children(process.pid)
        yield found
    finally:
        leftovers = {**first_children, **children(process.pid)}  # those that outlived it too
        running.undo()
        for pid in leftovers:
            if alive(pid):
                os.kill(pid, signal.SIGKILL)


def wait_for(check, timeout: float, what: str):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.2)
    raise AssertionError(f"{what} within {timeout:.0f} s")


def test_restart_back_off_is_bounded():
    """A process that crashes at once is started again after 1, 2, 4, ... s, never more than 30 s."""
    assert [restart_delay(n) for n in range(1, 8)] == [1, 2, 4, 8, 16, 30, 30]
    assert restart_delay(0) == 1  # after a process that had run for a while


@pytest.mark.slow  # a cluster under load, a process killed twice (make test-slow; CI)
def test_a_killed_process_is_started_again_and_the_cluster_keeps_answering(pg, tmp_path):
    with cluster(pg, tmp_path) as found:
        with httpx.Client(base_url=found.url, timeout=10) as client:
            body = {"rules": "open-table", "seats": {"a": {"player": "A"}, "b": {"player": "B"}}}
            games = [client.post("/games", json=body).json()["id"] for _ in range(16)]
        answers: list[tuple[float, int, str]] = []  # (when, status or 0 for no answer, served by)
        stop = threading.Event()

        def load() -> None:
            with httpx.Client(base_url=found.url, timeout=5) as client:
                n = 0
                while not stop.is_set():
                    try:
                        r = client.get(f"/games/{games[n % len(games)]}")
                        answers.append((time.monotonic(), r.status_code, r.headers.get("x-served-by", "")))
                    except httpx.HTTPError:
                        answers.append((time.monotonic(), 0, ""))
                        time.sleep(0.05)
                    n += 1

        threads = [threading.Thread(target=load) for _ in range(4)]
        for t in threads:
            t.start()
        try:
            for round_ in range(2):  # and again: it keeps being restarted
                before = found.herald_pid(0)
                assert before is not None
                time.sleep(1)
                os.kill(before, signal.SIGKILL)
                killed_at = time.monotonic()
                wait_for(lambda: found.herald_pid(0) not in (None, before), 20, "process 0 was not started again")
                assert found.process.poll() is None, f"the supervisor exited: {found.output()}"
                wait_for(lambda: any(when > killed_at and by == "herald0" and status == 200
                                     for when, status, by in list(answers)),
                         30, "HAProxy did not send process 0 requests again")
                after = [(status, by) for when, status, by in list(answers) if when > killed_at]
                assert sum(1 for status, by in after if status == 200 and by == "herald1") > 0
                assert f"process 0 (port {found.first_port}) exited with code -9 (killed by SIGKILL)" in found.output()
        finally:
            stop.set()
            for t in threads:
                t.join(timeout=10)
        late = [status for when, status, _ in answers if when > time.monotonic() - 2]
        assert late and all(status == 200 for status in late), late

        # HAProxy itself exiting ends the cluster: exit 1, no process left behind.
        heralds = [found.herald_pid(0), found.herald_pid(1)]
        os.kill(found.haproxy_pid(), signal.SIGKILL)
        assert found.process.wait(timeout=20) == 1, found.output()
        assert not [pid for pid in heralds if pid and alive(pid)]
        assert "HAProxy exited" in found.output()


@pytest.mark.parametrize("signum,ignore_sigint", [(signal.SIGTERM, False), (signal.SIGINT, True)],
                         ids=["SIGTERM", "SIGINT-bg"])
def test_a_stop_signal_stops_every_child_and_removes_the_temporary_files(pg, tmp_path, signum, ignore_sigint):
    with cluster(pg, tmp_path, ignore_sigint=ignore_sigint) as found:
        kids = children(found.process.pid)
        assert len(kids) == 3, kids  # two Herald processes and HAProxy
        assert list(tmp_path.glob("herald-haproxy-*"))
        found.process.send_signal(signum)
        assert found.process.wait(timeout=25) == 0, found.output()
        assert not [pid for pid in kids if alive(pid)], f"left running: {kids}"
        assert not list(tmp_path.glob("herald-haproxy-*"))


def test_sighup_stops_the_cluster_as_sigterm_does():
    """One handler for all three (the test above sends SIGTERM and SIGINT to a real cluster)."""
    assert set(STOP_SIGNALS) == {signal.SIGTERM, signal.SIGINT, signal.SIGHUP}


def test_the_haproxy_configuration_bounds_the_time_to_send_a_request():
    config = haproxy_config("127.0.0.1:8080", ["127.0.0.1:8101"])
    assert "    timeout http-request 10s\n" in config  # headers ...
    assert "    option http-buffer-request\n" in config  # ... and body


class Echo(BaseHTTPRequestHandler):
    """A stand-in for Herald behind HAProxy: answers 200 to /ready and /health, 201 with the
    length of the body it received to a POST."""

    def do_GET(self) -> None:
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers["Content-Length"]))
        self.send_response(201)
        self.send_header("Content-Length", str(len(str(len(body)))))
        self.end_headers()
        self.wfile.write(str(len(body)).encode())

    def log_message(self, *args) -> None:
        pass


def test_haproxy_closes_slow_requests_with_408_and_passes_ordinary_ones(tmp_path):
    """Slowloris through the production configuration: 20 sockets send a POST announcing 100
    bytes of body and 4 of them, 5 send headers without their end; each gets 408 and is closed
    within the 10 s timeout (before: held until `timeout client`, 60 s of silence), while an
    ordinary POST (40 kB: more than HAProxy buffers) is passed whole."""
    backend = ThreadingHTTPServer(("127.0.0.1", 0), Echo)
    threading.Thread(target=backend.serve_forever, daemon=True).start()
    proxy = start_haproxy(tmp_path, [SimpleNamespace(port=backend.server_address[1])])
    host, port = "127.0.0.1", int(proxy.url.rsplit(":", 1)[1])
    sockets = []
    try:
        started = time.monotonic()
        for i in range(25):
            s = socket.create_connection((host, port), timeout=15)
            if i < 20:
                s.sendall(b"POST /games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                          b"Content-Length: 100\r\n\r\n{\"ru")
            else:
                s.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\nX-Slow: ")
            sockets.append(s)
        with httpx.Client(base_url=proxy.url, timeout=10) as client:
            for size in (100, 40_000):
                response = client.post("/games", content=b"x" * size)
                assert (response.status_code, response.text) == (201, str(size))
        for s in sockets:
            answer = b""
            while chunk := s.recv(4096):  # until HAProxy closes the connection
                answer += chunk
            assert answer.startswith(b"HTTP/1.1 408"), answer[:100]
        assert time.monotonic() - started < 14
    finally:
        for s in sockets:
            s.close()
        proxy.stop()
        backend.shutdown()
        backend.server_close()


def test_kill_9_of_the_supervisor_stops_every_child(pg, tmp_path):
    """Issue 32: a process ends with what started it. `kill -9` of `herald cluster` (nothing of
    it runs) stops its Herald processes and HAProxy (PR_SET_PDEATHSIG)."""
    with cluster(pg, tmp_path) as found:
        kids = children(found.process.pid)
        assert len(kids) == 3, kids  # two Herald processes and HAProxy
        found.process.send_signal(signal.SIGKILL)
        found.process.wait(timeout=10)
        wait_for(lambda: not any(alive(pid) for pid in kids), 20, f"every child stopped: {kids}")
        with pytest.raises(httpx.HTTPError):
            httpx.get(found.url + "/health", timeout=2)
