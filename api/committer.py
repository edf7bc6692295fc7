"""Group commit: one writer thread decides queued commands in arrival order and commits
each batch in one transaction, so concurrent commands share one fsync.

Durability is unchanged — no response is sent before its events are committed — and so is
ordering: commands on one game are decided one after another, each on the state the one
before left (committed or not). If the store refuses a batch (another process wrote one
of its games first), each command is decided again on the fresh game and saved alone.
"""

from __future__ import annotations

import asyncio
import queue
import threading
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

from eventsourcing.persistence import IntegrityError

from domain.game import Game, Recorded

MAX_BATCH = 64


@dataclass
class Decided:
    """What a job decided: events to save (maybe none), the game they leave, and how to
    answer once they are saved."""

    events: list[Recorded]
    after: Game | None
    answer: Callable[[], Any]


@dataclass
class Job:
    """A command waiting for the writer. ``future`` is a concurrent Future, or an asyncio
    one owned by ``loop`` (then settled on that loop: no thread blocks on it)."""

    game_id: UUID
    decide: Callable[[Game], Decided]
    future: Any = field(default_factory=Future)
    loop: asyncio.AbstractEventLoop | None = None

    def settle(self, result: Any = None, error: BaseException | None = None) -> None:
        if self.loop is None:
            if not self.future.done():
                self.future.set_exception(error) if error is not None else self.future.set_result(result)
        else:
            self.loop.call_soon_threadsafe(_settle_async, self.future, result, error)

    def done(self) -> bool:
        return self.loop is None and self.future.done()


def _settle_async(future: asyncio.Future, result: Any, error: BaseException | None) -> None:
    if not future.done():  # a client that went away cancels its future
        future.set_exception(error) if error is not None else future.set_result(result)


class Committer:
    """The single writer of a process."""

    def __init__(self, load: Callable[[UUID, bool], Game], save: Callable[..., None],
                 cache_put: Callable[[UUID, Game], None]):
        """``load(game_id, fresh)``: the cached game, or (fresh) one fast-forwarded from the store."""
        self._load = load
        self._save = save
        self._cache_put = cache_put
        self._queue: queue.Queue[Job | None] = queue.Queue()
        self._thread = threading.Thread(target=self._run, name="herald-committer", daemon=True)
        self._thread.start()

    def submit(self, game_id: UUID, decide: Callable[[Game], Decided]) -> Future:
        """Queue a job; its concurrent Future gives the answer."""
        job = Job(game_id, decide)
        self._queue.put(job)
        return job.future

    def submit_async(self, game_id: UUID, decide: Callable[[Game], Decided]) -> asyncio.Future:
        """Queue a job from a running event loop; await the returned future."""
        loop = asyncio.get_running_loop()
        job = Job(game_id, decide, loop.create_future(), loop)
        self._queue.put(job)
        return job.future

    def run(self, game_id: UUID, decide: Callable[[Game], Decided]) -> Any:
        """Submit and wait (for callers on a worker thread)."""
        return self.submit(game_id, decide).result()

    def close(self) -> None:
        self._queue.put(None)
        self._thread.join(timeout=10)

    def _run(self) -> None:
        while True:
            job = self._queue.get()
            if job is None:
                return
            batch = [job]
            while len(batch) < MAX_BATCH:
                try:
                    more = self._queue.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    self._queue.put(None)
                    break
                batch.append(more)
            try:
                self._commit(batch)
            except BaseException as error:  # never let the writer die
                for j in batch:
                    if not j.done():
                        j.settle(error=error)

    def _commit(self, batch: list[Job]) -> None:
        games: dict[UUID, Game] = {}
        staged: list[tuple[Job, Decided]] = []
        for job in batch:
            try:
                decided = self._decide(job, games.get(job.game_id))
            except Exception as error:
                job.settle(error=error)
                continue
            if decided.after is not None:
                games[job.game_id] = decided.after
            staged.append((job, decided))
        events = [e for _, d in staged for e in d.events]
        if events:
            try:
                self._save(*events)
            except IntegrityError:
                self._one_by_one([job for job, _ in staged])
                return
            except Exception as error:
                for job, _ in staged:
                    job.settle(error=error)
                return
        for game_id, game in games.items():
            self._cache_put(game_id, game)
        for job, decided in staged:
            self._answer(job, decided)

    def _decide(self, job: Job, pending: Game | None) -> Decided:
        """Decide on the game this batch left, else the cached game; a refusal on a cached
        game is checked once more against the store (another process may have moved it)."""
        if pending is not None:
            return job.decide(pending)
        game = self._load(job.game_id, False)
        try:
            return job.decide(game)
        except Exception:
            fresh = self._load(job.game_id, True)
            if fresh.version == game.version:
                raise
            return job.decide(fresh)

    def _one_by_one(self, jobs: list[Job]) -> None:
        for job in jobs:
            try:
                decided = job.decide(self._load(job.game_id, True))
                if decided.events:
                    self._save(*decided.events)
                if decided.after is not None:
                    self._cache_put(job.game_id, decided.after)
            except Exception as error:
                job.settle(error=error)
                continue
            self._answer(job, decided)

    @staticmethod
    def _answer(job: Job, decided: Decided) -> None:
        try:
            answer = decided.answer()
        except Exception as error:
            job.settle(error=error)
        else:
            job.settle(answer)
