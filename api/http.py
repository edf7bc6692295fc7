"""The msgspec adapter: request bodies decoded by msgspec, responses encoded by msgspec,
schemas merged into the OpenAPI document, and every error as RFC 9457 problem+json."""

from __future__ import annotations

import logging
from typing import Any, TypeVar

import msgspec
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from eventsourcing.persistence import InterfaceError, OperationalError

from api.errors import HeraldError, Invalid, TooLarge, Unavailable

T = TypeVar("T")
log = logging.getLogger("herald")

PROBLEM = "application/problem+json"
REF = "#/components/schemas/{name}"


class Problem(msgspec.Struct, frozen=True, omit_defaults=True):
    """An RFC 9457 problem; ``code`` and ``rule`` name the rule a command broke."""

    type: str
    title: str
    status: int
    detail: str
    code: str | None = None
    rule: str | None = None
    version: int | None = None
    problems: list[str] | None = None  # every problem found (owner-supplied data)


def bearer(authorization: str | None) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header, if any."""
    if authorization and authorization.lower().startswith("bearer "):
        return authorization[7:].strip() or None
    return None


def respond(content: Any, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    return Response(msgspec.json.encode(content), status_code=status, media_type="application/json", headers=headers)


def problem(status: int, title: str, detail: str, code: str, rule: str | None = None, **extra: Any) -> Response:
    return Response(problem_body(status, title, detail, code, rule, **extra), status_code=status, media_type=PROBLEM)


def problem_body(status: int, title: str, detail: str, code: str, rule: str | None = None, **extra: Any) -> bytes:
    return msgspec.json.encode(Problem(f"/problems/{code}", title, status, detail, code, rule, extra.get("version"),
                                       extra.get("problems") or None))


INTERNAL_ERROR = problem_body(500, "Internal error", "Herald failed to handle this request; it was logged.", "internal")


def error_body(error: HeraldError) -> bytes:
    return problem_body(error.status, error.title, error.detail, error.code, error.rule, **error.extra)


DATABASE_AWAY = (OperationalError, InterfaceError)  # the store's errors when it cannot reach its database
RETRY_AFTER_SECONDS = 2


def database_away() -> Unavailable:
    """What a request gets while the database cannot be reached: 503 with Retry-After."""
    return Unavailable("the database cannot be reached just now; retry shortly (a command with the same "
                       "Idempotency-Key: an answer that never came may still have been recorded)",
                       retry_after=RETRY_AFTER_SECONDS)


def error_headers(error: HeraldError) -> dict[str, str] | None:
    """Retry-After, for an error that says when to come back."""
    retry_after = error.extra.get("retry_after")
    return {"Retry-After": str(retry_after)} if retry_after is not None else None


async def read_body(request: Request, type_: type[T], limit: int) -> T:
    """Read at most ``limit`` bytes and decode them as ``type_``."""
    return decode_body(await read_raw(request.receive, request.headers.get("content-length"), limit), type_)


async def read_raw(receive: Any, declared: str | None, limit: int) -> bytes:
    """The request body, refused past ``limit`` bytes (declared or sent)."""
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise TooLarge(f"the body is {declared} bytes; the limit here is {limit}")
    parts: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            raise Invalid("the client went away before sending the whole body", code="disconnected")
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            raise TooLarge(f"the body exceeds the limit of {limit} bytes")
        if not message.get("more_body", False):
            return b"".join((*parts, chunk)) if parts else chunk
        parts.append(chunk)


def decode_body(raw: bytes, type_: type[T]) -> T:
    """Decode a JSON body as ``type_``: malformed JSON is a 400, a wrong shape a 422."""
    try:
        return msgspec.json.decode(raw, type=type_)
    except msgspec.ValidationError as error:
        raise Invalid(f"the body does not fit {type_.__name__}: {error}", code="invalid_body") from None
    except msgspec.DecodeError as error:
        raise MalformedJSON(f"the body is not valid JSON: {error}") from None


class MalformedJSON(HeraldError):
    status, title, code = 400, "Malformed JSON", "malformed_json"


def install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(HeraldError)
    async def herald_error(_: Request, error: HeraldError) -> Response:
        return Response(error_body(error), status_code=error.status, media_type=PROBLEM,
                        headers=error_headers(error))

    @app.exception_handler(OperationalError)
    @app.exception_handler(InterfaceError)
    async def database_error(request: Request, error: Exception) -> Response:
        log.warning("database unreachable: %s", error)
        return await herald_error(request, database_away())

    @app.exception_handler(RequestValidationError)
    async def validation_error(_: Request, error: RequestValidationError) -> Response:
        parts = [f"{'.'.join(map(str, e.get('loc', ())))}: {e.get('msg')}" for e in error.errors()]
        return problem(422, "Invalid request", "; ".join(parts), "invalid_request")

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_: Request, error: StarletteHTTPException) -> Response:
        return problem(error.status_code, str(error.detail), str(error.detail),
                       "not_found" if error.status_code == 404 else f"http_{error.status_code}")

    @app.exception_handler(Exception)
    async def internal_error(_: Request, error: Exception) -> Response:
        log.exception("internal error")
        return Response(INTERNAL_ERROR, status_code=500, media_type=PROBLEM)


def doc(*, body: Any = None, response: Any = None, status: int = 200, errors: tuple[int, ...] = ()) -> dict[str, Any]:
    """Route keyword arguments documenting msgspec body and response types in OpenAPI."""
    responses: dict[int | str, Any] = {}
    if response is not None:
        responses[status] = {"description": "OK", "content": {"application/json": {"schema": _ref(response)}}}
    for code in errors:
        responses[code] = {"description": "Problem", "content": {PROBLEM: {"schema": _ref(Problem)}}}
    extra: dict[str, Any] = {}
    if body is not None:
        extra["requestBody"] = {"required": True, "content": {"application/json": {"schema": _ref(body)}}}
    return {"responses": responses, "openapi_extra": extra, "status_code": status}


_SCHEMA_TYPES: list[Any] = [Problem]

RATE_LIMITED = {
    "description": "Too many writes from this client address or token (api/ratelimit.py)",
    "headers": {"Retry-After": {"description": "seconds to wait", "schema": {"type": "integer"}}},
    "content": {PROBLEM: {"schema": {"$ref": REF.format(name="Problem")}}},
}


def _ref(type_: Any) -> dict[str, Any]:
    if type_ not in _SCHEMA_TYPES:
        _SCHEMA_TYPES.append(type_)
    if isinstance(type_, type) and issubclass(type_, msgspec.Struct):
        return {"$ref": REF.format(name=type_.__name__)}
    return msgspec.json.schema_components([type_], ref_template=REF)[0][0]


def install_openapi(app: FastAPI, extra_types: list[Any], named: dict[str, Any] | None = None,
                    paths: dict[str, Any] | None = None) -> None:
    """Merge the msgspec schemas of every documented type into FastAPI's OpenAPI document;
    ``named`` types (unions, such as each rule system's commands) get a component of that name;
    ``paths`` are operations served outside FastAPI's router."""
    base = app.openapi
    named = named or {}

    def openapi() -> dict[str, Any]:
        if app.openapi_schema:
            return app.openapi_schema
        schema = base()
        for path, operations in (paths or {}).items():
            schema["paths"].setdefault(path, {}).update(operations)
        for operations in schema["paths"].values():  # every write may meet the write limits
            for method, operation in operations.items():
                if method in ("post", "put", "patch", "delete"):
                    operation.setdefault("responses", {}).setdefault("429", RATE_LIMITED)
        types = _SCHEMA_TYPES + extra_types + list(named.values())
        (refs, components) = msgspec.json.schema_components(types, ref_template=REF)
        components.update(zip(named, refs[len(types) - len(named):]))
        schema.setdefault("components", {}).setdefault("schemas", {}).update(
            dict(sorted(components.items()))
        )
        app.openapi_schema = schema
        return schema

    app.openapi = openapi  # type: ignore[method-assign]
