"""Issue 11, point 11: a freeze with no umpire. With no admin token configured (what
`make run` gives) and no tournament director, a seat's freezing dispute no longer stops the
game for good: the freeze lifts when the seat that raised it or every other seat agrees,
or lapses after HERALD_FREEZE_LAPSE_SECONDS. Each is recorded (FreezeReleaseAgreed and
FreezeLifted, FreezeLapsed), the lapse decided from recorded times only, and the record
verifies."""

from __future__ import annotations

from datetime import timedelta

import msgspec
import pytest
from fastapi.testclient import TestClient

import api.clock
from api.app import create_app
from api.config import Settings
from api.bootstrap import Herald
from domain.game import event_hash
from tests.conftest import new_game, post
from tests.records import expanded

ROLL = {"type": "roll", "label": "test", "dice": "1d6"}


@pytest.fixture
def no_umpire(backend):
    """A server as `make run` starts it: no admin token."""
    herald = Herald(env=backend.env, signing_key_path=backend.key, freeze_lapse_seconds=600)
    with TestClient(create_app(herald, Settings(freeze_lapse_seconds=600))) as client:
        yield client
    herald.close()


def auth(game, seat):
    return {"Authorization": f"Bearer {game['seat_tokens'][seat]}"}


def freeze(client, game, seat="p1"):
    raised = client.post(f"/games/{game['id']}/disputes", headers=auth(game, seat),
                         json={"seat": seat, "about_version": 1, "reason": "that roll was early", "freeze": True})
    assert raised.status_code == 201, raised.text
    frozen = post(client, game, "p2", ROLL)
    assert frozen.status_code == 422 and frozen.json()["code"] == "game_frozen"
    assert "lapses at" in frozen.json()["detail"]
    return raised.json()["version"]


def test_the_other_seats_agreement_lifts_the_freeze(no_umpire):
    client = no_umpire
    game = new_game(client, seats=("p1", "p2", "p3"))
    dispute = freeze(client, game)
    first = client.post(f"/games/{game['id']}/disputes/{dispute}/release", headers=auth(game, "p2"), json={"seat": "p2"})
    assert first.status_code == 201, first.text
    assert [e["type"] for e in first.json()["events"]] == ["FreezeReleaseAgreed"]
    assert post(client, game, "p2", ROLL).json()["code"] == "game_frozen"  # p3 has not agreed yet
    again = client.post(f"/games/{game['id']}/disputes/{dispute}/release", headers=auth(game, "p2"), json={"seat": "p2"})
    assert again.status_code == 422 and again.json()["code"] == "audit.already_agreed"
    wrong = client.post(f"/games/{game['id']}/disputes/{dispute}/release", headers=auth(game, "p2"), json={"seat": "p3"})
    assert wrong.status_code == 403
    last = client.post(f"/games/{game['id']}/disputes/{dispute}/release", headers=auth(game, "p3"), json={"seat": "p3"})
    assert [(e["type"], e["data"]) for e in last.json()["events"]] == [
        ("FreezeReleaseAgreed", {"dispute": dispute, "seat": "p3"}),
        ("FreezeLifted", {"dispute": dispute, "cause": "agreement"})]
    assert post(client, game, "p2", ROLL).status_code == 201
    record = expanded(client.get(f"/games/{game['id']}/record").content)
    assert client.post("/records/verify", json=record).json()["ok"]
    # the dispute stays open (unruled) but no longer freezes
    assert client.get("/games", params={"player": "P1"}).json()["games"][0]["open_disputes"] == 1


def test_the_seat_that_froze_play_may_release_it_alone(no_umpire):
    client = no_umpire
    game = new_game(client, seats=("p1", "p2"))
    dispute = freeze(client, game)
    lifted = client.post(f"/games/{game['id']}/disputes/{dispute}/release", headers=auth(game, "p1"), json={"seat": "p1"})
    assert [e["type"] for e in lifted.json()["events"]] == ["FreezeReleaseAgreed", "FreezeLifted"]
    assert post(client, game, "p2", ROLL).status_code == 201


