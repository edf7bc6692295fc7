"""The portable record (DESIGN.md, "The portable record"): one JSON document per game,
readable without Herald, that anyone can verify offline — hash chain, every draw
recomputed from the revealed seed, and a full replay of the decisions."""

from __future__ import annotations

from datetime import datetime
from typing import Any
from uuid import UUID

import msgspec

from domain.events import ForkRef, GameCreated, Outcome, SeatInfo, TournamentRef
from domain.game import Recorded, iso
from replays.signature import Signature

FORMAT = "herald-record/1"


class RecordEvent(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """An event as third parties see it, wherever it appears (DESIGN.md wire contract)."""

    version: int
    type: str
    data: dict[str, Any]
    prev_hash: str
    hash: str
    recorded_at: str


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
    """The portable record of one game."""

    header: RecordHeader
    seed_commitment: str
    events: list[RecordEvent]
    seed: str | None = None
    outcome: Outcome | None = None
    head: dict[str, Any] = {}
    signature: Signature | None = None
    format: str = FORMAT


def to_record_event(event: Recorded) -> RecordEvent:
    return RecordEvent(event.version, event.type, event.data, event.prev_hash, event.hash, iso(event.timestamp))


def from_record_event(game_id: UUID, event: RecordEvent) -> Recorded:
    return Recorded(
        game_id, event.version, datetime.fromisoformat(event.recorded_at), event.type, event.data,
        event.prev_hash, event.hash,
    )


def build_record(events: list[Recorded], public_seed: str | None = None) -> Record:
    """The portable record of a game from its stored events (GameCreated first).
    ``public_seed`` is a study game's seed, public from the start."""
    return derive_record(str(events[0].originator_id), [to_record_event(e) for e in events], public_seed)


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


def decode_record(raw: bytes) -> Record:
    """Parse a record; msgspec.DecodeError / ValidationError say what is malformed."""
    return msgspec.json.decode(raw, type=Record)


def encode_record(record: Record) -> bytes:
    return msgspec.json.format(msgspec.json.encode(record), indent=1)
