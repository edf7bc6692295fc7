"""Board checkpoints kept in the database (projections/board_store.py, issue 24 point 4): a
process that starts again answers every past position exactly as a fold from the start would,
folding at most a block of events from a stored checkpoint, across rulings that void play;
every rule system's boards are stored exactly or not at all; a row holds data, never code."""

from __future__ import annotations

import io
import pickle
import random
import struct
import zlib
from datetime import datetime, timezone
from uuid import UUID

import msgspec
import pytest

from api.app import create_app
from api.bootstrap import Herald
from api.config import Settings
from api.wire.games import StateAt
from domain.events import GameCreated, SeatInfo
from domain.game import apply, create_game, project_game, resolve_decision
from domain.randomness import commitment
from domain.rng import SeededRng
from domain.rules.base import RuleViolation
from domain.rules.registry import RULE_SYSTEMS
from projections.board import Boards
from projections.board_store import StoredBoards, decode, encode, exact, setup_of
from projections.sql import Database
from projections.timeline import player_names
from replays.record import build_record
from tests.conftest import ADMIN_TOKEN, new_game, post

COURT = ["Bailli", "Sénéchal", "Prévôt", "Échanson", "Connétable", "Chambrier"]
UMPIRE = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
SEED = bytes(range(32))
NOW = datetime(2026, 11, 29, tzinfo=timezone.utc)


def void(client, game: dict, about: int) -> None:
    """alice disputes ``about``; the umpire upholds it, voiding play from there."""
    raised = client.post(f"/games/{game['id']}/disputes", json={"seat": "alice", "about_version": about, "reason": "r"},
                         headers={"Authorization": f"Bearer {game['seat_tokens']['alice']}"})
    assert raised.status_code == 201, raised.text
    ruled = client.post(f"/games/{game['id']}/rulings", headers=UMPIRE, json={
        "dispute": raised.json()["events"][0]["version"], "ruling": "upheld", "reason": "r", "void_from": about})
    assert ruled.status_code == 201, ruled.text


