"""The msgspec adapter: request bodies decoded by msgspec, responses encoded by msgspec,
schemas merged into the OpenAPI document, and every error as RFC 9457 problem+json."""

from __future__ import annotations

import asyncio
import json
import logging
import re
from itertools import accumulate
from collections.abc import Callable
from typing import Any, TypeVar
from urllib.parse import parse_qsl

import msgspec
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import Response
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException

from eventsourcing.persistence import InterfaceError, OperationalError

from api.numbers import MAX_INT, whole_number
from api.errors import HeraldError, Invalid, RequestTimeout, TooLarge, Unauthorized, Unavailable, status_of
from api.transfer import MAX_RATIO, Inflater, body_coding
from domain.errors import DomainError

T = TypeVar("T")
log = logging.getLogger("herald")

PROBLEM = "application/problem+json"
REF = "#/components/schemas/{name}"
MAX_DEPTH = 32  # nesting of a body Herald stores; a record holds it at most 4 levels deeper
RECORD_DEPTH = 64  # nesting of a portable record sent to be verified or viewed
# Byte-level looks, C speed, that rule out most bodies before any walk: a number of 19 digits or
# more (after ':', ',', '[' or '-'; a digit run inside a hash follows a letter or a quote), and
# an upper bound of the nesting (brackets inside strings count too: only a walk is wasted).
_NUMBER_SHAPE = bytes.maketrans(b"0123456789,[-", b"0000000000:::")
_LONG_RUN = b":" + b"0" * 19  # 19 digits after a ":", "," "[" or "-" (or at the start of the body)
_BRACKETS = bytes.maketrans(b"[{]}", b"\x01\x01\xff\xff")
_NOT_BRACKETS = bytes(sorted(set(range(256)) - set(b"[]{}")))


def _nesting_at_most(raw: bytes) -> int:
    """An upper bound of how deep ``raw`` nests (exact when no string holds a bracket)."""
    if raw.count(b"[") + raw.count(b"{") <= MAX_DEPTH:
        return 0 if not raw else raw.count(b"[") + raw.count(b"{")
    return max(accumulate(memoryview(raw.translate(_BRACKETS, _NOT_BRACKETS)).cast("b")), default=0)


class Problem(msgspec.Struct, frozen=True, omit_defaults=True):
    """An RFC 9457 problem; ``code`` and ``rule`` name the rule a command broke."""

    type: str
    title: str
    status: int
    detail: str
    code: str | None = None
    rule: str | None = None
    version: int | None = None
    field: str | None = None
    problems: list[str] | None = None  # every problem found (owner-supplied data)


