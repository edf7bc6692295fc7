"""api/collector.py: a served process freezes what start-up built and collects young objects
every YOUNG_THRESHOLD allocations, for its life only; an app given its Herald (the tests') leaves
the collector alone."""

from __future__ import annotations

import gc

from fastapi.testclient import TestClient

from api.app import create_app
from api.collector import YOUNG_THRESHOLD, settled


def test_settled_freezes_start_up_and_spaces_young_collections_then_restores():
    before, frozen = gc.get_threshold(), gc.get_freeze_count()
    with settled():
        assert gc.get_threshold() == (YOUNG_THRESHOLD, *before[1:])
        assert gc.get_freeze_count() > frozen
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0


def test_a_served_app_settles_the_collector_for_its_life(tmp_path, monkeypatch):
    monkeypatch.setenv("PERSISTENCE_MODULE", "eventsourcing.sqlite")
    monkeypatch.setenv("SQLITE_DBNAME", str(tmp_path / "herald.db"))
    monkeypatch.setenv("HERALD_DATA_DIR", str(tmp_path))
    before = gc.get_threshold()
    with TestClient(create_app()) as client:  # no Herald given: the app opens its own, as `herald serve` does
        assert client.get("/health").status_code == 200
        assert gc.get_threshold()[0] == YOUNG_THRESHOLD
        assert gc.get_freeze_count() > 0
    assert gc.get_threshold() == before


def test_an_app_given_its_herald_leaves_the_collector_alone(herald):
    before = gc.get_threshold()
    with TestClient(create_app(herald)) as client:
        assert client.get("/health").status_code == 200
        assert gc.get_threshold() == before
