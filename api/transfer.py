"""How bodies travel (issue 24 point 2), as the HTTP ecosystem does it:

- a request body sent with ``Content-Encoding: gzip`` is decoded while it is read
  (:class:`Inflater`, used by :func:`api.http.read_raw`), never holding more than the decoded
  limit; the limit counts the decoded bytes, the bytes sent are bounded by it too, and a body
  that decodes to more than :data:`MAX_RATIO` times what was sent is refused (a zip bomb);
- an answer is gzipped for a client that sends ``Accept-Encoding: gzip`` (:func:`compressing`:
  Starlette's GZipMiddleware, which never buffers nor compresses a live event stream);
- a body the app refuses before reading it whole (a 413, a 415, a 429...) is read and thrown
  away after the answer, up to a bound, before the connection closes (:func:`guard_body`): a
  client that sends its whole body before it reads (Python's urllib, ``Connection: close``)
  reads the 413 instead of meeting a reset connection.
"""

from __future__ import annotations

import asyncio
import zlib
from typing import Any

from starlette.middleware.gzip import DEFAULT_EXCLUDED_CONTENT_TYPES, GZipMiddleware

from api.errors import HeraldError, TooLarge
from api.numbers import whole_number

CODINGS = ("gzip", "identity")  # the content codings a request body may come in
MAX_RATIO = 200  # decoded bytes per byte sent, at most; a real record compresses 6 to 15 times
RATIO_FLOOR = 1024 * 1024  # decoded bytes before the ratio is looked at: small bodies go unchecked
INFLATE_STEP = 256 * 1024  # decoded bytes per zlib call at most: the ratio is checked between steps
GZIP_WBITS = 16 + zlib.MAX_WBITS  # a gzip wrapper (RFC 1952), nothing else

COMPRESS_MINIMUM = 1024  # answers smaller than this go as they are: gzip saves little there
COMPRESS_LEVEL = 6  # zlib's default: 43 MB/s on a record here, 6.6:1 (level 9: 14 MB/s, 6.9:1)

DRAIN_SECONDS = 30.0  # the longest a refused body is read and thrown away
IDLE_SECONDS = 15.0  # ... and the longest wait for its next part (api/http.BODY_IDLE_SECONDS)


class UnsupportedEncoding(HeraldError):
    status, title, code = 415, "Unsupported content coding", "unsupported_encoding"


class MalformedGzip(HeraldError):
    status, title, code = 400, "Malformed gzip", "malformed_gzip"


def body_coding(header: str | None) -> str | None:
    """The content coding a request body comes in: ``"gzip"``, or None for the body as it is
    (no header, ``identity``). Any other coding, or more than one, is a 415 naming those taken."""
    if not header:
        return None
    codings = [c.strip().lower() for c in header.split(",")]
    codings = [c for c in codings if c and c != "identity"]
    if not codings:
        return None
    if len(codings) == 1 and codings[0] in ("gzip", "x-gzip"):  # x-gzip: RFC 9110 section 8.4.1.3
        return "gzip"
    raise UnsupportedEncoding(f"a body may be sent with Content-Encoding {' or '.join(CODINGS)}, "
                              f"not {header[:100]!r}", accept_encoding=", ".join(CODINGS))


