"""Signed webhooks for "your move" notices (issue 29).

A registered player may set one webhook URL (with their player token). Each notice of the
turns read model (:mod:`projections.turns`) for that player is then POSTed to it, in order, as
the JSON ``GET /players/{name}/turns`` gives it, with:

- ``X-Herald-Signature: sha256=<hex>``: HMAC-SHA256 of the exact body bytes, keyed by the
  webhook's secret (shown once when the webhook is set; made again from the server's key, never
  stored: setting the webhook again makes a new one);
- ``X-Herald-Delivery: <notice id>.<attempt>`` and ``X-Herald-Event: turn``.

A delivery succeeds on any 2xx answer within ``TIMEOUT`` seconds. Otherwise it is tried again
after ``retry_seconds × 2^(attempt − 1)`` (capped at an hour), up to ``MAX_ATTEMPTS`` attempts;
then the notice is given up and the next one goes. A player's notices wait behind the one
being retried, so they arrive in order. Every attempt is logged (``herald_webhook_deliveries``;
``GET /players/{name}/webhook/deliveries``).

A webhook may not point into the server's own network (a request forgery): an address that is
not public (loopback, private, link-local, ...) is refused when the webhook is set, when given
as such, and at each delivery, after the host's name is resolved (logged as refused, tried again
as a failure); ``HERALD_WEBHOOK_PRIVATE=1`` allows them, for a receiver on the same network
(and the tests' local receivers). The name is resolved again by the HTTP client when it connects,
so a name whose answer changes in between is not caught.

One process delivers at a time (the advisory lock ``herald:webhooks`` on PostgreSQL), so
several processes on one database send each attempt once."""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import logging
import socket
from datetime import timedelta
from urllib.parse import urlsplit

import httpx
import msgspec

from api import clock
from api.errors import Invalid
from api.periodic import Periodic
from api.tokens import derived_token
from domain.chain import iso
from projections.sql import SCHEMA_LOCK, Database
from projections.turns import Turn, Turns

log = logging.getLogger("herald")

MAX_ATTEMPTS = 6
MAX_BACKOFF = 3600.0
TIMEOUT = 5.0
MAX_URL = 2000
SIGNATURE = "X-Herald-Signature"

SCHEMA = (
    """CREATE TABLE IF NOT EXISTS herald_webhooks (
        player TEXT PRIMARY KEY,
        url TEXT NOT NULL,
        generation INTEGER NOT NULL,
        delivered BIGINT NOT NULL,
        set_at TEXT NOT NULL
    )""",
    """CREATE TABLE IF NOT EXISTS herald_webhook_deliveries (
        player TEXT NOT NULL,
        notice BIGINT NOT NULL,
        attempt INTEGER NOT NULL,
        at TEXT NOT NULL,
        status INTEGER,
        outcome TEXT NOT NULL,
        error TEXT NOT NULL,
        next_at TEXT,
        PRIMARY KEY (player, notice, attempt)
    )""",
)


