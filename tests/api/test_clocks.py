"""Issue 29, "Clocks": "Optional per game or per tournament: Fischer and a simple delay, or
days per move for correspondence play, with the time used recorded in each DecisionTaken from
the server's clock and proved in the record; a flag fall recorded as an event with the outcome
the rule system or tournament says (loss on time, or adjudication by the director); the
verifier checks the clock arithmetic from recorded times."

Time is the server's (``api.clock``, moved here by patching it); the verifier redoes every
sum from the recorded times alone, Herald's and the standard-library one of
tests/replays/stdlib_verifier.py."""

from __future__ import annotations

import time
from datetime import datetime, timedelta, timezone

import httpx
import pytest

import api.clock
from api.bootstrap import Herald
from tests.audit.test_freeze_without_umpire import rehash
from tests.conftest import ADMIN_TOKEN, new_game, post, start_server
from tests.records import compact, expanded
from tests.replays import stdlib_verifier

ROLL = {"type": "roll", "label": "clock", "dice": "1d6"}
START = datetime(2026, 3, 1, 12, 0, tzinfo=timezone.utc)


@pytest.fixture
def herald(backend):
    """The conftest's Herald without its clock sweep: these tests move time themselves, and only
    their own requests notice a flag (the sweep: the served process at the end)."""
    service = Herald(env=backend.env, admin_token=ADMIN_TOKEN, signing_key_path=backend.key, clock_sweep_seconds=0)
    yield service
    service.close()


@pytest.fixture
def at(monkeypatch):
    """Set the server's time: ``at(seconds)`` is START plus that many seconds."""
    def move(seconds: float) -> None:
        monkeypatch.setattr(api.clock, "now", lambda: START + timedelta(seconds=seconds))
    move(0)
    return move


def clocked(client, clock: dict, seats=("white", "black")) -> dict:
    return new_game(client, seats=seats, clock=clock)


def record_of(client, game) -> dict:
    return expanded(client.get(f"/games/{game['id']}/record").content)


def both_verifiers(client, record: dict) -> tuple[dict, list[str]]:
    return client.post("/records/verify", json=record).json(), stdlib_verifier.verify(compact(record))


def test_fischer_records_the_time_each_decision_used_and_the_verifiers_redo_the_sums(client, at):
    game = clocked(client, {"kind": "fischer", "base_seconds": 60, "increment_seconds": 2})
    summary = client.get(f"/games/{game['id']}").json()
    assert summary["clock"]["seats"]["white"] == {"left_ms": 60000, "running": True,
                                                  "flag_at": "2026-03-01T12:01:00.001000+00:00"}
    at(10.5)
    moved = post(client, game, "white", ROLL)
    assert moved.status_code == 201, moved.text
    events = moved.json()["events"]
    assert [e["type"] for e in events] == ["DecisionTaken", "TimeUsed", "DiceRolled"]
    assert events[1]["data"] == {"seat": "white", "since": 1, "used_ms": 10500, "left_ms": 51500}  # 60 - 10.5 + 2
    at(20.25)
    again = post(client, game, "white", ROLL).json()["events"][1]["data"]
    assert again == {"seat": "white", "since": 3, "used_ms": 9750, "left_ms": 43750}
    black = post(client, game, "black", ROLL).json()["events"][1]["data"]
    assert black == {"seat": "black", "since": 1, "used_ms": 20250, "left_ms": 41750}  # open-table: both to act
    told = {e["version"]: e["text"] for e in client.get(f"/games/{game['id']}/timeline").json()["entries"]}
    assert told[3] == "White took 10.5 s; 51.5 s left"
    shown = client.get(f"/games/{game['id']}").json()["clock"]["seats"]
    assert shown["white"]["left_ms"] == 43750 and shown["black"]["left_ms"] == 41750

    record = record_of(client, game)
    verdict, plain = both_verifiers(client, record)
    assert verdict["ok"], verdict
    assert plain == []
    # a server that charged less time than passed (the chain re-hashed, so only the sums catch it)
    forged = rehash(record, lambda e: e["data"].update(used_ms=500, left_ms=61500)
                    if e["type"] == "TimeUsed" and e["version"] == 3 else None)
    verdict, plain = both_verifiers(client, forged)
    assert not verdict["ok"] and verdict["problems"][0]["version"] == 3
    assert "replay differs" in verdict["problems"][0]["what"]
    assert plain == ["version 3: 10500 ms passed since version 1, not 500",
                     "version 6: white has 53750 ms left, not 43750"]  # the next sum starts from the forged one


