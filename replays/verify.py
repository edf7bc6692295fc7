"""Verify a portable record: the hash chain, the seed commitment, every draw, and a full
replay of the decisions through the rules. Names the first event or draw that fails."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator
from datetime import datetime
from uuid import UUID

import msgspec

from domain import seals
from domain.audit import REPLAYERS, reshuffle_after_void
from domain.events import BLOCK_STARTS, EVENT_TYPES, EventData, UnknownEventType, from_data, to_data
from domain.game import (
    GENESIS_HASH,
    Game,
    IncompatibleRecord,
    Recorded,
    apply,
    apply_void,
    event_hash,
    game_rng,
    take_decision,
)
from domain.rng import NeedsSeed, RecordedRng, RecordMismatch, Rng
from domain.creation import check_created
from domain.errors import SetupRefused
from domain.rules.base import RuleViolation
from domain.rules.registry import RULE_SYSTEMS
from domain.seals import is_sealed_form
from replays.record import FORMAT_2, FORMATS, Record, RecordEvent, chained_data, derive_record, from_record_event
from replays.record_format import PortableRecord, decode_record
from replays.signature import check, key_id

Witness = Callable[[Game], None]  # handed the game after each event a replay folds


class RecordProblem(msgspec.Struct, frozen=True):
    """One thing wrong with a record: where (version and/or draw) and what."""

    version: int | None
    draw: int | None
    what: str


class Verdict(msgspec.Struct, frozen=True):
    ok: bool
    problems: list[RecordProblem]
    notes: list[str] = []


class Receipt(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A chain head a player was given in a command response: ``{"version", "hash"}``."""

    version: int
    hash: str