def bearer(authorization: str | None) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header, if any. Tokens are
    visible ASCII (Herald issues URL-safe ones); anything else is refused, never compared."""
    if authorization and authorization.lower().startswith("bearer "):
        token = authorization[7:].strip()
        if not _TOKEN.fullmatch(token):
            raise Unauthorized("a bearer token is visible ASCII characters (letters, digits, punctuation)",
                               code="bad_token")
        return token or None
    return None


_TOKEN = re.compile(r"[\x21-\x7e]*")


def respond(content: Any, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    return Response(msgspec.json.encode(content), status_code=status, media_type="application/json", headers=headers)


def problem(status: int, title: str, detail: str, code: str, rule: str | None = None, **extra: Any) -> Response:
    return Response(problem_body(status, title, detail, code, rule, **extra), status_code=status, media_type=PROBLEM)


def problem_body(status: int, title: str, detail: str, code: str, rule: str | None = None, **extra: Any) -> bytes:
    return msgspec.json.encode(Problem(f"/problems/{code}", title, status, detail, code, rule, extra.get("version"),
                                      extra.get("field"), extra.get("problems") or None))


INTERNAL_ERROR = problem_body(500, "Internal error", "Herald failed to handle this request; it was logged.", "internal")


def error_body(error: DomainError) -> bytes:
    """``error`` as problem+json: the one translation of an error into a problem."""
    status, title = status_of(error)
    return problem_body(status, title, error.message, error.code, error.rule, **_extra(error),
                        problems=error.problems)


def _extra(error: DomainError) -> dict[str, Any]:
    return getattr(error, "extra", {})


DATABASE_AWAY = (OperationalError, InterfaceError)  # the store's errors when it cannot reach its database
RETRY_AFTER_SECONDS = 2


def database_away() -> Unavailable:
    """What a request gets while the database cannot be reached: 503 with Retry-After."""
    return Unavailable("the database cannot be reached just now; retry shortly (a command with the same "
                       "Idempotency-Key: an answer that never came may still have been recorded)",
                       retry_after=RETRY_AFTER_SECONDS)


def error_headers(error: DomainError) -> dict[str, str] | None:
    """Retry-After, for an error that says when to come back; Accept-Encoding, for a body in a
    content coding Herald does not take (RFC 7694)."""
    extra = _extra(error)
    found = {header: str(extra[key]) for key, header in _HEADERS if extra.get(key) is not None}
    return found or None


_HEADERS = (("retry_after", "Retry-After"), ("accept_encoding", "Accept-Encoding"))


async def send_error(send: Any, error: DomainError | None, headers: list[tuple[bytes, bytes]] = ()) -> None:
    """Answer a plain-ASGI request with ``error`` as problem+json (None: the internal error)."""
    status, payload = (500, INTERNAL_ERROR) if error is None else (status_of(error)[0], error_body(error))
    if error is not None:
        headers = [*headers, *((k.lower().encode(), v.encode()) for k, v in (error_headers(error) or {}).items())]
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", PROBLEM.encode()), (b"content-length", str(len(payload)).encode()),
                            *headers]})
    await send({"type": "http.response.body", "body": payload})


# Headers a request gives at most once: with two, one reader takes the first and another the last.
_ONCE = frozenset((b"authorization", b"content-type", b"content-encoding", b"idempotency-key", b"if-match",
                   b"last-event-id"))


def refused_at_door(scope: dict[str, Any]) -> HeraldError | None:
    """What no route should see: a header given twice that is read once (400
    ``repeated_header``: the command route read the last ``Authorization``, the framework the
    first), and a NUL character in the path or query (no backend stores it, and PostgreSQL
    fails on it as a query parameter)."""
    seen: set[bytes] = set()
    for name, _ in scope["headers"]:
        if name in _ONCE:
            if name in seen:
                return RepeatedHeader(f"the {name.decode()} header is given twice: send it once",
                                      field=name.decode())
            seen.add(name)
    if "\x00" in scope["path"]:
        return Unstorable("the path may not hold a NUL character (%00)", field="path")
    query = scope.get("query_string", b"")
    if b"%00" in query or b"\x00" in query:
        for name, value in parse_qsl(query.decode("latin-1"), keep_blank_values=True):
            if "\x00" in name or "\x00" in value:
                return Unstorable(f"query parameter {name!r} may not hold a NUL character (%00)", field=name)
    return None


async def read_body(request: Request, type_: type[T], limit: int, depth: int = MAX_DEPTH) -> T:
    """Read a JSON body of at most ``limit`` bytes (decoded: ``Content-Encoding: gzip`` is
    undone as it arrives, :func:`read_raw`) and decode it as ``type_``. Every route reads its
    body through here (the command route through :func:`read_raw`)."""
    return decode_body(await read_json(request, limit), type_, depth)


async def read_record(request: Request, limit: int, decode: Callable[[bytes], T]) -> T:
    """A portable record's body (or a body holding one), read (:func:`read_json`) and decoded
    (:func:`decoded_record`) in a worker thread."""
    return await run_in_threadpool(decoded_record, await read_json(request, limit), decode)


async def read_json(request: Request, limit: int) -> bytes:
    """A JSON body of at most ``limit`` bytes, read but not decoded."""
    headers = request.headers
    require_json(headers.get("content-type"))
    return await read_raw(request.receive, headers.get("content-length"), limit, headers.get("content-encoding"))


def decoded_record(raw: bytes, decode: Callable[[bytes], T]) -> T:
    """A portable record's body (or a body holding one), checked as any JSON body and then
    decoded by ``decode`` (replays: either record format): malformed JSON is a 400, a record of
    the wrong shape a 422 naming where."""
    decode_body(raw, msgspec.Raw, RECORD_DEPTH)
    try:
        return decode(raw)
    except msgspec.ValidationError as error:
        raise Invalid(f"the body is not a Herald record (nor a VerifyRequest): {error}", code="invalid_body") from None
    except msgspec.DecodeError as error:
        raise MalformedJSON(f"the body is not valid JSON: {_decode_error(raw, error)}") from None


def require_json(content_type: str | None) -> None:
    """A JSON body says so: ``application/json`` or ``application/<anything>+json``, with any
    parameters. Anything else is a 415, so a web page cannot post one without a CORS preflight."""
    media = (content_type or "").split(";", 1)[0].strip().lower()
    if media != "application/json" and not (media.startswith("application/") and media.endswith("+json")):
        raise UnsupportedMediaType(
            f"send the body as 'Content-Type: application/json', not {content_type or 'nothing'!r}")


BODY_IDLE_SECONDS = 15.0  # the longest wait for the next part of a body (nginx: client_body_timeout)


async def read_raw(receive: Any, declared: str | None, limit: int, encoding: str | None = None) -> bytes:
    """The request body, refused past ``limit`` bytes (declared or sent), and with 408 when
    no part of it arrives for :data:`BODY_IDLE_SECONDS`: a client that stops half-way through
    a body (or trickles it, slowloris) does not hold the request and its connection forever.

    ``encoding`` is the request's Content-Encoding: a gzip body is decoded part by part as it
    arrives (:class:`api.transfer.Inflater`); ``limit`` counts the decoded bytes and bounds
    those sent as well, and a body decoding to more than 200 times what was sent is refused
    (413 compression_ratio). Another coding is a 415, a broken gzip stream a 400."""
    coding = body_coding(encoding)
    size = None if declared is None else whole_number(declared)
    if declared is not None and (size is None or size > limit):
        raise TooLarge(f"the body is {declared} bytes; the limit here is {limit}")
    inflater = Inflater(limit) if coding == "gzip" else None
    parts: list[bytes] = []
    size = 0
    while True:
        try:
            async with asyncio.timeout(BODY_IDLE_SECONDS):
                message = await receive()
        except TimeoutError:
            raise RequestTimeout(f"no part of the body arrived for {BODY_IDLE_SECONDS:g} s; "
                                 f"{size} bytes had") from None
        if message["type"] == "http.disconnect":
            raise Invalid("the client went away before sending the whole body", code="disconnected")
        chunk = message.get("body", b"")
        size += len(chunk)
        more = message.get("more_body", False)
        if inflater is not None:
            parts += inflater.feed(chunk)
            if not more:
                inflater.finish()
                return b"".join(parts)
            continue
        if size > limit:
            raise TooLarge(f"the body exceeds the limit of {limit} bytes")
        if not more:
            return b"".join((*parts, chunk)) if parts else chunk
        parts.append(chunk)


def decode_body(raw: bytes, type_: type[T], depth: int = MAX_DEPTH) -> T:
    """Decode a JSON body as ``type_``: malformed JSON is a 400, a wrong shape a 422, and so
    is text no backend can store (a NUL character) or nesting deeper than ``depth``."""
    if b"\\u0000" in raw or _nesting_at_most(raw) > depth or _LONG_RUN in b":" + raw.translate(_NUMBER_SHAPE, b" \t\r\n"):
        inspect_json(raw, depth)  # the full walk only when a cheap look says it may be needed
    try:
        decoded = msgspec.json.decode(raw, type=type_)
    except msgspec.ValidationError as error:
        decoded = _whole_floats_as_integers(raw, type_, error)
    except msgspec.DecodeError as error:
        raise MalformedJSON(f"the body is not valid JSON: {_decode_error(raw, error)}") from None
    refuse_repeated_keys(raw)
    return decoded


def refuse_repeated_keys(raw: bytes) -> None:
    """A JSON object naming one key twice is a 400 ``duplicate_key``: readers disagree on it
    (msgspec keeps the last value, others the first or refuse), so a body or a record holding
    one could mean one thing to Herald and another to its reader. The standard library's C
    scanner reads the (already valid) body again and hands each object's pairs over here,
    unless a cheap look finds every key spelled differently (no escapes, no key twice)."""
    if b"\\" not in raw:
        keys = _KEY.findall(raw)
        if len(keys) == len(set(keys)):
            return
    try:
        json.loads(raw, object_pairs_hook=_unique_pairs)
    except ValueError:  # not JSON the standard library reads; msgspec's checks have spoken
        return


_KEY = re.compile(rb'"([^"]*)"\s*:')  # without escapes a quote always opens or closes a string


def _unique_pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    found = dict(pairs)
    if len(found) != len(pairs):
        seen: set[str] = set()
        twice = next(key for key, _ in pairs if key in seen or seen.add(key))
        raise DuplicateKey(f"the body names the key {twice[:80]!r} twice in one object: each key once",
                           field=twice[:80])
    return found


_FLOAT_FOR_INT = re.compile(r"Expected `int( \| null)?`, got `float` - at `\$(?P<path>[^`]*)`")
_STEP = re.compile(r"\.([^.\[]+)|\[(\d+)\]")


def _whole_floats_as_integers(raw: bytes, type_: type[T], error: msgspec.ValidationError) -> T:
    """``type_`` from ``raw`` where an integer field is spelled as a whole float (``36.0``): JSON
    Schema counts that an integer, so the OpenAPI document admits it. Only the fields msgspec
    names as integers are changed, one at a time; a body wrong otherwise is refused (422
    invalid_body) naming the first fault left."""
    value: Any = None
    for _ in range(64):
        found = _FLOAT_FOR_INT.fullmatch(str(error))
        if found is None:
            break
        if value is None:
            try:
                value = msgspec.json.decode(raw)
            except msgspec.DecodeError:
                break
        parent, key = None, None
        node = value
        for name, index in _STEP.findall(found["path"]):
            parent, key = node, (name if name else int(index))
            try:
                node = node[key]
            except (KeyError, IndexError, TypeError):
                node = None
                break
        if parent is None or not (isinstance(node, float) and node.is_integer() and abs(node) <= 2**53):
            break
        parent[key] = int(node)
        try:
            return msgspec.json.decode(msgspec.json.encode(value), type=type_)
        except msgspec.ValidationError as again:
            error = again
    raise Invalid(f"the body does not fit {type_.__name__}: {error}", code="invalid_body") from None


# A high surrogate escape not followed by a low one: msgspec calls that "Input data was truncated"
_LONE_SURROGATE = re.compile(rb"\\u[dD][89abAB][0-9a-fA-F]{2}(?!\\u[dD][c-fC-F][0-9a-fA-F]{2})")


def _decode_error(raw: bytes, error: msgspec.DecodeError) -> str:
    """msgspec's reason, or what is wrong where its words mislead (a lone UTF-16 surrogate)."""
    if str(error) == "Input data was truncated" and _LONE_SURROGATE.search(raw):
        return ("a string holds a lone UTF-16 surrogate (a \\uD800-\\uDBFF escape not followed by a "
                "\\uDC00-\\uDFFF one): JSON text is Unicode characters")
    return str(error)