def disputed(client, moves: int = 60) -> dict:
    """alice holds cards of the court only she reads; rolls, draws and notes; two rulings
    void play, the second from before the first (overlapping voids)."""
    game = new_game(client, options={"decks": {"court": COURT}})
    assert post(client, game, "alice", {"type": "shuffle", "deck": "court"}).status_code == 201
    assert post(client, game, "alice", {"type": "take", "deck": "court", "count": 2}).status_code == 201
    assert post(client, game, "alice", {"type": "shuffle", "deck": "standard-54"}).status_code == 201

    def play(n: int) -> None:
        for i in range(n):
            command = [{"type": "roll", "label": f"r{i}", "dice": "2d6"}, {"type": "note", "text": f"n{i}"},
                       {"type": "draw", "deck": "standard-54", "count": 1}][i % 3]
            assert post(client, game, "bob" if i % 2 else "alice", command).status_code == 201

    play(moves)
    middle = client.get(f"/games/{game['id']}").json()["version"]
    play(moves // 2)
    void(client, game, middle)
    play(moves // 2)
    void(client, game, middle // 2)
    play(moves // 2)
    return game


def fresh_folds(events) -> list:
    """The game at every version, folded from the start (index 0: version 1)."""
    games, game = [], None
    for event in events:
        game = apply(game, event)
        games.append(game)
    return games


class Loader:
    """A store's events, remembering each read."""

    def __init__(self, store):
        self.store = store
        self.reads: list[tuple[int, int]] = []

    def __call__(self, game_id, after, upto):
        self.reads.append((after, upto))
        return self.store.stream(game_id, after, upto)


def test_a_restarted_process_folds_from_the_stored_checkpoints(client, herald):
    """Every version equals the fold from the start; after a restart (memory empty, the
    database's checkpoints there), no request folds more than a block, and the only longer
    reads are the play logs of a void's refold, once a void."""
    game = disputed(client)
    gid = UUID(game["id"])
    events = herald.games.store.stream(gid)
    voids = {e.version for e in events if e.type == "DecisionsVoided"}
    assert len(voids) == 2 and len(events) > 200
    expected = fresh_folds(events)
    stored = StoredBoards(Database.of(herald.store.recorder))
    first = Boards(Loader(herald.store), every=16, stored=stored)
    assert first.at(gid, len(events)).version == len(events)  # builds every checkpoint, handed to the database
    stored.flush()
    assert stored.written >= len(events) // 16 and stored.refused == 0

    loader = Loader(herald.store)
    again = Boards(loader, every=16, stored=StoredBoards(Database.of(herald.store.recorder)))  # a new process
    for version in random.Random(3).sample(range(1, len(events) + 1), len(events)):
        loader.reads.clear()
        got = again.at(gid, version)
        want = expected[version - 1]
        assert (got.version, got.head, got.voided) == (want.version, want.head, want.voided)
        assert msgspec.json.encode(got.state) == msgspec.json.encode(want.state)
        for after, upto in loader.reads:
            assert upto - after <= 15 or (after == 0 and upto + 1 in voids), (version, loader.reads)
    assert sum(1 for after, _ in loader.reads if after == 0) <= len(voids)


def test_every_answer_after_a_restart_is_the_fold_from_the_start(backend, client, herald):
    """GET /state?at=N, a spectator's and each seat's, after the server starts again over the
    same database (SQLite and PostgreSQL): the same bytes as before and as a fold from the
    start, hidden hands only in their seat's answer, across two rulings' voids."""
    game = disputed(client, moves=45)
    gid = UUID(game["id"])
    events = herald.games.store.stream(gid)
    expected = fresh_folds(events)
    names = player_names(expected[0].created.seats)
    readers = {None: {}, "alice": {"Authorization": f"Bearer {game['seat_tokens']['alice']}"},
               "bob": {"Authorization": f"Bearer {game['seat_tokens']['bob']}"}}
    before = {}
    for version in range(1, len(events) + 1):
        for seat, headers in readers.items():
            before[version, seat] = client.get(f"/games/{gid}/state?at={version}", headers=headers).content
    herald.games.boards.stored.flush()

    restarted = Herald(env=backend.env, admin_token=ADMIN_TOKEN, signing_key_path=backend.key)
    try:
        app = create_app(restarted, Settings(admin_token=ADMIN_TOKEN, sse_poll_seconds=0.05))
        from fastapi.testclient import TestClient

        with TestClient(app) as again:
            order = [(v, s) for v in range(1, len(events) + 1) for s in readers]
            random.Random(5).shuffle(order)
            for version, seat in order:
                body = again.get(f"/games/{gid}/state?at={version}", headers=readers[seat]).content
                assert body == before[version, seat], (version, seat)
                want = expected[version - 1]
                state = StateAt(version, want.to_act(), want.rules.view(want.state, seat),
                                want.rules.render_text(want.state, names))
                assert body == msgspec.json.encode(state), (version, seat)
                hands = msgspec.json.decode(body)["view"]["hands"]
                assert isinstance(hands.get("alice", 0), int) or seat == "alice"
    finally:
        restarted.close()


def test_checkpoints_in_memory_stay_within_their_bound(client, herald):
    game = disputed(client, moves=45)
    gid = UUID(game["id"])
    events = herald.games.store.stream(gid)
    expected = fresh_folds(events)
    boards = Boards(Loader(herald.store), every=16, checkpoints=4)
    for version in random.Random(7).sample(range(1, len(events) + 1), len(events)):
        assert boards.at(gid, version).head == expected[version - 1].head
        assert boards.size <= 4


def test_a_fold_from_a_checkpoint_across_a_void_reads_the_play_back(client, herald):
    """A checkpoint leaves the play log out; a fold from one that meets a ruling's void reads
    the play before it back from the store (once: the game after the void is a checkpoint)."""
    game = disputed(client, moves=45)
    gid = UUID(game["id"])
    events = herald.games.store.stream(gid)
    expected = fresh_folds(events)
    loader = Loader(herald.store)
    boards = Boards(loader, every=16)
    for void_at in [e.version for e in events if e.type == "DecisionsVoided"]:
        assert void_at % 16, "a void between two checkpoints"
        boards.at(gid, void_at - 1)
        loader.reads.clear()
        for version in (void_at + 1, void_at, void_at + 2):
            got = boards.at(gid, version)
            assert msgspec.json.encode(got.state) == msgspec.json.encode(expected[version - 1].state)
            assert got.voided == expected[version - 1].voided
        assert (0, void_at - 1) in loader.reads and len([r for r in loader.reads if r[0] == 0]) == 1


def test_an_imported_game_has_its_checkpoints_stored(herald):
    events: list = []
    game_id, games = played("saxon-shore", "standard", 60, seed=4, events=events)
    assert herald.games.import_record(build_record(events, SEED.hex()), by_operator=True) == game_id
    herald.games.boards.stored.flush()
    assert herald.games.boards.stored.nearest(game_id, len(games)).version == len(games) - len(games) % 16


def test_a_row_made_by_other_code_is_never_read(herald):
    game_id, games = played("open-table", "table", 40)
    db = Database.of(herald.store.recorder)
    old = StoredBoards(db, fingerprint="other code")
    old.put((game_id, g) for g in games[15::16])
    old.flush()
    assert old.written == len(games[15::16]) and old.nearest(game_id, len(games)) is not None
    ours = StoredBoards(db)
    assert ours.code != old.code and ours.nearest(game_id, len(games)) is None
    ours.put([(game_id, games[31])])
    ours.flush()
    assert ours.nearest(game_id, len(games)).version == 32  # written over, then read
    assert old.nearest(game_id, len(games)) is None  # the other code's rows are gone
    ours.rebuild()
    assert ours.nearest(game_id, len(games)) is None


def played(rules_id: str, scenario: str, decisions: int, seed: int = 1, events: list | None = None) -> tuple[UUID, list]:
    """A game of random listed commands: its id and the game at every version (its events
    appended to ``events`` when given)."""
    rules = RULE_SYSTEMS[rules_id]
    seats = ("p1", "p2") if rules.flexible_seats else rules.scenarios[scenario].seats[
        :max(2, rules.scenarios[scenario].min_players)]
    created = GameCreated(rules=rules_id, rules_version=rules.version, scenario=scenario,
                          data_hash=rules.data_hash(scenario), seats={s: SeatInfo(player=s.upper()) for s in seats},
                          seed_commitment=commitment(SEED))
    game_id = UUID(int=seed)
    first = create_game(game_id, created, NOW)
    game = project_game(None, first)
    games = [game]
    if events is not None:
        events += first
    chooser = random.Random(seed)
    for _ in range(decisions):
        to_act = game.to_act()
        if not to_act:
            break
        seat = chooser.choice(to_act)
        commands = [msgspec.to_builtins(c) for c in rules.legal_commands(game.state, seat)]
        if rules_id == "open-table":
            commands = [{"type": "roll", "label": "x", "dice": "2d6"}, {"type": "note", "text": "y"}]
        moves = [c for c in commands if c.get("type") != "done"]
        command = chooser.choice(moves) if moves and chooser.random() < 0.7 else chooser.choice(commands)
        try:
            decision = resolve_decision(game, seat, command, SeededRng(SEED, game_id, "", game.next_draw), NOW, SEED)
        except RuleViolation:
            continue
        for event in decision.events:
            game = apply(game, event)
            games.append(game)
        if events is not None:
            events += decision.events
    return game_id, games


@pytest.mark.parametrize("rules_id, scenario", [(r.id, next(iter(r.scenarios))) for r in RULE_SYSTEMS.values()]
                         + [("saladin", "hattin"), ("day-of-battle", "dorylaeum")])
def test_every_rule_systems_boards_are_stored_exactly(rules_id, scenario):
    game_id, games = played(rules_id, scenario, 40)
    assert len(games) > 20
    setup = setup_of(games[0])
    for game in games:
        plain = msgspec.structs.replace(game, log=None)
        data = exact(plain, setup)
        assert data is not None, (rules_id, game.version)
        assert decode(data, lambda _: setup) == plain
    # the data a state shares with its setup is referred to, not copied into every row
    if rules_id == "saxon-shore":
        assert len(encode(games[-1], setup)) < len(zlib.compress(pickle.dumps(games[-1].state.board), 1))


class Evil:
    def __reduce__(self):
        import os

        return (os.system, ("echo never",))


@pytest.mark.parametrize("payload", [Evil(), print, apply, StoredBoards, {"x": [Evil()]}])
def test_a_row_holds_data_never_code(payload):
    """A row someone wrote into the database to run code is refused when read: the unpickler
    builds the domain's Structs and enums and a few plain types, never a callable."""
    _, games = played("open-table", "table", 3)
    setup = setup_of(games[-1])
    good = zlib.decompress(encode(games[-1], setup))
    (size,) = struct.unpack_from(">I", good)
    header = good[4:4 + size]
    body = io.BytesIO()
    pickle.Pickler(body, protocol=5).dump(payload)
    for raw in (struct.pack(">I", size) + header + body.getvalue(),
                struct.pack(">I", len(body.getvalue())) + body.getvalue() + good[4 + size:]):
        with pytest.raises(pickle.UnpicklingError):
            decode(zlib.compress(raw), lambda _: setup)
    with pytest.raises(pickle.UnpicklingError):  # a reference to no field of the setup
        forged = io.BytesIO()

        class Refers(pickle.Pickler):
            def persistent_id(self, obj):
                return "__class__" if obj == "here" else None

        Refers(forged, protocol=5).dump(["here"])
        decode(zlib.compress(struct.pack(">I", size) + header + forged.getvalue()), lambda _: setup)
