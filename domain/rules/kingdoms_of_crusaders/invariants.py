"""What always holds in a game of The Kingdoms of Crusaders (domain/rules/base.py,
``RuleSystem.invariants``): every card in one place only, and the counts the rules read agree
with the cards ("Components": a Location card holds up to four units per player in each of its
five sectors)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from domain.rules.kingdoms_of_crusaders.state import KingdomsOfCrusadersState

SECTOR_CARDS = 4  # "up to four cards" in a sector of a Location card (state.py)


def card_conservation(rules: Any, state: KingdomsOfCrusadersState) -> list[str]:
    """Each card drawn is in exactly one hand or sector; as many are there as were drawn, never
    more than the deck holds; ``unseen`` counts, per shape, the cards no sector holds."""
    hands = [c for seat in state.seats for c in state.hands[seat]]
    placed = [c for seat in state.seats for sector in state.sectors[seat] for c in sector]
    broken = [f"{card} is in {n} places" for card, n in Counter(hands + placed).items() if n > 1]
    broken += [f"{card} is no card of this game" for card in {*hands, *placed} - set(state.cards)]
    if len(hands) + len(placed) != state.drawn:
        broken.append(f"{len(hands)} cards in hands and {len(placed)} placed, {state.drawn} drawn")
    if not 0 <= state.drawn <= len(state.deck):
        broken.append(f"{state.drawn} cards drawn from a deck of {len(state.deck)}")
    shapes = Counter(state.cards.values())
    shapes.subtract(Counter(state.cards[c] for c in placed if c in state.cards))
    unseen = {shape: n for shape, n in shapes.items() if n}
    if unseen != {shape: n for shape, n in state.unseen.items() if n}:
        broken.append(f"unseen counts {dict(state.unseen)}, the cards say {unseen}")
    broken += [f"{seat}'s sector {i + 1} holds {len(sector)} cards" for seat in state.seats
               for i, sector in enumerate(state.sectors[seat]) if len(sector) > SECTOR_CARDS]
    return broken
