"""DESIGN.md, "Storage": the event store on SQLite and PostgreSQL — durability, the
aggregate cache without copies, optimistic concurrency, idempotency and the index."""

from __future__ import annotations

import threading
from uuid import UUID

import pytest

from api.errors import Conflict, Invalid
from api.bootstrap import Herald
from api.wire.games import CommandRequest, CreateGame, SeatRequest
from domain.game import GENESIS_HASH, event_hash


def create(herald: Herald, seats=("alice", "bob")):
    return herald.games.create(CreateGame(rules="open-table", seats={s: SeatRequest(s.title()) for s in seats}))


def roll(herald, game, seat="alice", expected=None, key=None):
    body = CommandRequest(seat, {"type": "roll", "label": "test", "dice": "2d6"}, expected)
    return herald.games.command(UUID(game.id), body, game.seat_tokens[seat], key)


def test_events_survive_a_restart(herald, backend):
    game = create(herald)
    for _ in range(3):
        roll(herald, game)
    before = herald.games.record(UUID(game.id))
    herald.close()
    reopened = Herald(env=backend.env, signing_key_path=backend.key)
    try:
        after = reopened.games.record(UUID(game.id))
        assert after == before
        assert reopened.games.game(UUID(game.id)).next_draw == 6
        # the next command continues the chain and the draw numbers
        response, _ = roll(reopened, game)
        assert response.events[1].data["draws"] == [6, 7]
        assert response.events[0].prev_hash == before.events[-1].hash
    finally:
        reopened.close()


def test_hash_chain_links_every_stored_event(herald):
    game = create(herald)
    roll(herald, game)
    stream = herald.store.stream(UUID(game.id))
    prev = GENESIS_HASH
    for e in stream:
        assert e.prev_hash == prev
        assert e.hash == event_hash(e.originator_id, e.version, e.type, e.data, e.prev_hash,
                                    e.timestamp.isoformat(timespec="microseconds"))
        prev = e.hash


def test_cached_game_is_shared_not_copied(herald):
    """DEEPCOPY_FROM_AGGREGATE_CACHE is off: a command costs the same at any length."""
    game = create(herald)
    roll(herald, game)
    gid = UUID(game.id)
    assert herald.store.game(gid) is herald.store.game(gid)


def test_stale_expected_version_is_a_conflict(herald):
    game = create(herald)
    roll(herald, game, expected=1)
    with pytest.raises(Conflict) as error:
        roll(herald, game, expected=1)
    assert error.value.code == "stale_version"
    assert herald.games.game(UUID(game.id)).version == 3


def test_idempotent_retry_returns_the_first_response_and_draws_nothing(herald):
    game = create(herald)
    first, replayed = roll(herald, game, key="k-1")
    assert not replayed
    again, replayed = roll(herald, game, key="k-1")
    assert replayed and again == first
    assert herald.games.game(UUID(game.id)).next_draw == 2
    with pytest.raises(Invalid) as error:
        herald.games.command(UUID(game.id), CommandRequest("alice", {"type": "note", "text": "other"}),
                       game.seat_tokens["alice"], "k-1")
    assert error.value.code == "idempotency_key_reused"


def test_idempotent_retry_after_a_restart(herald, backend):
    game = create(herald)
    first, _ = roll(herald, game, key="k-2")
    roll(herald, game)
    herald.close()
    reopened = Herald(env=backend.env, signing_key_path=backend.key)
    try:
        again, replayed = roll(reopened, game, key="k-2")
        assert replayed and again == first
    finally:
        reopened.close()


def test_twenty_concurrent_commands_at_one_version(herald):
    """Exactly one of 20 commands at the same expected version wins; no gap, no duplicate."""
    game = create(herald)
    results: list[str] = []
    barrier = threading.Barrier(20)

    def send():
        barrier.wait()
        try:
            roll(herald, game, expected=1)
            results.append("ok")
        except Conflict:
            results.append("409")

    threads = [threading.Thread(target=send) for _ in range(20)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == ["409"] * 19 + ["ok"]
    versions = [e.version for e in herald.store.stream(UUID(game.id))]
    assert versions == list(range(1, len(versions) + 1)) == [1, 2, 3]


def test_two_processes_on_one_database_stay_consistent(backend):
    """Two Herald instances (as two server processes) on one database: each fast-forwards
    its cached game from the store before deciding."""
    a, b = Herald(env=backend.env, signing_key_path=backend.key), Herald(env=backend.env, signing_key_path=backend.key)
    try:
        game = create(a)
        b.games.game(UUID(game.id))  # b caches version 1
        roll(a, game)          # a moves to version 3
        # b fast-forwards from the store before deciding, so it sees version 3
        response, _ = roll(b, game)
        assert response.version == 5
        assert [e.version for e in a.store.stream(UUID(game.id))] == [1, 2, 3, 4, 5]
    finally:
        a.close()
        b.close()


def test_index_catches_up_and_rebuilds(herald):
    games = [create(herald, seats=("solo",)) for _ in range(3)]
    rows, _ = herald.games.index.list(player="Solo", limit=10)
    assert [r.id for r in rows] == [g.id for g in reversed(games)]
    herald.games.index.rebuild()
    rows_again, _ = herald.games.index.list(player="Solo", limit=10)
    assert rows_again == rows


def test_a_write_at_a_taken_version_is_refused_by_the_store(herald):
    """The library's IntegrityError (a stale write) becomes a 409 Conflict."""
    game = create(herald)
    gid = UUID(game.id)
    stale = herald.games.game(gid)
    roll(herald, game)
    from datetime import datetime, timezone

    from domain.game import take_decision
    from domain.rng import SeededRng

    seed = bytes.fromhex(herald.secrets.game(gid).seed)
    events = take_decision(stale, "bob", {"type": "note", "text": "late"},
                           SeededRng(seed, gid, "", stale.next_draw), datetime.now(timezone.utc), seed)
    with pytest.raises(Conflict):
        herald.committer.write(*events)
    assert [e.type for e in herald.store.stream(gid)] == ["GameCreated", "DecisionTaken", "DiceRolled"]


def test_a_retry_that_leaves_out_an_optional_field_is_the_same_command(herald):
    """DESIGN.md, "Idempotency": a retry with the same key gets the first answer. The first
    command is recorded as the rule system reads it (a note's ``payload`` filled in as null);
    the retry, sent exactly as the first was, must still be recognised as the same command."""
    game = create(herald)
    note = CommandRequest("alice", {"type": "note", "text": "first"})
    first, replayed = herald.games.command(UUID(game.id), note, game.seat_tokens["alice"], "k-note")
    assert not replayed
    assert first.events[0].data["command"] == {"type": "note", "text": "first", "payload": None}
    again, replayed = herald.games.command(UUID(game.id), note, game.seat_tokens["alice"], "k-note")
    assert replayed and again == first
    for different in ({"type": "note", "text": "second"}, {"type": "note"}, {"type": "nonsense"}):
        with pytest.raises(Invalid) as error:
            herald.games.command(UUID(game.id), CommandRequest("alice", different), game.seat_tokens["alice"], "k-note")
        assert error.value.code == "idempotency_key_reused"
    assert herald.games.game(UUID(game.id)).version == first.version
