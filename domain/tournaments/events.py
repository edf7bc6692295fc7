"""The events of a tournament's record: one hash-chained stream per tournament, like a game's.

Each event's data is a frozen msgspec Struct registered under a stable name; the names are
part of the tournament archive format and never change. A stored event is a
:class:`TournamentRecorded`: its place in the stream, its data, and its hash link.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any, ClassVar
from uuid import UUID

import msgspec

from domain.chain import EventData, EventRegistry, StoredEvent, link_hash
from domain.chain import chain as chain_events
from domain.events import Outcome, TimeControl

class UnknownTournamentEvent(ValueError):
    """A record names a tournament event type this version of Herald does not know."""


TOURNAMENT_EVENTS = EventRegistry(UnknownTournamentEvent)
TOURNAMENT_EVENT_TYPES = TOURNAMENT_EVENTS.types
tournament_event = TOURNAMENT_EVENTS.register
from_data = TOURNAMENT_EVENTS.from_data


FORMATS = ("swiss", "round-robin", "knockout")


@tournament_event("TournamentCreated")
class TournamentCreated(EventData):
    """An organiser opened a tournament: what is played, how it is paired, for how long."""

    later_fields = ("clock",)  # issue 29: a tournament without a clock is recorded as before

    name: str
    rules: str
    scenarios: list[str]
    format: str
    rounds: int
    table_size: int = 2  # players per table; above 2, multi-player tables paired by score
    min_table: int = 2
    rated: bool = True
    director: str = ""
    options: dict[str, Any] = {}  # the rule system's options, for every game (e.g. a turn limit)
    clock: TimeControl | None = None  # every game's clock (issue 29), and what a flag's fall brings


@tournament_event("PlayerRegistered")
class PlayerEntered(EventData):
    """A player entered the tournament. Recorded as ``PlayerRegistered``, its name in the
    archive format; the class is named apart from domain/players.py's ``PlayerRegistered``
    (a name registered with its token), whose class name is its stored topic."""

    player: str
    seed: int  # pairing order for round-robin tables and knockout brackets; Swiss ties


@tournament_event("PlayerWithdrawn")
class PlayerWithdrawn(EventData):
    player: str
    reason: str
    after_round: int  # the last round the player was paired in (0 before the first)


class TablePairing(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One table of a round: its game and who sits in which seat."""

    table: int
    game: str
    scenario: str
    seats: dict[str, str]  # seat -> player


@tournament_event("RoundPaired")
class RoundPaired(EventData):
    round: int
    tables: list[TablePairing]
    method: str  # how the pairing was made, in words (format, rules applied)


@tournament_event("ByeAssigned")
class ByeAssigned(EventData):
    round: int
    player: str
    points: float
    reason: str


@tournament_event("ByeFilled")
class ByeFilled(EventData):
    """A player's bye filled with a game against the server's bot (issue 29), paired with the
    round: practice, outside the standings (the bye's points stand as ByeAssigned says)."""

    round: int
    player: str
    game: str
    scenario: str
    seat: str
    policy: str


@tournament_event("ResultRecorded")
class ResultRecorded(EventData):
    """A linked game ended: its outcome, and the version and hash of its GameEnded event,
    which pin the game's whole record up to its end."""

    round: int
    table: int
    game: str
    outcome: Outcome
    version: int
    hash: str
    reason: str = "GameEnded"


@tournament_event("RulingNoted")
class RulingNoted(EventData):
    """An umpire ruled on a dispute in one of the tournament's games: the ruling and its
    reason, and the version and hash of the DisputeRuled event in that game's record. An
    upheld ruling that voided play changes the game's eventual result; this says why."""

    round: int
    table: int
    game: str
    dispute: int
    ruling: str
    reason: str
    version: int
    hash: str
    void_from: int | None = None


@tournament_event("ForfeitRecorded")
class ForfeitRecorded(EventData):
    """A table's result decided without play (or overriding play): the forfeiting players
    score 0, the others score as winners."""

    round: int
    table: int
    game: str
    forfeited: list[str]
    reason: str


@tournament_event("PointsAdjusted")
class PointsAdjusted(EventData):
    """A director's adjustment: points added (or, negative, taken) with a reason."""

    player: str
    points: float
    reason: str
    round: int | None = None


class TournamentRecorded(StoredEvent, frozen=True):
    """One stored tournament event: its place in the stream, its data and its hash link."""

    stream: ClassVar[str] = "tournament"

    def typed(self) -> EventData:
        return from_data(self.type, self.data)


def event_hash(tournament_id: UUID, version: int, type_: str, data: dict[str, Any], prev_hash: str,
               recorded_at: str) -> str:
    """The hash link of a tournament event (see :mod:`domain.chain`)."""
    return link_hash(TournamentRecorded.stream, tournament_id, version, type_, data, prev_hash, recorded_at)


def chain(tournament_id: UUID, version: int, prev_hash: str, events: Iterable[EventData],
          now: datetime) -> list[TournamentRecorded]:
    """Wrap event data as stored tournament events, numbering and hash-linking them."""
    return chain_events(TournamentRecorded, tournament_id, version, prev_hash, events, now)
