"""Past positions, answered from memory: ``GET /games/{game_id}/state?at=N``.

The board at a version never changes once that version is recorded (events are only ever
appended; a void is a later event), so the answer a reader gets for ``at=N`` is the same
forever. Each answer rendered is kept, encoded, in ``RenderedStates`` (the most recently
used, up to a number of bytes), keyed by the seat whose view it is (None: a spectator's; once
the seed is revealed, ``EVERY_SEAT``: everyone's view is then the same, every card shown), and
the app (api/app.py, ``HeraldApp``) answers a spectator's request ahead of the framework: a
dict lookup instead of routing and validation once the game is known revealed (before, one
row of the game index says whether it is), or, for a version not rendered yet, rendered
in a worker thread. Anything else — a reader with a token (its view depends on its seat, which
the route finds from the token first), a cross-origin request, a malformed query, a version
the game has not reached — goes to the ordinary route, which checks it and answers as always
(and keeps a seat's answer under its seat, a spectator's under None).

A miss renders the version asked for only (:meth:`api.services.games.Games.past_state`): the
fold from the checkpoint below it is at most a block of events (projections/board.py), and a
long game's board costs more to render than the fold (issue 24 point 4: a Saxon Shore board
about 0.3 ms, its block of 16 about 5 ms).
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import TYPE_CHECKING, Any
from uuid import UUID

import msgspec
from starlette.concurrency import run_in_threadpool

from api.budgets import Budgets, Ticket
from api.errors import Unauthorized
from api.http import bearer
from api.numbers import whole_number

from api.services.games import EVERY_SEAT

if TYPE_CHECKING:
    from api.services.games import Games
    from api.wire.games import StateAt

PAST_STATES_BYTES = 32 * 2**20  # answers kept per process
PATH = re.compile(r"/games/(?P<game_id>[^/]+)/state/?")
_JSON = b"application/json"


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


def keep(states: RenderedStates, key: tuple[UUID, int, str | None], state: StateAt) -> bytes:
    """Encode and keep one past position under ``key`` (game, version, seat or None); its
    answer (kept or, when too large to keep, not)."""
    body = msgspec.json.encode(state)
    states.put(key, body)
    return body


def past_target(scope: dict[str, Any]) -> tuple[UUID, int, str | None] | None:
    """The game, version and bearer token (None: none sent) of a plain ``GET
    /games/{id}/state?at=N``, else None (the framework answers): any other query parameter, a
    cross-origin request, an Authorization header that is not one well-formed bearer token."""
    if scope["method"] != "GET":
        return None
    match = PATH.fullmatch(scope["path"])
    query = scope.get("query_string", b"")
    if match is None or not query.startswith(b"at=") or b"&" in query:
        return None
    digits = query[3:]
    if not whole_number(digits):  # None, or version 0
        return None
    token = None
    for name, value in scope["headers"]:
        if name == b"origin" or (name == b"authorization" and token is not None):
            return None
        if name == b"authorization":
            try:
                token = bearer(value.decode("latin-1"))
            except Unauthorized:
                return None  # the route words it
            if token is None:
                return None
    try:
        return UUID(match["game_id"]), int(digits), token
    except ValueError:
        return None


def spectator_key(scope: dict[str, Any]) -> tuple[UUID, int, None] | None:
    """The cache key of a spectator's ``GET /games/{id}/state?at=N`` with nothing else in
    it, else None."""
    target = past_target(scope)
    return None if target is None or target[2] is not None else (target[0], target[1], None)


def answer(states: RenderedStates, games: Games, game_id: UUID, version: int, token: str | None,
           ticket: Ticket | None) -> bytes | None:
    """What the route answers (api/routes/games.py, ``state_at``): kept, or rendered and kept,
    under the seat the token reads as. The game's missing checkpoints (a game nobody has read
    yet: seconds for a long one) are built on the request's ``ticket`` (api/budgets.py: its
    client's share, in a worker process); with none, None instead of building them."""
    key = (game_id, version, games.chair(game_id, token))
    body = states.get(key)
    if body is not None:
        return body
    if ticket is None:
        state = games.past_state(game_id, version, key[2], build=False)
    else:
        state = games.past_state(game_id, version, key[2], away=ticket.checkpoints(games.boards.every))
    return None if state is None else keep(states, key, state)


async def answer_past_state(scope: dict[str, Any], send: Any, states: RenderedStates,
                            games: Callable[[], Games], budgets: Budgets) -> bool:
    """Answer a plain request for a past position: kept, or rendered now — on the event loop
    when that is short and local (SQLite, a checkpoint within a block below it: no worker
    thread to wait for the interpreter's lock behind the loop), else in a worker thread (a
    token's seat found as the route finds it); False when the framework must answer it
    (anything but a plain request, and anything this cannot answer: the route then words
    the problem)."""
    target = past_target(scope)
    if target is None:
        return False
    game_id, version, token = target
    service = games()
    body = states.get((game_id, version, EVERY_SEAT)) if service.known_revealed(game_id) else None
    try:
        if body is None:
            if not service.store.networked:
                body = answer(states, service, game_id, version, token, None)
            if body is None:
                with budgets.ticket(scope) as ticket:
                    body = await run_in_threadpool(answer, states, service, game_id, version, token, ticket)
    except Exception:  # noqa: BLE001 — no such game or version, a database away, anything: the
        return False  # route answers it again and words it (api/errors.status_of), one place
    await send({"type": "http.response.start", "status": 200,
                "headers": [(b"content-type", _JSON), (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})
    return True