def inspect_json(raw: bytes, depth: int) -> None:
    """Refuse JSON nested deeper than ``depth``, holding a NUL character (PostgreSQL text
    cannot hold one) or an integer past 64 bits, naming the first field at fault."""
    try:
        value = msgspec.json.decode(raw)
    except RecursionError:
        raise TooDeep(f"the body is nested deeper than {depth} levels") from None
    except msgspec.DecodeError as error:
        raise MalformedJSON(f"the body is not valid JSON: {_decode_error(raw, error)}") from None
    stack: list[tuple[Any, str, int]] = [(value, "", 0)]
    while stack:
        item, path, level = stack.pop()
        if isinstance(item, str):
            if "\x00" in item:
                raise Unstorable(f"{path or 'the body'}: text may not hold a NUL character (\\u0000)",
                                 field=path or None)
            continue
        if isinstance(item, int) and not -MAX_INT - 1 <= item <= MAX_INT:
            raise OutOfRange(f"{path or 'the body'}: integers are 64-bit ({-MAX_INT - 1} to {MAX_INT})",
                             field=path or None)
        if isinstance(item, dict | list):
            if level >= depth:
                raise TooDeep(f"{path or 'the body'}: JSON is nested deeper than {depth} levels", field=path or None)
            if isinstance(item, dict):
                for key, child in reversed(item.items()):
                    name = f"{path}.{key}" if path else key
                    if "\x00" in key:
                        raise Unstorable(f"{name!r}: a field name may not hold a NUL character (\\u0000)",
                                         field=name)
                    stack.append((child, name, level + 1))
            else:
                stack.extend((child, f"{path}[{i}]", level + 1) for i, child in reversed(list(enumerate(item))))


