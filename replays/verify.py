"""Verify a portable record: the hash chain, the seed commitment, every draw, and a full
replay of the decisions through the rules. Names the first event or draw that fails."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from uuid import UUID

import msgspec

from domain.events import EVENT_TYPES, GameCreated, UnknownEventType
from domain.game import GENESIS_HASH, Game, IncompatibleRecord, Recorded, apply, event_hash, take_decision
from domain.rng import NeedsSeed, RecordedRng, RecordMismatch, SeededRng
from domain.rules.base import RuleViolation
from replays.record import Record, from_record_event

STANDALONE = frozenset({"DecisionTaken", "Annotated", "DisputeRaised", "DisputeRuled", "SeedRevealed"})


class RecordProblem(msgspec.Struct, frozen=True):
    """One thing wrong with a record: where (version and/or draw) and what."""

    version: int | None
    draw: int | None
    what: str


class Verdict(msgspec.Struct, frozen=True):
    ok: bool
    problems: list[RecordProblem]
    notes: list[str] = []


def verify(record: Record) -> Verdict:
    """Check a record end to end; ``ok`` only when nothing at all is wrong."""
    problems = list(check_chain(record))
    notes: list[str] = []
    seed = check_seed(record, problems)
    if not any(p.what.startswith("structure") for p in problems):
        problems += replay_problems(record, seed, notes)
    return Verdict(ok=not problems, problems=problems, notes=notes)


def check_chain(record: Record) -> Iterator[RecordProblem]:
    """Versions 1..n in order, each hash recomputed, each linked to the one before."""
    try:
        game_id = UUID(record.header.game)
    except ValueError:
        yield RecordProblem(None, None, f"structure: header.game {record.header.game!r} is not a UUID")
        return
    if not record.events:
        yield RecordProblem(None, None, "structure: the record has no events")
        return
    if record.events[0].type != "GameCreated":
        yield RecordProblem(1, None, "structure: the first event is not GameCreated")
        return
    prev = GENESIS_HASH
    for expected, event in enumerate(record.events, start=1):
        if event.version != expected:
            yield RecordProblem(event.version, None, f"structure: expected version {expected}, found {event.version}"
                          " (an event is missing, duplicated or out of order)")
            return
        if event.prev_hash != prev:
            yield RecordProblem(event.version, None, "prev_hash does not link to the hash of the event before")
        digest = event_hash(game_id, event.version, event.type, event.data, event.prev_hash, event.recorded_at)
        if digest != event.hash:
            yield RecordProblem(event.version, None, f"hash mismatch: the {event.type} event was changed after it was recorded")
        prev = event.hash
    if record.head and record.head.get("hash") not in (None, prev):
        yield RecordProblem(record.head.get("version"), None, "the record's head is not the hash of its last event")
    created = record.events[0].data
    header = record.header
    for field in ("rules", "rules_version", "scenario", "data_hash", "client_seed", "study"):
        if created.get(field) != getattr(header, field):
            yield RecordProblem(1, None, f"header.{field} disagrees with GameCreated")
    if created.get("seed_commitment") != record.seed_commitment:
        yield RecordProblem(1, None, "seed_commitment disagrees with GameCreated")


def check_seed(record: Record, problems: list[RecordProblem]) -> bytes | None:
    """The revealed seed, if any, checked against the commitment."""
    revealed = [e for e in record.events if e.type == "SeedRevealed"]
    seed_hex = record.seed or (revealed[-1].data.get("seed") if revealed else None)
    if seed_hex is None:
        return None
    try:
        seed = bytes.fromhex(seed_hex)
    except ValueError:
        problems.append(RecordProblem(None, None, "the revealed seed is not hex"))
        return None
    if hashlib.sha256(seed).hexdigest() != record.seed_commitment:
        problems.append(RecordProblem(revealed[-1].version if revealed else None, None,
                                "the revealed seed does not match the seed commitment"))
        return None
    if revealed and record.seed and revealed[-1].data.get("seed") != record.seed:
        problems.append(RecordProblem(revealed[-1].version, None, "the record's seed differs from SeedRevealed"))
    return seed


def _canonical(event_type: str, data: dict) -> bytes:
    return msgspec.json.encode([event_type, data], order="sorted")


def replay_problems(record: Record, seed: bytes | None, notes: list[str]) -> list[RecordProblem]:
    """Run ``decide`` again over every recorded decision and compare what it produces with
    what was recorded, byte for byte. Without the seed, the recorded dice are used (the
    legality of play is still checked; the dice themselves only once the seed is known)."""
    game_id = UUID(record.header.game)
    events = [from_record_event(game_id, e) for e in record.events]
    try:
        game: Game = apply(None, events[0])
    except (IncompatibleRecord, UnknownEventType, msgspec.ValidationError, RuleViolation) as error:
        return [RecordProblem(1, None, f"cannot replay: {error}")]
    if not isinstance(events[0].typed(), GameCreated):  # pragma: no cover - checked in check_chain
        return [RecordProblem(1, None, "structure: the first event is not GameCreated")]
    expected_draw = 0
    i = 1
    while i < len(events):
        event = events[i]
        if event.type not in EVENT_TYPES:
            return [RecordProblem(event.version, None, f"unknown event type {event.type!r}")]
        if event.type != "DecisionTaken":
            if event.type not in STANDALONE:
                return [RecordProblem(event.version, None, f"{event.type} is not caused by any recorded decision")]
            game = _fold(game, [event])
            i += 1
            continue
        block = [event]
        j = i + 1
        while j < len(events) and events[j].type not in STANDALONE:
            block.append(events[j])
            j += 1
        # A SeedRevealed right after GameEnded belongs to the decision that ended the game.
        if j < len(events) and events[j].type == "SeedRevealed" and block[-1].type == "GameEnded":
            block.append(events[j])
            j += 1
        draws = [n for e in block for n in e.data.get("draws", ())]
        for n in draws:
            if n != expected_draw:
                return [RecordProblem(event.version, n, f"draw {n} is out of sequence; expected draw {expected_draw}")]
            expected_draw += 1
        data = event.data
        rng = (SeededRng(seed, game_id, game.created.client_seed, game.next_draw) if seed is not None
               else RecordedRng([e.typed() for e in block[1:]], game.next_draw))
        try:
            produced = take_decision(game, data["seat"], data["command"], rng, event.timestamp,
                                     seed, data.get("idempotency_key"))
        except RuleViolation as error:
            return [RecordProblem(event.version, None, f"the rules refuse this decision: {error.code}: {error.message}")]
        except RecordMismatch as error:
            return [RecordProblem(event.version, error.draw, error.what)]
        except NeedsSeed as error:
            notes.append(f"replay stopped at version {event.version}: {error}")
            return []
        except (KeyError, TypeError, msgspec.ValidationError) as error:
            return [RecordProblem(event.version, None, f"malformed DecisionTaken: {error}")]
        for want, got in zip(produced, block):
            if _canonical(want.type, want.data) != _canonical(got.type, got.data):
                draw = _first_differing_draw(want.data, got.data)
                return [RecordProblem(got.version, draw,
                                f"replay differs: the rules produce {want.type} {_short(want.data)} "
                                f"but the record has {got.type} {_short(got.data)}")]
        if len(produced) != len(block):
            at = block[min(len(produced), len(block) - 1)].version
            return [RecordProblem(at, None, f"replay produces {len(produced)} event(s) for this decision; "
                                      f"the record has {len(block)}")]
        game = _fold(game, block)
        i = j
    if seed is None and game.ended:
        notes.append("the game ended but its seed is not in the record: dice not recomputed")
    elif seed is None:
        notes.append("the seed is not revealed yet: the chain and the legality of play were checked, "
                     "the dice will be checkable once the seed is revealed")
    return []


def _fold(game: Game, events: list[Recorded]) -> Game:
    for event in events:
        game = apply(game, event)
    return game


def _first_differing_draw(want: dict, got: dict) -> int | None:
    for n, a, b in zip(want.get("draws", ()), want.get("faces", ()), got.get("faces", ())):
        if a != b:
            return n
    return (want.get("draws") or [None])[0]


def _short(data: dict) -> str:
    text = msgspec.json.encode(data, order="sorted").decode()
    return text if len(text) <= 160 else text[:157] + "..."
