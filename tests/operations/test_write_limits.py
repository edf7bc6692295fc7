"""Issue 11, point 9: write limits. A token bucket per bearer token and per client address
on every write; beyond it 429 problem+json with Retry-After, and nothing is recorded."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from api.config import Settings
from api.ratelimit import Buckets
from tests.conftest import ADMIN_TOKEN, new_game, post

ROLL = {"type": "roll", "label": "test", "dice": "1d6"}


def test_a_bucket_holds_its_burst_and_refills_at_its_rate():
    buckets = Buckets(rate=2.0, burst=3)
    assert [buckets.take("k", 0.0) for _ in range(3)] == [0.0, 0.0, 0.0]
    assert buckets.take("k", 0.0) == pytest.approx(0.5)  # one write back in 1/rate seconds
    assert buckets.take("other", 0.0) == 0.0  # each key has its own bucket
    assert buckets.take("k", 0.5) == 0.0
    assert buckets.take("k", 0.6) == pytest.approx(0.4)  # 0.2 refilled: 0.8 to go at 2/s
    assert [buckets.take("k", 10.0) for _ in range(4)][:3] == [0.0, 0.0, 0.0]  # refilled only up to the burst


def limited_client(herald, **limits) -> TestClient:
    return TestClient(create_app(herald, Settings(admin_token=ADMIN_TOKEN, **limits)))


def test_writes_past_the_address_limit_get_429_with_retry_after(herald):
    with limited_client(herald, writes_per_address=0.5, write_burst_per_address=3) as client:
        created = [client.post("/games", json={"rules": "open-table",
                                               "seats": {"p1": {"player": "Ann"}, "p2": {"player": "Bo"}}})
                   for _ in range(4)]
        assert [r.status_code for r in created] == [201, 201, 201, 429]
        refused = created[-1]
        assert refused.headers["content-type"] == "application/problem+json"
        assert refused.json()["code"] == "rate_limited" and refused.json()["status"] == 429
        assert refused.headers["retry-after"] == "2"
        # reads are never limited, and the refused write recorded nothing
        assert all(client.get("/health").status_code == 200 for _ in range(10))
        assert len(client.get("/games").json()["games"]) == 3


def test_commands_past_the_token_limit_get_429_and_other_tokens_go_on(herald):
    with limited_client(herald, writes_per_token=0.1, write_burst_per_token=2) as client:
        game = new_game(client, seats=("p1", "p2"))
        answers = [post(client, game, "p1", ROLL) for _ in range(3)]
        assert [r.status_code for r in answers] == [201, 201, 429]
        assert answers[-1].json()["code"] == "rate_limited"
        assert answers[-1].headers["retry-after"] == "10"
        assert post(client, game, "p2", ROLL).status_code == 201  # another token has its own bucket
        assert client.get(f"/games/{game['id']}").json()["version"] == 1 + 3 * 2


def test_a_limit_of_zero_is_off(herald):
    with limited_client(herald, writes_per_token=0, writes_per_address=0, checks_per_token=0,
                        checks_per_address=0) as client:
        game = new_game(client, seats=("p1", "p2"))
        assert all(post(client, game, "p1", ROLL).status_code == 201 for _ in range(40))
        assert client.app.limits is None  # nothing is checked at all


def test_the_defaults_let_a_busy_table_play():
    settings = Settings.from_env({})
    assert settings.writes_per_token >= 10 and settings.write_burst_per_token >= 100
    assert settings.writes_per_address >= 100 and settings.write_burst_per_address >= 1000
    limits = Settings.from_env({"HERALD_WRITES_PER_TOKEN": "0", "HERALD_WRITES_PER_ADDRESS": "5",
                                "HERALD_WRITE_BURST_PER_ADDRESS": "50"})
    assert (limits.writes_per_token, limits.writes_per_address, limits.write_burst_per_address) == (0, 5, 50)


def test_dry_runs_are_not_writes_and_have_their_own_limit(herald):
    """Issue 27 point 2: "dry runs not counted as writes (their own, cheaper limit)". A bot that
    checks before it posts spends none of its writes on checks; checks past their own bucket are
    429 too, and leave the writes untouched."""
    with limited_client(herald, writes_per_token=0.1, write_burst_per_token=2,
                        checks_per_token=0.1, check_burst_per_token=5) as client:
        game = new_game(client, seats=("p1", "p2"))
        body = {"seat": "p1", "command": ROLL}
        auth = {"Authorization": f"Bearer {game['seat_tokens']['p1']}"}
        checked = [client.post(f"/games/{game['id']}/commands/check", json=body, headers=auth) for _ in range(6)]
        assert [r.status_code for r in checked] == [200] * 5 + [429]
        assert checked[0].json() == {"accepted": True, "problem": None}
        assert checked[-1].json()["code"] == "rate_limited"
        assert [post(client, game, "p1", ROLL).status_code for _ in range(3)] == [201, 201, 429]


def test_the_default_dry_run_limit_is_wider_than_the_write_limit():
    settings = Settings.from_env({})
    assert settings.checks_per_token >= 5 * settings.writes_per_token
    assert settings.check_burst_per_token >= 5 * settings.write_burst_per_token
    assert settings.checks_per_address >= 5 * settings.writes_per_address
    assert Settings.from_env({"HERALD_CHECKS_PER_TOKEN": "7"}).checks_per_token == 7
