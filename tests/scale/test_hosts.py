"""Several hosts (issue 17): a database host, two Herald hosts and a load-balancer host, each
a network namespace of its own with its own address, joined by veth pairs to a switch (a
bridge in a fifth namespace). All created by the test and torn down after; the addresses
(10.231.x.0/24) exist only inside these namespaces. A bounded run through HAProxy, one
Herald host killed mid-run: the same guarantees as on one machine."""

from __future__ import annotations

import json
import os
import secrets
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from tests.conftest import ADMIN_TOKEN, BACKENDS, made, track
from tests.scale.conftest import HERALD
from tests.scale.test_database_away import PrivatePostgres

GAMES = 12  # with 6, every game hashes to one host about 3 % of the time and nothing is taken over

CLIENT = textwrap.dedent('''
    import json, sys, time, httpx
    from tests.records import expanded
    url, games, commands = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    signal_file = sys.argv[4]
    with httpx.Client(base_url=url, timeout=30) as client:
        made = [client.post("/games", json={"rules": "open-table", "seats": {"a": {"player": f"A{i}"},
                "b": {"player": f"B{i}"}}}).json() for i in range(games)]
        acknowledged, served = [], {}
        for n in range(commands):
            if n == commands // 3:
                open(signal_file, "w").write("kill")  # the test kills a host now
                time.sleep(1.5)
            for game in made:
                body = {"seat": "a", "command": {"type": "roll", "label": str(n), "dice": "1d6"}}
                headers = {"Authorization": "Bearer " + game["seat_tokens"]["a"], "Idempotency-Key": f"k{n}"}
                deadline = time.monotonic() + 60
                while True:
                    try:
                        r = client.post(f"/games/{game['id']}/commands", json=body, headers=headers)
                    except httpx.HTTPError:
                        r = None
                    if r is not None and r.status_code == 201:
                        break
                    assert r is None or r.status_code in (409, 502, 503, 504), r.text
                    assert time.monotonic() < deadline, "a command never got through"
                    time.sleep(0.2)
                acknowledged.append([game["id"], r.json()["head"]["version"], r.json()["head"]["hash"]])
                served.setdefault(game["id"], []).append(r.headers.get("x-served-by"))
        records = {g["id"]: client.get(f"/games/{g['id']}/record").json() for g in made}
        verified = {g: client.post("/records/verify", json=rec).json()["ok"] for g, rec in records.items()}
    print(json.dumps({"acknowledged": acknowledged, "served": served, "verified": verified,
                      "chains": {g: {e["version"]: e["hash"] for e in expanded(rec)["events"]} for g, rec in records.items()}}))
''')


def run(*args: str) -> None:
    subprocess.run(list(args), check=True, capture_output=True, timeout=30)


class Network:
    """Namespaces ``sw`` (a bridge), ``db``, ``h1``, ``h2`` and ``lb``, each host on 10.231.N.x."""

    HOSTS = {"db": 2, "h1": 3, "h2": 4, "lb": 5}

    def __init__(self) -> None:
        tag = secrets.token_hex(2)
        self.subnet = f"10.231.{int(tag, 16) % 250 + 1}"
        self.ns = {name: f"herald-{name}-{tag}" for name in ("sw", *self.HOSTS)}
        self.created: list[str] = []
        # deleted by remove(), or by the janitor should the test's process die first
        self.made = made(self._remove, "netns", names=list(self.ns.values()))
        try:
            for name in self.ns.values():
                run("ip", "netns", "add", name)
                self.created.append(name)
                run("ip", "-n", name, "link", "set", "lo", "up")
            sw = self.ns["sw"]
            run("ip", "-n", sw, "link", "add", "br0", "type", "bridge")
            run("ip", "-n", sw, "link", "set", "br0", "up")
            for host, last in self.HOSTS.items():
                run("ip", "-n", sw, "link", "add", f"to-{host}", "type", "veth", "peer", "name", "eth0",
                    "netns", self.ns[host])
                run("ip", "-n", sw, "link", "set", f"to-{host}", "master", "br0", "up")
                run("ip", "-n", self.ns[host], "addr", "add", f"{self.subnet}.{last}/24", "dev", "eth0")
                run("ip", "-n", self.ns[host], "link", "set", "eth0", "up")
        except Exception:
            self.remove()
            raise

    def address(self, host: str) -> str:
        return f"{self.subnet}.{self.HOSTS[host]}"

    def exec(self, host: str, *command: str) -> list[str]:
        return ["ip", "netns", "exec", self.ns[host], *command]

    def remove(self) -> None:
        self.made.undo()

    def _remove(self) -> None:
        for name in reversed(self.created):
            subprocess.run(["ip", "netns", "pids", name], capture_output=True)
            subprocess.run(["ip", "netns", "del", name], capture_output=True)
        self.created = []


