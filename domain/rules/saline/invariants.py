"""What always holds in a game of Saline (domain/rules/base.py, ``RuleSystem.invariants``): the
80 salt cubes ("Components") are all somewhere, on the œillets, the mulons or in the reserve
(state.py: "salt on the table plus the reserve is always 80"); every œillet and event card is in
one place only."""

from __future__ import annotations

from collections import Counter
from typing import Any

from domain.rules.saline.data import SALT_CUBES
from domain.rules.saline.state import SalineState


def conservation(rules: Any, state: SalineState) -> list[str]:
    """Every way ``state`` loses or doubles a salt cube, an œillet or an event card."""
    broken = []
    cubes = state.salt_reserve + sum(state.salt.values()) + sum(state.mulons.values())
    if cubes != SALT_CUBES:
        broken.append(f"{cubes} salt cubes: {sum(state.salt.values())} on œillets, {sum(state.mulons.values())} on "
                      f"mulons, {state.salt_reserve} in the reserve")
    broken += [f"{n} salt cubes on {place}" for place, n in (*state.salt.items(), *state.mulons.items()) if n < 0]
    placed = [o for saline in state.salines.values() for o in saline.values()]
    broken += [f"œillet {o} is in {n} salines" for o, n in Counter(placed).items() if n > 1]
    if set(placed) != set(state.salt):
        broken.append(f"salt is counted on {sorted(set(state.salt) ^ set(placed))}, placed or not")
    broken += [f"œillet {o} is placed and on the market" for o in set(placed) & set(state.market)]
    held = [card for hand in state.hands.values() for card in hand]
    broken += [f"event card {card} is in {n} hands" for card, n in Counter(held).items() if n > 1]
    broken += [f"event card {card} is held and discarded" for card in set(held) & set(state.event_discard)]
    undrawn = set(state.event_deck) - state.events_drawn
    broken += [f"event card {card} is held and still in the deck" for card in set(held) & undrawn]
    broken += [f"event card {card} is discarded and still in the deck" for card in set(state.event_discard) & undrawn]
    return broken