def test_a_freeze_lapses_after_the_configured_time_at_the_next_command(no_umpire, monkeypatch):
    client = no_umpire
    game = new_game(client, seats=("p1", "p2"))
    dispute = freeze(client, game)
    real_now = api.clock.now
    monkeypatch.setattr(api.clock, "now", lambda: real_now() + timedelta(seconds=599))
    assert post(client, game, "p2", ROLL).json()["code"] == "game_frozen"  # not yet
    assert client.get(f"/games/{game['id']}").json()["to_act"] == []
    monkeypatch.setattr(api.clock, "now", lambda: real_now() + timedelta(seconds=601))
    # reads show play open again (as the next command will find it), recording nothing
    assert client.get(f"/games/{game['id']}").json()["to_act"] == ["p1", "p2"]
    assert client.get(f"/games/{game['id']}/legal-commands", params={"seat": "p2"},
                      headers=auth(game, "p2")).json()["commands"]
    assert client.get(f"/games/{game['id']}").json()["version"] == dispute
    resumed = post(client, game, "p2", ROLL)
    assert resumed.status_code == 201, resumed.text
    events = resumed.json()["events"]
    assert (events[0]["type"], events[0]["data"]) == ("FreezeLapsed", {"dispute": dispute, "after_seconds": 600})
    assert events[1]["type"] == "DecisionTaken"
    record = expanded(client.get(f"/games/{game['id']}/record").content)
    assert client.post("/records/verify", json=record).json()["ok"]

    # A server that claimed a longer lapse than the time that passed: the verifier refuses it,
    # from the recorded times alone (the chain re-hashed, so only the rule can catch it).
    forged = rehash(record, lambda e: e["data"].update(after_seconds=3600) if e["type"] == "FreezeLapsed" else None)
    verdict = client.post("/records/verify", json=forged).json()
    assert not verdict["ok"]
    assert "audit.freeze_not_lapsed" in verdict["problems"][0]["what"]


def rehash(record: dict, change) -> dict:
    """The record with ``change`` applied to its events and every hash recomputed."""
    from uuid import UUID

    record = msgspec.json.decode(msgspec.json.encode(record))
    record.pop("signature", None)
    prev = "0" * 64
    for event in record["events"]:
        change(event)
        event["prev_hash"] = prev
        event["hash"] = prev = event_hash(UUID(record["header"]["game"]), event["version"], event["type"],
                                          event["data"], prev, event["recorded_at"])
    record["head"] = {"version": record["events"][-1]["version"], "hash": prev}
    return record


def test_with_an_umpire_only_the_ruling_lifts_a_freeze(client, monkeypatch):
    game = new_game(client, seats=("p1", "p2"))
    raised = client.post(f"/games/{game['id']}/disputes", headers=auth(game, "p1"),
                         json={"seat": "p1", "about_version": 1, "reason": "early", "freeze": True})
    dispute = raised.json()["version"]
    refused = client.post(f"/games/{game['id']}/disputes/{dispute}/release", headers=auth(game, "p2"),
                          json={"seat": "p2"})
    assert refused.status_code == 409 and refused.json()["code"] == "umpire_rules"
    real_now = api.clock.now
    monkeypatch.setattr(api.clock, "now", lambda: real_now() + timedelta(days=30))
    still = post(client, game, "p2", ROLL)
    assert still.json()["code"] == "game_frozen" and "umpire must rule" in still.json()["detail"]


@pytest.mark.parametrize("names", ["a tournament that does not exist", "a tournament that did not pair it"])
def test_a_game_merely_naming_a_tournament_has_no_umpire(no_umpire, names):
    """Issue 30, point 4: any game could name any tournament id, even one that does not exist,
    and then release answered 409 ``umpire_rules`` and the freeze never lapsed. Only the
    director of the tournament that paired the game umpires it; such a game (created the way
    games were before a game naming a tournament needed its director's token) has none."""
    from uuid import UUID

    from api.wire.games import CreateGame, SeatRequest
    from domain.events import TournamentRef

    client = no_umpire
    herald = client.app.state.herald
    tournament = "no-such-cup"
    if names == "a tournament that did not pair it":
        tournament = client.post("/tournaments", json={"name": "Cup", "rules": "open-table", "format": "swiss",
                                                       "rounds": 1}).json()["id"]
    made = herald.games.create(CreateGame(rules="open-table", seats={"p1": SeatRequest("A"), "p2": SeatRequest("B")},
                                          tournament=TournamentRef(tournament, 1, 1)))
    game = {"id": made.id, "seat_tokens": made.seat_tokens}
    assert not herald.games.has_umpire(herald.games.game(UUID(made.id)))
    dispute = freeze(client, game)
    released = client.post(f"/games/{game['id']}/disputes/{dispute}/release", headers=auth(game, "p1"),
                           json={"seat": "p1"})
    assert released.status_code == 201, released.text
    assert post(client, game, "p2", ROLL).status_code == 201
