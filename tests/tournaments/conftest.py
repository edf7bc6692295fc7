"""Fixtures for the tournament tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from api.config import Settings
from api.bootstrap import Herald
from tests.conftest import ADMIN_TOKEN


@pytest.fixture
def sqlite_client(tmp_path) -> Iterator[TestClient]:
    """An in-process client on a fresh SQLite file only: for the long random-play runs whose
    storage paths the two-backend tests already cover."""
    herald = Herald(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(tmp_path / "h.db")},
                    admin_token=ADMIN_TOKEN)
    with TestClient(create_app(herald, Settings(admin_token=ADMIN_TOKEN))) as client:
        yield client
    herald.close()
