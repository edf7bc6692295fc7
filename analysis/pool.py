"""The worker layer of the analysis: a pool of processes (``concurrent.futures``), jobs that
share it with a time budget, their progress, and a cache of finished results keyed by game,
version, policy, rollouts and what the reader may see. The clock is read here only: the
rollouts themselves (:mod:`analysis.engine`) are pure.
"""

from __future__ import annotations

import multiprocessing
import os
import select
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any

from analysis.engine import Unit, run_unit

CACHED_JOBS = 256
RUNNING_JOBS = 8  # jobs computed at once (each shares the pool); beyond, a new one is refused (Busy)


class Busy(Exception):
    """Too many analyses are running: a new one is not started (the caller says to retry)."""


class Job:
    """One analysis being computed (or done): its progress, then its result."""

    def __init__(self, total: int):
        self.total = total
        self.done = 0
        self.result: dict[str, Any] | None = None
        self.error: str | None = None
        self.finished = threading.Event()

    def progress(self) -> dict[str, Any]:
        return {"status": "failed" if self.error else ("done" if self.result is not None else "running"),
                "done": self.done, "total": self.total,
                "progress": round(self.done / self.total, 4) if self.total else 1.0}


class Analyst:
    """The process pool and the jobs it runs. ``workers`` processes (0: in this process, for
    tests and small runs), ``niceness`` steps below the server; each job stops at ``budget``
    seconds, keeping what it has."""

    def __init__(self, workers: int = 2, budget: float = 120.0, niceness: int = 0):
        self.workers = workers
        self.budget = budget
        self.niceness = niceness
        self._executor: ProcessPoolExecutor | None = None
        self._lock = threading.Lock()
        self._jobs: OrderedDict[Any, Job] = OrderedDict()
        self._running = 0  # jobs started and not finished, evicted from the cache or not

    def executor(self) -> ProcessPoolExecutor:
        with self._lock:
            if self._executor is None:  # spawn: forking a threaded server is not safe
                self._executor = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"),
                                                     initializer=start_worker, initargs=(os.getpid(), self.niceness))
            return self._executor

    def close(self, wait: bool = False) -> None:
        with self._lock:
            if self._executor is not None:
                self._executor.shutdown(wait=wait, cancel_futures=True)
                self._executor = None

    def cached(self, key: Any) -> Job | None:
        """The job for ``key`` if there is one (running or done, not failed)."""
        with self._lock:
            found = self._jobs.get(key)
            if found is None or found.error:
                return None
            self._jobs.move_to_end(key)
            return found

    def busy(self) -> bool:
        """Whether :data:`RUNNING_JOBS` jobs are running: a new one would be refused."""
        with self._lock:
            return self._running >= RUNNING_JOBS

    def job(self, key: Any, units: list[tuple[int, Unit]], slots: int,
            finish: Callable[[list[dict[str, int]], bool], dict[str, Any]]) -> Job:
        """The job for ``key``: the cached one, or a new one started in the background
        (:class:`Busy` when :data:`RUNNING_JOBS` are running already).
        ``finish(tallies, complete)`` makes the result from one tally per slot."""
        with self._lock:
            found = self._jobs.get(key)
            if found is not None and not found.error:
                self._jobs.move_to_end(key)
                return found
            if self._running >= RUNNING_JOBS:
                raise Busy(f"{self._running} analyses are running")
            self._running += 1
            job = Job(len(units))
            self._jobs[key] = job
            while len(self._jobs) > CACHED_JOBS:
                self._jobs.popitem(last=False)
        threading.Thread(target=self._background, args=(job, units, slots, finish), daemon=True).start()
        return job

    def _background(self, job: Job, units: list[tuple[int, Unit]], slots: int,
                    finish: Callable[[list[dict[str, int]], bool], dict[str, Any]]) -> None:
        try:
            self._run(job, units, slots, finish)
        finally:
            with self._lock:
                self._running -= 1

    def run(self, units: list[tuple[int, Unit]], slots: int,
            finish: Callable[[list[dict[str, int]], bool], dict[str, Any]],
            progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
        """Run the units now, in the foreground (the CLI), reporting progress as they finish."""
        job = Job(len(units))
        self._run(job, units, slots, finish, progress)
        if job.error:
            raise RuntimeError(job.error)
        assert job.result is not None
        return job.result

    def _run(self, job: Job, units: list[tuple[int, Unit]], slots: int,
             finish: Callable[[list[dict[str, int]], bool], dict[str, Any]],
             progress: Callable[[int, int], None] | None = None) -> None:
        tallies: list[dict[str, int]] = [{} for _ in range(slots)]
        deadline = time.monotonic() + self.budget
        complete = True

        def add(slot: int, tally: dict[str, int]) -> None:
            for name, n in tally.items():
                tallies[slot][name] = tallies[slot].get(name, 0) + n
            job.done += 1
            if progress is not None:
                progress(job.done, job.total)

        try:
            if self.workers == 0:
                for slot, unit in units:
                    if time.monotonic() > deadline:
                        complete = False
                        break
                    add(slot, run_unit(unit))
            else:
                executor = self.executor()
                pending: dict[Future, int] = {}
                queue = list(units)
                queue.reverse()
                while queue or pending:
                    while queue and len(pending) < 4 * self.workers:  # a few ahead: the budget can stop it
                        slot, unit = queue.pop()
                        pending[executor.submit(run_unit, unit)] = slot
                    left = deadline - time.monotonic()
                    if left <= 0:
                        complete = False
                        for future in pending:
                            future.cancel()
                        break
                    finished, _ = wait(pending, timeout=left, return_when=FIRST_COMPLETED)
                    for future in finished:
                        add(pending.pop(future), future.result())
            # a position is kept only with all its rollouts: a partial one would be a different estimate
            job.result = finish(tallies if complete else _whole(units, tallies, job), complete)
        except Exception as error:  # noqa: BLE001 - reported as the job's failure, never lost
            job.error = f"{type(error).__name__}: {error}"
        finally:
            job.finished.set()


def _whole(units: list[tuple[int, Unit]], tallies: list[dict[str, int]], job: Job) -> list[dict[str, int]]:
    """The tallies of the slots whose rollouts all finished; the others emptied."""
    wanted: dict[int, int] = {}
    for slot, unit in units:
        wanted[slot] = wanted.get(slot, 0) + unit.stop - unit.start
    return [t if sum(t.values()) == wanted.get(i, 0) else {} for i, t in enumerate(tallies)]


def start_worker(parent: int, niceness: int = 0) -> None:
    """A pool worker's initializer: it ends with ``parent`` (:func:`end_with_parent`) and
    runs ``niceness`` steps below it, so the server's own requests come first for the CPU."""
    end_with_parent(parent)
    if niceness > 0:
        os.nice(niceness)


def end_with_parent(parent: int) -> None:
    """A pool worker's initializer: the worker ends when the process that started it ends,
    however it ended (``kill -9`` of ``herald serve`` included), instead of living on with no
    parent. A thread waits on the parent's pidfd (Linux), else checks ``os.getppid()`` every
    second. Not PR_SET_PDEATHSIG: that fires when the parent *thread* that started the worker
    ends, and the pool starts workers from whichever thread submits first (a job's thread)."""
    if os.getppid() != parent:  # it ended while this worker was starting
        os._exit(1)
    threading.Thread(target=_watch_parent, args=(parent,), name="herald-end-with-parent", daemon=True).start()


def _watch_parent(parent: int) -> None:
    try:
        fd = os.pidfd_open(parent)
    except (AttributeError, OSError):  # not Linux 5.3+: look every second
        while os.getppid() == parent:
            time.sleep(1.0)
    else:
        select.select([fd], [], [])  # readable once the parent has exited
    os._exit(1)