class WebhookRequest(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """POST /players/{name}/webhook: where to POST your notices (http or https)."""

    url: str


class WebhookSet(msgspec.Struct, frozen=True):
    """The webhook as set, and its secret (shown once): check ``X-Herald-Signature`` with it.
    Notices from ``after`` on are delivered (those before were already there)."""

    player: str
    url: str
    secret: str
    after: int


class Delivery(msgspec.Struct, frozen=True):
    """One attempt to deliver notice ``notice``: when, the HTTP status (None: no answer),
    ``outcome`` ("delivered", "retry" or "gave up"), the error, and when the next try is due."""

    notice: int
    attempt: int
    at: str
    status: int | None
    outcome: str
    error: str = ""
    next_at: str | None = None


class Deliveries(msgspec.Struct, frozen=True):
    """GET /players/{name}/webhook/deliveries: the newest attempts first."""

    player: str
    url: str | None
    deliveries: list[Delivery]


def signature(secret: str, body: bytes) -> str:
    """The ``X-Herald-Signature`` of ``body``: ``sha256=`` and the HMAC-SHA256 hex digest."""
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


class Webhooks:
    """Players' webhooks, their delivery and its log, over the store's database."""

    def __init__(self, db: Database, turns: Turns, token_key: bytes, retry_seconds: float = 5.0,
                 poll_seconds: float = 1.0, allow_private: bool = False):
        self._db, self.turns, self._key = db, turns, token_key
        self.allow_private = allow_private
        self.retry_seconds, self.poll_seconds = retry_seconds, poll_seconds
        self.rounds = Periodic(self.deliver, poll_seconds, "webhooks: a delivery round")
        with db.exclusive(SCHEMA_LOCK), db.transaction() as s:  # processes starting together create them once
            for statement in SCHEMA:
                s.execute(statement)

    # -- setting ------------------------------------------------------------------------------------
    def secret(self, player: str, generation: int) -> str:
        return derived_token(self._key, "webhook", player, str(generation))

    def set(self, player: str, url: str) -> WebhookSet:
        """Set ``player``'s webhook: the notices written from now on are delivered to ``url``."""
        check_url(url, self.allow_private)
        self.turns.catch_up()
        last = self.turns.after_last(player)
        with self._db.writing() as s:
            rows = s.rows("SELECT generation FROM herald_webhooks WHERE player = %(p)s", {"p": player})
            generation = int(rows[0]["generation"]) + 1 if rows else 1
            s.execute("INSERT INTO herald_webhooks (player, url, generation, delivered, set_at) "
                      "VALUES (%(p)s, %(u)s, %(g)s, %(d)s, %(at)s) ON CONFLICT (player) DO UPDATE SET "
                      "url = %(u)s, generation = %(g)s, delivered = %(d)s, set_at = %(at)s",
                      {"p": player, "u": url, "g": generation, "d": last, "at": iso(clock.now())})
        return WebhookSet(player, url, self.secret(player, generation), last)

    def remove(self, player: str) -> None:
        with self._db.transaction() as s:
            s.execute("DELETE FROM herald_webhooks WHERE player = %(p)s", {"p": player})

    def log(self, player: str, limit: int = 100) -> Deliveries:
        with self._db.read() as s:
            hook = s.rows("SELECT url FROM herald_webhooks WHERE player = %(p)s", {"p": player})
        with self._db.read() as s:
            rows = s.rows("SELECT * FROM herald_webhook_deliveries WHERE player = %(p)s "
                          "ORDER BY notice DESC, attempt DESC LIMIT %(n)s", {"p": player, "n": limit})
        return Deliveries(player, hook[0]["url"] if hook else None,
                          [Delivery(int(r["notice"]), int(r["attempt"]), r["at"],
                                    None if r["status"] is None else int(r["status"]), r["outcome"], r["error"],
                                    r["next_at"]) for r in rows])

    # -- delivering ---------------------------------------------------------------------------------
    def deliver(self) -> int:
        """One round: for each webhook, its notices due now, in order, until one fails.
        Returns how many attempts were made."""
        with self._db.read() as s:
            hooks = s.rows("SELECT player FROM herald_webhooks ORDER BY player")
        if not hooks:
            return 0
        self.turns.catch_up()
        made = 0
        with self._db.exclusive("herald:webhooks"), httpx.Client(timeout=TIMEOUT) as http:
            for hook in hooks:
                made += self._deliver_to(http, hook["player"])
        return made

    def _deliver_to(self, http: httpx.Client, player: str) -> int:
        made = 0
        while True:
            with self._db.read() as s:
                rows = s.rows("SELECT url, generation, delivered FROM herald_webhooks WHERE player = %(p)s",
                              {"p": player})
            if not rows:
                return made
            url, generation, delivered = rows[0]["url"], int(rows[0]["generation"]), int(rows[0]["delivered"])
            pending = self.turns.after(player, delivered, 1)
            if not pending:
                return made
            notice = pending[0]
            with self._db.read() as s:
                tried = s.rows("SELECT attempt, next_at FROM herald_webhook_deliveries WHERE player = %(p)s AND "
                               "notice = %(n)s ORDER BY attempt DESC LIMIT 1", {"p": player, "n": notice.id})
            now = clock.now()
            if tried and tried[0]["next_at"] is not None and tried[0]["next_at"] > iso(now):
                return made  # waiting out its back-off; the player's later notices wait behind it
            attempt = int(tried[0]["attempt"]) + 1 if tried else 1
            refused = None if self.allow_private else private_target(url)
            status, error = (None, refused) if refused else \
                self._post(http, url, self.secret(player, generation), notice, attempt)
            made += 1
            ok = status is not None and 200 <= status < 300
            outcome = "delivered" if ok else "gave up" if attempt >= MAX_ATTEMPTS else "retry"
            next_at = None if outcome != "retry" else iso(now + timedelta(seconds=self.backoff(attempt)))
            with self._db.transaction() as s:
                s.execute("INSERT INTO herald_webhook_deliveries (player, notice, attempt, at, status, outcome, error, "
                          "next_at) VALUES (%(p)s, %(n)s, %(a)s, %(at)s, %(st)s, %(o)s, %(e)s, %(next)s) "
                          "ON CONFLICT (player, notice, attempt) DO NOTHING",
                          {"p": player, "n": notice.id, "a": attempt, "at": iso(now), "st": status, "o": outcome,
                           "e": error, "next": next_at})
                if outcome != "retry":
                    s.execute("UPDATE herald_webhooks SET delivered = %(n)s WHERE player = %(p)s AND "
                              "delivered < %(n)s", {"n": notice.id, "p": player})
            if outcome == "retry":
                return made

    def backoff(self, attempt: int) -> float:
        """Seconds before attempt ``attempt + 1``: doubling from ``retry_seconds``, capped."""
        return min(MAX_BACKOFF, self.retry_seconds * 2 ** (attempt - 1))

    @staticmethod
    def _post(http: httpx.Client, url: str, secret: str, notice: Turn, attempt: int) -> tuple[int | None, str]:
        body = msgspec.json.encode(notice)
        headers = {"Content-Type": "application/json", SIGNATURE: signature(secret, body),
                   "X-Herald-Delivery": f"{notice.id}.{attempt}", "X-Herald-Event": "turn",
                   "User-Agent": "Herald-Webhook/1"}
        try:
            answer = http.post(url, content=body, headers=headers)
        except httpx.HTTPError as error:
            return None, f"{type(error).__name__}: {error}"[:300]
        return answer.status_code, "" if answer.is_success else f"answered {answer.status_code}"


def check_url(url: str, allow_private: bool = False) -> None:
    """An absolute http(s) URL of at most MAX_URL characters, not naming a private address
    (unless allowed), or 422 ``bad_webhook``."""
    parts = urlsplit(url)
    if len(url) > MAX_URL or parts.scheme not in ("http", "https") or not parts.hostname:
        raise Invalid(f"a webhook is an absolute http or https URL of at most {MAX_URL} characters",
                      code="bad_webhook")
    host = parts.hostname
    if not allow_private and (host == "localhost" or host.endswith(".localhost") or _private(_literal(host))):
        raise Invalid(f"a webhook may not point at {host}, an address that is not public (loopback, private, "
                      "link-local); a server whose receivers are on its own network sets HERALD_WEBHOOK_PRIVATE=1",
                      code="bad_webhook")


def private_target(url: str) -> str | None:
    """Why a delivery to ``url`` is refused: its host resolves to an address that is not
    public; None when every address is public (or the name does not resolve: the post fails)."""
    host = urlsplit(url).hostname or ""
    literal = _literal(host)
    if literal is not None:
        addresses = [literal]
    else:
        try:
            addresses = [ipaddress.ip_address(info[4][0].split("%")[0]) for info in socket.getaddrinfo(host, None)]
        except (OSError, UnicodeError, ValueError):
            return None
    found = next((a for a in addresses if _private(a)), None)
    return None if found is None else f"refused: {host} resolves to {found}, an address that is not public"


def _literal(host: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(host)
    except ValueError:
        return None


def _private(address: ipaddress.IPv4Address | ipaddress.IPv6Address | None) -> bool:
    if address is None:
        return False
    mapped = getattr(address, "ipv4_mapped", None)
    return not (mapped or address).is_global


