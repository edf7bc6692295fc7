"""Saline's own events, in the rulebook's words. Each carries what it changes, so :mod:`.evolve`
only applies it. ``DrawnEventCards``, ``SecretObjectiveDealt`` and ``EventCardDiscarded`` are read
only by their seat (the public ``EventCardsDrawn`` / ``HandLimitDiscard`` say how many)."""

from __future__ import annotations

import msgspec

from domain.events import EventData, Outcome, event_type


class Card(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """An event card as its holder reads it: its id and its two effects' titles."""

    id: str
    effects: list[str]


class ObjectiveCard(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    id: str
    name: str
    cells: dict[str, str]


class MarketSpace(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A space of the market track: its price and the œillet on it (None: empty)."""

    price: int
    oeillet: str | None = None
    colour: str | None = None


@event_type("saline.ObjectivesRevealed")
class ObjectivesRevealed(EventData):
    """The face-up objectives placed on the village square for this number of players."""

    objectives: list[ObjectiveCard]


@event_type("saline.SecretObjectivesDealt")
class SecretObjectivesDealt(EventData):
    """Each player is dealt one objective face down (public: that it happened)."""

    seats: list[str]


@event_type("saline.SecretObjectiveDealt")
class SecretObjectiveDealt(EventData):
    """The objective dealt face down to ``seat``. Sealed for ``seat``."""

    seat: str
    objective: ObjectiveCard


@event_type("saline.FavoursGiven")
class FavoursGiven(EventData):
    """Each player's favour card, 3 liards and a mulon with 3 salt."""

    favours: dict[str, str]
    liards: int
    salt: int


@event_type("saline.MarketReplenished")
class MarketReplenished(EventData):
    """The market track after sliding the remaining œillets toward the lowest price and revealing
    new ones from the œillet deck (``revealed``)."""

    market: list[MarketSpace]
    revealed: list[str]


@event_type("saline.EventCardsDrawn")
class EventCardsDrawn(EventData):
    """``seat`` draws ``count`` event cards (public: the hand's size)."""

    seat: str
    count: int


@event_type("saline.DrawnEventCards")
class DrawnEventCards(EventData):
    """Which event cards ``seat`` drew. Sealed for ``seat``."""

    seat: str
    cards: list[Card]
    night: bool = False


@event_type("saline.GreenOeilletPlaced")
class GreenOeilletPlaced(EventData):
    seat: str
    oeillet: str
    position: str


@event_type("saline.DayBegan")
class DayBegan(EventData):
    day: int
    first: str


@event_type("saline.WeatherRead")
class WeatherRead(EventData):
    """The météo dice read: ``production`` is "none" (rain), "single" or "double"; ``rain`` the
    rain scale after it; ``roll_again`` when the scale reached 3 and went back to 0."""

    faces: list[str]
    production: str
    rain: int
    roll_again: bool


@event_type("saline.GabelleMoved")
class GabelleMoved(EventData):
    """The gabelle die moves by ``step`` to ``value`` (1 to 6), by a weather face or a card."""

    step: int
    value: int
    by: str


@event_type("saline.SaltProduced")
class SaltProduced(EventData):
    """Salt from the reserve onto œillets: œillet id -> cubes added (each up to its capacity)."""

    salt: dict[str, int]
    seats: list[str]


@event_type("saline.SaltMoved")
class SaltMoved(EventData):
    """``salt`` cubes from ``source`` to ``destination``: "reserve", a seat's mulon ("p1") or an
    œillet id ("O05"); ``reason`` in the rulebook's word ("harvest", "excess", "sale", …)."""

    source: str
    destination: str
    salt: int
    reason: str


@event_type("saline.LiardsPaid")
class LiardsPaid(EventData):
    """``liards`` from ``payer`` to ``payee`` (a seat or "reserve", the sovereign)."""

    payer: str
    payee: str
    liards: int
    reason: str


@event_type("saline.OeilletBought")
class OeilletBought(EventData):
    seat: str
    oeillet: str
    colour: str
    space: int
    price: int
    position: str


@event_type("saline.ActionTaken")
class ActionTaken(EventData):
    """``seat``'s one action of the day: "buy", "harvest", "sell" or "nothing"."""

    seat: str
    action: str


@event_type("saline.OeilletSacrificed")
class OeilletSacrificed(EventData):
    """Unable to pay the gabelle: ``seat`` sacrifices an œillet (and keeps its liards)."""

    seat: str
    oeillet: str
    position: str


class Stated(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """What the players state a printed instruction did (an effect of kind ``as_printed``, whose words
    Herald does not resolve itself: RULES_NOTES.md, "Owner's cards"): salt cubes onto (+) or off (-)
    each named player's mulon, from or to the reserve; liards from (+) or to (-) the reserve; the
    gabelle die's move."""

    salt: dict[str, int] = {}
    liards: dict[str, int] = {}
    gabelle: int = 0


@event_type("saline.CardPlayed")
class CardPlayed(EventData):
    """``seat`` plays ``card`` (an event card id, or "favour") for its effect ``effect``; the
    choices it names; ``answering`` the card it answers (Souverain, Courtisane, Gabelou)."""

    seat: str
    card: str
    effect: str
    target: str | None = None
    colour: str | None = None
    space: int | None = None
    position: str | None = None
    answering: str | None = None


@event_type("saline.OutcomeStated")
class OutcomeStated(EventData):
    """What ``seat``, playing an owner's printed instruction (``as_printed``) just played, states it
    does; it is done when the card resolves."""

    seat: str
    card: str
    outcome: Stated


@event_type("saline.ResponsePassed")
class ResponsePassed(EventData):
    """``seat`` does not answer the card just played, or plays nothing in the window open before
    another player's action or draw resolves."""

    seat: str


@event_type("saline.ActionAnnounced")
class ActionAnnounced(EventData):
    """``seat`` announces its day action ("buy", "harvest", "sell", "nothing") or its night draw
    ("draw") with its choices; it resolves once the window that follows closes (saline 1.1.0)."""

    seat: str
    action: str
    space: int | None = None
    position: str | None = None
    colour: str | None = None
    sacrifice: str | None = None


@event_type("saline.WindowOpened")
class WindowOpened(EventData):
    """Before ``seat``'s ``action`` resolves, ``seats`` (in turn order from its left) may play cards
    bearing the triangle or their favour ("at any time", B 1) and 2)), or pass; opened again after
    each card played in it."""

    seat: str
    action: str
    seats: list[str]


@event_type("saline.WindowClosed")
class WindowClosed(EventData):
    """Every seat of the window has passed: ``seat``'s ``action`` resolves now, or, no longer
    possible after the cards played in the window (``possible`` false), is not taken."""

    seat: str
    action: str
    possible: bool = True


@event_type("saline.SacrificeOwed")
class SacrificeOwed(EventData):
    """After the sale ``seat`` cannot pay the gabelle (raised while the sale was announced): it
    names the œillet it sacrifices (FAQ)."""

    seat: str


@event_type("saline.CardResolved")
class CardResolved(EventData):
    """The card ``card`` of ``seat`` resolved (after its gabelle modification, cost and effect),
    or ``cancelled`` by a Souverain (no effect, no cost, no gabelle change)."""

    seat: str
    card: str
    effect: str
    cancelled: bool = False
    copy: bool = False


@event_type("saline.SalesExempt")
class SalesExempt(EventData):
    """Franc-salé: ``seat``'s sales this day pay no gabelle."""

    seat: str


@event_type("saline.TurnBegan")
class TurnBegan(EventData):
    seat: str
    phase: str  # "day" or "night"


@event_type("saline.TurnEnded")
class TurnEnded(EventData):
    seat: str
    phase: str


@event_type("saline.HandLimitDiscard")
class HandLimitDiscard(EventData):
    seat: str


@event_type("saline.EventCardDiscarded")
class EventCardDiscarded(EventData):
    """The card ``seat`` discards down to the hand limit. Sealed for ``seat``."""

    seat: str
    card: str


@event_type("saline.ObjectiveClaimed")
class ObjectiveClaimed(EventData):
    seat: str
    objective: ObjectiveCard
    secret: bool


@event_type("saline.HandsShown")
class HandsShown(EventData):
    """At the end of the game: every hand and every secret objective face up."""

    hands: dict[str, list[Card]]
    secrets: dict[str, ObjectiveCard]


@event_type("saline.GameDecided")
class GameDecided(EventData):
    outcome: Outcome
    ended_by: list[str]
    points: dict[str, dict[str, int]]
