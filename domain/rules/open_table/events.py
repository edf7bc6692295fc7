"""The open table's own events (dice rolls, shuffles and decisions are the common ones of
:mod:`domain.events`)."""

from __future__ import annotations

from domain.events import EventData, Outcome, event_type


@event_type("open-table.CardsDrawn")
class CardsDrawn(EventData):
    seat: str
    deck: str
    cards: list[str]


@event_type("open-table.HandDrawn")
class HandDrawn(EventData):
    """Public: a seat took ``count`` cards from a deck into its hand (which, is sealed)."""

    seat: str
    deck: str
    count: int


@event_type("open-table.CardsTaken")
class CardsTaken(EventData):
    """Sealed for ``seat``: the cards it took into its hand."""

    seat: str
    deck: str
    cards: list[str]


@event_type("open-table.CardPlayed")
class CardPlayed(EventData):
    """Public: a card played from a hand, face up."""

    seat: str
    card: str


@event_type("open-table.DiscardedFaceDown")
class DiscardedFaceDown(EventData):
    """Public: a seat discarded one card face down (which, is sealed)."""

    seat: str


@event_type("open-table.CardDiscarded")
class CardDiscarded(EventData):
    """Sealed for ``seat``: the card it discarded face down."""

    seat: str
    card: str


@event_type("open-table.HandShown")
class HandShown(EventData):
    """Public: a seat's whole hand, shown (at its wish, or at the end of the game)."""

    seat: str
    cards: list[str]


@event_type("open-table.EndProposed")
class EndProposed(EventData):
    seat: str
    outcome: Outcome