# What decode_body refuses in any body, as JSON Schema (ECMA-262 regex): text holding a NUL
# character, an integer past 64 bits. ``declare_storable`` writes it into the OpenAPI document.
NO_NUL = "^[^\\u0000]*$"
INT64 = {"minimum": -MAX_INT - 1, "maximum": MAX_INT}


def declare_storable(document: dict[str, Any]) -> None:
    """Tell every schema a request body reaches what :func:`decode_body` refuses in any body
    (:func:`inspect_json`): each integer gets 64-bit bounds, each string and each dict's keys a
    pattern without NUL (a value of any type stays ``{}``: docs/DECISIONS.md). A schema shared
    with an answer is true of it too: Herald only answers what it stored. Path and query
    parameters get the same (refused_at_door refuses a NUL there)."""
    found = document.setdefault("components", {}).setdefault("schemas", {})
    seen: set[str] = set()

    def visit(node: Any) -> None:
        if isinstance(node, list):
            for item in node:
                visit(item)
            return
        if not isinstance(node, dict):
            return
        ref = node.get("$ref")
        if isinstance(ref, str):
            name = ref.rsplit("/", 1)[-1]
            if name not in seen and name in found:
                seen.add(name)
                visit(found[name])
            return
        kinds = node.get("type")
        kinds = kinds if isinstance(kinds, list) else [kinds]
        if "integer" in kinds:
            node["minimum"] = max(node.get("minimum", INT64["minimum"]), INT64["minimum"])
            node["maximum"] = min(node.get("maximum", INT64["maximum"]), INT64["maximum"])
        if "string" in kinds and not {"pattern", "enum", "const", "format"} & node.keys():
            node["pattern"] = NO_NUL
        if "object" in kinds and "propertyNames" not in node and node.get("additionalProperties") is not False:
            node["propertyNames"] = {"pattern": NO_NUL}
        for key, value in node.items():
            if key in ("properties", "patternProperties", "$defs"):
                visit(list(value.values()))
            elif key in ("items", "additionalProperties", "anyOf", "oneOf", "allOf", "prefixItems"):
                visit(value)

    for operations in document["paths"].values():
        for operation in operations.values():
            for media in operation.get("requestBody", {}).get("content", {}).values():
                visit(media.get("schema"))
            for parameter in operation.get("parameters", []):
                if parameter["in"] in ("path", "query"):
                    visit(parameter.get("schema"))


