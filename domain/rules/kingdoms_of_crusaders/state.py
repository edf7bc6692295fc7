"""The Kingdoms of Crusaders game state: frozen Structs, changed only by :mod:`.evolve`.

Cards are ids (``A17``: card 17 of deck A); ``cards`` maps every id in play to its shape (data.py).
The deck is kept in its unshuffled order with the recorded shuffle; its order is never stored.
``unseen[shape]`` counts the cards of that shape not yet placed (deck and hands): what the rules
may use to decide whether anyone "can still beat" an army.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.events import CardsShuffled, Outcome

Phase = Literal["preparation", "play", "over"]


class Marker(msgspec.Struct, frozen=True):
    number: int
    sector: int
    seat: str


class KingdomsOfCrusadersState(msgspec.Struct, frozen=True):
    seats: tuple[str, ...]  # in turn order: the player at the left is the next one
    points: bool  # the points variant
    cards: dict[str, int]  # every card in play -> its shape
    deck: tuple[str, ...]  # the unshuffled order
    unseen: dict[int, int]  # per shape: cards not yet placed
    hands: dict[str, tuple[str, ...]]
    sectors: dict[str, tuple[tuple[str, ...], ...]]  # seat -> five sectors of up to four cards
    completed: tuple[tuple[str, ...], ...]  # per sector: seats in the order their army completed
    phase: Phase = "preparation"
    shuffle: CardsShuffled | None = None
    drawn: int = 0
    first: str | None = None
    current: str | None = None
    turn: int = 0
    markers: tuple[Marker, ...] = ()
    shown: bool = False
    result: Outcome | None = None
    tie: str = "greatest-marker"  # the tie reading (RULES_NOTES.md, reading 10)
    version: str = "1.2.0"  # the rule system's version that records the game (engine.KingdomsOfCrusaders.at_version)

    def winner_of(self, sector: int) -> Marker | None:
        return next((m for m in self.markers if m.sector == sector), None)