class VerifyRequest(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """POST /records/verify with receipts and/or the server's public key beside the record
    (a record of either format; the schema shows the format written today)."""

    record: PortableRecord
    receipts: list[Receipt] = []
    public_key: str | None = None


class _Envelope(msgspec.Struct, frozen=True):
    """A verify body at a glance: a bare record (its ``header`` is there) or a VerifyRequest,
    its record left as raw bytes until its format is known."""

    record: msgspec.Raw = msgspec.Raw(b"")
    header: msgspec.Raw = msgspec.Raw(b"")
    receipts: list[Receipt] = []
    public_key: str | None = None


def read_verify_request(raw: bytes) -> tuple[Record, list[Receipt], str | None]:
    """The record (either format), receipts and public key of a verify body: a record, or
    ``{"record", "receipts"?, "public_key"?}``. Raises msgspec.DecodeError / ValidationError."""
    envelope = msgspec.json.decode(raw, type=_Envelope)
    if not envelope.record or envelope.header:
        return decode_record(raw), [], None
    extra = set(msgspec.json.decode(raw, type=dict[str, msgspec.Raw])) - {"record", "receipts", "public_key"}
    if extra:
        raise msgspec.ValidationError(f"a VerifyRequest holds record, receipts and public_key, not {sorted(extra)}")
    return decode_record(bytes(envelope.record)), envelope.receipts, envelope.public_key


def verify(record: Record, receipts: list[Receipt] = (), public_key: str | None = None,
           witness: Witness | None = None) -> Verdict:
    """Check a record end to end; ``ok`` only when nothing at all is wrong. Receipts prove
    the record still holds each receipted head (a rewritten or cut history fails); a
    public key proves who signed the record's head. ``witness`` is handed the game after each
    event the replay folds, in order (as far as the replay goes): what a reader of the record
    builds from that fold (the viewer's boards) costs no second one."""
    problems = list(check_chain(record))
    notes: list[str] = []
    readable = not any(p.what.startswith("structure") for p in problems)
    if readable:
        malformed = list(check_types(record))
        problems += malformed + list(check_derived(record))
        readable = not malformed
    problems += check_receipts(record, receipts)
    problems += check_signature(record, public_key, notes)
    seed = check_seed(record, problems)
    problems += check_seals(record, seed, notes)
    if readable:
        problems += replay_problems(record, seed, notes, witness)
    return Verdict(ok=not problems, problems=problems, notes=notes)


def check_receipts(record: Record, receipts: list[Receipt]) -> Iterator[RecordProblem]:
    last = len(record.events)
    for receipt in receipts:
        if not 1 <= receipt.version <= last:
            yield RecordProblem(receipt.version, None,
                                f"a receipt names version {receipt.version} but the record ends at {last}: "
                                "its history was cut")
        elif record.events[receipt.version - 1].hash != receipt.hash:
            yield RecordProblem(receipt.version, None,
                                "the receipt's hash is not the record's hash at that version: "
                                "the history was rewritten")


def check_signature(record: Record, public_key: str | None, notes: list[str]) -> Iterator[RecordProblem]:
    signature = record.signature
    if signature is None:
        if public_key is not None:
            yield RecordProblem(None, None, "the record is not signed")
        return
    if not check(signature, record.header.game):
        yield RecordProblem(signature.version, None, "the signature does not verify")
        return
    if record.events and (signature.version > len(record.events)
                          or record.events[signature.version - 1].hash != signature.hash):
        yield RecordProblem(signature.version, None, "the signed head is not in this record")
    if public_key is None:
        notes.append(f"signed by key {key_id(signature.key)}; give the server's public key to check who signed")
    elif public_key.lower() != signature.key.lower():
        yield RecordProblem(None, None, f"signed by key {key_id(signature.key)}, not by the key given "
                                        f"({key_id(public_key) if _hex(public_key) else 'not hex'})")


def check_chain(record: Record) -> Iterator[RecordProblem]:
    """Versions 1..n in order, each hash recomputed, each linked to the one before; in a
    format-2 record (links recomputed as it was read) the last link must be its head."""
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
        try:
            hashed = chained_data(event)
        except ValueError:
            yield RecordProblem(event.version, None, "structure: the event's salt is not hex")
            return
        digest = event_hash(game_id, event.version, event.type, hashed, event.prev_hash, event.recorded_at)
        if digest != event.hash:
            yield RecordProblem(event.version, None, f"hash mismatch: the {event.type} event was changed after it was recorded")
        prev = event.hash
    if record.format == FORMAT_2 and record.head != {"version": len(record.events), "hash": prev}:
        if record.head.get("version") != len(record.events):
            yield RecordProblem(len(record.events), None, f"structure: the record's head is version "
                                                          f"{record.head.get('version')} but it has "
                                                          f"{len(record.events)} events (events were added or cut)")
        else:
            yield RecordProblem(len(record.events), None,
                                "the hash chain recomputed from the events does not end at the record's head: an "
                                "event was changed, added, removed or reordered after it was recorded (the head "
                                "alone cannot say which; a receipt or the replay's problem may)")


def check_types(record: Record) -> Iterator[RecordProblem]:
    """Each event's recording time is ISO 8601 and each known event's data has its
    type's shape (draws a list of integers, and so on): a record whose hashes hold but
    whose fields do not is named here, never replayed. A rule system's own events are
    checked only under a version that replays them (the current one, or an earlier one it names,
    whose events keep their shape): a record of any other version is named
    as such by the replay ("recorded under saxon-shore 1.1.0; this server has 2.0.0"), not
    as malformed data of the newer version's events of the same name."""
    rules = RULE_SYSTEMS.get(record.header.rules)
    replayed = rules is not None and record.header.rules_version in (rules.version, *rules.older_versions)
    older = None if replayed else f"{record.header.rules}."
    for event in record.events:
        try:
            datetime.fromisoformat(event.recorded_at)
        except ValueError:
            yield RecordProblem(event.version, None, f"recorded_at {_short_value(event.recorded_at)} of the "
                                                     f"{event.type} event is not an ISO 8601 time")
        if event.type in EVENT_TYPES and not is_sealed_form(event.data) and not (older and event.type.startswith(older)):
            try:
                from_data(event.type, event.data)
            except (msgspec.ValidationError, ValueError) as error:
                yield RecordProblem(event.version, None, f"malformed {event.type} data: {error}")


def check_derived(record: Record) -> Iterator[RecordProblem]:
    """Every field a reader sees beside the events (header, seed commitment, seed, outcome,
    head, format) must be what the hash-chained events say: each one that is not is named,
    with the version it should come from."""
    try:
        derived = derive_record(record.header.game, record.events, record.seed)
    except msgspec.ValidationError as error:
        yield RecordProblem(1, None, f"malformed GameCreated or GameEnded: {error}")
        return
    ended = next((e.version for e in reversed(record.events) if e.type == "GameEnded"), None)
    revealed = next((e.version for e in reversed(record.events) if e.type == "SeedRevealed"), None)
    sources = {"created_at": (1, "the recording time of GameCreated"),
               "ended_at": (ended, "the recording time of GameEnded" if ended else "no GameEnded")}
    for field in record.header.__struct_fields__:
        shown, proven = getattr(record.header, field), getattr(derived.header, field)
        if msgspec.to_builtins(shown) != msgspec.to_builtins(proven):
            version, source = sources.get(field, (1, "GameCreated"))
            yield RecordProblem(version, None, f"header.{field} is {_short_value(shown)} but {source} "
                                               f"says {_short_value(proven)}")
    if record.seed_commitment != derived.seed_commitment:
        yield RecordProblem(1, None, "seed_commitment disagrees with GameCreated")
    if record.outcome != derived.outcome:
        yield RecordProblem(ended, None, f"outcome is {_short_value(record.outcome)} but "
                                         + (f"GameEnded says {_short_value(derived.outcome)}" if ended else
                                            "the game has no GameEnded"))
    if revealed is not None and record.seed != derived.seed:
        yield RecordProblem(revealed, None, "the record's seed differs from SeedRevealed")
    if record.format == FORMAT_2:
        pass  # its head is the chain's anchor: check_chain compares it with the recomputed links
    elif record.head and msgspec.to_builtins(record.head) != derived.head:
        yield RecordProblem(len(record.events), None, f"head is {_short_value(record.head)} but the last event "
                                                      f"is {_short_value(derived.head)}")
    if record.format not in FORMATS:
        yield RecordProblem(None, None, f"format is {_short_value(record.format)}, not one of "
                                        f"{', '.join(map(repr, FORMATS))}")


def _short_value(value: object) -> str:
    text = msgspec.json.encode(value, order="sorted").decode()
    return text if len(text) <= 120 else text[:117] + "..."


def check_seals(record: Record, seed: bytes | None, notes: list[str]) -> list[RecordProblem]:
    """The sealed events: those this copy holds (data and salt) are proven by the chain, which
    covers their seal; once the seed is known, each salt must be the one it gives. Those it
    holds only sealed are named: their seals are not provable until the seed is revealed."""
    problems, sealed, held = [], [], []
    game_id = record.header.game
    for event in record.events:
        if event.salt is not None or event.for_ is not None:
            held.append(event.version)
            if event.salt is None or event.for_ is None:
                problems.append(RecordProblem(event.version, None, "a sealed event's copy needs both its salt and 'for'"))
            elif seed is not None and event.salt != seals.salt(seed, game_id, event.version).hex():
                problems.append(RecordProblem(event.version, None,
                                              "the salt is not the one the revealed seed gives for this event"))
        elif seals.is_sealed_form(event.data):
            sealed.append(event)
    if held:
        notes.append(f"{len(held)} sealed event(s) held with their salt, each proven against its seal by the chain: "
                     f"version(s) {_versions(held)}"
                     + ("; every salt is the one the revealed seed gives" if seed is not None else ""))
    if sealed:
        by_seats: dict[str, list[int]] = {}
        for event in sealed:
            by_seats.setdefault(", ".join(event.data["for"]), []).append(event.version)
        notes.append(f"{len(sealed)} event(s) sealed in this copy; their seals are in the chain but what they hold "
                     "is not provable until the seed is revealed: "
                     + "; ".join(f"version(s) {_versions(v)} for {who}" for who, v in sorted(by_seats.items())))
    return problems


def _versions(versions: list[int]) -> str:
    return ", ".join(map(str, versions[:20])) + (f" and {len(versions) - 20} more" if len(versions) > 20 else "")


def _hex(text: str) -> bool:
    try:
        bytes.fromhex(text)
    except ValueError:
        return False
    return True


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
    return seed


def _canonical(event_type: str, data: dict) -> bytes:
    return msgspec.json.encode([event_type, data], order="sorted")


def replay_problems(record: Record, seed: bytes | None, notes: list[str],
                    witness: Witness | None = None) -> list[RecordProblem]:
    """Run ``decide`` again over every recorded decision (and every audit command over its
    block) and compare what it produces with what was recorded, byte for byte. Without the
    seed, the recorded dice are used: the legality of play is still checked; the dice
    themselves are checked once the seed is known."""
    game_id = UUID(record.header.game)
    events = [from_record_event(game_id, e) for e in record.events]
    voids = _Voids(record.events)
    try:
        game: Game = voids.keep(apply(None, events[0]))
    except (IncompatibleRecord, UnknownEventType, msgspec.ValidationError, RuleViolation) as error:
        return [RecordProblem(1, None, f"cannot replay: {error}")]
    if witness is not None:
        witness(game)
    try:
        check_created(game.created)  # the checks the server made when it created the game
    except SetupRefused as error:
        return [RecordProblem(1, None, f"the rules refuse this creation: {error.code}: {error.message}")]
    seed_hex = seed.hex() if seed is not None else None

    def matched(produced: list[tuple[EventData, tuple[str, ...] | None]],
                recorded: list[Recorded]) -> RecordProblem | None:
        """How ``produced`` differs from the ``recorded`` events, if it does; else the game
        with the recorded ones folded in."""
        nonlocal game
        differs = _differs(produced, recorded)
        if differs is None:
            for e in recorded[:len(produced)]:
                game = voids.fold(game, e)
                if witness is not None:
                    witness(game)
        return differs

    expected_draw = 0
    i = 1
    while i < len(events):
        event = events[i]
        if event.type not in EVENT_TYPES:
            return [RecordProblem(event.version, None, f"unknown event type {event.type!r}")]
        if event.type not in BLOCK_STARTS:
            return [RecordProblem(event.version, None, f"{event.type} is not caused by any recorded decision")]
        j = i + 1
        while j < len(events) and events[j].type not in BLOCK_STARTS:
            j += 1
        block = events[i:j]
        opaque = next((e for e in block if seals.is_sealed_form(e.data) and e.readers is not None), None)
        if opaque is not None:
            notes.append(f"replay stopped at version {opaque.version}: it is sealed for {', '.join(opaque.readers)}; "
                         "the play from there on can be replayed once the seed is revealed")
            return []
        for n in (n for e in block for n in e.data.get("draws", ())):
            if n != expected_draw:
                return [RecordProblem(event.version, n, f"draw {n} is out of sequence; expected draw {expected_draw}")]
            expected_draw += 1
        try:
            produced = _produce(game, event, block, seed, seed_hex)
            if (differs := matched(produced, block)) is not None:
                return [differs]
            if event.type == "DisputeRuled":  # a void's reshuffles follow from the game it leaves
                rest = block[len(produced):]
                more = [(e, None) for e in reshuffle_after_void(game, _rng(game, event, rest, seed))]
                if (differs := matched(more, rest)) is not None:
                    return [differs]
                produced += more
        except RuleViolation as error:
            what = "decision" if event.type == "DecisionTaken" else event.type
            return [RecordProblem(event.version, None, f"the rules refuse this {what}: {error.code}: {error.message}")]
        except RecordMismatch as error:
            return [RecordProblem(event.version, error.draw, error.what)]
        except NeedsSeed as error:
            notes.append(f"replay stopped at version {event.version}: {error}")
            return []
        except (KeyError, TypeError, msgspec.ValidationError) as error:
            return [RecordProblem(event.version, None, f"malformed {event.type}: {error}")]
        if len(produced) != len(block):
            at = block[min(len(produced), len(block) - 1)].version
            return [RecordProblem(at, None, f"replay produces {len(produced)} event(s) here; "
                                            f"the record has {len(block)}")]
        i = j
    if seed is None:
        notes.append("the seed is not revealed yet: the chain and the legality of play were checked; "
                     "the dice can be checked once the seed is revealed")
    return []


class _Voids:
    """Folds a record's events, each DecisionsVoided in amortised constant time, so a record
    of thousands of voids verifies in time linear in its length. The state a void from
    version ``s`` leaves is the state just before ``s``, taken from a snapshot kept after
    version ``s - 1`` (the record names every void's start up front). A void recorded after
    that snapshot whose range reaches back before ``s`` voids that play too: the start then
    moves back to its start. ``ranges`` keeps only the voided ranges not inside a later one,
    starts increasing, so each range is looked at a bounded number of times. Without a
    snapshot, the domain's full refold."""

    def __init__(self, events: list[RecordEvent]):
        self.starts = {e.data["from_version"] for e in events
                       if e.type == "DecisionsVoided" and isinstance(e.data.get("from_version"), int)}
        self.states: dict[int, object] = {}  # version -> the rule state after it
        self.ranges: list[tuple[int, int]] = []  # (first voided version, version of its DecisionsVoided)

    def fold(self, game: Game, event: Recorded) -> Game:
        if event.type != "DecisionsVoided":
            return self.keep(apply(game, event))
        start = event.data["from_version"]
        for a, b in reversed(self.ranges):
            if b < start:
                break
            start = min(start, a)
        while self.ranges and self.ranges[-1][0] >= start:
            self.ranges.pop()
        self.ranges.append((start, event.version))
        before = self.states.get(start - 1)
        if before is None:
            return self.keep(apply(game, event))
        return self.keep(apply_void(game, event, before))  # the domain folds the void; the state is the snapshot's

    def keep(self, game: Game) -> Game:
        """Snapshot the rule state after this version when a void starts right after it."""
        if game.version + 1 in self.starts:
            self.states[game.version] = game.state
        return game


def _differs(produced: list[tuple[EventData, tuple[str, ...] | None]], block: list[Recorded]) -> RecordProblem | None:
    """The first of ``block``'s events that is not what the replay produced (as far as both go)."""
    for (want, sealed_for), got in zip(produced, block):
        if sealed_for != got.readers:
            return RecordProblem(got.version, None,
                                 f"the rules seal this {got.type} for {', '.join(sealed_for or ()) or 'nobody'} "
                                 f"but the record for {', '.join(got.readers or ()) or 'nobody'}")
        if _canonical(want.type_name, to_data(want)) != _canonical(got.type, got.data):
            draw = _first_differing_draw(to_data(want), got.data)
            return RecordProblem(got.version, draw,
                                 f"replay differs: the rules produce {want.type_name} {_short(to_data(want))} "
                                 f"but the record has {got.type} {_short(got.data)}")
    return None


def _rng(game: Game, first: Recorded, recorded: list[Recorded], seed: bytes | None) -> Rng:
    """The random source a block's command is replayed with: the seed's, once known; else (and
    for play a fork copied from its parent) the draws ``recorded`` in the block."""
    if seed is None or (game.created.fork is not None and first.version <= game.created.fork.version):
        return RecordedRng([e.typed() for e in recorded], game.next_draw)
    return game_rng(game, seed)


def _produce(game: Game, first: Recorded, block: list[Recorded], seed: bytes | None,
             seed_hex: str | None) -> list[tuple[EventData, tuple[str, ...] | None]]:
    """The events the command that opened this block produces when run again, each with the
    seats it is sealed for (None: everyone)."""
    data = first.data
    if first.type != "DecisionTaken":
        return [(e, None) for e in REPLAYERS[first.type](game, data, seed_hex, first.timestamp)]
    decided = [(e.typed(), e.readers) for e in take_decision(game, data["seat"], data["command"],
                                                             _rng(game, first, block[1:], seed), first.timestamp,
                                                             seed, data.get("idempotency_key"))]
    if (game.created.fork is not None and first.version <= game.created.fork.version and game.clocks is None
            and len(block) > 1 and block[1].type == "TimeUsed"):  # a clocked parent's time, copied as recorded
        decided.insert(1, (block[1].typed(), None))
    return decided


def _first_differing_draw(want: dict, got: dict) -> int | None:
    for n, a, b in zip(want.get("draws", ()), want.get("faces", ()), got.get("faces", ())):
        if a != b:
            return n
    return (want.get("draws") or [None])[0]


def _short(data: dict) -> str:
    text = msgspec.json.encode(data, order="sorted").decode()
    return text if len(text) <= 160 else text[:157] + "..."