class MalformedJSON(HeraldError):
    status, title, code = 400, "Malformed JSON", "malformed_json"


class DuplicateKey(HeraldError):
    status, title, code = 400, "A key given twice", "duplicate_key"


class RepeatedHeader(HeraldError):
    status, title, code = 400, "A header given twice", "repeated_header"


class Unstorable(HeraldError):
    status, title, code = 400, "Text that cannot be stored", "unstorable_text"


class OutOfRange(HeraldError):
    status, title, code = 400, "Integer out of range", "integer_out_of_range"


class TooDeep(HeraldError):
    status, title, code = 400, "JSON nested too deep", "too_deep"


class UnsupportedMediaType(HeraldError):
    status, title, code = 415, "Unsupported Media Type", "unsupported_media_type"


def install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(DomainError)
    async def domain_error(_: Request, error: DomainError) -> Response:
        return Response(error_body(error), status_code=status_of(error)[0], media_type=PROBLEM,
                        headers=error_headers(error))

    @app.exception_handler(OperationalError)
    @app.exception_handler(InterfaceError)
    async def database_error(request: Request, error: Exception) -> Response:
        log.warning("database unreachable: %s", error)
        return await domain_error(request, database_away())

    @app.exception_handler(RequestValidationError)
    async def validation_error(_: Request, error: RequestValidationError) -> Response:
        parts = [f"{'.'.join(map(str, e.get('loc', ())))}: {e.get('msg')}" for e in error.errors()]
        return problem(422, "Invalid request", "; ".join(parts), "invalid_request")

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, error: StarletteHTTPException) -> Response:
        answer = problem(error.status_code, str(error.detail), str(error.detail),
                         "not_found" if error.status_code == 404 else f"http_{error.status_code}")
        answer.headers.update(error.headers or {})
        if error.status_code == 405:  # every method of the path, not only the first route's
            answer.headers["Allow"] = ", ".join(_allowed(request, error))
        return answer

    @app.exception_handler(Exception)
    async def internal_error(_: Request, error: Exception) -> Response:
        log.exception("internal error")
        return Response(INTERNAL_ERROR, status_code=500, media_type=PROBLEM)


