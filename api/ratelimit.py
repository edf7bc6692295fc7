"""Write limits: a token bucket per bearer token and one per client address, checked on
every request that is not a read (POST, PUT, PATCH, DELETE) before any work is done. A dry run
(``POST /games/{id}/commands/check``) records nothing: it takes from buckets of its own, with
their own, larger, limits, and never from the writes'.

A bucket holds up to ``burst`` writes and refills at ``rate`` writes a second; a write
takes one. An empty bucket answers 429 problem+json with ``Retry-After`` (whole seconds
until one write is back). Plain ASGI, ahead of the framework and of the command route, so
the check costs a dict lookup and some arithmetic (bench/bench_api.py). The buckets live in
the process: with several workers each keeps its own.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Any

from api.http import PROBLEM, problem_body

READS = frozenset(("GET", "HEAD", "OPTIONS"))
MAX_KEYS = 50_000  # buckets kept before full ones are forgotten


class Buckets:
    """Token buckets by key: ``rate`` writes a second, up to ``burst`` at once."""

    def __init__(self, rate: float, burst: float, clock: Callable[[], float] = time.monotonic):
        self.rate, self.burst, self.clock = rate, burst if burst > 0 else 1, clock
        self._held: dict[Any, list[float]] = {}  # key -> [writes left, when counted]

    def take(self, key: Any, now: float) -> float:
        """Take one write for ``key``: 0.0 when allowed, else the seconds until one is back."""
        held = self._held.get(key)
        if held is None:
            if len(self._held) >= MAX_KEYS:
                self._forget_full(now)
            self._held[key] = [self.burst - 1.0, now]
            return 0.0
        left = min(self.burst, held[0] + (now - held[1]) * self.rate)
        held[1] = now
        if left >= 1.0:
            held[0] = left - 1.0
            return 0.0
        held[0] = left
        return (1.0 - left) / self.rate

    def short(self, key: Any, now: float) -> float:
        """0.0 when ``key``'s bucket holds something, else the seconds until it does (nothing
        is taken: :meth:`spend` takes what the work cost once it is known)."""
        held = self._held.get(key)
        if held is None:
            return 0.0
        left = min(self.burst, held[0] + (now - held[1]) * self.rate)
        return 0.0 if left > 0 else (1e-3 - left) / self.rate

    def spend(self, key: Any, amount: float, now: float) -> None:
        """Take ``amount`` from ``key``'s bucket, below empty if it holds less: a key that
        overdrew waits until it is refilled past zero (:meth:`short`)."""
        held = self._held.get(key)
        if held is None:
            if len(self._held) >= MAX_KEYS:
                self._forget_full(now)
            held = self._held[key] = [float(self.burst), now]
        held[0] = min(self.burst, held[0] + (now - held[1]) * self.rate) - amount
        held[1] = now

    def give_back(self, key: Any) -> None:
        """Return a write taken for ``key`` (the request was refused by another bucket)."""
        held = self._held.get(key)
        if held is not None:
            held[0] = min(self.burst, held[0] + 1.0)

    def _forget_full(self, now: float) -> None:
        full = [k for k, (left, at) in self._held.items() if left + (now - at) * self.rate >= self.burst]
        for key in full:
            del self._held[key]
        if len(self._held) >= MAX_KEYS:  # everyone is busy: forget the oldest half
            for key in sorted(self._held, key=lambda k: self._held[k][1])[: MAX_KEYS // 2]:
                del self._held[key]


class Limit:
    """A bucket per bearer token and one per client address; either may be off (rate 0)."""

    def __init__(self, token_rate: float, token_burst: int, address_rate: float, address_burst: int):
        self.tokens = Buckets(token_rate, token_burst) if token_rate > 0 else None
        self.addresses = Buckets(address_rate, address_burst) if address_rate > 0 else None

    @property
    def on(self) -> bool:
        return self.tokens is not None or self.addresses is not None

    def wait(self, scope: dict, now: float) -> float:
        address = (scope.get("client") or ("unknown",))[0]
        if self.addresses is not None:
            wait = self.addresses.take(address, now)
            if wait:
                return wait
        if self.tokens is not None:
            token = scope_bearer(scope)
            if token is not None:
                wait = self.tokens.take(token, now)
                if wait:
                    if self.addresses is not None:
                        self.addresses.give_back(address)
                    return wait
        return 0.0


CHECK_SUFFIX = "/commands/check"  # POST /games/{id}/commands/check: a dry run, not a write


class WriteLimits:
    """The write limit, and the dry runs' own (``checks``: a command checked, nothing
    recorded, costs a fraction of a write; by default five times as many are allowed)."""

    def __init__(self, token_rate: float, token_burst: int, address_rate: float, address_burst: int,
                 clock: Callable[[], float] = time.monotonic, checks: Limit | None = None):
        self.clock = clock
        self.writes = Limit(token_rate, token_burst, address_rate, address_burst)
        self.checks = checks if checks is not None else Limit(0, 0, 0, 0)

    @property
    def on(self) -> bool:
        return self.writes.on or self.checks.on

    def wait(self, scope: dict) -> float:
        """0.0 when this request may go on, else the seconds its client must wait."""
        if scope["method"] in READS:
            return 0.0
        limit = self.checks if scope["path"].endswith(CHECK_SUFFIX) else self.writes
        return limit.wait(scope, self.clock()) if limit.on else 0.0

    async def refuse(self, send: Any, wait: float) -> None:
        """Answer 429 problem+json with Retry-After."""
        seconds = max(1, math.ceil(wait))
        body = problem_body(429, "Too many requests",
                            f"too many writes (or dry runs) from this client or token; retry after {seconds} s",
                            "rate_limited")
        await send({"type": "http.response.start", "status": 429,
                    "headers": [(b"content-type", PROBLEM.encode()), (b"content-length", str(len(body)).encode()),
                                (b"retry-after", str(seconds).encode())]})
        await send({"type": "http.response.body", "body": body})


def scope_bearer(scope: dict) -> bytes | None:
    for name, value in scope["headers"]:
        if name == b"authorization":
            if value[:7].lower() != b"bearer ":
                return None
            return value[7:].strip() or None
    return None