def test_a_simple_delay_is_free_time_before_the_clock_runs_down(client, at):
    game = clocked(client, {"kind": "delay", "base_seconds": 30, "delay_seconds": 5})
    at(3)
    assert post(client, game, "white", ROLL).json()["events"][1]["data"]["left_ms"] == 30000  # inside the delay
    at(11)
    assert post(client, game, "white", ROLL).json()["events"][1]["data"] == {
        "seat": "white", "since": 3, "used_ms": 8000, "left_ms": 27000}
    at(43.001)  # black: 30 s + 5 s of delay allowed from version 1; 43 s have passed
    late = post(client, game, "black", ROLL)
    assert late.status_code == 422 and late.json()["code"] == "clock.flag_fallen"
    events = client.get(f"/games/{game['id']}/events", params={"after": 7}).json()["events"]
    assert [(e["type"], e["data"]) for e in events][:2] == [
        ("FlagFell", {"seat": "black", "since": 1, "used_ms": 43001, "allowed_ms": 35000}),
        ("GameEnded", {"outcome": {"winner": "white", "draw": False, "reason": "loss on time",
                                   "scores": {}, "ranking": []}})]
    verdict, plain = both_verifiers(client, record_of(client, game))
    assert verdict["ok"], verdict
    assert plain == []


def test_correspondence_gives_days_per_move_and_a_late_move_loses_on_time(client, at):
    game = clocked(client, {"kind": "correspondence", "days_per_move": 2})
    at(47 * 3600)
    used = post(client, game, "white", ROLL).json()["events"][1]["data"]
    assert used == {"seat": "white", "since": 1, "used_ms": 47 * 3600 * 1000, "left_ms": 2 * 86_400_000}
    at(49 * 3600)  # black has had more than two days since the game began
    late = post(client, game, "black", ROLL)
    assert late.status_code == 422 and late.json()["code"] == "clock.flag_fallen"
    summary = client.get(f"/games/{game['id']}").json()
    assert summary["status"] == "ended" and summary["outcome"]["winner"] == "white"
    assert summary["clock"]["flagged"] == "black"
    record = record_of(client, game)
    verdict, plain = both_verifiers(client, record)
    assert verdict["ok"] and plain == []
    # a flag fall recorded before the time had run out: the replay finds the flag standing
    early = START + timedelta(hours=30)
    forged = rehash(record, lambda e: e.update(recorded_at=early.isoformat(timespec="microseconds"))
                    if e["type"] in ("FlagFell", "GameEnded", "SeedRevealed") else None)
    verdict, plain = both_verifiers(client, forged)
    assert not verdict["ok"]
    assert any("clock.flag_standing" in p["what"] or "replay differs" in p["what"] for p in verdict["problems"])
    assert any("passed since version 1" in p for p in plain)


def test_reads_show_a_fallen_flag_and_the_next_write_records_it(client, at):
    game = clocked(client, {"kind": "fischer", "base_seconds": 10})
    at(11)
    summary = client.get(f"/games/{game['id']}").json()
    assert summary["to_act"] == [] and summary["version"] == 1  # a read records nothing
    noted = client.post(f"/games/{game['id']}/annotations", json={"text": "slow"},
                        headers={"Authorization": f"Bearer {game['seat_tokens']['white']}"})
    assert noted.status_code == 201, noted.text
    assert [e["type"] for e in noted.json()["events"]][:2] == ["FlagFell", "GameEnded"]


def test_with_more_than_two_seats_the_director_adjudicates(client, at):
    game = clocked(client, {"kind": "fischer", "base_seconds": 10, "increment_seconds": 3}, seats=("a", "b", "c"))
    at(5)  # a's flag now falls at 13 s; b's and c's at 10 s
    assert post(client, game, "a", ROLL).status_code == 201
    at(12)
    late = post(client, game, "a", ROLL)
    assert late.status_code == 422 and "adjudicates" in late.json()["detail"]
    summary = client.get(f"/games/{game['id']}").json()
    assert summary["status"] == "active" and summary["to_act"] == [] and summary["clock"]["flagged"] == "b"
    url = f"/games/{game['id']}/adjudication"
    body = {"outcome": {"winner": "a", "reason": "b and c out of time; a ahead on the table"}}
    seat = client.post(url, json=body, headers={"Authorization": f"Bearer {game['seat_tokens']['a']}"})
    assert seat.status_code == 403 and seat.json()["code"] == "not_umpire"
    bad = client.post(url, json={"outcome": {"winner": "z", "reason": "?"}},
                      headers={"Authorization": f"Bearer {ADMIN_TOKEN}"})
    assert bad.status_code == 422 and bad.json()["code"] == "unknown_seat"
    ruled = client.post(url, json=body, headers={"Authorization": f"Bearer {ADMIN_TOKEN}"})
    assert ruled.status_code == 201, ruled.text
    assert [e["type"] for e in ruled.json()["events"]] == ["Adjudicated", "GameEnded", "SeedRevealed"]
    assert client.get(f"/games/{game['id']}").json()["outcome"]["winner"] == "a"
    verdict, plain = both_verifiers(client, record_of(client, game))
    assert verdict["ok"] and plain == []