def _allowed(request: Request, error: StarletteHTTPException) -> list[str]:
    """The methods this request's path answers: every operation the OpenAPI document lists
    for it (FastAPI's own 405 names only the first route it tried) and the router's own."""
    methods = {m.strip() for m in (error.headers or {}).get("Allow", "").split(",") if m.strip()}
    for template, operations in request.app.openapi()["paths"].items():
        if re.fullmatch(re.sub(r"\\{[^/]+?\\}", "[^/]+", re.escape(template)), request.url.path):
            methods |= {m.upper() for m in operations}
    return sorted(methods)


def doc(*, body: Any = None, response: Any = None, status: int = 200, errors: tuple[int, ...] = (),
        example: Any = None, also: dict[str, Any] | None = None, limit: int | None = None,
        setting: str = "HERALD_MAX_COMMAND_BODY", token: str | None = None) -> dict[str, Any]:
    """Route keyword arguments documenting msgspec body and response types in OpenAPI
    (``example``: a request body; ``also``: other media types of the answer; ``limit``: the
    most bytes the body may hold, decoded, and the ``setting`` that configures it; ``token``:
    whether the route ``needs`` a bearer token or ``accepts`` one, :data:`SECURITY`). Every
    route's problems are completed by :func:`install_openapi`."""
    responses: dict[int | str, Any] = {}
    if response is not None:
        responses[status] = {"description": "OK", "content": {"application/json": {"schema": _ref(response)},
                                                                **(also or {})}}
    for code in errors:
        responses[code] = READ_LIMITED if code == 429 else _problem_response(code)
    extra: dict[str, Any] = {}
    if token is not None:
        extra["security"] = SECURITY[token]
    if body is not None:
        media = {"schema": _ref(body), **({"example": example} if example is not None else {})}
        extra["requestBody"] = {"required": True, "content": {"application/json": media}}
        if limit is not None:
            extra["requestBody"].update(body_limit(limit, setting))
    return {"responses": responses, "openapi_extra": extra, "status_code": status}


