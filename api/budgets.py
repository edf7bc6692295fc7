"""Fair shares of the expensive reads (issue 30 point 3): verifying a record (``POST
/records/verify``), a game's outline (``GET /viewer/games/{id}/outline``), the first fold of a
game's past positions (``GET /games/{id}/state?at=N``) and an analysis (``GET
/games/{id}/analysis``, ``…/analysis/{version}/commands``). Anyone may ask for them, and each
costs the server up to seconds of CPU; cached answers (a past position already rendered, an
outline up to date, an analysis computed) cost nothing and are never limited.

Two things keep one client from taking the server from the others:

- The work runs in a small pool of worker processes (:class:`Workers`: HERALD_READ_WORKERS,
  started on first use, niced HERALD_READ_WORKER_NICENESS steps, stopped with the server)
  when its input is more than HERALD_READ_INLINE_BYTES. CPU-bound work in a thread of the
  server holds the interpreter's lock that every other request waits for, so no limit on
  threads alone keeps a bystander's ``/health`` or command fast. What crosses to a worker and
  back is bytes — a record's body, msgspec-encoded events, board checkpoints as their database
  rows (projections/board_store.py), an encoded answer — never live objects; a Herald error
  raised in a worker is raised again here as it was.
- Each client address and each bearer token has a number of expensive reads at once
  (HERALD_READS_AT_ONCE_PER_ADDRESS, …_PER_TOKEN) and a bucket of CPU seconds (refilled at
  HERALD_READ_CPU_PER_ADDRESS / …_PER_TOKEN CPU seconds a second, up to a burst), charged what
  the work cost as the worker measured it (``time.process_time``; the thread's CPU time for work
  done here). A client past either is answered 429 problem+json ``read_limited`` with
  Retry-After before any work is done (a verify's body is not decoded). Every client together
  has HERALD_READS_AT_ONCE; beyond, 503 ``server_busy`` with Retry-After.

A :class:`Ticket` is one request's claim: admitted when it first has work to run (or
explicitly, before reading a body), charged after each piece of work, released when the
request ends. The write limits are api/ratelimit.py; the CPU buckets are its ``Buckets``,
counted in CPU seconds.
"""

from __future__ import annotations

import asyncio
import math
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from starlette.concurrency import run_in_threadpool

from analysis.pool import start_worker
from api import work
from api.config import Settings
from api.errors import HeraldError, TooManyRequests
from api.ratelimit import Buckets, scope_bearer
from projections.board import FoldAway

T = TypeVar("T")
KINDS = ("address", "token")


class ReadLimited(TooManyRequests):
    code = "read_limited"


class ServerBusy(HeraldError):
    status, title, code = 503, "Service unavailable", "server_busy"


def measured(work: Callable[..., T], *args: Any) -> tuple[float, T | None, BaseException | None]:
    """Run ``work`` in a worker process: the CPU seconds it took, its result or its error."""
    start = time.process_time()
    try:
        result = work(*args)
    except Exception as error:  # noqa: BLE001 — raised again in the server (HeraldError pickles whole)
        return time.process_time() - start, None, error
    return time.process_time() - start, result, None


class Workers:
    """A pool of ``size`` processes (0: none, everything runs in the caller's thread), started
    on first use, ``niceness`` steps below the server; work on at most ``inline_bytes`` of
    input runs in the caller's thread (a round trip to a process costs more than it)."""

    def __init__(self, size: int, niceness: int, inline_bytes: int):
        self.size, self.niceness, self.inline_bytes = size, niceness, inline_bytes
        self._executor: ProcessPoolExecutor | None = None
        self._lock = threading.Lock()

    def away(self, args: tuple[Any, ...]) -> bool:
        """Whether work on ``args`` goes to a worker process (by the bytes it is handed)."""
        return self.size > 0 and sum(len(a) for a in args if isinstance(a, bytes)) > self.inline_bytes

    def submit(self, work: Callable[..., Any], *args: Any) -> Future:
        with self._lock:
            if self._executor is None:  # spawn: forking a threaded server is not safe
                self._executor = ProcessPoolExecutor(self.size, mp_context=multiprocessing.get_context("spawn"),
                                                     initializer=start_worker, initargs=(os.getpid(), self.niceness))
            return self._executor.submit(measured, work, *args)

    def close(self) -> None:
        """Stop the pool without waiting for work under way (its processes end with the server):
        at shutdown, or when a worker died (the next work starts a new pool)."""
        with self._lock:
            executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)