def test_a_clock_that_cannot_be_played_is_refused_naming_the_rule(client):
    for clock, code in [({"kind": "blitz", "base_seconds": 60}, "clock.bad_kind"),
                        ({"kind": "fischer", "base_seconds": 0}, "clock.bad_time"),
                        ({"kind": "correspondence", "days_per_move": 0}, "clock.bad_time"),
                        ({"kind": "fischer", "base_seconds": 60, "on_time": "draw"}, "clock.bad_on_time")]:
        refused = client.post("/games", json={"rules": "open-table", "seats": {"a": {"player": "A"}},
                                              "clock": clock})
        assert refused.status_code == 422, refused.text
        assert refused.json()["code"] == code
    assert client.get("/games").json()["games"] == []


def test_a_served_process_sweeps_flags_that_fall_with_nobody_writing(tmp_path):
    """The sweep (HERALD_CLOCK_SWEEP_SECONDS) records a flag's fall in a game nobody touches."""
    server = start_server(tmp_path, {"HERALD_CLOCK_SWEEP_SECONDS": "0.2"})
    try:
        with httpx.Client(base_url=server.url, timeout=10) as http:
            made = http.post("/games", json={"rules": "open-table", "seats": {"a": {"player": "A"}, "b": {"player": "B"}},
                                             "clock": {"kind": "fischer", "base_seconds": 1}}).json()
            deadline = time.monotonic() + 20
            while time.monotonic() < deadline:
                summary = http.get(f"/games/{made['id']}").json()
                if summary["status"] == "ended":
                    break
                time.sleep(0.2)
            assert summary["status"] == "ended", summary
            assert summary["outcome"]["reason"] == "loss on time"
            types = [e["type"] for e in http.get(f"/games/{made['id']}/events").json()["events"]]
            assert types == ["GameCreated", "FlagFell", "GameEnded", "SeedRevealed"]
            record = http.get(f"/games/{made['id']}/record").content
            verdict = http.post("/records/verify", content=record, headers={"Content-Type": "application/json"})
            assert verdict.json()["ok"], verdict.text
    finally:
        server.stop()


def test_a_tournaments_clock_times_its_games_and_its_director_adjudicates(client, at):
    """"Optional per game or per tournament ... (loss on time, or adjudication by the director)"."""
    from tests.tournaments.sim import open_tournament, pair

    refused = client.post("/tournaments", json={"name": "Slow Cup", "rules": "open-table", "format": "swiss",
                                                "rounds": 1, "clock": {"kind": "delay", "base_seconds": 0}})
    assert refused.status_code == 422 and refused.json()["code"] == "clock.bad_time"
    clock = {"kind": "correspondence", "days_per_move": 3, "on_time": "adjudicate"}
    run = open_tournament(client, ["Ann", "Bert"], rules="open-table", format="swiss", rounds=1, clock=clock)
    table = pair(client, run)["tables"][0]
    summary = client.get(f"/games/{table['game']}").json()
    assert summary["clock"]["control"] == {**clock, "base_seconds": 0, "increment_seconds": 0, "delay_seconds": 0}
    at(3 * 86400 + 1)
    assert client.get(f"/games/{table['game']}").json()["to_act"] == []
    ruled = client.post(f"/games/{table['game']}/adjudication", headers=run.director,
                        json={"outcome": {"draw": True, "reason": "both silent for three days"}})
    assert ruled.status_code == 201, ruled.text
    assert [e["type"] for e in ruled.json()["events"]] == ["FlagFell", "Adjudicated", "GameEnded", "SeedRevealed"]
    assert ruled.json()["events"][1]["data"]["by"] == "director"
    verdict, plain = both_verifiers(client, record_of(client, {"id": table["game"]}))
    assert verdict["ok"] and plain == []
