"""Saladin's rollout habit (domain/rules/base.py, ``RuleSystem.rollout_policy``; docs/analysis.md):
attack. Pure and deterministic given the ``rnd`` it is handed."""

from __future__ import annotations

from typing import Any

from domain.rules.base import any_of, best
from domain.rules.saladin.rules import action_cost, card_of
from domain.rules.saladin.state import SaladinState


def attack(rules: Any, state: SaladinState, seat: str, commands: list[Any], rnd: Any) -> Any:
    """The activation that rolls the most of the seat's own dice (red for the Crusaders, green
    for the Ayyubids) per Order it costs; a reaction before declining; passing last. One time in
    five, any listed command (so a rollout still explores)."""
    if rnd.random() < 0.2:
        return any_of(commands, rnd)

    def score(c: Any) -> float:
        kind = type(c).__name__
        if kind == "Activate":
            action = card_of(state, c.banner).action(c.action)
            dice = action.red if seat == "crusaders" else action.green
            return 1 + dice / (1 + action_cost(state, c.banner, action))
        return {"React": 3.0, "Leader": 0.5, "Pass": -1.0, "DeclineReaction": 0.0}.get(kind, 0.0)

    return best(commands, score, rnd)
