"""The one base of every error Herald's rules raise: a stable ``code``, a human ``message``
and, where a rulebook says it, the ``rule`` (section) broken. Raising one leaves the record
unchanged. The HTTP edge maps each kind to a problem in one place (api/errors.py)."""

from __future__ import annotations

from typing import Any, ClassVar


class DomainError(Exception):
    """A request the rules refuse."""

    def __init__(self, code: str, message: str, rule: str | None = None, problems: list[str] | None = None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.rule = rule
        self.problems = problems or []  # every problem found, when there are several (owner data)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled whole, whatever a kind's own ``__init__`` takes: one raised in a worker
        process (a fold away, api/work.py) is raised again as it was."""
        return _rebuilt, (type(self), self.__dict__)


class NotNow(DomainError):
    """A request that does not fit the current state (a round unfinished, a seed not yet
    public): it may succeed later, as it stands it conflicts (HTTP 409)."""


class SetupRefused(DomainError):
    """A game that cannot be created as asked: unknown rules, scenario or seats, bad options."""


class RecordError(DomainError):
    """A record this server cannot fold or replay as it stands (rules or data it does not
    have, an event type it does not know, a draw the record lacks, a hidden result before the
    seed is public). Each kind has its one ``code``; the edge maps each kind once."""

    code: ClassVar[str] = "record_error"

    def __init__(self, message: str):
        super().__init__(type(self).code, message)


def _rebuilt(kind: type[DomainError], fields: dict[str, Any]) -> DomainError:
    error = kind.__new__(kind)
    Exception.__init__(error, fields.get("message", ""))
    error.__dict__.update(fields)
    return error