class Inflater:
    """A gzip body decoded as its parts arrive: at most ``limit`` bytes decoded, at most
    ``limit`` bytes sent, and, past :data:`RATIO_FLOOR` decoded, at most :data:`MAX_RATIO`
    decoded bytes per byte sent. Several gzip members one after another decode as one body
    (RFC 1952; zero bytes between them are padding, as gzip(1) takes them)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.sent = 0  # bytes received, compressed
        self.size = 0  # bytes decoded
        self._zlib = zlib.decompressobj(GZIP_WBITS)
        self._started = False  # a member has begun: its end must arrive

    def feed(self, chunk: bytes) -> list[bytes]:
        """The decoded parts of ``chunk``, the next bytes of the body as sent."""
        self.sent += len(chunk)
        if self.sent > self.limit:
            raise TooLarge(f"the body exceeds the limit of {self.limit} bytes (as sent, gzipped)")
        out: list[bytes] = []
        data, more = chunk, False
        while data or more:
            if self._zlib.eof:  # a member ended: the next one starts here
                data = data.lstrip(b"\x00")
                if not data:
                    break
                self._zlib = zlib.decompressobj(GZIP_WBITS)
            self._started = True
            room = min(INFLATE_STEP, self.limit - self.size + 1)
            try:
                part = self._zlib.decompress(data, room)
            except zlib.error as error:
                raise MalformedGzip(f"the body is not a valid gzip stream (Content-Encoding: gzip): {error}, "
                                    f"{self.sent - len(data)} bytes in") from None
            self.size += len(part)
            if self._zlib.eof:
                data, more = self._zlib.unused_data, False
            else:  # output capped at ``room``: zlib may hold more of it, with or without input left
                data, more = self._zlib.unconsumed_tail, len(part) == room
            used = self.sent - len(data)
            if self.size > RATIO_FLOOR and self.size > MAX_RATIO * used:
                raise TooLarge(f"the body decodes to more than {MAX_RATIO} times the bytes sent ({self.size} "
                               f"bytes from {used}); Herald refuses it as a zip bomb", code="compression_ratio")
            if self.size > self.limit:
                raise TooLarge(f"the body decodes to more than the limit of {self.limit} bytes "
                               "(the limit counts the bytes decoded)")
            if part:
                out.append(part)
        return out

    def finish(self) -> None:
        """The body ended: so must its gzip stream."""
        if not self._started:
            raise MalformedGzip("the body is empty, which is not a gzip stream (Content-Encoding: gzip)")
        if not self._zlib.eof:
            raise MalformedGzip(f"the gzip stream ends early: {self.sent} bytes sent, {self.size} decoded, "
                                "and the stream's end is missing (a truncated upload?)")


def compressing(app: Any) -> Compressing:
    """``app`` with its answers of :data:`COMPRESS_MINIMUM` bytes and more gzipped for a client
    that accepts it (Starlette's GZipMiddleware: ``Vary: Accept-Encoding``, large answers
    compressed in a worker thread, ``text/event-stream`` (the live stream) left as it is,
    unbuffered)."""
    return Compressing(app)


_EXCLUDED = frozenset(c.encode() for c in DEFAULT_EXCLUDED_CONTENT_TYPES)
_VARY = (b"vary", b"Accept-Encoding")


class Compressing:
    """Starlette's GZipMiddleware for the requests that accept gzip; the others go straight to
    the app, with ``Vary: Accept-Encoding`` on an answer gzip would have taken. (The library
    sets up its identity responder for every request, about 6 us each here: a tenth of a
    trivial request; this keeps that for the clients that ask.)"""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.gzip = GZipMiddleware(app, minimum_size=COMPRESS_MINIMUM, compresslevel=COMPRESS_LEVEL)

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        for name, value in scope["headers"]:
            if name == b"accept-encoding":
                if accepts_gzip(value):
                    return await self.gzip(scope, receive, send)
                break

        async def varied(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start" and _compressible(message["headers"]):
                message["headers"] = [*message["headers"], _VARY]
            await send(message)

        await self.app(scope, receive, varied)


def accepts_gzip(header: bytes) -> bool:
    """Whether an Accept-Encoding header takes gzip: named (or ``*``) with a weight above 0."""
    wildcard = False
    for item in header.lower().split(b","):
        coding, _, params = item.partition(b";")
        coding = coding.strip()
        if coding in (b"gzip", b"x-gzip", b"*"):
            weight = params.strip().removeprefix(b"q=").strip() if params else b"1"
            try:
                taken = float(weight) > 0
            except ValueError:
                taken = True
            if coding == b"*":
                wildcard = taken
            else:
                return taken
    return wildcard


def _compressible(headers: Any) -> bool:
    """Whether the library would gzip an answer with these headers (its size, its media type)."""
    for name, value in headers:
        if name == b"content-length" and int(value) < COMPRESS_MINIMUM:
            return False
        if name == b"content-type":
            media = value.partition(b";")[0].strip().lower()
            if media in _EXCLUDED or media.partition(b"/")[0] + b"/*" in _EXCLUDED:
                return False
        if name == b"content-encoding":
            return False
    return True


_CLOSE = (b"connection", b"close")


class _BodyGuard:
    """The receive and send of one request with a body: what was received is counted, and an
    answer that starts before the body ended closes the connection after the rest of the body
    was read and thrown away (up to ``drain_bytes`` and :data:`DRAIN_SECONDS`)."""

    __slots__ = ("_lock", "_receive", "_send", "asked", "declared", "drain_bytes", "ended", "expect", "received",
                 "unread")

    def __init__(self, receive: Any, send: Any, declared: int | None, expect: bool, drain_bytes: int) -> None:
        self._receive, self._send = receive, send
        self.declared, self.expect, self.drain_bytes = declared, expect, drain_bytes
        self.received = 0
        self.asked = self.ended = False
        self.unread: bool | None = None  # at the answer's start: whether the body is to be drained
        self._lock = asyncio.Lock()

    async def receive(self, draining: bool = False) -> dict[str, Any]:
        async with self._lock:  # one reader at a time: the app's (a disconnect listener) or the drain
            if draining and self.ended:
                return {"type": "http.disconnect"}
            self.asked = True
            message = await self._receive()
            if message["type"] == "http.request":
                self.received += len(message.get("body", b""))
                if not message.get("more_body", False):
                    self.ended = True
            else:
                self.ended = True
            return message

    async def send(self, message: dict[str, Any]) -> None:
        kind = message["type"]
        if kind == "http.response.start" and not self.ended:
            # The connection closes after this answer: the rest of the body is not a request.
            message = {**message, "headers": [*message.get("headers", ()), _CLOSE]}
            rest = None if self.declared is None else self.declared - self.received
            # a client waiting for 100 Continue has sent no body: it reads the answer now; one
            # that stopped sending (408) is not waited for again
            self.unread = (not (self.expect and not self.asked) and message["status"] != 408
                           and (rest is None or rest <= self.drain_bytes))
        elif kind == "http.response.body" and self.unread and not message.get("more_body", False):
            if message.get("body"):
                await self._send({"type": "http.response.body", "body": message["body"], "more_body": True})
            await self._drain()
            message = {"type": "http.response.body", "body": b"", "more_body": False}
        await self._send(message)

    async def _drain(self) -> None:
        """Read and throw away the rest of the body, within the bounds."""
        drained = 0
        try:
            async with asyncio.timeout(DRAIN_SECONDS):
                while not self.ended and drained <= self.drain_bytes:
                    before = self.received
                    async with asyncio.timeout(IDLE_SECONDS):
                        await self.receive(draining=True)
                    drained += self.received - before
        except TimeoutError:
            pass


def _body_headers(scope: dict[str, Any]) -> tuple[int | None, bool, bool]:
    """(declared length, whether a body is coming, Expect: 100-continue) of a request."""
    declared, chunked, expect = None, False, False
    for name, value in scope["headers"]:
        if name == b"content-length":
            declared = whole_number(value)
            chunked = chunked or declared is None
        elif name == b"transfer-encoding":
            chunked = True
        elif name == b"expect":
            expect = value.lower() == b"100-continue"
    return declared, chunked or bool(declared), expect


async def guard_body(app: Any, scope: dict[str, Any], receive: Any, send: Any, drain_bytes: int) -> None:
    """Call ``app``; when it answers a request before reading its whole body, the connection
    closes after the answer (``Connection: close``): the answer's bytes are sent, then the rest
    of the body is read and thrown away, if it is at most ``drain_bytes``, and only then does
    the response end (a body declared larger is not read at all: that client may see the
    connection reset before it reads the answer). A request without a body goes to ``app``
    untouched."""
    declared, has_body, expect = _body_headers(scope)
    if not has_body:
        return await app(scope, receive, send)
    guard = _BodyGuard(receive, send, declared, expect, drain_bytes)
    await app(scope, guard.receive, guard.send)
