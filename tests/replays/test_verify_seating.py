"""Issue 29: "the record proves the order (commitment before every client seed) and the
verifier checks it". Records forged with a valid hash chain, as a dishonest server could write
them, fail verification where the seating rules were broken: a decision (and its dice) before
every seat gave its seed, a bot decision no BotPlayed announced, a SeatsOffered after play."""

from __future__ import annotations

from datetime import datetime, timezone
from uuid import UUID

from domain.creation import first_events, game_created
from domain.events import BotPlayed, BotSeat, DecisionTaken, SeatTaken, SeedGiven
from domain.game import chain
from domain.seating import offered
from replays.record import build_record
from replays.record_format import decode_record, encode_record
from replays.verify import verify
from tests.replays import stdlib_verifier

GAME = UUID("6f1c2a52-3b0e-4c55-9d0a-1b2c3d4e5f60")
NOW = datetime(2026, 12, 1, tzinfo=timezone.utc)
SEED = bytes(range(32))


def forged(*later, blind=True, bots=None):
    """GameCreated, SeatsOffered, then ``later`` event data, each chained as one block."""
    created, _ = game_created("open-table", None, {"alice": "Alice", "bob": "Bob"}, SEED)
    events = first_events(GAME, created, NOW)
    events += chain(GAME, 2, events[-1].hash, [offered(created, [], [], bots or {}, blind)], NOW)
    for data in later:
        events += chain(GAME, events[-1].version + 1, events[-1].hash, [data], NOW, server_seed=SEED)
    return build_record(events)


def problems(record) -> list[str]:
    verdict = verify(decode_record(encode_record(record)))
    return [p.what for p in verdict.problems]


def test_an_honest_order_verifies():
    record = forged(SeedGiven(seat="alice", seed="a1"), SeedGiven(seat="bob", seed="b2"),
                    DecisionTaken(seat="alice", command={"type": "note", "text": "hello", "payload": None}))
    assert problems(record) == []


def test_a_decision_before_every_seed_is_given_fails():
    record = forged(SeedGiven(seat="alice", seed="a1"),
                    DecisionTaken(seat="alice", command={"type": "note", "text": "hello", "payload": None}),
                    SeedGiven(seat="bob", seed="b2"))
    assert any("seats_awaited" in p for p in problems(record)), problems(record)


def test_a_seed_given_twice_or_by_an_unknown_seat_fails():
    assert any("seed_given" in p for p in problems(forged(SeedGiven(seat="alice", seed="a1"),
                                                          SeedGiven(seat="alice", seed="a2"))))
    assert any("unknown_seat" in p for p in problems(forged(SeedGiven(seat="carol", seed="c"))))
    assert any("seat_taken" in p for p in problems(forged(SeatTaken(seat="alice", player="Eve", seed="e"))))


def test_a_bots_decision_needs_its_botplayed():
    bots = {"bob": BotSeat(policy="heuristic")}
    ok = forged(DecisionTaken(seat="alice", command={"type": "note", "text": "a", "payload": None}),
                BotPlayed(seat="bob", policy="heuristic", rollouts=0, candidates=3),
                DecisionTaken(seat="bob", command={"type": "note", "text": "b", "payload": None}), blind=False, bots=bots)
    assert problems(ok) == []
    unannounced = forged(DecisionTaken(seat="bob", command={"type": "note", "text": "b", "payload": None}), blind=False, bots=bots)
    assert any("bot_seat" in p for p in problems(unannounced)), problems(unannounced)
    overspent = forged(BotPlayed(seat="bob", policy="heuristic", rollouts=5, candidates=3), blind=False, bots=bots)
    assert any("bad_bot_record" in p for p in problems(overspent)), problems(overspent)


def test_the_standard_library_verifier_checks_every_seed_precedes_the_first_draw():
    events = [(1, "GameCreated", {"seats": {"alice": {}, "bob": {}}}, None, None, None),
              (2, "SeatsOffered", {"blind_seeds": True, "bots": {}}, None, None, None),
              (3, "SeedGiven", {"seat": "alice", "seed": "a1"}, None, None, None),
              (4, "DiceRolled", {"draws": [0], "kind": "d6", "faces": [3]}, None, None, None),
              (5, "SeedGiven", {"seat": "bob", "seed": "b2"}, None, None, None)]
    client_seed, found = stdlib_verifier.blind_client_seed(events, events[1][2])
    assert found == ["version 5: a seat's seed given after the first draw (version 4)"]
    _, missing = stdlib_verifier.blind_client_seed(events[:4], events[1][2])
    assert missing == ["dice drawn before seat(s) bob gave their seed"]
