"""The shape of The Kingdoms of Crusaders' view (view.py ``view``), for the OpenAPI contract."""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.events import Outcome
from domain.rules.kingdoms_of_crusaders.state import Marker, Phase


class CardView(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    id: str
    symbols: list[str]


class ArmyView(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    cards: list[CardView]
    complete: bool
    completed_order: int | None
    squads: dict[str, list[str]]


class MarkerOnTerritory(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    number: int
    seat: str


class TerritoryView(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    sector: int
    name: str
    marker: MarkerOnTerritory | None
    armies: dict[str, ArmyView]


class HandView(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    count: int
    cards: list[CardView] | None  # the seat's own (or every hand once shown); None: hidden


class DeckView(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    size: int
    left: int


class View(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The board from one chair: the seat's own hand, every other hand as a count."""

    phase: Phase
    seats: list[str]
    layout: Literal["mirror", "sector 1 at the left"]
    points_variant: bool
    first: str | None
    to_act: str | None
    turn: int
    deck: DeckView
    hands: dict[str, HandView]
    territories: list[TerritoryView]
    markers: list[Marker]  # the state's own: every marker is public
    outcome: Outcome | None
