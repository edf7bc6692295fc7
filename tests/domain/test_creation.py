"""Issue 18: a game's creation checks and its fork rules live in domain/ (domain/creation.py),
so the verifier re-checks a record's GameCreated the way the server checked it."""

from __future__ import annotations

from datetime import datetime, timezone
from uuid import uuid4

import msgspec
import pytest

from domain.creation import (
    ForkNotNow,
    ForkRefused,
    check_created,
    check_fork,
    check_fork_play,
    check_sealed_fork,
    first_events,
    fork_seats,
    game_created,
    parse_seed,
)
from domain.errors import NotNow, SetupRefused
from domain.events import SeatInfo
from replays.record import build_record
from replays.verify import verify

NOW = datetime(2026, 11, 30, tzinfo=timezone.utc)
SEED = bytes(range(32))


def test_a_game_is_created_only_as_its_rules_allow():
    created, seed = game_created("open-table", None, {"alice": " Alice ", "bob": "Bob"}, SEED)
    assert (created.rules, created.scenario, created.seats["alice"].player, seed) == ("open-table", "table",
                                                                                       "Alice", SEED)
    for players, code in (({"Bad": "A"}, "bad_seat"), ({"a": " "}, "bad_player"), ({}, "wrong_seat_count")):
        with pytest.raises(SetupRefused) as refused:
            game_created("open-table", None, players, SEED)
        assert refused.value.code == code
    with pytest.raises(SetupRefused, match="unknown rule system"):
        game_created("chess", None, {"a": "A"}, SEED)
    with pytest.raises(SetupRefused) as refused:
        game_created("open-table", "nowhere", {"a": "A"}, SEED)
    assert refused.value.code == "unknown_scenario"
    with pytest.raises(SetupRefused) as refused:
        game_created("open-table", None, {"a": "A"}, SEED, client_seed="x" * 501)
    assert refused.value.code == "bad_client_seed"


def test_a_creator_seed_is_16_to_64_bytes_of_hex():
    assert parse_seed("00" * 16) == bytes(16)
    for text in ("zz", "00" * 15, "00" * 65):
        with pytest.raises(SetupRefused):
            parse_seed(text)
    assert game_created("open-table", None, {"a": "A"}, "11" * 20)[1] == bytes([0x11] * 20)


def test_the_verifier_refuses_a_record_whose_creation_the_rules_refuse():
    created, _ = game_created("open-table", None, {"alice": "A"}, SEED)
    game_id = uuid4()
    good = build_record(first_events(game_id, created, NOW), None)
    assert verify(good).ok
    check_created(created)
    forged = msgspec.structs.replace(created, seats={"Not A Seat": SeatInfo("A")})
    with pytest.raises(SetupRefused):
        check_created(forged)
    verdict = verify(build_record(first_events(game_id, forged, NOW), None))
    assert not verdict.ok and "bad_seat" in verdict.problems[0].what


def test_fork_rules():
    check_fork(5, 3, "fresh", [])
    for args, code in (((5, 0, "fresh", []), "no_such_version"), ((5, 6, "fresh", []), "no_such_version"),
                       ((5, 2, "other", []), "bad_dice_policy"), ((5, 2, "fresh", [3]), "bad_dice_policy")):
        with pytest.raises(ForkRefused) as refused:
            check_fork(*args)
        assert refused.value.code == code
    with pytest.raises(ForkNotNow) as refused:
        check_fork_play([], "same", public=False)
    assert isinstance(refused.value, NotNow) and refused.value.code == "seed_not_revealed"
    assert check_fork_play([], "same", public=True) is False
    with pytest.raises(ForkNotNow):
        check_sealed_fork("forced")
    check_sealed_fork("fresh")
    with pytest.raises(ForkRefused) as refused:
        fork_seats({"a": SeatInfo("A")}, {"z": object()})
    assert refused.value.code == "unknown_seat"


def test_a_scenario_is_named_where_the_rule_system_has_more_than_one():
    """Issue 27 point 5: "A scenario is required where a rule system has more than one (422
    naming them)"; where it has one, that one is the game's."""
    from domain.rules.registry import RULE_SYSTEMS

    for system in RULE_SYSTEMS.values():
        scenario = next(iter(system.scenarios.values()))
        players = {s: s.title() for s in scenario.seats[: max(2, scenario.min_players)]}
        if len(system.scenarios) == 1:
            assert game_created(system.id, None, players, SEED)[0].scenario == scenario.id
            continue
        with pytest.raises(SetupRefused) as refused:
            game_created(system.id, None, players, SEED)
        assert refused.value.code == "scenario_required", system.id
        assert all(name in refused.value.message for name in system.scenarios), refused.value.message


def test_a_game_without_its_scenario_is_refused_over_http(client):
    answer = client.post("/games", json={"rules": "saladin", "seats": {"crusaders": {"player": "Guy"},
                                                                       "ayyubids": {"player": "Yusuf"}}})
    assert answer.status_code == 422 and answer.headers["content-type"] == "application/problem+json"
    assert answer.json()["code"] == "scenario_required" and "arsuf, hattin" in answer.json()["detail"]
    assert client.get("/games", params={"rules": "saladin"}).json()["games"] == []
