"""Past positions, answered from memory: ``GET /games/{game_id}/state?at=N``.

The board at a version never changes once that version is recorded (events are only ever
appended; a void is a later event), so the answer a spectator gets for ``at=N`` is the same
forever. Each answer rendered is kept, encoded, in ``RenderedStates`` (the most recently
used, up to a number of bytes), and the app (api/app.py, ``HeraldApp``) answers a spectator's
request ahead of the framework: a dict lookup instead of routing and validation, or, for a
version not rendered yet, its block rendered in a worker thread. Anything else — a reader
with a token (its view depends on its seat), a cross-origin request, a malformed query, a
version the game has not reached — goes to the ordinary route, which checks it and answers
as always (and renders a spectator's block the same way when the app has middleware).

A spectator's version not rendered yet is rendered with the rest of its block (the versions
between two checkpoints of projections/board.py, :meth:`api.services.games.Games.spectator_states`):
one read of the store and one fold answer the next requests for its neighbours too, so a
game's first readers meet one miss per block, not one per version (issue 19). Only a
spectator's view is ever kept; a seat's is rendered for it each time.
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any
from uuid import UUID

import msgspec
from starlette.concurrency import run_in_threadpool

from api.http import MAX_INT

if TYPE_CHECKING:
    from api.services.games import Games
    from api.wire.games import StateAt

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

    def put(self, key: tuple[UUID, int, str | None], body: bytes) -> bool:
        """Keep ``body``; False when it is too large to keep."""
        if len(body) > self.max_bytes // 16:  # a huge board is rendered each time, not cached
            return False
        with self._lock:
            old = self._held.pop(key, None)
            self._size += len(body) - (len(old) if old is not None else 0)
            self._held[key] = body
            while self._size > self.max_bytes:
                _, dropped = self._held.popitem(last=False)
                self._size -= len(dropped)
        return True

    @property
    def size(self) -> int:
        """Bytes of answers held."""
        return self._size


def keep_block(states: RenderedStates, game_id: UUID, block: Iterable[StateAt]) -> bytes:
    """Encode and keep a spectator's block of past positions, the one asked for first
    (:meth:`api.services.games.Games.spectator_states`); its answer. A board too large to keep
    stops the block there: its neighbours are rendered when asked for."""
    states_left = iter(block)
    first = next(states_left)
    asked = msgspec.json.encode(first)
    if states.put((game_id, first.version, None), asked):
        for state in states_left:
            if not states.put((game_id, state.version, None), msgspec.json.encode(state)):
                break
    return asked


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


async def answer_past_state(scope: dict[str, Any], send: Any, states: RenderedStates,
                            games: Callable[[], Games]) -> bool:
    """Answer a spectator's request for a past position: kept, or rendered now with its block
    in a worker thread; False when the framework must answer it (anything but a spectator's
    plain request, and any version this cannot render: the route then words the problem)."""
    key = spectator_key(scope)
    if key is None:
        return False
    body = states.get(key)
    if body is None:
        game_id, version, _ = key
        try:
            body = await run_in_threadpool(lambda: keep_block(states, game_id, games().spectator_states(game_id, version)))
        except Exception:  # noqa: BLE001 — no such game or version, a database away, anything: the
            return False  # route answers it again and words it (api/errors.status_of), one place
    await send({"type": "http.response.start", "status": 200,
                "headers": [(b"content-type", _JSON), (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})
    return True
