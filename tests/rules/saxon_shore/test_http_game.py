"""Issue 4: a whole 3-player Saxon Shore game over HTTP (real uvicorn, real SQLite file) by
three clients that only read ``legal-commands`` and post what they read; exported and
verified offline by the CLI. A short turn limit (a house-rule option) keeps it quick; the
clients pick "done" half the time it is listed, as trading and road moves have no cap."""

from __future__ import annotations

import pytest

import json
import random
import threading

import httpx

from tests.rules.saladin.test_http_game import client_loop as saladin_client_loop
from tests.rules.saxon_shore.bots import Patient
from tests.records import expanded



def client_loop(url, game, seat, rng, done, errors):
    saladin_client_loop(url, game, seat, Patient(rng.random()), done, errors)

SEATS = ("p1", "p2", "p3")


@pytest.mark.slow  # over 20 s of this 2-core machine (README, "Tests"): make test-slow, run by CI
def test_three_player_game_over_http_then_verified_offline(live_server, tmp_path):
    http = httpx.Client(base_url=live_server.url, timeout=30)
    created = http.post("/games", json={"rules": "saxon-shore", "scenario": "standard",
                                        "seats": {s: {"player": f"King {s}"} for s in SEATS},
                                        "options": {"turn_limit": 3}})
    assert created.status_code == 201, created.text
    game = created.json()
    done, errors = threading.Event(), []
    clients = [threading.Thread(target=client_loop, args=(live_server.url, game, seat, random.Random(seat), done, errors))
               for seat in SEATS]
    for c in clients:
        c.start()
    for c in clients:
        c.join(timeout=900)
    assert not errors, errors
    summary = http.get(f"/games/{game['id']}").json()
    assert summary["status"] == "ended" and summary["outcome"] and summary["seed"]

    path = tmp_path / "saxon.json"
    assert live_server.cli("export", game["id"], "-o", str(path)).returncode == 0
    verified = live_server.cli("replay", "verify", str(path))
    assert verified.returncode == 0, verified.stdout + verified.stderr
    record = expanded(path.read_bytes())
    assert any(e["type"] == "DiceRolled" for e in record["events"])
    shown = live_server.cli("replay", "show", str(path), "--step", str(len(record["events"]) // 2))
    assert shown.returncode == 0 and "step" in shown.stdout
