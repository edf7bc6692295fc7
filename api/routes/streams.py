"""Live streams (Server-Sent Events): a game's events (``GET /games/{id}/events/stream``) and a
player's turn notices (``GET /players/{name}/turns/stream``) share one loop, one cap on open
streams and one way to resume from ``Last-Event-ID``."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import AbstractContextManager
from typing import Any

from fastapi import Request
from fastapi.responses import StreamingResponse
from starlette.concurrency import run_in_threadpool

from api.errors import Invalid
from api.http import SECURITY
from api.numbers import whole_number

KEEP_ALIVE_SECONDS = 15  # an idle live stream sends a comment this often
PAGE_READER = Callable[[], tuple[list[bytes], bool, bool]]


class LiveResponse(StreamingResponse):
    """A live stream that gives its slot back however it ends (even before its first byte)."""

    def __init__(self, content: Any, release: Callable[[], None], **kwargs: Any) -> None:
        super().__init__(content, **kwargs)
        self._release = release

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            self._release()


class EventStream(StreamingResponse):
    """Server-Sent Events (text/event-stream): each event of the game as ``id: <version>``,
    ``event: <type>`` and ``data: <the event as JSON, as GET /games/{id}/events gives it>``, a
    blank line between events; ``: keep-alive`` comments while nothing happens."""

    media_type = "text/event-stream"
    documented = {"security": SECURITY["accepts"]}


def resume_after(after: int, last_event_id: str | None) -> int:
    """Where a stream starts: after the Last-Event-ID header's id when given (ASCII digits, 64
    bits, as Herald sent it), else after ``after``."""
    if last_event_id is None:
        return after
    found = whole_number(last_event_id)
    if found is None:
        raise Invalid(f"Last-Event-ID is the version of an event, not {last_event_id[:40]!r}",
                      code="bad_last_event_id")
    return found


def live_stream(request: Request, listening: AbstractContextManager[Any], read: PAGE_READER) -> LiveResponse:
    """A stream of what ``read`` gives, page after page (it runs in a worker thread and answers
    the frames, whether more wait, whether the stream is over), waiting on ``listening`` (a
    :class:`api.live.Live` listener, registered before the first read: no write is missed)
    when nothing is left. The client's slot is taken now (429 beyond the cap) and given back
    however the stream ends."""
    slots = request.app.state.stream_slots
    client = request.client.host if request.client else "unknown"
    slots.take(client)

    async def frames() -> AsyncIterator[bytes]:
        with listening as listener:
            while True:
                listener.changed.clear()
                page, more, over = await run_in_threadpool(read)
                for frame in page:
                    yield frame
                if over:
                    return
                if more:
                    continue
                if not await listener.wait(KEEP_ALIVE_SECONDS):
                    yield b": keep-alive\n\n"

    return LiveResponse(frames(), lambda: slots.give_back(client), media_type=EventStream.media_type,
                        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})
