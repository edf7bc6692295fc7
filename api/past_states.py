"""Past positions, answered from memory: ``GET /games/{game_id}/state?at=N``.

The board at a version never changes once that version is recorded (events are only ever
appended; a void is a later event), so the answer a spectator gets for ``at=N`` is the same
forever. The route keeps each answer it renders, encoded, in ``RenderedStates`` (the most
recently used, up to a number of bytes), and the app (api/app.py, ``HeraldApp``) answers a
spectator's request for one of them ahead of the framework: a dict lookup instead of
routing, validation and a worker thread. Anything else — a reader with a token (its view
depends on its seat), a cross-origin request, a version not rendered yet, a malformed
query — goes to the ordinary route, which checks it and answers as always.
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from typing import Any
from uuid import UUID

from api.http import MAX_INT

PAST_STATES_BYTES = 32 * 2**20  # answers kept per process
PATH = re.compile(r"/games/(?P<game_id>[^/]+)/state/?")
_JSON = b"application/json"
_ROUTED = frozenset((b"authorization", b"origin"))  # a reader's own view; CORS: the framework's


class RenderedStates:
    """Encoded answers by (game, version, seat or None), the most recently used kept up to
    ``max_bytes`` of answers."""

    def __init__(self, max_bytes: int):
        self.max_bytes = max_bytes
        self._held: OrderedDict[tuple[UUID, int, str | None], bytes] = OrderedDict()
        self._size = 0
        self._lock = threading.Lock()

    def get(self, key: tuple[UUID, int, str | None]) -> bytes | None:
        with self._lock:
            body = self._held.get(key)
            if body is not None:
                self._held.move_to_end(key)
            return body

    def put(self, key: tuple[UUID, int, str | None], body: bytes) -> None:
        if len(body) > self.max_bytes // 16:  # a huge board is rendered each time, not cached
            return
        with self._lock:
            old = self._held.pop(key, None)
            self._size += len(body) - (len(old) if old is not None else 0)
            self._held[key] = body
            while self._size > self.max_bytes:
                _, dropped = self._held.popitem(last=False)
                self._size -= len(dropped)


def spectator_key(scope: dict[str, Any]) -> tuple[UUID, int, None] | None:
    """The cache key of a spectator's ``GET /games/{id}/state?at=N`` with nothing else in
    it, else None (the framework answers)."""
    if scope["method"] != "GET":
        return None
    match = PATH.fullmatch(scope["path"])
    query = scope.get("query_string", b"")
    if match is None or not query.startswith(b"at=") or b"&" in query:
        return None
    digits = query[3:]
    if not (digits.isdigit() and len(digits) <= 19 and 1 <= int(digits) <= MAX_INT):
        return None
    for name, _ in scope["headers"]:
        if name in _ROUTED:
            return None
    try:
        return UUID(match["game_id"]), int(digits), None
    except ValueError:
        return None


async def answer_cached(scope: dict[str, Any], send: Any, states: RenderedStates) -> bool:
    """Answer a spectator's request for a rendered past position; False when the framework
    must answer it."""
    key = spectator_key(scope)
    body = None if key is None else states.get(key)
    if body is None:
        return False
    await send({"type": "http.response.start", "status": 200,
                "headers": [(b"content-type", _JSON), (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})
    return True