@pytest.fixture
def network() -> Network:
    if "postgres" not in BACKENDS:
        pytest.skip("several hosts share a PostgreSQL database; HERALD_TEST_BACKENDS excludes postgres")
    if os.geteuid() != 0:
        pytest.skip("network namespaces need root (CAP_NET_ADMIN)")
    found = Network()
    yield found
    found.remove()


def _wait_http(network: Network, host: str, url: str, timeout: float = 90) -> None:
    probe = f"import httpx,sys; sys.exit(0 if httpx.get('{url}', timeout=2).status_code == 200 else 1)"
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if subprocess.run(network.exec(host, sys.executable, "-c", probe), capture_output=True).returncode == 0:
            return
        time.sleep(0.5)
    raise TimeoutError(f"{url} from {host} did not answer")


@pytest.mark.slow  # five namespaces, a host killed under load (make test-slow; CI)
def test_two_herald_hosts_and_a_database_host_behind_haproxy(network, tmp_path):
    from api.cluster import haproxy_binary, haproxy_config

    database = PrivatePostgres(listen=network.address("db"), netns=network.ns["db"])
    processes: list[subprocess.Popen] = []
    try:
        database.start()
        env = {k: v for k, v in os.environ.items() if not k.startswith(("POSTGRES_", "HERALD_", "SQLITE_"))}
        env.update({"PERSISTENCE_MODULE": "eventsourcing.postgres", "POSTGRES_DBNAME": "postgres",
                    "POSTGRES_HOST": network.address("db"), "POSTGRES_PORT": str(database.port),
                    "POSTGRES_USER": "postgres", "POSTGRES_PASSWORD": "", "HERALD_ADMIN_TOKEN": ADMIN_TOKEN,
                    "FORWARDED_ALLOW_IPS": network.address("lb")})
        key = tmp_path / "h1" / "signing-key.pem"  # made by the first host; the second uses it too
        for host in ("h1", "h2"):
            folder = tmp_path / host
            folder.mkdir()
            host_env = {**env, "HERALD_DATA_DIR": str(folder)}
            if key.exists():
                host_env["HERALD_SIGNING_KEY"] = str(key)
            processes.append(subprocess.Popen(
                network.exec(host, HERALD, "serve", "--host", network.address(host), "--port", "8000",
                             "--log-level", "warning"),
                env=host_env, cwd=folder, stdout=(tmp_path / f"{host}.log").open("wb"), stderr=subprocess.STDOUT,
                process_group=0))
            track(processes[-1], group=True)
            _wait_http(network, host, f"http://{network.address(host)}:8000/health")
        config = tmp_path / "haproxy.cfg"
        config.write_text(haproxy_config(f"{network.address('lb')}:8080",
                                         [f"{network.address(h)}:8000" for h in ("h1", "h2")],
                                         check_interval_ms=500))
        processes.append(subprocess.Popen(network.exec("lb", haproxy_binary(), "-W", "-db", "-f", str(config)),
                                          stdout=(tmp_path / "haproxy.log").open("wb"), stderr=subprocess.STDOUT))
        track(processes[-1])
        url = f"http://{network.address('lb')}:8080"
        _wait_http(network, "lb", url + "/ready")
        for host in ("h1", "h2"):  # both hosts up, and long enough for HAProxy's checks (500 ms, rise 2) to see it
            _wait_http(network, "lb", f"http://{network.address(host)}:8000/ready")
        time.sleep(2)
        flag = tmp_path / "kill-now"
        client = subprocess.Popen(network.exec("lb", sys.executable, "-c", CLIENT, url, str(GAMES), "6", str(flag)),
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        track(client)
        deadline = time.monotonic() + 240
        while not flag.exists():
            assert client.poll() is None, client.stderr.read()
            assert time.monotonic() < deadline
            time.sleep(0.1)
        processes[0].send_signal(signal.SIGKILL)  # host h1 goes down mid-run
        out, err = client.communicate(timeout=240)
        assert client.returncode == 0, err
        result = json.loads(out)
        assert len(result["acknowledged"]) == GAMES * 6
        assert all(result["verified"].values())
        lost = [(g, v) for g, v, h in result["acknowledged"] if result["chains"][g].get(str(v)) != h]
        assert not lost
        taken_over = [g for g, by in result["served"].items() if "herald0" in by and "herald1" in by]
        assert taken_over, result["served"]
    finally:
        for process in processes:
            if process.poll() is None:
                process.kill()
            process.wait(timeout=10)
        database.remove()
