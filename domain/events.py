"""The events of the record format (DESIGN.md, "Events").

Each event type is a frozen msgspec Struct holding its ``data``; the type name is part of
the record format and never changes. Rule systems add their own event types, named
``"<system>.<Name>"``, through :func:`event_type`.
"""

from __future__ import annotations

from typing import Any

import msgspec

from domain.chain import EventData, EventRegistry, to_data  # noqa: F401 - EventData, to_data re-exported
from domain.dice import Face
from domain.errors import RecordError


class UnknownEventType(RecordError, ValueError):
    """A record names an event type this version of Herald does not know (a ValueError too:
    a record's reader refuses it as it refuses any malformed event)."""

    code = "unknown_event_type"

    def __init__(self, type_name: str):
        super().__init__(f"unknown event type {type_name!r}")
        self.type_name = type_name


GAME_EVENTS = EventRegistry(UnknownEventType)
EVENT_TYPES = GAME_EVENTS.types
event_type = GAME_EVENTS.register
from_data = GAME_EVENTS.from_data


class SeatInfo(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Who sits in a seat."""

    player: str


class TournamentRef(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Where a game sits in a tournament."""

    id: str
    round: int | None = None
    table: int | None = None


class ForkRef(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The game and version a fork branched from (and that version's hash), and how its
    dice are chosen: ``same`` (the parent's seed and draws), ``fresh`` (a new seed) or
    ``forced`` (the ``forced`` faces first, die by die; then a new seed)."""

    game: str
    version: int
    dice: str
    head: str = ""
    forced: list[int | str] = []


class Outcome(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """How a game ended: a winner or a draw, why, and any scores or ranking."""

    winner: str | None = None
    draw: bool = False
    reason: str = ""
    scores: dict[str, float] = {}
    ranking: list[str] = []


class TimeControl(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A game's clock (issue 29), as agreed at creation. ``kind``: ``fischer`` (each seat
    starts with ``base_seconds`` and gains ``increment_seconds`` after each decision),
    ``delay`` (the first ``delay_seconds`` of each decision are free, then ``base_seconds``
    runs down) or ``correspondence`` (``days_per_move`` days for each decision). When a flag
    falls, ``on_time`` says what follows: ``loss`` (the outcome the rule system gives the
    seat out of time) or ``adjudicate`` (play stops until an umpire records the result)."""

    kind: str
    base_seconds: int = 0
    increment_seconds: int = 0
    delay_seconds: int = 0
    days_per_move: int = 0
    on_time: str = "loss"


@event_type("GameCreated")
class GameCreated(EventData):
    later_fields = ("clock",)  # issue 29: an unclocked game is recorded as before

    rules: str
    rules_version: str
    scenario: str
    data_hash: str
    seats: dict[str, SeatInfo]
    seed_commitment: str
    client_seed: str = ""
    options: dict[str, Any] = {}
    study: bool = False
    tournament: TournamentRef | None = None
    fork: ForkRef | None = None
    clock: TimeControl | None = None


@event_type("DecisionTaken")
class DecisionTaken(EventData):
    seat: str
    command: dict[str, Any]
    idempotency_key: str | None = None


@event_type("DiceRolled")
class DiceRolled(EventData):
    draws: list[int]
    kind: str
    faces: list[Face]
    purpose: str
    seat: str | None = None


@event_type("CardsShuffled")
class CardsShuffled(EventData):
    deck: str
    size: int
    draws: list[int]
    purpose: str = ""


@event_type("VoidedCardsReshuffled")
class VoidedCardsReshuffled(CardsShuffled):
    """After a ruling voids play (in its block, after its DecisionsVoided): a deck whose order is
    hidden, shuffled again at fresh draws, so no card seen in the voided play comes back where it
    was (issue 30). Unlike a rule system's own shuffle, nothing is gathered: the cards out of the
    deck as the void leaves it stay out; the ``size`` positions are shuffled and a draw takes the
    first card in the new order still in the deck."""


@event_type("GameEnded")
class GameEnded(EventData):
    outcome: Outcome


@event_type("SeedRevealed")
class SeedRevealed(EventData):
    seed: str
    reason: str = "game ended"


# -- audit and study (issue 5): disputes, rulings, annotations, abandonment, forced dice --
@event_type("DiceForced")
class DiceForced(DiceRolled):
    """Dice whose faces a study fork's creator stated: recorded as forced, never random."""


class Target(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """What an annotation points at: a piece and/or a location, in the rule system's words."""

    piece: str | None = None
    location: str | None = None


@event_type("Annotated")
class Annotated(EventData):
    by: str
    at_version: int
    text: str
    target: Target | None = None
    arrow: list[str] | None = None


@event_type("DisputeRaised")
class DisputeRaised(EventData):
    seat: str
    about_version: int
    reason: str
    freeze: bool = False


@event_type("DisputeRuled")
class DisputeRuled(EventData):
    dispute: int
    ruling: str  # "upheld" | "rejected"
    reason: str
    by: str
    void_from: int | None = None
    reveal_seed: bool = False


@event_type("DecisionsVoided")
class DecisionsVoided(EventData):
    from_version: int
    dispute: int


@event_type("AbandonAgreed")
class AbandonAgreed(EventData):
    seat: str


# -- a freeze with no umpire (issue 11): lifted by the other seats' agreement, or lapsed ----
@event_type("FreezeReleaseAgreed")
class FreezeReleaseAgreed(EventData):
    """A seat agrees that play frozen by dispute ``dispute`` may go on."""

    dispute: int
    seat: str


@event_type("FreezeLifted")
class FreezeLifted(EventData):
    """Play frozen by ``dispute`` goes on: the seat that froze it agreed, or every other seat
    did (``cause`` "agreement"). The dispute itself stays open for an umpire."""

    dispute: int
    cause: str


@event_type("FreezeLapsed")
class FreezeLapsed(EventData):
    """Play frozen by ``dispute`` goes on because no umpire ruled within ``after_seconds``
    (the server's setting when it lapsed); recorded when the next command came, at a time
    at least that long after the DisputeRaised. The dispute stays open."""

    dispute: int
    after_seconds: int


@event_type("Inspected")
class Inspected(EventData):
    """An umpire looked at the full state (every hand) at a version: who, and why."""

    by: str  # "admin" or "director"
    at_version: int
    reason: str = ""


# -- seats taken at a distance (issue 29): invitations, seeds chosen blind, bot seats ------------
class BotSeat(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A seat the server plays with an analysis policy (analysis/rollout.py): ``rollouts`` per
    candidate command before each decision (0: the policy's own choice)."""

    policy: str
    rollouts: int = 0


@event_type("SeatsOffered")
class SeatsOffered(EventData):
    """Right after GameCreated: the seats not yet taken (``open`` to anyone holding the
    invitation link, ``invited`` for the registered player GameCreated names), the seats a bot
    plays, and whether each seated player gives a seed of their own once the seed commitment is
    recorded (``blind_seeds``). No decision is taken until every seat is taken and every seed given."""

    open: list[str] = []
    invited: list[str] = []
    bots: dict[str, BotSeat] = {}
    blind_seeds: bool = False


@event_type("SeatTaken")
class SeatTaken(EventData):
    """A registered player took an open or invited seat (and gave its seed, when seeds are blind)."""

    seat: str
    player: str
    seed: str | None = None


@event_type("SeatDeclined")
class SeatDeclined(EventData):
    """The invited player declined the seat: it is open from now on."""

    seat: str
    player: str


@event_type("SeedGiven")
class SeedGiven(EventData):
    """A seat held since the game's creation gives its own seed (blind seeds)."""

    seat: str
    seed: str


@event_type("BotPlayed")
class BotPlayed(EventData):
    """The server chose the next decision of a bot seat (recorded just before its
    DecisionTaken): the policy, the rollouts played from each of ``candidates`` legal commands,
    and the rollout seed's key."""

    seat: str
    policy: str
    rollouts: int
    candidates: int


SEATING_EVENTS = frozenset({"SeatsOffered", "SeatTaken", "SeatDeclined", "SeedGiven"})


# -- clocks (issue 29): the time each decision used, a flag's fall, an umpire's result ----
class ClockRan(EventData):
    """What a clock event says first: ``seat``'s clock ran from the recorded time of version
    ``since`` to this event's, ``used_ms`` milliseconds (rounded down)."""

    seat: str
    since: int
    used_ms: int


@event_type("TimeUsed")
class TimeUsed(ClockRan):
    """Beside each DecisionTaken of a clocked game: the time the decision used, which leaves
    ``left_ms`` on the seat's clock (the next decision's allowance for correspondence play)."""

    left_ms: int


@event_type("FlagFell")
class FlagFell(ClockRan):
    """``seat``'s time ran out: it used more than the ``allowed_ms`` it had. A GameEnded
    follows when the game's clock says ``loss`` and the rule system names an outcome; else an
    umpire adjudicates (Adjudicated)."""

    allowed_ms: int


@event_type("Adjudicated")
class Adjudicated(EventData):
    """An umpire's result of a game stopped by a flag's fall (``by``: "admin" or "director")."""

    by: str
    outcome: Outcome


# Events that record something other than play: they start a block of their own in the
# stream and never pass through a rule system's evolve.
META_EVENTS = frozenset({"Annotated", "DisputeRaised", "DisputeRuled", "DecisionsVoided", "AbandonAgreed",
                         "FreezeReleaseAgreed", "FreezeLifted", "FreezeLapsed", "Inspected",
                         *SEATING_EVENTS, "BotPlayed", "TimeUsed", "FlagFell", "Adjudicated"})

# The events that open a block of the record: a seat's decision or an audit command. Every
# other event (dice, rule effects, GameEnded, SeedRevealed, DecisionsVoided, FreezeLifted)
# belongs to the block it follows.
BLOCK_STARTS = frozenset({"DecisionTaken", "Annotated", "DisputeRaised", "DisputeRuled", "AbandonAgreed",
                          "FreezeReleaseAgreed", "FreezeLapsed", "Inspected", *SEATING_EVENTS, "BotPlayed",
                          "FlagFell", "Adjudicated"})
