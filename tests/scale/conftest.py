"""Fixtures for several Herald processes on one PostgreSQL database."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from tests.conftest import ADMIN_TOKEN, BACKENDS, Backend, Made, _postgres_backend, free_port, track

HERALD = str(Path(sys.executable).parent / "herald")


@pytest.fixture
def pg(tmp_path) -> Iterator[Backend]:
    """A fresh PostgreSQL database (these tests are about PostgreSQL: several processes)."""
    if "postgres" not in BACKENDS:
        pytest.skip("several processes share a PostgreSQL database; HERALD_TEST_BACKENDS excludes postgres")
    found = _postgres_backend()
    found.key = tmp_path / "signing-key.pem"
    yield found
    for undo in found.cleanup:
        undo()


@dataclass
class Process:
    """A real ``herald serve`` process."""

    url: str
    port: int
    process: subprocess.Popen
    log: Path
    made: Made | None = None

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def stop(self) -> None:
        """SIGTERM to the process (and its group: workers, analysis pool), SIGKILL after 10 s."""
        if self.made is not None:
            self.made.undo()


def process_env(backend: Backend, data_dir: Path, **extra: str) -> dict[str, str]:
    """The environment of a Herald process on ``backend``, sharing one signing key folder."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("POSTGRES_", "HERALD_", "SQLITE_"))}
    env.pop("PERSISTENCE_MODULE", None)
    return {**env, **backend.env, "HERALD_ADMIN_TOKEN": ADMIN_TOKEN, "HERALD_DATA_DIR": str(data_dir), **extra}


def start(tmp_path: Path, env: dict[str, str], name: str, *args: str, port: int | None = None,
          wait: bool = True) -> Process:
    """Start ``herald serve`` on a free port (or ``port``); wait until /health answers."""
    port = port or free_port()
    log = tmp_path / f"{name}.log"
    process = subprocess.Popen([HERALD, "serve", "--port", str(port), "--log-level", "warning", *args],
                               env=env, cwd=tmp_path, stdout=log.open("wb"), stderr=subprocess.STDOUT,
                               process_group=0)
    found = Process(f"http://127.0.0.1:{port}", port, process, log, track(process, group=True))
    if wait:
        wait_healthy(found)
    return found


def wait_healthy(found: Process, timeout: float = 150) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if found.process.poll() is not None:
            raise RuntimeError(f"herald serve exited: {found.output()}")
        try:
            if httpx.get(found.url + "/health", timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    found.stop()
    raise RuntimeError(f"herald serve did not start: {found.output()}")


@dataclass
class Proxy:
    url: str
    process: subprocess.Popen
    made: Made | None = None

    def stop(self) -> None:
        if self.made is not None:
            self.made.undo()


def start_haproxy(tmp_path: Path, servers: list[Process]) -> Proxy:
    """HAProxy (the Debian package) in front of ``servers``, configured as in production."""
    from api.cluster import haproxy_binary, haproxy_config, wait_until_up

    port = free_port()
    config = tmp_path / "haproxy.cfg"
    config.write_text(haproxy_config(f"127.0.0.1:{port}", [f"127.0.0.1:{s.port}" for s in servers],
                                     check_interval_ms=500))
    log = tmp_path / "haproxy.log"
    process = subprocess.Popen([haproxy_binary(), "-W", "-db", "-f", str(config)],
                               stdout=log.open("wb"), stderr=subprocess.STDOUT, process_group=0)
    proxy = Proxy(f"http://127.0.0.1:{port}", process, track(process, group=True))
    try:
        wait_until_up(proxy.url, timeout=30)
    except TimeoutError:
        proxy.stop()
        raise RuntimeError(f"haproxy did not start: {log.read_text()}") from None
    return proxy