class Budgets:
    """The expensive reads' limits (module docstring) and the workers they run in."""

    def __init__(self, settings: Settings, clock: Callable[[], float] = time.monotonic):
        self.workers = Workers(settings.read_workers, settings.read_worker_niceness, settings.read_inline_bytes)
        self.clock = clock
        self.total = settings.reads_at_once
        self.at_once = {"address": settings.reads_at_once_per_address, "token": settings.reads_at_once_per_token}
        rates = {"address": (settings.read_cpu_per_address, settings.read_cpu_burst_per_address),
                 "token": (settings.read_cpu_per_token, settings.read_cpu_burst_per_token)}
        self.cpu = {kind: Buckets(rate, burst) if rate > 0 else None for kind, (rate, burst) in rates.items()}
        self._running: dict[tuple[str, Any], int] = {}
        self._all = 0
        self._lock = threading.Lock()

    def ticket(self, scope: dict[str, Any]) -> Ticket:
        """The claim of the request ``scope`` (its client address and bearer token), not yet admitted."""
        address = (scope.get("client") or ("unknown",))[0]
        token = scope_bearer(scope)
        return Ticket(self, (("address", address),) + ((("token", token),) if token is not None else ()))

    def _admit(self, keys: tuple[tuple[str, Any], ...]) -> None:
        now = self.clock()
        with self._lock:
            if self._all >= self.total:
                raise ServerBusy(f"{self._all} expensive reads (verifying, outlines, first folds of past positions, "
                                 "analyses) are running: ask again in a second", retry_after=1)
            for kind, value in keys:
                limit = self.at_once[kind]
                if limit > 0 and self._running.get((kind, value), 0) >= limit:
                    raise ReadLimited(f"this client {kind} has {limit} expensive reads running (verifying, outlines, "
                                      f"first folds of past positions, analyses; HERALD_READS_AT_ONCE_PER_{kind.upper()}"
                                      "): ask again when one has ended", retry_after=1)
                bucket = self.cpu[kind]
                wait = bucket.short(value, now) if bucket is not None else 0.0
                if wait:
                    seconds = max(1, math.ceil(wait))
                    raise ReadLimited(f"this client {kind} has spent its CPU seconds on expensive reads "
                                      f"(HERALD_READ_CPU_PER_{kind.upper()} a second): retry after {seconds} s",
                                      retry_after=seconds)
            for key in keys:
                self._running[key] = self._running.get(key, 0) + 1
            self._all += 1

    def _release(self, keys: tuple[tuple[str, Any], ...]) -> None:
        with self._lock:
            self._all -= 1
            for key in keys:
                left = self._running.pop(key) - 1
                if left:
                    self._running[key] = left

    def _charge(self, keys: tuple[tuple[str, Any], ...], cpu: float) -> None:
        now = self.clock()
        with self._lock:
            for kind, value in keys:
                bucket = self.cpu[kind]
                if bucket is not None:
                    bucket.spend(value, cpu, now)

    def running(self) -> int:
        """Expensive reads admitted and not yet ended, every client's."""
        with self._lock:
            return self._all

    def close(self) -> None:
        """Stop the worker processes (at the server's shutdown)."""
        self.workers.close()


class Ticket:
    """One request's claim on the expensive reads: admitted once (:meth:`admit`, or its first
    :meth:`run`), charged each piece of work's CPU, released at the end of its ``with``."""

    def __init__(self, budgets: Budgets, keys: tuple[tuple[str, Any], ...]):
        self.budgets, self.keys = budgets, keys
        self.admitted = False
        self.cpu = 0.0  # CPU seconds charged so far

    def __enter__(self) -> Ticket:
        return self

    def __exit__(self, *_: Any) -> None:
        if self.admitted:
            self.admitted = False
            self.budgets._release(self.keys)

    def admit(self) -> None:
        """Claim a place now (429 or 503 when the client or the server has none)."""
        if not self.admitted:
            self.budgets._admit(self.keys)
            self.admitted = True

    def run(self, work: Callable[..., T], *args: Any) -> T:
        """``work(*args)``, in a worker process when its input is large, else here; from a thread."""
        self.admit()
        workers = self.budgets.workers
        if not workers.away(args):
            return self._inline(work, args)
        try:
            outcome = workers.submit(work, *args).result()
        except BrokenProcessPool:
            raise _broken(workers) from None
        return self._charged(outcome)

    async def arun(self, work: Callable[..., T], *args: Any) -> T:
        """:meth:`run` from the event loop (which is never blocked by the work)."""
        self.admit()
        workers = self.budgets.workers
        if not workers.away(args):
            return await run_in_threadpool(self._inline, work, args)
        future = workers.submit(work, *args)
        try:
            outcome = await asyncio.wrap_future(future)
        except BrokenProcessPool:
            raise _broken(workers) from None
        return self._charged(outcome)

    def checkpoints(self, every: int) -> FoldAway:
        """The fold of a game's missing board checkpoints (projections/board.py), on this ticket."""
        return lambda begin, events: self.run(work.checkpoints, begin, events, every)

    def _inline(self, work: Callable[..., T], args: tuple[Any, ...]) -> T:
        start = time.thread_time()
        try:
            return work(*args)
        finally:
            self._add(time.thread_time() - start)

    def _charged(self, outcome: tuple[float, Any, BaseException | None]) -> Any:
        cpu, result, error = outcome
        self._add(cpu)
        if error is not None:
            raise error
        return result

    def _add(self, cpu: float) -> None:
        self.cpu += cpu
        self.budgets._charge(self.keys, cpu)


def _broken(workers: Workers) -> ServerBusy:
    """A worker died (killed, out of memory): a new pool next time, and this request is told to ask again."""
    workers.close()
    return ServerBusy("a worker process ended while working on this request: ask again", retry_after=1)
