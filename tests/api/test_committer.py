"""Group commit (api/committer.py) against a fake store, so every interleaving is exact:
commands that arrive together share one write, a refused write is decided again on the
fresh game, and nothing decided on an unsaved state is ever saved (no gap, no duplicate)."""

from __future__ import annotations

import asyncio
import threading
from dataclasses import dataclass
from uuid import UUID, uuid4

import pytest
from eventsourcing.persistence import IntegrityError

from api.committer import Committer, Decided
from api.errors import Conflict


@dataclass(frozen=True)
class Board:
    """A stand-in for a Game: the committer only needs its version."""

    version: int


class Store:
    """Versions per game, refusing a version already taken (and, like the event store,
    not a gap: the tests check there is none); counts its writes."""

    def __init__(self) -> None:
        self.versions: dict[UUID, list[int]] = {}
        self.writes: list[list[tuple[UUID, int]]] = []
        self.fail_next: Exception | None = None
        self.during_write = None  # called inside the next write, before it lands

    def save(self, *events: tuple[UUID, int]) -> None:
        if self.during_write is not None:
            hook, self.during_write = self.during_write, None
            hook()
        if self.fail_next is not None:
            error, self.fail_next = self.fail_next, None
            raise error
        taken = {(game, version) for game, versions in self.versions.items() for version in versions}
        for event in events:
            if event in taken:  # like the real store: a taken version is refused, a gap is not
                raise IntegrityError(f"version {event[1]} of {event[0]} is taken")
            taken.add(event)
        for game, version in events:
            self.versions.setdefault(game, []).append(version)
        self.writes.append(list(events))

    def load(self, game: UUID, fresh: bool) -> Board:
        return Board(len(self.versions.get(game, [])))


def make(store: Store) -> tuple[Committer, dict[UUID, Board]]:
    cache: dict[UUID, Board] = {}

    def load(game: UUID, fresh: bool) -> Board:
        if not fresh and game in cache:
            return cache[game]
        return store.load(game, fresh)

    return Committer(load, store.save, cache.__setitem__), cache


def one_more(game: UUID):
    """A command adding one event on whatever board it is decided on; answers its version."""

    def decide(board: Board) -> Decided:
        after = Board(board.version + 1)
        return Decided([(game, after.version)], after, lambda: after.version)

    return decide


def test_commands_arriving_together_share_one_write():
    store, game = Store(), uuid4()
    committer, cache = make(store)

    async def table():
        return await asyncio.gather(*(committer.submit_async(game, one_more(game)) for _ in range(8)))

    assert asyncio.run(table()) == [1, 2, 3, 4, 5, 6, 7, 8]
    assert len(store.writes) == 1 and store.versions[game] == list(range(1, 9))
    assert cache[game] == Board(8)


def test_a_refusal_raises_at_once_and_stages_nothing():
    store, game = Store(), uuid4()
    committer, _ = make(store)

    def illegal(board: Board) -> Decided:
        raise ValueError("not your turn")

    with pytest.raises(ValueError):
        committer.run(game, illegal)
    assert committer.run(game, one_more(game)) == 1
    assert store.versions[game] == [1]


def test_every_write_tells_the_written_hooks_once_the_store_took_it():
    """Issue 31, one write path: a command's batch and a write outside any batch (a creation,
    a registration) go through the same append and tell the same hooks, only once the store
    took them; a hook that fails leaves the write standing and the command answered."""
    store, game = Store(), uuid4()
    committer, _ = make(store)
    told: list[list] = []
    committer.written_hooks.append(lambda games, events: told.append(list(events)))

    def failing(games, events):
        raise RuntimeError("a hook failed")

    committer.written_hooks.append(failing)
    assert committer.run(game, one_more(game)) == 1
    committer.write((game, 2))
    assert told == store.writes == [[(game, 1)], [(game, 2)]]
    with pytest.raises(Conflict) as stale:
        committer.write((game, 2))
    assert stale.value.code == "stale_version"
    taken = Conflict("that name is taken", code="name_taken")
    with pytest.raises(Conflict) as refused:
        committer.write((game, 2), taken=taken)
    assert refused.value is taken
    assert told == store.writes == [[(game, 1)], [(game, 2)]]  # nothing refused was told


def test_a_batch_the_store_refuses_is_decided_again_on_the_fresh_game():
    """Another process wrote versions 1-2 behind this one's cache: the batch decided on the
    cached board is refused, then each command is decided again and lands after them."""
    store, game = Store(), uuid4()
    committer, cache = make(store)
    cache[game] = Board(0)
    store.versions[game] = [1, 2]  # the other process

    async def table():
        return await asyncio.gather(*(committer.submit_async(game, one_more(game)) for _ in range(3)))

    assert asyncio.run(table()) == [3, 4, 5]
    assert store.versions[game] == [1, 2, 3, 4, 5]


