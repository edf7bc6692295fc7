"""The events of a tournament's record: one hash-chained stream per tournament, like a game's.

Each event's data is a frozen msgspec Struct registered under a stable name; the names are
part of the tournament archive format and never change. A stored event is a
:class:`TournamentRecorded`: its place in the stream, its data, and its hash link.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from datetime import datetime
from typing import Any, ClassVar
from uuid import UUID

import msgspec

from domain.events import Outcome

GENESIS_HASH = "0" * 64


class TournamentEventData(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Base of every tournament event's data."""

    type_name: ClassVar[str]


TOURNAMENT_EVENT_TYPES: dict[str, type[TournamentEventData]] = {}


def tournament_event(name: str):
    """Register a tournament event class under its stable record name."""

    def register(cls: type[TournamentEventData]) -> type[TournamentEventData]:
        if name in TOURNAMENT_EVENT_TYPES and TOURNAMENT_EVENT_TYPES[name] is not cls:
            raise ValueError(f"tournament event type {name!r} registered twice")
        cls.type_name = name
        TOURNAMENT_EVENT_TYPES[name] = cls
        return cls

    return register


FORMATS = ("swiss", "round-robin", "knockout")


@tournament_event("TournamentCreated")
class TournamentCreated(TournamentEventData, frozen=True):
    """An organiser opened a tournament: what is played, how it is paired, for how long."""

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


@tournament_event("PlayerRegistered")
class PlayerRegistered(TournamentEventData, frozen=True):
    player: str
    seed: int  # pairing order for round-robin tables and knockout brackets; Swiss ties


@tournament_event("PlayerWithdrawn")
class PlayerWithdrawn(TournamentEventData, frozen=True):
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
class RoundPaired(TournamentEventData, frozen=True):
    round: int
    tables: list[TablePairing]
    method: str  # how the pairing was made, in words (format, rules applied)


@tournament_event("ByeAssigned")
class ByeAssigned(TournamentEventData, frozen=True):
    round: int
    player: str
    points: float
    reason: str


@tournament_event("ResultRecorded")
class ResultRecorded(TournamentEventData, frozen=True):
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
class RulingNoted(TournamentEventData, frozen=True):
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
class ForfeitRecorded(TournamentEventData, frozen=True):
    """A table's result decided without play (or overriding play): the forfeiting players
    score 0, the others score as winners."""

    round: int
    table: int
    game: str
    forfeited: list[str]
    reason: str


@tournament_event("PointsAdjusted")
class PointsAdjusted(TournamentEventData, frozen=True):
    """A director's adjustment: points added (or, negative, taken) with a reason."""

    player: str
    points: float
    reason: str
    round: int | None = None


class TournamentRecorded(msgspec.Struct, frozen=True):
    """One stored tournament event: its place in the stream, its data and its hash link."""

    originator_id: UUID
    originator_version: int
    timestamp: datetime
    type: str
    data: dict[str, Any]
    prev_hash: str
    hash: str

    @property
    def version(self) -> int:
        return self.originator_version

    def typed(self) -> TournamentEventData:
        return from_data(self.type, self.data)


class UnknownTournamentEvent(ValueError):
    """A record names a tournament event type this version of Herald does not know."""


def to_data(event: TournamentEventData) -> dict[str, Any]:
    return msgspec.to_builtins(event)


def from_data(type_name: str, data: dict[str, Any]) -> TournamentEventData:
    try:
        cls = TOURNAMENT_EVENT_TYPES[type_name]
    except KeyError:
        raise UnknownTournamentEvent(type_name) from None
    return msgspec.convert(data, cls)


def iso(moment: datetime) -> str:
    return moment.isoformat(timespec="microseconds")


def event_hash(tournament_id: UUID, version: int, type_: str, data: dict[str, Any], prev_hash: str,
               recorded_at: str) -> str:
    """SHA-256 of the event's canonical JSON (sorted keys), which includes ``prev_hash``."""
    canonical = msgspec.json.encode(
        {"tournament": str(tournament_id), "version": version, "type": type_, "data": data,
         "prev_hash": prev_hash, "recorded_at": recorded_at},
        order="sorted",
    )
    return hashlib.sha256(canonical).hexdigest()


def chain(tournament_id: UUID, version: int, prev_hash: str, events: Iterable[TournamentEventData],
          now: datetime) -> list[TournamentRecorded]:
    """Wrap event data as stored events, numbering and hash-linking them from ``version``."""
    out = []
    for offset, event in enumerate(events):
        data = to_data(event)
        v = version + offset
        digest = event_hash(tournament_id, v, event.type_name, data, prev_hash, iso(now))
        out.append(TournamentRecorded(tournament_id, v, now, event.type_name, data, prev_hash, digest))
        prev_hash = digest
    return out
