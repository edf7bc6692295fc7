"""The Kingdoms of Crusaders' rollout habit (domain/rules/base.py, ``RuleSystem.rollout_policy``;
docs/analysis.md): build where the army is strongest. Pure and deterministic given ``rnd``."""

from __future__ import annotations

from typing import Any

from domain.rules.base import any_of, best
from domain.rules.kingdoms_of_crusaders.state import KingdomsOfCrusadersState


def build_strongest(rules: Any, state: KingdomsOfCrusadersState, seat: str, commands: list[Any], rnd: Any) -> Any:
    """A card to the sector holding most of the seat's cards, the card with the most symbols.
    One time in five, any listed command."""
    if rnd.random() < 0.2:
        return any_of(commands, rnd)

    def score(c: Any) -> float:
        if type(c).__name__ != "Place":
            return 0.0
        sectors = state.sectors.get(seat, ())
        held = len(sectors[c.sector]) if 0 <= c.sector < len(sectors) else 0
        return 1 + held + bin(state.cards.get(c.card, 0)).count("1") / 10

    return best(commands, score, rnd)
