"""The Kingdoms of Crusaders' own events, in the rulebook's words. Each carries what it changes,
so :mod:`.evolve` only assigns. ``DrawnCards`` is read only by the drawing seat."""

from __future__ import annotations

import msgspec

from domain.events import EventData, Outcome, event_type


class Card(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A unit card: its id in this game's deck and its symbols, weakest first."""

    id: str
    symbols: list[str]


@event_type("kingdoms-of-crusaders.CardsDrawn")
class CardsDrawn(EventData):
    """``seat`` draws ``count`` cards from the top of the deck (five each at preparation, one at
    the start of a turn). Public: everyone sees the hand grow; which cards, only
    :class:`DrawnCards` says."""

    seat: str
    count: int


@event_type("kingdoms-of-crusaders.DrawnCards")
class DrawnCards(EventData):
    """The cards ``seat`` just drew, into its hand. Sealed for ``seat`` until the seed is revealed."""

    seat: str
    cards: list[Card]


@event_type("kingdoms-of-crusaders.TurnBegan")
class TurnBegan(EventData):
    seat: str
    turn: int


@event_type("kingdoms-of-crusaders.CardPlaced")
class CardPlaced(EventData):
    """A card from ``seat``'s hand placed face up in its sector ``sector``; ``completed`` when it
    is the fourth card there (the army is complete)."""

    seat: str
    card: Card
    sector: int
    completed: bool


@event_type("kingdoms-of-crusaders.TerritoryWon")
class TerritoryWon(EventData):
    """``seat`` wins the territory of sector ``sector`` and places victory marker ``marker``."""

    seat: str
    sector: int
    marker: int


@event_type("kingdoms-of-crusaders.HandsShown")
class HandsShown(EventData):
    """At the end of the game, every hand face up."""

    hands: dict[str, list[Card]]


@event_type("kingdoms-of-crusaders.GameDecided")
class GameDecided(EventData):
    outcome: Outcome
