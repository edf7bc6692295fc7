"""The tournament results process, run in the background (issue 18: tournament reads never
write). A game's ``GameEnded`` (or an umpire's ``DisputeRuled``) becomes a ``ResultRecorded``
(``RulingNoted``) in its tournament's stream: :class:`projections.standings.TournamentResults`
does that as it catches up, and this follower is what makes it catch up — woken by each write
of this process that holds such work (``Tournaments.written``), polling every second for the
rest (other processes' writes, and the tracking position past every other event).

A read never runs it. A read that must see every game ended before it (standings, a round, the
archive) asks :meth:`ResultsFollower.settle`: it wakes the follower and waits, a bounded time,
until it has caught up to the log's head as the read found it. No follower running (the CLI, a
service built without the app): nothing waits, nothing is written."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

log = logging.getLogger("herald")


class ResultsFollower:
    def __init__(self, catch_up: Callable[[], object], head: Callable[[], int], poll_seconds: float = 1.0):
        self._catch_up = catch_up
        self._head = head
        self.poll_seconds = poll_seconds
        self._wake = threading.Event()
        self._reached = threading.Condition()
        self._position = -1  # the log's head the last finished catch-up started from
        self._thread: threading.Thread | None = None
        self._stop = False

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def start(self) -> None:
        if self.running:
            return
        self._stop = False
        self._thread = threading.Thread(target=self._run, name="herald-results", daemon=True)
        self._thread.start()

    def close(self, timeout: float = 5.0) -> None:
        self._stop = True
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None

    def nudge(self) -> None:
        """Something it has work in was written: catch up now."""
        self._wake.set()

    def settle(self, timeout: float = 10.0) -> None:
        """Wait until the process has caught up to the log's head as it stands now (no wait
        when no follower runs)."""
        if not self.running:
            return
        target = self._head()
        with self._reached:
            if self._position >= target:
                return
            self._wake.set()
            self._reached.wait_for(lambda: self._position >= target or not self.running, timeout)

    def _run(self) -> None:
        while not self._stop:
            self._wake.wait(self.poll_seconds)
            self._wake.clear()
            if self._stop:
                return
            try:
                head = self._head()
                self._catch_up()
            except Exception:  # the database away, say: try again at the next wake or poll
                log.exception("tournament results: catch-up failed")
                continue
            with self._reached:
                self._position = max(self._position, head)
                self._reached.notify_all()
