"""The analysis pool runs at most RUNNING_JOBS jobs at once (analysis/pool.py): anyone may ask
for an analysis, and each new (policy, rollouts) pair started a job of its own that ran for up
to the time budget, so a few hundred anonymous requests held as many threads and starved every
other analysis. Beyond the bound a new job is refused (503 ``analysis_busy``, Retry-After);
a job already asked for is still answered."""

from __future__ import annotations

import random
import threading

import pytest

from analysis import pool
from analysis.pool import Analyst, Busy
from tests.analysis.test_routes import SEATS, play
from tests.conftest import ADMIN_TOKEN, new_game


def test_a_job_beyond_the_bound_is_refused_and_the_running_one_still_answered(monkeypatch):
    monkeypatch.setattr(pool, "RUNNING_JOBS", 1)
    analyst = Analyst(workers=0)
    gate = threading.Event()
    first = analyst.job("a", [], 0, lambda tallies, complete: (gate.wait(10), {"done": True})[1])
    assert analyst.busy()
    with pytest.raises(Busy):
        analyst.job("b", [], 0, lambda tallies, complete: {})
    assert analyst.job("a", [], 0, lambda tallies, complete: {}) is first  # asked for already: answered
    gate.set()
    assert first.finished.wait(10) and first.result == {"done": True}
    for _ in range(100):  # the count drops as the thread ends
        if not analyst.busy():
            break
        threading.Event().wait(0.01)
    second = analyst.job("b", [], 0, lambda tallies, complete: {"done": 2})
    assert second.finished.wait(10) and second.result == {"done": 2}


def test_the_route_answers_503_analysis_busy_with_retry_after(client, monkeypatch):
    monkeypatch.setenv("HERALD_ANALYSIS_WORKERS", "0")
    game = new_game(client, "saladin", SEATS, scenario="hattin")
    play(client, game, random.Random(4), steps=6)
    fork = client.post(f"/games/{game['id']}/fork", json={"version": 5, "dice": "fresh"}).json()
    umpire = {"Authorization": f"Bearer {ADMIN_TOKEN}"}  # the parent is still played: the umpire studies its fork
    monkeypatch.setattr(pool, "RUNNING_JOBS", 0)
    for url in (f"/games/{fork['id']}/analysis", f"/games/{fork['id']}/analysis/1/commands"):
        refused = client.get(url, params={"rollouts": 2}, headers=umpire)
        assert refused.status_code == 503, refused.text
        assert refused.json()["code"] == "analysis_busy" and refused.headers["Retry-After"] == "5"
    monkeypatch.setattr(pool, "RUNNING_JOBS", 8)
    assert client.get(f"/games/{fork['id']}/analysis", params={"rollouts": 2}, headers=umpire).status_code in (200, 202)
