"""The one base of every error Herald's rules raise: a stable ``code``, a human ``message``
and, where a rulebook says it, the ``rule`` (section) broken. Raising one leaves the record
unchanged. The HTTP edge maps each kind to a problem in one place (api/errors.py)."""

from __future__ import annotations


class DomainError(Exception):
    """A request the rules refuse."""

    def __init__(self, code: str, message: str, rule: str | None = None, problems: list[str] | None = None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.rule = rule
        self.problems = problems or []  # every problem found, when there are several (owner data)


class NotNow(DomainError):
    """A request that does not fit the current state (a round unfinished, a seed not yet
    public): it may succeed later, as it stands it conflicts (HTTP 409)."""


class SetupRefused(DomainError):
    """A game that cannot be created as asked: unknown rules, scenario or seats, bad options."""
