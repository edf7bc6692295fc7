"""Saxon Shore's rollout habit (domain/rules/base.py, ``RuleSystem.rollout_policy``;
docs/analysis.md): expand. Pure and deterministic given the ``rnd`` it is handed."""

from __future__ import annotations

from typing import Any

from domain.rules.base import any_of, best
from domain.rules.saxon_shore.state import SaxonState


def expand(rules: Any, state: SaxonState, seat: str, commands: list[Any], rnd: Any) -> Any:
    """Invade or raid when it may, move into a province it does not own, raise troops; say
    ``done`` rather than trade or shuffle boats. One time in five, any listed command."""
    def score(c: Any) -> float:
        kind = getattr(c, "type", None) or type(c).__name__
        kind = kind.lower()
        if kind == "declare":
            return 5.0
        if kind == "move":
            path = getattr(c, "path", None) or ()
            target = path[-1] if path else None
            provinces = getattr(state, "provinces", {})
            return 4.0 if target in provinces and provinces[target].owner != seat else 0.5
        if "raise" in kind or kind in ("hire", "improve"):
            return 3.0
        if kind == "done":
            return 1.0
        return 0.2

    if rnd.random() < 0.2:
        return any_of(commands, rnd)
    return best(commands, score, rnd)
