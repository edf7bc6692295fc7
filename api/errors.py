"""Herald's errors, each mapped once to an RFC 9457 problem at the HTTP edge."""

from __future__ import annotations


class HeraldError(Exception):
    """An error with an HTTP status, a stable code and a human detail."""

    status = 400
    title = "Bad request"
    code = "bad_request"

    def __init__(self, detail: str, *, code: str | None = None, rule: str | None = None, **extra):
        super().__init__(detail)
        self.detail = detail
        if code:
            self.code = code
        self.rule = rule
        self.extra = extra


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


class Illegal(HeraldError):
    """A command the rules refuse (a RuleViolation)."""

    status, title, code = 422, "Illegal command", "illegal"


class TooLarge(HeraldError):
    status, title, code = 413, "Content too large", "too_large"


class TooManyRequests(HeraldError):
    """Beyond a configured limit; ``retry_after`` (seconds) becomes the Retry-After header."""

    status, title, code = 429, "Too many requests", "too_many_requests"


class Unavailable(HeraldError):
    """The database cannot be reached; ``retry_after`` becomes the Retry-After header."""

    status, title, code = 503, "Service unavailable", "database_unavailable"
