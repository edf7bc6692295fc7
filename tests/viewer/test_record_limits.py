"""Issue 11, point 4 and issue 24, point 3: ``POST /viewer/record`` checks the chain before
folding (see test_routes.py) and bounds its work: the longest record it opens (a clear 413 past
HERALD_VIEWER_MAX_EVENTS) and the events of the records it holds at once
(HERALD_VIEWER_HELD_EVENTS: the least recently opened is let go, and opened again by the page)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from api.config import Settings
from api.bootstrap import Herald
from tests.conftest import new_game, post
from tests.records import expanded


@pytest.fixture(scope="module")
def herald(tmp_path_factory):
    db = tmp_path_factory.mktemp("viewer-limits") / "herald.db"
    service = Herald(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(db)})
    yield service
    service.close()


def _client(herald, **limits) -> TestClient:
    return TestClient(create_app(herald, Settings(**limits)))


@pytest.fixture(scope="module")
def record(herald):
    with _client(herald) as client:
        game = new_game(client, seats=("p1",))
        for i in range(6):
            assert post(client, game, "p1", {"type": "roll", "label": f"r{i}", "dice": "1d6"}).status_code == 201
        return expanded(client.get(f"/games/{game['id']}/record").content)  # 13 events


def test_a_record_within_the_limits_opens(herald, record):
    with _client(herald, viewer_max_events=13) as client:
        assert client.post("/viewer/record", json=record).status_code == 200


def test_more_events_than_the_limit_is_413_and_folds_nothing(herald, record):
    with _client(herald, viewer_max_events=12) as client:
        response = client.post("/viewer/record", json=record)
    assert response.status_code == 413
    problem = response.json()
    assert problem["code"] == "record_too_long" and "HERALD_VIEWER_MAX_EVENTS" in problem["detail"]
    assert "13 events" in problem["detail"]


def test_records_held_past_the_limit_let_the_oldest_go(herald, record):
    with _client(herald, viewer_held_events=20) as client:
        first = client.post("/viewer/record", json=record).json()["key"]
        assert client.post("/viewer/record", json=record).json()["key"] == first  # held: not opened twice
        other = client.post("/viewer/record", json={**record, "signature": None}).json()["key"]  # another copy
        assert other != first
        assert client.get(f"/viewer/records/{other}/state", params={"at": 3}).status_code == 200
        gone = client.get(f"/viewer/records/{first}/state", params={"at": 3})
        assert gone.status_code == 404 and gone.json()["code"] == "record_not_open"


def test_the_defaults_take_the_longest_real_game():
    settings = Settings.from_env({})
    assert settings.viewer_max_events >= 77_448  # a 2-player Saxon Shore game played to its end


def test_the_limits_come_from_the_environment():
    settings = Settings.from_env({"HERALD_VIEWER_MAX_EVENTS": "7", "HERALD_VIEWER_HELD_EVENTS": "1000",
                                  "HERALD_VIEWER_CONCURRENCY": "1"})
    assert (settings.viewer_max_events, settings.viewer_held_events, settings.viewer_concurrency) == (7, 1000, 1)
