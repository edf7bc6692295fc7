"""Work a served process does every so many seconds in the background (the clock sweep, the
webhooks' deliveries): run in a worker thread so the event loop keeps answering, a failed
round logged and tried again at the next, stopped with the app."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable

log = logging.getLogger("herald")


class Periodic:
    """``work`` every ``seconds`` (0: never) once started, until closed; ``what`` names it in
    the log when a round fails."""

    def __init__(self, work: Callable[[], object], seconds: float, what: str):
        self.work, self.seconds, self.what = work, seconds, what
        self._task: asyncio.Task | None = None

    def start(self) -> None:
        if self.seconds > 0 and self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.seconds)
            try:
                await asyncio.to_thread(self.work)
            except Exception:
                log.warning("%s failed; it runs again", self.what, exc_info=True)

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
