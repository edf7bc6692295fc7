"""Herald's errors and the one place each becomes an RFC 9457 problem: :func:`status_of`.

The rules raise :class:`domain.errors.DomainError` (a ``RuleViolation``, a tournament's
refusal, a refused set-up or fork); the edge raises a :class:`HeraldError`, a DomainError that
carries its own HTTP status. FastAPI's handler and the plain-ASGI command route both answer
through :func:`api.http.error_body`, which asks :func:`status_of` — nowhere else maps them."""

from __future__ import annotations

from typing import Any

from domain.errors import DomainError, NotNow
from domain.events import UnknownEventType
from domain.game import IncompatibleRecord
from domain.rng import NeedsSeed, RecordMismatch
from domain.rules.base import RuleViolation


class HeraldError(DomainError):
    """An error of the edge, with an HTTP status, a stable code and a human detail."""

    status = 400
    title = "Bad request"
    code = "bad_request"

    def __init__(self, detail: str, *, code: str | None = None, rule: str | None = None, **extra: Any):
        super().__init__(code or type(self).code, detail, rule, extra.pop("problems", None))
        self.extra = extra

    @property
    def detail(self) -> str:
        return self.message

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled whole: one raised in a worker process (api/budgets.py) is raised again here."""
        return _rebuilt, (type(self), self.message, self.code, self.rule, {**self.extra, "problems": self.problems})


def _rebuilt(kind: type[HeraldError], detail: str, code: str, rule: str | None, extra: dict[str, Any]) -> HeraldError:
    return kind(detail, code=code, rule=rule, **extra)


class NotFound(HeraldError):
    status, title, code = 404, "Not found", "not_found"


class Unauthorized(HeraldError):
    status, title, code = 401, "Unauthorized", "unauthorized"


class Forbidden(HeraldError):
    status, title, code = 403, "Forbidden", "forbidden"


class Conflict(HeraldError):
    status, title, code = 409, "Conflict", "conflict"


class Invalid(HeraldError):
    status, title, code = 422, "Unprocessable content", "invalid"


class RequestTimeout(HeraldError):
    status, title, code = 408, "Request timeout", "body_timeout"


class TooLarge(HeraldError):
    status, title, code = 413, "Content too large", "too_large"


class TooManyRequests(HeraldError):
    """Beyond a configured limit; ``retry_after`` (seconds) becomes the Retry-After header."""

    status, title, code = 429, "Too many requests", "too_many_requests"


class Unavailable(HeraldError):
    """The database cannot be reached; ``retry_after`` becomes the Retry-After header."""

    status, title, code = 503, "Service unavailable", "database_unavailable"


# Each kind of domain error as HTTP: the most specific kind first.
DOMAIN_STATUS: list[tuple[type[DomainError], int, str]] = [
    (RuleViolation, 422, "Illegal command"),
    # a stored game or a record this server cannot fold: rules or data it does not have, an
    # event type it does not know; a hidden result asked for before the seed is public
    (IncompatibleRecord, 409, "Conflict"),
    (UnknownEventType, 409, "Conflict"),
    (NeedsSeed, 409, "Conflict"),
    (RecordMismatch, 422, "Unprocessable content"),  # a record's draws are not the ones its play makes
    (NotNow, 409, "Conflict"),  # a tournament round unfinished, a seed not yet public
    (DomainError, 422, "Unprocessable content"),  # a refused set-up or fork, a malformed tournament request
]


def status_of(error: DomainError) -> tuple[int, str]:
    """The HTTP status and problem title of ``error``."""
    if isinstance(error, HeraldError):
        return error.status, error.title
    for kind, status, title in DOMAIN_STATUS:
        if isinstance(error, kind):
            return status, title
    raise TypeError(error)  # unreachable: DomainError is the last kind
