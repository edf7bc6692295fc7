"""The portable record (DESIGN.md, "The portable record"): one JSON document per game,
readable without Herald, that anyone can verify offline — hash chain, every draw
recomputed from the revealed seed, and a full replay of the decisions."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import datetime
from typing import Any
from uuid import UUID

import msgspec

from domain import seals
from domain.events import ForkRef, GameCreated, Outcome, SeatInfo, TournamentRef
from domain.chain import iso
from domain.errors import RecordError
from domain.game import Game, Recorded, apply
from domain.rules.base import RuleViolation
from replays.signature import Signature

FORMAT_1 = "herald-record/1"  # every event with its version and hash links (read for ever)
FORMAT_2 = "herald-record/2"  # what nobody can recompute, one event a line (written by every export)
FORMATS = (FORMAT_1, FORMAT_2)


class RecordEvent(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """An event as third parties see it, wherever it appears (DESIGN.md wire contract).

    An event sealed for some seats comes, to a reader who may not read it, with ``data``
    ``{"sealed": SEAL, "for": [seats]}``; to its seats (and to everyone once the seed is
    revealed) with its ``data``, its ``salt`` (hex) and ``for`` beside it."""

    version: int
    type: str
    data: dict[str, Any]
    prev_hash: str
    hash: str
    recorded_at: str
    salt: str | None = None
    for_: list[str] | None = msgspec.field(default=None, name="for")

    @property
    def sealed(self) -> bool:
        """Whether this copy holds only the sealed form of the event's data."""
        return seals.is_sealed_form(self.data) and self.salt is None


class Reader(msgspec.Struct, frozen=True):
    """Who is reading: the seats whose sealed events it reads in full, or ``everything``
    (once the seed is revealed, or an umpire's recorded inspection). Nobody: no seats."""

    seats: frozenset[str] = frozenset()
    everything: bool = False

    def reads(self, event: Recorded) -> bool:
        return event.readers is None or self.everything or not self.seats.isdisjoint(event.readers)

    @property
    def seat(self) -> str | None:
        """The seat whose view this reader gets (a spectator's when None)."""
        return min(self.seats) if self.seats else None


SPECTATOR = Reader()
EVERYONE = Reader(everything=True)