def test_a_failed_write_fails_its_batch_and_redoes_what_was_decided_on_top_of_it():
    """A command decided while a write was on its way stood on that write's unsaved board:
    when the write fails it must be decided again, never saved on top of a hole."""
    store, game = Store(), uuid4()
    committer, _ = make(store)
    late: list[object] = []

    def arrives_during_the_write():
        late.append(committer.submit_async(game, one_more(game)))

    async def table():
        store.fail_next = OSError("disk full")
        store.during_write = arrives_during_the_write
        first = committer.submit_async(game, one_more(game))
        with pytest.raises(OSError):
            await first
        return await late[0]

    assert asyncio.run(table()) == 1
    assert store.versions[game] == [1]


def test_threads_and_the_event_loop_share_one_writer_in_arrival_order():
    store, game = Store(), uuid4()
    committer, _ = make(store)
    answers: list[int] = []
    lock = threading.Lock()

    def worker():
        for _ in range(25):
            version = committer.run(game, one_more(game))
            with lock:
                answers.append(version)

    async def loop_side():
        for _ in range(25):
            version = await committer.submit_async(game, one_more(game))
            with lock:
                answers.append(version)

    threads = [threading.Thread(target=worker) for _ in range(3)]
    for t in threads:
        t.start()
    asyncio.run(loop_side())
    for t in threads:
        t.join(timeout=30)
    assert sorted(answers) == list(range(1, 101))
    assert store.versions[game] == list(range(1, 101))


def test_a_flush_left_behind_by_a_closed_loop_does_not_stall_the_writer():
    store, game = Store(), uuid4()
    committer, _ = make(store)
    loop = asyncio.new_event_loop()

    async def stage_only():
        committer.submit_async(game, one_more(game))  # the flush would run on a later turn

    loop.run_until_complete(stage_only())
    loop.close()  # ... which never comes
    done = threading.Event()
    result: list[int] = []
    threading.Thread(target=lambda: (result.append(committer.run(game, one_more(game))), done.set()),
                     daemon=True).start()
    assert done.wait(10), "the writer stalled behind a lost flush"
    assert result == [2] and store.versions[game] == [1, 2]


def beside(store: Store, cache: dict[UUID, Board] | None = None) -> Committer:
    """A committer whose event-loop batches are written by its writer thread (PostgreSQL)."""
    cache = {} if cache is None else cache

    def load(game: UUID, fresh: bool) -> Board:
        if not fresh and game in cache:
            return cache[game]
        return store.load(game, fresh)

    return Committer(load, store.save, cache.__setitem__, write_beside=True)


def test_beside_the_loop_commands_decided_during_a_write_form_the_next_batch():
    """While the writer thread waits on the database the loop goes on deciding: the commands
    that arrive meanwhile stand on the batch being written and are written next, in order."""
    store, game = Store(), uuid4()
    committer = beside(store)
    writing, release = threading.Event(), threading.Event()
    store.during_write = lambda: (writing.set(), release.wait(10))

    async def table():
        first = committer.submit_async(game, one_more(game))
        while not writing.is_set():  # the writer thread has the first batch
            await asyncio.sleep(0.001)
        later = [committer.submit_async(game, one_more(game)) for _ in range(5)]
        release.set()
        return [await first] + list(await asyncio.gather(*later))

    try:
        assert asyncio.run(table()) == [1, 2, 3, 4, 5, 6]
    finally:
        committer.close()
    assert store.writes == [[(game, 1)], [(game, v) for v in range(2, 7)]]


def test_beside_the_loop_a_failed_write_redoes_what_was_decided_on_top_of_it():
    store, game = Store(), uuid4()
    committer = beside(store)
    writing, release = threading.Event(), threading.Event()
    store.during_write = lambda: (writing.set(), release.wait(10))
    store.fail_next = OSError("disk full")

    async def table():
        first = committer.submit_async(game, one_more(game))
        while not writing.is_set():
            await asyncio.sleep(0.001)
        late = committer.submit_async(game, one_more(game))  # decided on the unsaved version 1
        release.set()
        with pytest.raises(OSError):
            await first
        return await late

    try:
        assert asyncio.run(table()) == 1
    finally:
        committer.close()
    assert store.versions[game] == [1]


def test_beside_the_loop_a_refused_batch_is_decided_again_on_the_fresh_game():
    store, game = Store(), uuid4()
    committer = beside(store, {game: Board(0)})
    store.versions[game] = [1, 2]  # another process wrote behind this one's cache

    async def table():
        return await asyncio.gather(*(committer.submit_async(game, one_more(game)) for _ in range(3)))

    try:
        answers = asyncio.run(table())
    finally:
        committer.close()
    assert sorted(answers) == [3, 4, 5] and store.versions[game] == [1, 2, 3, 4, 5]
