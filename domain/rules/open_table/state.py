"""The open table's state: seats, dice, decks, hands, what was played and the end proposals."""

from __future__ import annotations

import msgspec

from domain.dice import DieKind
from domain.events import CardsShuffled, Outcome


class Deck(msgspec.Struct, frozen=True):
    cards: tuple[str, ...]  # in the order before any shuffle
    shuffle: CardsShuffled | None = None
    drawn: tuple[str, ...] = ()  # drawn face up since the last shuffle, in order
    out: dict[str, int] = {}  # card -> how many of it left the deck since the last shuffle

    @property
    def left(self) -> int:
        return len(self.cards) - sum(self.out.values())


class OpenTableState(msgspec.Struct, frozen=True):
    seats: tuple[str, ...]
    dice: dict[str, DieKind]
    decks: dict[str, Deck]
    decisions: int = 0
    rolls: int = 0
    proposals: dict[str, Outcome] = {}
    ended: Outcome | None = None
    hands: dict[str, tuple[tuple[str, str], ...]] = {}  # seat -> its (deck, card)s; views redact
    played: tuple[tuple[str, str], ...] = ()  # (seat, card) face up, in order
    face_down: dict[str, int] = {}  # seat -> cards it discarded face down


def cards_in_hand(state: OpenTableState, seat: str) -> list[str]:
    """The cards in ``seat``'s hand, in the order taken."""
    return [card for _, card in state.hands.get(seat, ())]