class RecordHeader(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Who played what, under which rules and data."""

    game: str
    rules: str
    rules_version: str
    scenario: str
    data_hash: str
    seats: dict[str, SeatInfo]
    client_seed: str
    study: bool
    created_at: str
    ended_at: str | None = None
    tournament: TournamentRef | None = None
    fork: ForkRef | None = None


class Record(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The portable record of one game, every event with its version and hash links: the
    in-memory form of both formats (replays/record_format.py), and format 1 as written."""

    header: RecordHeader
    seed_commitment: str
    events: list[RecordEvent]
    seed: str | None = None
    outcome: Outcome | None = None
    head: dict[str, Any] = {}
    signature: Signature | None = None
    format: str = FORMAT_1


def to_record_event(event: Recorded, reader: Reader = SPECTATOR, seed: bytes | None = None) -> RecordEvent:
    """An event as ``reader`` may see it: whole, or sealed. A sealed event's seats get its
    salt beside its data (derived from the game's ``seed``) to check it against its seal."""
    recorded_at = iso(event.timestamp)
    if event.readers is None:
        return RecordEvent(event.version, event.type, event.data, event.prev_hash, event.hash, recorded_at)
    if reader.reads(event) and not seals.is_sealed_form(event.data):
        salt = seals.salt(seed, event.originator_id, event.version).hex() if seed is not None else None
        return RecordEvent(event.version, event.type, event.data, event.prev_hash, event.hash, recorded_at,
                           salt, list(event.readers))
    return RecordEvent(event.version, event.type, event.hashed_data, event.prev_hash, event.hash, recorded_at)


def from_record_event(game_id: UUID, event: RecordEvent) -> Recorded:
    """A record's event as a stored event: a sealed copy keeps its sealed form as ``data``;
    a seat's copy (data and salt) gets its seal back from them. Raises ValueError on a
    salt that is not hex."""
    readers, seal = None, None
    if event.salt is not None or event.for_ is not None:
        readers = tuple(event.for_ or ())
        seal = seals.seal(bytes.fromhex(event.salt or ""), event.data)
    elif seals.is_sealed_form(event.data):
        readers, seal = tuple(event.data["for"]), event.data["sealed"]
    return Recorded(
        game_id, event.version, datetime.fromisoformat(event.recorded_at), event.type, event.data,
        event.prev_hash, event.hash, readers, seal,
    )


class Unfoldable(ValueError):
    """A record's event that cannot be folded: ``version`` names it, ``why`` says why."""

    def __init__(self, version: int, why: str):
        super().__init__(f"version {version}: {why}")
        self.version, self.why = version, why


def fold_until_sealed(game_id: UUID, events: Iterable[RecordEvent], game: Game | None = None,
                      witness: Callable[[Game], Any] | None = None) -> tuple[Game | None, RecordEvent | None]:
    """Fold a record's ``events`` into ``game`` (None: from the start) until the first event
    sealed in this copy, whose content this reader cannot read: the game they leave and that
    sealed event (None when none is). ``witness`` sees the game after each event. Unfoldable
    names the first event that cannot be folded (rules or data this server does not have, an
    unknown event type, a malformed event, a decision the rules refuse)."""
    for event in events:
        if event.sealed:
            return game, event
        try:
            game = apply(game, from_record_event(game_id, event))
        except (RecordError, RuleViolation, KeyError, ValueError, TypeError, msgspec.ValidationError) as error:
            raise Unfoldable(event.version, str(error)) from None
        if witness is not None:
            witness(game)
    return game, None


def build_record(events: list[Recorded], public_seed: str | None = None, reader: Reader = SPECTATOR,
                 server_seed: bytes | None = None) -> Record:
    """The portable record of a game from its stored events (GameCreated first), as
    ``reader`` may see it (everything once the seed is revealed). ``public_seed`` is a study
    game's seed, public from the start; ``server_seed`` gives the salts of the sealed events
    the reader may read."""
    revealed = public_seed or next((e.data["seed"] for e in events if e.type == "SeedRevealed"), None)
    if revealed is not None:  # every seal can be proven by anyone
        reader, server_seed = EVERYONE, bytes.fromhex(revealed)
    return derive_record(str(events[0].originator_id), [to_record_event(e, reader, server_seed) for e in events],
                         public_seed)


def derive_record(game: str, events: list[RecordEvent], public_seed: str | None = None) -> Record:
    """Everything a record shows besides its events, derived from its events: the one
    definition export uses and verification checks a record's header against (a field
    nobody can derive from the hash chain would be a field nobody can prove). Raises
    msgspec.ValidationError when GameCreated or GameEnded data is malformed."""
    created = msgspec.convert(events[0].data, GameCreated)
    seed, outcome, ended_at = public_seed, None, None
    for event in events:
        if event.type == "SeedRevealed":
            seed = event.data.get("seed")
        elif event.type == "GameEnded":
            outcome = msgspec.convert(event.data.get("outcome"), Outcome)
            ended_at = event.recorded_at
    header = RecordHeader(
        game=game,
        rules=created.rules,
        rules_version=created.rules_version,
        scenario=created.scenario,
        data_hash=created.data_hash,
        seats=created.seats,
        client_seed=created.client_seed,
        study=created.study,
        created_at=events[0].recorded_at,
        ended_at=ended_at,
        tournament=created.tournament,
        fork=created.fork,
    )
    last = events[-1]
    return Record(
        header=header,
        seed_commitment=created.seed_commitment,
        events=events,
        seed=seed,
        outcome=outcome,
        head={"version": last.version, "hash": last.hash},
    )


def chained_data(event: RecordEvent) -> dict:
    """What the chain hashes for an event: its data, or for a sealed event its sealed form,
    recomputed from the data and salt when this copy holds them (so the chain proves them).
    Raises ValueError on a salt that is not hex."""
    if event.salt is None and event.for_ is None:
        return event.data
    return seals.sealed_form(seals.seal(bytes.fromhex(event.salt or ""), event.data), event.for_ or ())
