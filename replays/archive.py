"""The tournament archive: one JSON document holding a tournament's hash-chained history,
the portable record of every game it paired, and its standings — checkable offline, whole.

:func:`verify_archive` checks the tournament's chain; every game record (chain, dice, full
replay, via :mod:`replays.verify`); that each game sits at the round, table and seats its
pairing says; that each recorded result is exactly its game's ``GameEnded`` (version, hash
and outcome) and no ended game lacks its result; and that the standings follow from all that.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any
from uuid import UUID

import msgspec

from domain.chain import GENESIS_HASH, iso
from domain.events import Outcome
from domain.tournaments.events import (
    TOURNAMENT_EVENT_TYPES,
    TournamentRecorded,
    UnknownTournamentEvent,
    event_hash,
)
from domain.tournaments.model import Tournament, project_tournament
from domain.tournaments.standings import Standing, standings
from replays.record import Record, RecordEvent
from replays.verify import verify

FORMAT = "herald-tournament-archive/1"


class TournamentArchive(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    tournament: str
    events: list[RecordEvent]
    records: list[Record]
    standings: list[Standing]
    head: dict[str, Any] = {}
    format: str = FORMAT


class ArchiveProblem(msgspec.Struct, frozen=True):
    """One thing wrong: ``where`` names the tournament event or the game, ``what`` says what."""

    where: str
    what: str


class ArchiveVerdict(msgspec.Struct, frozen=True):
    ok: bool
    problems: list[ArchiveProblem]
    notes: list[str] = []
    games: int = 0


class _Probe(msgspec.Struct):
    format: str = ""


def is_archive(raw: bytes) -> bool:
    """Whether a JSON document says it is a tournament archive."""
    try:
        return msgspec.json.decode(raw, type=_Probe).format.startswith("herald-tournament-archive/")
    except (msgspec.DecodeError, msgspec.ValidationError, RecursionError):  # too deep: not an archive either
        return False


def decode_archive(raw: bytes) -> TournamentArchive:
    return msgspec.json.decode(raw, type=TournamentArchive)


def to_archive_event(event: TournamentRecorded) -> RecordEvent:
    return RecordEvent(event.version, event.type, event.data, event.prev_hash, event.hash, iso(event.timestamp))


def from_archive_event(tournament_id: UUID, event: RecordEvent) -> TournamentRecorded:
    return TournamentRecorded(tournament_id, event.version, datetime.fromisoformat(event.recorded_at), event.type,
                              event.data, event.prev_hash, event.hash)


def build_archive(stream: list[TournamentRecorded], records: list[Record]) -> TournamentArchive:
    t = project_tournament(None, stream)
    assert t is not None
    return TournamentArchive(
        tournament=str(t.id), events=[to_archive_event(e) for e in stream], records=records,
        standings=standings(t), head={"version": t.version, "hash": t.head},
    )


def verify_archive(archive: TournamentArchive) -> ArchiveVerdict:
    """Check an archive end to end; ``ok`` only when nothing at all is wrong."""
    problems: list[ArchiveProblem] = []
    notes: list[str] = []
    t = _check_chain(archive, problems)
    records: dict[str, Record] = {}
    for record in archive.records:
        game = record.header.game
        records[game] = record
        verdict = verify(record)
        for p in verdict.problems:
            where = " ".join(x for x in (f"version {p.version}" if p.version else "",
                                         f"draw {p.draw}" if p.draw is not None else "") if x)
            problems.append(ArchiveProblem(f"game {game}" + (f" {where}" if where else ""), p.what))
        notes += [f"game {game}: {n}" for n in verdict.notes]
    if t is not None:
        _check_games(t, records, problems)
        expected = msgspec.to_builtins(standings(t))
        if msgspec.to_builtins(archive.standings) != expected:
            first = next((i for i, (a, b) in enumerate(zip(msgspec.to_builtins(archive.standings), expected))
                          if a != b), min(len(archive.standings), len(expected)))
            problems.append(ArchiveProblem("standings", f"the standings do not follow from the events and games "
                                           f"(first difference at rank {first + 1})"))
    return ArchiveVerdict(not problems, problems, notes, len(archive.records))


def _check_chain(archive: TournamentArchive, problems: list[ArchiveProblem]) -> Tournament | None:
    try:
        tournament_id = UUID(archive.tournament)
    except ValueError:
        problems.append(ArchiveProblem("tournament", f"{archive.tournament!r} is not a UUID"))
        return None
    if not archive.events or archive.events[0].type != "TournamentCreated":
        problems.append(ArchiveProblem("tournament version 1", "the history does not start with TournamentCreated"))
        return None
    prev, broken = GENESIS_HASH, False
    for expected, event in enumerate(archive.events, start=1):
        where = f"tournament version {event.version}"
        if event.version != expected:
            problems.append(ArchiveProblem(where, f"expected version {expected} (an event is missing, duplicated "
                                           "or out of order)"))
            return None
        if event.type not in TOURNAMENT_EVENT_TYPES:
            problems.append(ArchiveProblem(where, f"unknown tournament event type {event.type!r}"))
            return None
        if event.prev_hash != prev:
            problems.append(ArchiveProblem(where, "prev_hash does not link to the hash of the event before"))
            broken = True
        digest = event_hash(tournament_id, event.version, event.type, event.data, event.prev_hash, event.recorded_at)
        if digest != event.hash:
            problems.append(ArchiveProblem(where, f"hash mismatch: the {event.type} event was changed after it "
                                           "was recorded"))
            broken = True
        prev = event.hash
    if archive.head and archive.head.get("hash") not in (None, prev):
        problems.append(ArchiveProblem("tournament head", "the archive's head is not the hash of its last event"))
    try:
        t = project_tournament(None, [from_archive_event(tournament_id, e) for e in archive.events])
    except (UnknownTournamentEvent, msgspec.ValidationError, ValueError, KeyError) as error:
        problems.append(ArchiveProblem("tournament", f"the history cannot be folded: {error}"))
        return None
    return None if broken and t is None else t


def _check_games(t: Tournament, records: dict[str, Record], problems: list[ArchiveProblem]) -> None:
    for paired in t.rounds:
        for table in paired.tables:
            where = f"round {paired.round} table {table.table} (game {table.game})"
            record = records.get(table.game)
            if record is None:
                problems.append(ArchiveProblem(where, "the game's record is not in the archive"))
                continue
            ref = record.header.tournament
            if ref is None or (ref.id, ref.round, ref.table) != (str(t.id), paired.round, table.table):
                problems.append(ArchiveProblem(where, "the game's record is not tied to this round and table"))
            seated = {seat: info.player for seat, info in record.header.seats.items()}
            if seated != table.seats:
                problems.append(ArchiveProblem(where, "the game's seats differ from the pairing"))
            for ruling in t.rulings.get(table.game, ()):
                at = next((e for e in record.events if e.version == ruling.version), None)
                if at is None or at.type != "DisputeRuled" or at.hash != ruling.hash or any(
                        at.data.get(k) != getattr(ruling, k) for k in ("dispute", "ruling", "reason", "void_from")):
                    problems.append(ArchiveProblem(where, f"the ruling noted at game version {ruling.version} is not "
                                                   "the game's DisputeRuled event"))
            ended = [e for e in record.events if e.type == "GameEnded"]
            result = t.results.get(table.game)
            if result is None:
                if ended and table.game not in t.forfeits:
                    problems.append(ArchiveProblem(where, "the game ended but its result is not recorded"))
                continue
            at = next((e for e in record.events if e.version == result.version), None)
            if at is None or at.type != "GameEnded" or at.hash != result.hash:
                problems.append(ArchiveProblem(where, f"the recorded result names GameEnded at version "
                                               f"{result.version} with a hash the game's record does not have"))
                continue
            try:
                outcome = msgspec.convert(at.data.get("outcome", {}), Outcome)
            except msgspec.ValidationError as error:
                problems.append(ArchiveProblem(where, f"the game's GameEnded outcome is malformed: {error}"))
                continue
            if outcome != result.outcome:
                problems.append(ArchiveProblem(where, "the recorded result differs from the game's GameEnded outcome"))
            if ended and ended[-1].hash != result.hash:
                problems.append(ArchiveProblem(where, "the game ended again later; the result recorded is stale"))


def report(raw: bytes) -> tuple[int, list[str]]:
    """``herald replay verify`` on an archive: the exit code and the lines to print."""
    try:
        archive = decode_archive(raw)
    except (msgspec.DecodeError, msgspec.ValidationError, RecursionError) as error:
        return 2, [f"herald: not a Herald tournament archive: {error}"]
    verdict = verify_archive(archive)
    lines = [f"note: {n}" for n in verdict.notes]
    if verdict.ok:
        lines.append(f"OK: tournament {archive.tournament}: {len(archive.events)} events, chain intact; "
                     f"{verdict.games} game records verified; results match their games; standings recomputed")
        return 0, lines
    lines += [f"FAIL {p.where}: {p.what}" for p in verdict.problems]
    return 1, lines
