"""Board state at any version (projections/board.py): the same game as a fold from the
start, at every version, and no request folds more than it must."""

from __future__ import annotations

import random
import threading
import time
from datetime import datetime, timezone
from uuid import uuid4

import msgspec

from domain.events import GameCreated, SeatInfo
from domain.game import create_game, game_rng, project_game, resolve_decision
from domain.randomness import commitment
from domain.rules.registry import RULE_SYSTEMS
from projections.board import BUILD_STRETCH, Boards

SEED = bytes(range(32))
NOW = datetime(2026, 11, 29, tzinfo=timezone.utc)


def _long_game(commands: int):
    game_id = uuid4()
    rules = RULE_SYSTEMS["open-table"]
    scenario = next(iter(rules.scenarios))
    created = GameCreated(rules=rules.id, rules_version=rules.version, scenario=scenario,
                          data_hash=rules.data_hash(scenario), seats={"p1": SeatInfo("Ann")},
                          seed_commitment=commitment(SEED))
    events = create_game(game_id, created, NOW)
    game = project_game(None, events)
    for i in range(commands):
        command = {"type": "roll", "label": "x", "dice": "2d6"} if i % 3 else {"type": "note", "text": f"n{i}"}
        decision = resolve_decision(game, "p1", command, game_rng(game, SEED), NOW, SEED)
        events += decision.events
        game = decision.game
    return game_id, events


class Loader:
    """The store's events of one game, counting how many each request folds."""

    def __init__(self, events):
        self.events = events
        self.folded = 0
        self.lock = threading.Lock()

    def __call__(self, game_id, after, upto):
        time.sleep(0.005)  # a read from the store: other requests run meanwhile
        chosen = [e for e in self.events if after < e.version <= (upto or len(self.events))]
        with self.lock:
            self.folded += len(chosen)
        return chosen


def test_every_version_is_the_fold_from_the_start():
    game_id, events = _long_game(120)
    boards = Boards(Loader(events), every=16)
    for version in random.Random(1).sample(range(1, len(events) + 1), len(events)):
        expected = project_game(None, events[:version])
        got = boards.at(game_id, version)
        assert (got.version, got.head) == (version, events[version - 1].hash)
        assert msgspec.json.encode(got.state) == msgspec.json.encode(expected.state)


def test_a_warm_request_folds_fewer_events_than_a_checkpoint_interval():
    game_id, events = _long_game(150)
    loader = Loader(events)
    boards = Boards(loader, every=16)
    boards.at(game_id, len(events))  # the first request builds the checkpoints
    for version in random.Random(2).sample(range(1, len(events) + 1), 50):
        before = loader.folded
        boards.at(game_id, version)
        assert loader.folded - before <= 15


def test_requests_arriving_together_for_a_cold_game_fold_it_once():
    game_id, events = _long_game(300)
    loader = Loader(events)
    boards = Boards(loader, every=16)
    versions = [len(events) - i for i in range(8)]
    barrier = threading.Barrier(len(versions))

    def ask(version):
        barrier.wait()
        assert boards.at(game_id, version).version == version

    threads = [threading.Thread(target=ask, args=(v,)) for v in versions]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert loader.folded <= len(events) + 8 * 15


def test_a_run_of_versions_is_one_read_and_one_fold():
    game_id, events = _long_game(100)
    loader = Loader(events)
    boards = Boards(loader, every=16)
    boards.at(game_id, 40)  # checkpoints to 32
    calls = []
    boards._load = lambda *args: calls.append(args) or loader(*args)
    got = boards.between(game_id, 48, 63)
    assert calls == [(game_id, 32, 63)]  # checkpoint 48 built on the way
    assert [g.version for g in got] == list(range(48, 64))
    for game in got:
        expected = project_game(None, events[:game.version])
        assert msgspec.json.encode(game.state) == msgspec.json.encode(expected.state)
    calls.clear()
    # the block's events were read whole: kept with its checkpoint, read no more
    assert [g.version for g in boards.between(game_id, 49, 50)] == [49, 50] and calls == []
    assert [g.version for g in boards.between(game_id, 1, 15)] == list(range(1, 16))
    assert calls == []  # blocks 0 and 16 were read whole by the first fold


def test_checkpoints_are_built_a_stretch_at_a_time():
    """A first reader of a late version builds the checkpoints in stretches of BUILD_STRETCH
    versions, one read each, letting go of the builder's lock between them: a reader of an
    earlier version waits for its own checkpoint, not for the whole game."""
    game_id, events = _long_game(700)
    loader = Loader(events)
    boards = Boards(loader, every=16)
    calls = []
    boards._load = lambda *args: calls.append(args) or loader(*args)
    assert boards.at(game_id, 600).version == 600
    assert BUILD_STRETCH == 256 and calls == [(game_id, 0, 256), (game_id, 256, 512), (game_id, 512, 600)]
    calls.clear()
    assert boards.at(game_id, 300).version == 300 and calls == []  # its block's events kept by the build
    assert boards.at(game_id, 601).version == 601 and calls == [(game_id, 592, 607)]  # to its block's end
    calls.clear()
    assert boards.at(game_id, 605).version == 605 and calls == []
