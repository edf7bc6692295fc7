"""The HTTP connection ``herald serve`` speaks: uvicorn's httptools protocol with a deadline
for a request's line and headers.

uvicorn times out an idle kept-alive connection, and Herald times out a body that stops
coming (:func:`api.http.read_raw`, 408 ``body_timeout``), but nothing bounded a request whose
headers never end: a client sending a byte now and then held its connection (and its slot)
for as long as it liked (slowloris). HAProxy's ``timeout http-request 10s`` covers the
cluster; this covers a direct ``herald serve``. The deadline starts when a connection opens
and when each request on it begins, and ends when the headers are complete; past it the
client gets a 408 problem+json and the connection closes."""

from __future__ import annotations

from asyncio import TimerHandle, Transport
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from api.config import Settings
from api.errors import RequestTimeout
from api.http import PROBLEM, error_body

HEADER_TIMEOUT = Settings.from_env().header_timeout


class HeaderDeadline(HttpToolsProtocol):
    """uvicorn's httptools protocol, closing a request whose headers take too long."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._deadline: TimerHandle | None = None

    def connection_made(self, transport: Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._arm()

    def on_headers_complete(self) -> None:
        self._disarm()
        super().on_headers_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _arm(self) -> None:
        self._disarm()
        if HEADER_TIMEOUT > 0:
            self._deadline = self.loop.call_later(HEADER_TIMEOUT, self._expired)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _expired(self) -> None:
        self._deadline = None
        if self.transport.is_closing():
            return
        body = error_body(RequestTimeout(f"the request's line and headers did not arrive within {HEADER_TIMEOUT:g} s",
                                         code="header_timeout"))
        self.transport.write(b"".join([
            b"HTTP/1.1 408 Request Timeout\r\n", b"content-type: ", PROBLEM.encode(), b"\r\n",
            b"content-length: ", str(len(body)).encode(), b"\r\n", b"connection: close\r\n\r\n", body]))
        self.transport.close()
