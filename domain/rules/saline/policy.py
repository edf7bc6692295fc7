"""Saline's rollout habit (domain/rules/base.py, ``RuleSystem.rollout_policy``; docs/analysis.md):
move the game on. Pure and deterministic given the ``rnd`` it is handed."""

from __future__ import annotations

from typing import Any

from domain.rules.base import any_of
from domain.rules.saline.state import SalineState

PREFERRED = ("prepare", "place", "discard", "harvest", "sell", "buy", "nothing", "end", "draw")


def move_on(rules: Any, state: SalineState, seat: str, commands: list[Any], rnd: Any) -> Any:
    """An action of the day (harvest, sell, buy, place) before a card; an event card rarely; a
    favour almost never; pass when asked to answer a card."""
    listed = [(type(c).__name__.lower(), c) for c in commands]
    if any(kind == "pass" for kind, _ in listed):
        return next(c for kind, c in listed if kind == "pass")
    kinds = [k for k, _ in listed]
    for kind in PREFERRED:
        if kind in kinds:
            picks = [c for k, c in listed if k == kind]
            return picks[rnd.randrange(len(picks))]
    return any_of(commands, rnd)