BEARER = "bearer"  # the one security scheme: ``Authorization: Bearer <token>`` (api/contract.py)
SECURITY = {"needs": [{BEARER: []}],  # a route that answers 401 without a token
            "accepts": [{BEARER: []}, {}]}  # a read a token widens (a seat's own hidden cards), open without


def body_limit(limit: int, setting: str | None) -> dict[str, Any]:
    """What a request body's OpenAPI entry says of its size and content codings (read_raw):
    in words, and as ``x-max-body-bytes``."""
    configured = f" ({setting})" if setting else ""
    return {"x-max-body-bytes": limit, "description": (
        f"At most {_bytes(limit)}{configured}, counted decoded: the body may be sent with "
        f"`Content-Encoding: gzip` (then at most {_bytes(limit)} sent, decoding to at most {MAX_RATIO} times "
        "that past its first MiB). 413 beyond (`too_large`, `compression_ratio`), 415 for another content "
        "coding (`unsupported_encoding`), 400 for a broken gzip stream (`malformed_gzip`).")}


def _bytes(count: int) -> str:
    for unit, size in (("MiB", 2**20), ("KiB", 2**10)):
        if count >= size and count % size == 0:
            return f"{count // size} {unit}"
    return f"{count} bytes"


# The reason phrases of RFC 9110 for the problems Herald answers, written here rather than read
# from http.HTTPStatus, whose phrases changed in Python 3.13 ("Unprocessable Entity" became
# "Unprocessable Content"): the OpenAPI document is the same under every supported Python.
REASONS = {400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 405: "Method Not Allowed",
           408: "Request Timeout", 409: "Conflict", 413: "Content Too Large", 415: "Unsupported Media Type",
           422: "Unprocessable Content", 429: "Too Many Requests", 500: "Internal Server Error",
           503: "Service Unavailable"}


def _problem_response(code: int) -> dict[str, Any]:
    return {"description": REASONS[code], "content": {PROBLEM: {"schema": _ref(Problem)}}}


def document_problems(operation: dict[str, Any]) -> None:
    """Add the problems every route of this kind can answer: 400 (a NUL in the path or query,
    a malformed body), 404 (a path naming nothing), 422 (parameters or body that do not fit),
    401 (a malformed bearer token), 408, 413 and 415 (a body that stopped arriving, too large, or
    not JSON). FastAPI's own 422 (a JSON ``HTTPValidationError``) becomes the problem+json Herald
    answers."""
    params = operation.get("parameters", [])
    for param in params:
        _not_null(param)
    codes = {400}
    if params or "requestBody" in operation:
        codes.add(422)
    if any(p["in"] == "path" for p in params):
        codes.add(404)
    if "requestBody" in operation:
        codes |= {408, 413, 415}
    if any(p["in"] == "header" and p["name"].lower() == "authorization" for p in params):
        codes.add(401)
    responses = operation.setdefault("responses", {})
    for code in sorted(codes | {int(c) for c in responses if c.isdigit() and int(c) >= 400}):
        found = responses.setdefault(str(code), _problem_response(code))
        if PROBLEM not in found.get("content", {}):
            found["content"] = _problem_response(code)["content"]


