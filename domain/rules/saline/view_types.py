"""The shape of Saline's view (view.py ``view``), for the OpenAPI contract."""

from __future__ import annotations

import msgspec

from domain.events import Outcome
from domain.rules.saline.data import Effect
from domain.rules.saline.state import Phase


class ObjectiveView(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    id: str
    name: str
    cells: dict[str, str]  # position around the mulon -> colour (or "any")


class SecretObjectiveView(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """A secret objective: the card (its owner's, or a claimed one), or ``face_down`` alone
    (another player's)."""

    id: str | None = None
    name: str | None = None
    cells: dict[str, str] | None = None
    face_down: bool = False


class EventCardView(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    id: str
    effects: list[Effect]


class HandView(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    count: int
    cards: list[EventCardView] | None  # the seat's own (every hand at the end); None: hidden


class OeilletView(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    id: str
    colour: str
    capacity: int
    salt: int


class PlayerView(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    mulon: int
    liards: int
    saline: dict[str, OeilletView]  # position around the mulon -> the œillet there
    oeillets: int
    favour: str | None
    hand: HandView
    secret_objective: SecretObjectiveView | None
    claimed: list[ObjectiveView]
    cards_played_today: int


class MarketSpace(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    space: int
    price: int
    oeillet: str | None
    colour: str | None


class Answer(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    seat: str
    effect: str


class PendingView(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    seat: str
    card: str
    effect: str
    target: str | None
    answers: list[Answer]
    asked: list[str]


class DecksView(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    oeillets: int
    events: int
    event_discards: int


class ReserveView(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    salt: int
    stand_ins: int
    salt_cubes: int
    liards: int
    liards_total: int


class WindowView(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """``seat``'s ``action`` waits while ``waiting`` (of ``seats``) may play a card bearing the triangle
    or their favour, or pass (saline 1.1.0)."""

    seat: str
    action: str
    seats: list[str]
    waiting: list[str]


class View(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The game from one chair: its own hand and secret objective, the rest as counts."""

    phase: Phase
    seats: list[str]
    day: int
    first: str | None
    to_act: str | None
    current: str | None
    gabelle: int
    rain: int
    market: list[MarketSpace]
    objectives: list[ObjectiveView]
    players: dict[str, PlayerView]
    pending: PendingView | None
    window: WindowView | None
    sacrificing: str | None
    discarding: list[str]
    decks: DecksView
    reserve: ReserveView
    outcome: Outcome | None
