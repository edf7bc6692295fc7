"""POST /games/{game_id}/commands as plain ASGI, ahead of the framework: the hot endpoint.

Recording decisions is what a table does all game long. Routed through FastAPI, the
telemetry check, middleware stack, route table, Request object, dependency solving and
response wrappers cost more than deciding, hashing and committing the command
(bench/bench_api.py), so the app (api/app.py, ``HeraldApp``) hands this one route to
``CommandRoute`` before them. It answers like every other route — msgspec JSON bodies,
problem+json errors from the same helpers (api/http.py) — and its OpenAPI entry is the
ordinary FastAPI declaration of ``post_command`` (api/routes/games.py).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from typing import Any
from uuid import UUID

import msgspec

from api.errors import HeraldError, Invalid
from domain.errors import DomainError
from api.numbers import whole_number
from api.http import DATABASE_AWAY, bearer, database_away, decode_body, read_raw, require_json, send_error
from api.services.games import Games
from api.wire.games import CommandRequest

log = logging.getLogger("herald")

PATH = re.compile(r"/games/(?P<game_id>[^/]+)/commands/?")  # a trailing slash is the same path
_WANTED = frozenset((b"content-length", b"content-type", b"content-encoding", b"authorization", b"idempotency-key",
                     b"if-match"))
_JSON = b"application/json"
_encode = msgspec.json.Encoder().encode


def command_target(scope: dict) -> str | None:
    """The raw game id of an HTTP request to ``/games/{game_id}/commands``, else None."""
    if scope["type"] == "http":
        match = PATH.fullmatch(scope["path"])
        if match is not None:
            return match["game_id"]
    return None


class CommandRoute:
    """ASGI handler of /games/{game_id}/commands: POST records through ``games()``."""

    def __init__(self, games: Callable[[], Games], *, limit: int) -> None:
        self.games = games  # read per request: the app opens its Herald at start-up
        self.limit = limit

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        status, content_type, extra = 201, _JSON, []
        raw_id = command_target(scope) or ""
        try:
            if scope["method"] != "POST":
                extra = [(b"allow", b"POST")]
                raise MethodNotAllowed(f"{scope['method']} {scope['path']}: this path takes POST only")
            headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"] if k in _WANTED}
            require_json(headers.get("content-type"))
            raw = await read_raw(receive, headers.get("content-length"), self.limit, headers.get("content-encoding"))
            body = decode_body(raw, CommandRequest)
            response, replayed = await self.games().command_async(
                _game_id(raw_id), _expected_version(body, headers.get("if-match")),
                bearer(headers.get("authorization")), headers.get("idempotency-key"))
            payload = _encode(response)
            if replayed:
                extra = [(b"idempotent-replayed", b"true")]
        except (DomainError, *DATABASE_AWAY) as raised:
            return await send_error(send, raised if isinstance(raised, DomainError) else database_away(), extra)
        except Exception:
            log.exception("internal error")
            return await send_error(send, None)
        await send({"type": "http.response.start", "status": status,
                    "headers": [(b"content-type", content_type),
                                (b"content-length", str(len(payload)).encode()), *extra]})
        await send({"type": "http.response.body", "body": payload})


class MethodNotAllowed(HeraldError):
    status, title, code = 405, "Method Not Allowed", "http_405"


def _game_id(raw: str) -> UUID:
    try:
        return UUID(raw)
    except ValueError:
        raise Invalid(f"{raw!r} is not a game id (a UUID)", code="invalid_request") from None


def _expected_version(body: CommandRequest, if_match: str | None) -> CommandRequest:
    if if_match is None or body.expected_version is not None:
        return body
    value = if_match.strip().removeprefix("W/").strip('"')
    version = whole_number(value)
    if version is None:
        raise Invalid(f"If-Match must be a version number, not {if_match[:40]!r}", code="bad_if_match")
    return msgspec.structs.replace(body, expected_version=version)
