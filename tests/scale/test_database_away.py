"""The database goes away mid-load (issue 17, "Bad input and faults"): commands get 503
with Retry-After, /ready fails and /health says so, nothing acknowledged is lost, and the
service recovers by itself when the database returns.

The test runs its own PostgreSQL (Debian's binaries, initdb in a temporary folder, a free
port) so that stopping it never touches the shared server other test runs use."""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import subprocess
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.conftest import BACKENDS, Backend, free_port, made
from tests.scale.conftest import process_env, start
from tests.records import expanded


class PrivatePostgres:
    """A PostgreSQL server of the test's own: initdb in a temporary folder, a free port, trust
    authentication (``password``: the postgres user's password, asked of every connection);
    ``listen`` and ``netns`` put it on another address in a network namespace."""

    def __init__(self, listen: str = "127.0.0.1", netns: str | None = None, password: str | None = None) -> None:
        self.listen, self.netns = listen, netns
        binaries = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"))
        if not binaries:
            pytest.fail("PostgreSQL's server binaries (Debian package postgresql) are not installed")
        self.bin = Path(binaries[-1]).parent
        self.folder = Path(tempfile.mkdtemp(prefix="herald-pg-"))
        self.port = free_port()
        self.user = "postgres" if os.geteuid() == 0 else None  # initdb refuses to run as root
        # stopped and removed by remove(), or by the janitor should the test's process die first
        self.made = made(self._remove, "postgres", pg_ctl=str(self.bin / "pg_ctl"), data=str(self.folder / "data"),
                         folder=str(self.folder), user=self.user, netns=netns)
        if self.user:
            uid = pwd.getpwnam(self.user).pw_uid
            os.chown(self.folder, uid, -1)
        auth = ["--auth=trust"]
        if password is not None:
            (self.folder / "password").write_text(password + "\n")
            if self.user:
                os.chown(self.folder / "password", uid, -1)
            auth = ["--auth=scram-sha-256", f"--pwfile={self.folder / 'password'}"]
        self._run("initdb", "-D", str(self.folder / "data"), "-U", "postgres", *auth, "-E", "UTF8")
        if listen != "127.0.0.1":
            with open(self.folder / "data" / "pg_hba.conf", "a") as hba:
                hba.write(f"host all all {listen.rsplit('.', 1)[0]}.0/24 trust\n")

    def _run(self, tool: str, *args: str) -> None:
        command = [str(self.bin / tool), *args]
        if self.user:
            command = ["runuser", "-u", self.user, "--", *command]
        if self.netns:
            command = ["ip", "netns", "exec", self.netns, *command]
        subprocess.run(command, check=True, capture_output=True, timeout=120)

    def start(self) -> None:
        options = f"-p {self.port} -k {self.folder} -c listen_addresses={self.listen} -c fsync=off"
        self._run("pg_ctl", "-D", str(self.folder / "data"), "-o", options, "-l", str(self.folder / "log"),
                  "-w", "start")

    def stop(self) -> None:
        self._run("pg_ctl", "-D", str(self.folder / "data"), "-m", "immediate", "-w", "stop")

    def remove(self) -> None:
        self.made.undo()

    def _remove(self) -> None:
        try:
            self.stop()
        except subprocess.CalledProcessError:
            pass
        shutil.rmtree(self.folder, ignore_errors=True)


@pytest.fixture
def private_pg() -> Iterator[PrivatePostgres]:
    if "postgres" not in BACKENDS:
        pytest.skip("a PostgreSQL fault test; HERALD_TEST_BACKENDS excludes postgres")
    server = PrivatePostgres()
    server.start()
    yield server
    server.remove()


@pytest.mark.slow  # a database stopped and started under load (make test-slow; CI)
def test_database_away_mid_load_gives_503_and_recovers_by_itself(private_pg, tmp_path):
    backend = Backend("postgres", {"PERSISTENCE_MODULE": "eventsourcing.postgres", "POSTGRES_DBNAME": "postgres",
                                   "POSTGRES_HOST": "127.0.0.1", "POSTGRES_PORT": str(private_pg.port),
                                   "POSTGRES_USER": "postgres", "POSTGRES_PASSWORD": ""})
    # the load below is this test's own: write limits off, so every answer is a 201 or a 503
    env = {**process_env(backend, tmp_path), "HERALD_WRITES_PER_TOKEN": "0", "HERALD_WRITES_PER_ADDRESS": "0"}
    server = start(tmp_path, env, "herald")
    acknowledged: list[tuple[str, int, str]] = []
    statuses: Counter[int] = Counter()
    retry_after: set[str] = set()
    stop = threading.Event()
    try:
        with httpx.Client(base_url=server.url, timeout=60) as client:
            games = [client.post("/games", json={"rules": "open-table", "seats": {"a": {"player": f"A{i}"},
                                                                                  "b": {"player": f"B{i}"}}}).json()
                     for i in range(4)]

        def play(game: dict) -> None:
            with httpx.Client(base_url=server.url, timeout=60) as client:
                n = 0
                while not stop.is_set():
                    body = {"seat": "a", "command": {"type": "roll", "label": f"{n}", "dice": "1d6"}}
                    headers = {"Authorization": f"Bearer {game['seat_tokens']['a']}", "Idempotency-Key": f"k{n}"}
                    response = client.post(f"/games/{game['id']}/commands", json=body, headers=headers)
                    statuses[response.status_code] += 1
                    if response.status_code == 201:
                        head = response.json()["head"]
                        acknowledged.append((game["id"], head["version"], head["hash"]))
                        n += 1  # a 503 is retried with the same key
                    else:
                        assert response.status_code == 503, response.text
                        assert response.headers["content-type"] == "application/problem+json"
                        retry_after.add(response.headers.get("retry-after", ""))
                        time.sleep(0.2)

        players = [threading.Thread(target=play, args=(g,)) for g in games]
        for p in players:
            p.start()
        time.sleep(2)
        before = len(acknowledged)
        assert before > 0
        private_pg.stop()
        away = time.monotonic()
        ready = None
        while time.monotonic() - away < 30:
            ready = httpx.get(server.url + "/ready", timeout=30)
            if ready.status_code == 503:
                break
            time.sleep(0.3)
        assert ready is not None and ready.status_code == 503, ready.text
        assert ready.headers.get("retry-after")
        health = httpx.get(server.url + "/health", timeout=30)
        assert health.status_code == 200 and health.json()["database"] == "unreachable"
        time.sleep(3)
        assert statuses[503] > 0, statuses
        private_pg.start()
        back = time.monotonic()
        while time.monotonic() - back < 60 and httpx.get(server.url + "/ready", timeout=30).status_code != 200:
            time.sleep(0.3)
        during = len(acknowledged)
        time.sleep(3)
        stop.set()
        for p in players:
            p.join(60)
        assert len(acknowledged) > during, "no command was recorded once the database came back"
        assert retry_after == {"2"}
        assert set(statuses) <= {201, 503}, statuses
        with httpx.Client(base_url=server.url, timeout=60) as client:
            chains = {}
            for game in games:
                record = expanded(client.get(f"/games/{game['id']}/record").json())
                assert client.post("/records/verify", json=record).json()["ok"]
                chains[game["id"]] = {e["version"]: e["hash"] for e in record["events"]}
        lost = [(g, v) for g, v, h in acknowledged if chains[g].get(v) != h]
        assert not lost
    finally:
        stop.set()
        server.stop()
