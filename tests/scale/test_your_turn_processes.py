"""Issue 29, "Your turn", with several Herald processes on one PostgreSQL database: a
player's stream open on one process tells the turns a write on another brings, and a clock's
flag that falls with nobody writing is recorded once, whichever process sweeps first."""

from __future__ import annotations

import time

import httpx
import pytest

from tests.api.test_your_turn import (
    game_between,
    open_stream,
    read_events,
    register,
    send,
)
from tests.scale.conftest import process_env, start


@pytest.mark.slow  # two processes on PostgreSQL (make test-slow; CI)
def test_a_stream_on_one_process_tells_what_another_writes_and_flags_fall_once(pg, tmp_path):
    env = process_env(pg, tmp_path, HERALD_SSE_POLL_SECONDS="0.1", HERALD_CLOCK_SWEEP_SECONDS="0.2")
    servers = [start(tmp_path, env, f"herald-{i}") for i in range(2)]
    try:
        writer = httpx.Client(base_url=servers[0].url, timeout=30)
        ann = register(writer, "Ann")
        stream = open_stream(servers[1].url, "Ann", ann["Authorization"])
        game = game_between(writer, "Ann", "Bob")
        send(writer, game, "p1", {"type": "roll", "label": "far", "dice": "1d6"})
        told: list[dict] = []
        while not told or told[-1]["version"] < 3:  # until the roll is told
            more = read_events(stream, 1)
            assert more, told
            told += more
        # the other process tells each batch of writes it reads: when the creation and the roll
        # land in one batch, the player is told once, at the later version (docs/DECISIONS.md)
        assert [(t["game"], t["version"]) for t in told] in ([(game["id"], 1), (game["id"], 3)], [(game["id"], 3)])
        stream.close()

        timed = writer.post("/games", json={"rules": "open-table", "seats": {"a": {"player": "A"}, "b": {"player": "B"}},
                                            "clock": {"kind": "fischer", "base_seconds": 1}}).json()
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if writer.get(f"/games/{timed['id']}").json()["status"] == "ended":
                break
            time.sleep(0.2)
        time.sleep(1.0)  # both processes sweep again: the fall is not recorded twice
        types = [e["type"] for e in writer.get(f"/games/{timed['id']}/events").json()["events"]]
        assert types == ["GameCreated", "FlagFell", "GameEnded", "SeedRevealed"]
        writer.close()
    finally:
        for server in servers:
            server.stop()
