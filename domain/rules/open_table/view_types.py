"""The shape of the open table's view (engine.py ``view``), for the OpenAPI contract: every
hand is the seat's cards (its own, or all at the end) or a count of them."""

from __future__ import annotations

import msgspec

from domain.events import Outcome


class DeckView(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    size: int
    left: int
    drawn: list[str]  # drawn face up since the last shuffle, in order
    shuffled: bool


class PlayedCard(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    seat: str
    card: str


class View(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The table as one seat (or a spectator) sees it."""

    seats: list[str]
    decisions: int
    rolls: int
    dice: list[str]
    decks: dict[str, DeckView]
    hands: dict[str, list[str] | int]  # the seat's own cards, or how many another seat holds
    played: list[PlayedCard]
    face_down: dict[str, int]
    end_proposals: dict[str, Outcome]
    ended: Outcome | None