def _not_null(param: dict[str, Any]) -> None:
    """An optional parameter is left out, never sent as null: FastAPI writes ``str | None`` as
    ``anyOf: [string, null]``, which a client (or a fuzzer) would send as the text ``null``."""
    schema = param.get("schema", {})
    options = schema.get("anyOf")
    if options and {"type": "null"} in options and not param.get("required"):
        rest = [o for o in options if o != {"type": "null"}]
        schema.pop("anyOf")
        if len(rest) == 1:
            schema.update({k: v for k, v in rest[0].items() if k not in schema})
        else:
            schema["anyOf"] = rest


class Link(msgspec.Struct, frozen=True):
    """An OpenAPI link: what ``producer`` (method, path) answers with ``status`` feeds the
    path parameter ``param`` of every operation that has it (and, where ``auth`` is given,
    its Authorization header; ``bodies`` give a consumer, by path, a request body)."""

    producer: tuple[str, str]
    status: str
    param: str
    value: str
    auth: str | None = None
    bodies: dict[str, Any] = {}


def add_links(schema: dict[str, Any], links: list[Link]) -> None:
    """Write each link into its producer's response, so a client (or a fuzzer) can follow a
    created game or tournament to every operation on it."""
    for link in links:
        method, path = link.producer
        response = schema["paths"][path][method]["responses"][link.status]
        found = response.setdefault("links", {})
        for target, operations in sorted(schema["paths"].items()):
            for verb, operation in sorted(operations.items()):
                params = operation.get("parameters", [])
                if not any(p["in"] == "path" and p["name"] == link.param for p in params):
                    continue
                values: dict[str, Any] = {f"path.{link.param}": link.value}
                header = next((p["name"] for p in params if p["in"] == "header"
                               and p["name"].lower() == "authorization"), None)
                if link.auth and header:
                    values[f"header.{header}"] = link.auth
                entry: dict[str, Any] = {"operationId": operation["operationId"], "parameters": values}
                if verb == "post" and target in link.bodies:
                    entry["requestBody"] = link.bodies[target]
                found[operation["operationId"]] = entry


_SCHEMA_TYPES: list[Any] = [Problem]

RATE_LIMITED = {
    "description": "Too many writes from this client address or token (api/ratelimit.py)",
    "headers": {"Retry-After": {"description": "seconds to wait", "schema": {"type": "integer"}}},
    "content": {PROBLEM: {"schema": {"$ref": REF.format(name="Problem")}}},
}

READ_LIMITED = {
    "description": "An expensive read: too many running, or too much CPU spent, for this client address or token "
                   "(`read_limited`, api/budgets.py); for a POST, also too many writes (api/ratelimit.py)",
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
                    links: list[Link] = ()) -> None:
    """Merge the msgspec schemas of every documented type into FastAPI's OpenAPI document;
    ``named`` types (unions, such as each rule system's commands) get a component of that name.
    Every operation's problems are documented (:func:`document_problems`) and ``links`` written in."""
    base = app.openapi
    named = named or {}

    def openapi() -> dict[str, Any]:
        if app.openapi_schema:
            return app.openapi_schema
        schema = base()
        for operations in schema["paths"].values():  # every write may meet the write limits
            for method, operation in operations.items():
                if method in ("post", "put", "patch", "delete"):
                    operation.setdefault("responses", {}).setdefault("429", RATE_LIMITED)
        for operations in schema["paths"].values():
            for operation in operations.values():
                document_problems(operation)
        add_links(schema, list(links))
        types = _SCHEMA_TYPES + extra_types + list(named.values())
        (refs, components) = msgspec.json.schema_components(types, ref_template=REF)
        components.update(zip(named, refs[len(types) - len(named):]))
        found = schema.setdefault("components", {}).setdefault("schemas", {})
        for unused in ("HTTPValidationError", "ValidationError"):  # Herald answers problem+json instead
            found.pop(unused, None)
        found.update(dict(sorted(components.items())))
        app.openapi_schema = schema
        return schema

    app.openapi = openapi  # type: ignore[method-assign]
