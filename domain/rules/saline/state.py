"""Saline's game state: frozen Structs, changed only by :mod:`.evolve`.

Decks are kept in their unshuffled order with the recorded shuffle (``CardsShuffled``); their
order is never stored: a draw takes the first card in the shuffle's order still in the deck.
The salt reserve may fall below zero: the FAQ's stand-ins ("take anything to replace the
missing sel"); salt on the table plus the reserve is always 80.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.events import CardsShuffled, Outcome
from domain.rules.base import Window
from domain.rules.saline.data import Catalogue
from domain.rules.saline.events import Stated

Phase = Literal["preparation", "placing", "day", "night", "over"]


class Play(msgspec.Struct, frozen=True):
    """A card played and not yet resolved, or a response to one."""

    seat: str
    card: str  # event card id or "favour"
    effect: str
    target: str | None = None
    colour: str | None = None
    space: int | None = None
    position: str | None = None
    outcome: Stated | None = None  # a printed instruction's stated outcome (saline.OutcomeStated)


class Held(msgspec.Struct, frozen=True):
    """A day action (or the night draw) announced and held while the others may play cards bearing
    the triangle, or their favour, before it resolves (saline 1.1.0)."""

    seat: str
    action: str  # "buy", "harvest", "sell", "nothing" or "draw"
    space: int | None = None
    position: str | None = None
    colour: str | None = None
    sacrifice: str | None = None


class SalineState(msgspec.Struct, frozen=True):
    seats: tuple[str, ...]  # in turn order: the player at the left is the next one
    cat: Catalogue
    phase: Phase = "preparation"
    first: str | None = None
    current: str | None = None
    day: int = 0
    gabelle: int = 1
    rain: int = 0
    salt_reserve: int = 80
    market: tuple[str | None, ...] = (None, None, None, None)
    oeillet_deck: tuple[str, ...] = ()  # unshuffled order
    oeillet_shuffle: CardsShuffled | None = None
    oeillets_drawn: frozenset[str] = frozenset()
    event_deck: tuple[str, ...] = ()  # unshuffled order of the pile in play
    event_shuffle: CardsShuffled | None = None
    events_drawn: frozenset[str] = frozenset()
    event_discard: tuple[str, ...] = ()
    objective_shuffle: CardsShuffled | None = None
    public_objectives: tuple[str, ...] = ()  # on the board, not yet claimed
    secrets: dict[str, str] = {}
    claimed: dict[str, tuple[str, ...]] = {}
    claimed_today: frozenset[str] = frozenset()
    salines: dict[str, dict[str, str]] = {}  # seat -> position -> œillet id
    salt: dict[str, int] = {}  # œillet id -> salt on it
    mulons: dict[str, int] = {}
    liards: dict[str, int] = {}
    hands: dict[str, tuple[str, ...]] = {}
    fresh: dict[str, tuple[str, ...]] = {}  # cards drawn tonight: not playable this turn
    favours: dict[str, str | None] = {}  # None once used
    played_today: dict[str, int] = {}
    acted: bool = False  # the current player took their day action
    exempt: frozenset[str] = frozenset()
    pending: Play | None = None
    asked: tuple[str, ...] = ()  # seats still to answer the pending card
    responses: tuple[Play, ...] = ()
    drew: frozenset[str] = frozenset()  # seats whose night turn has ended
    discarding: tuple[str, ...] = ()
    shown: bool = False
    result: Outcome | None = None
    collections: Literal["both", "one"] = "both"  # option: does an œillet count in both kinds of collection?
    legacy: bool = False  # a game recorded under saline 1.0.0: no out-of-turn windows, effects by name only
    held: Held | None = None
    window: Window | None = None
    sacrificing: str | None = None  # a seller whose gabelle, raised in the window, cannot be paid

    def colour(self, oeillet: str) -> str:
        return self.cat.oeillets[oeillet]
