"""The one write path of a process: every event Herald stores is appended here, and every
write tells the written hooks (live streams, bots, the results process) what it stored.

Group commit: commands are decided the moment they arrive, each on the game the command
before it left (committed or not); whatever has been decided is then committed in one
transaction and only then answered. A write that is no command on one game as it stands (a
game's creation, a seat's claim, a name's registration, a tournament's change) is written
whole by :meth:`Committer.write`, through the same append and the same hooks.

- Durability is unchanged: no answer before its events are committed (SQLite keeps
  ``synchronous=FULL``); the commands that arrive while a commit is on disk share the next.
- Order is arrival order: deciding happens under one lock, and batches are committed one
  after another by one flusher at a time.
- The first command staged when no flush is under way makes its caller the flusher: on the
  event loop, a task that waits until a few turns of the loop have staged nothing new (so
  the commands that have already arrived join the batch) and then writes it — on the loop
  itself (SQLite: a local fsync), or, with ``write_beside`` (PostgreSQL: a round trip and
  the server's fsync), on the one writer thread, which writes batch after batch while the
  loop goes on deciding the commands that arrive meanwhile; on a worker thread, the caller
  itself. Deciding is pure computation on cached games (tens of microseconds), so the
  loop does it inline; a game that is not cached is loaded before it is staged (the
  callers see to that).
- A batch the store refuses (another process wrote one of its games first) is decided
  again command by command on the fresh game and saved alone, and so is every command
  decided on top of it. Nothing decided on an unsaved state is ever saved. A command that
  keeps losing to other processes is decided again up to ``REDO_ATTEMPTS`` times, then
  answered 409 (``stale_version``): never the store's IntegrityError.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections import defaultdict
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

from eventsourcing.persistence import IntegrityError

from api.errors import Conflict, HeraldError
from domain.game import Game, Recorded

log = logging.getLogger(__name__)


@dataclass
class Decided:
    """What a job decided: events to save (maybe none), the game they leave, and how to
    answer once they are saved."""

    events: list[Recorded]
    after: Game | None
    answer: Callable[[], Any]


@dataclass
class Job:
    """A command: how to decide it, what it decided, and where its answer goes —
    a concurrent Future, or an asyncio one settled on its ``loop``."""

    game_id: UUID
    decide: Callable[[Game], Decided]
    future: Any = field(default_factory=Future)
    loop: asyncio.AbstractEventLoop | None = None
    decided: Decided | None = None


MAX_WAIT_TURNS = 8  # turns of the event loop a flush waits at most for more commands
REDO_ATTEMPTS = 8  # decisions of a command that other processes keep beating, before a 409


class Committer:
    """The one writer of a process."""

    def __init__(self, load: Callable[[UUID, bool], Game], append: Callable[..., None],
                 cache_put: Callable[[UUID, Game], None], write_beside: bool = False):
        """``load(game_id, fresh)``: the cached game, or (fresh) one fast-forwarded from the
        store. ``append(*events)``: the store's write of one transaction (IntegrityError when
        a version is taken); nothing else calls it. ``write_beside``: the event loop's batches
        are written by a writer thread while the loop goes on deciding, instead of on the loop."""
        self._writer = ThreadPoolExecutor(1, thread_name_prefix="herald-writer") if write_beside else None
        self._load = load
        self._append = append
        self._cache_put = cache_put
        # told after each write: the games it moved and its events (live streams, bots, results)
        self.written_hooks: list[Callable[[set[UUID], tuple[Any, ...]], None]] = []
        self._lock = threading.Lock()
        self._staged: list[Job] = []  # decided, not yet committed
        self._pending: dict[UUID, Game] = {}  # each game as its last staged command left it
        self._flushing = False  # a flusher is scheduled or running
        self._flusher: asyncio.Task | None = None  # held so a scheduled flush is not collected

    def close(self) -> None:
        """Wait for the writer thread to finish what it is writing."""
        if self._writer is not None:
            self._writer.shutdown(wait=True)

    def write(self, *events: Any, taken: HeraldError | None = None) -> None:
        """Write ``events`` in one transaction, outside any batch, and tell the written hooks:
        a write that is not a command decided on one game (a creation, a claim, a name's
        registration, a tournament's change). A version already taken raises ``taken``, by
        default a 409 ``stale_version``."""
        try:
            self._save(events)
        except IntegrityError:
            raise taken or Conflict("another change was recorded first; reload and retry",
                                    code="stale_version") from None

    def _save(self, events: tuple[Any, ...] | list[Any]) -> None:
        """Append, then tell the written hooks: a hook that fails is logged; the events stand."""
        self._append(*events)
        games = {event.originator_id for event in events if isinstance(event, Recorded)}
        for hook in self.written_hooks:
            try:
                hook(games, tuple(events))
            except Exception:
                log.exception("a written hook failed after a write (the write stands)")

    def run(self, game_id: UUID, decide: Callable[[Game], Decided]) -> Any:
        """Decide, commit and answer, from a thread that may block (a refusal raises)."""
        job = Job(game_id, decide)
        if self._stage(job):
            self._flush()
        return job.future.result()

    def submit_async(self, game_id: UUID, decide: Callable[[Game], Decided]) -> asyncio.Future:
        """From the running event loop: decide now (a refusal raises here) and return the
        future to await for the answer."""
        loop = asyncio.get_running_loop()
        job = Job(game_id, decide, loop.create_future(), loop)
        if self._stage(job):
            self._flusher = loop.create_task(self._flush_when_quiet())
        return job.future

    async def _flush_when_quiet(self) -> None:
        """Flush once a few turns of the loop have staged nothing new: requests that have
        already arrived join this batch instead of waiting for the next commit. Readiness,
        not a timer: with nothing arriving the flush starts after two idle turns."""
        try:
            seen, quiet = -1, 0
            for _ in range(MAX_WAIT_TURNS):
                staged = len(self._staged)
                quiet = quiet + 1 if staged == seen else 0
                if quiet == 2:
                    break
                seen = staged
                await asyncio.sleep(0)
        finally:  # even when cancelled: what is staged gets written and answered
            if self._writer is None:
                self._flush()
            else:  # the writer flushes until nothing is staged, without this loop
                self._flusher = None
                self._writer.submit(self._flush)

    # -- deciding --------------------------------------------------------------------------
    def _stage(self, job: Job) -> bool:
        """Decide ``job`` and queue it; True when the caller must flush."""
        with self._lock:
            job.decided = self._decide(job)
            if job.decided.after is not None:
                self._pending[job.game_id] = job.decided.after
            self._staged.append(job)
            if self._flushing and not self._flusher_lost():
                return False
            self._flushing = True
            return True

    def _flusher_lost(self) -> bool:
        """Whether the scheduled flush belongs to an event loop that closed before it ran."""
        flusher = self._flusher
        return flusher is not None and not flusher.done() and flusher.get_loop().is_closed()

    def _decide(self, job: Job) -> Decided:
        """Decide on the game the last staged command left, else the cached game; a refusal
        on a cached game is checked once more against the store (another process may have
        moved it)."""
        pending = self._pending.get(job.game_id)
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

    # -- committing ------------------------------------------------------------------------
    def _flush(self) -> None:
        """Commit batches until nothing is staged."""
        while True:
            with self._lock:
                if not self._staged:
                    self._flushing = False
                    return
                batch, self._staged = self._staged, []
            try:
                self._commit(batch)
            except BaseException as error:  # never leave a caller waiting
                self._answer(batch, error)

    def _commit(self, batch: list[Job]) -> None:
        events = [event for job in batch for event in job.decided.events]
        if events:
            try:
                self._save(events)
            except Exception as error:
                self._refused(batch, error)
                return
        with self._lock:
            for job in batch:
                after = job.decided.after
                if after is not None:
                    self._cache_put(job.game_id, after)
                    if self._pending.get(job.game_id) is after:
                        del self._pending[job.game_id]
        self._answer(batch)

    def _refused(self, batch: list[Job], error: Exception) -> None:
        """Nothing of ``batch`` was saved. Commands staged since were decided on top of it:
        take them back and decide them again on what the store holds."""
        with self._lock:
            later, self._staged = self._staged, []
            self._pending.clear()
        if isinstance(error, IntegrityError):
            self._one_by_one(batch + later)
        else:
            self._answer(batch, error)
            self._one_by_one(later)

    def _one_by_one(self, jobs: list[Job]) -> None:
        for job in jobs:
            try:
                self._redo(job)
            except Exception as error:
                self._answer([job], error)
            else:
                self._answer([job])

    def _redo(self, job: Job) -> None:
        """Decide ``job`` on the game as the store now holds it and save it alone; when
        another process wrote the game first again, decide again on the newer game."""
        for _ in range(REDO_ATTEMPTS):
            job.decided = job.decide(self._load(job.game_id, True))
            if job.decided.events:
                try:
                    self._save(job.decided.events)
                except IntegrityError:
                    continue
            if job.decided.after is not None:
                self._cache_put(job.game_id, job.decided.after)
            return
        raise Conflict("other commands on this game kept being recorded first; reload and retry",
                       code="stale_version")

    @staticmethod
    def _answer(jobs: list[Job], error: BaseException | None = None) -> None:
        """Settle each job with its answer (or ``error``): directly on this thread's event
        loop, else with one wake-up per loop."""
        try:
            here = asyncio.get_running_loop()
        except RuntimeError:
            here = None
        elsewhere: dict[asyncio.AbstractEventLoop, list[tuple[Any, Any, BaseException | None]]] = defaultdict(list)
        for job in jobs:
            result, failure = None, error
            if failure is None:
                try:
                    result = job.decided.answer()
                except Exception as raised:
                    failure = raised
            if job.loop is None or job.loop is here:
                _settle(job.future, result, failure)
            else:
                elsewhere[job.loop].append((job.future, result, failure))
        for loop, settled in elsewhere.items():
            try:
                loop.call_soon_threadsafe(_settle_all, settled)
            except RuntimeError:  # that loop has closed: nobody is waiting
                pass


def _settle(future: Any, result: Any, error: BaseException | None) -> None:
    if not future.done():  # a client that went away cancels its future
        future.set_exception(error) if error is not None else future.set_result(result)


def _settle_all(settled: list[tuple[asyncio.Future, Any, BaseException | None]]) -> None:
    for future, result, error in settled:
        _settle(future, result, error)
