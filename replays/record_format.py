"""The portable record on the wire: ``herald-record/2``, written by every export, and
``herald-record/1``, read for ever (docs/record-format.md says both, for a third party).

A record of either form decodes to one in-memory :class:`replays.record.Record`, in which
every event has its version, recording time, ``prev_hash`` and ``hash``. Format 1 stores all
of them with each event. Format 2 stores only what nobody can recompute — each event's type,
data and recording time, a held sealed event's salt and seats — and the chain's head (the
signed fact); the version is the event's place, and the links are recomputed as the record is
read, exactly as a verifier recomputes them anyway. A 2-player Saxon Shore game of 32,817
events: 1,494 bytes a decision in format 1, under 400 in format 2 (bench/bench_long_games.py).

An event of format 2 is one JSON array, one per line::

    [type, data]                 recorded at the same time as the event before it
    [type, data, at]             ``at``: microseconds since 1970-01-01T00:00:00Z (an integer),
                                 or the recording time's exact text where it is not UTC
    [type, data, at, seal]       a sealed event held in full: ``seal`` is {"salt", "for"}
                                 (``at`` null when unchanged)

``type`` is written ``.Name`` for the record's own rule system's ``<rules>.Name``.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from typing import Annotated, Any
from uuid import UUID

import msgspec

from domain.chain import GENESIS_HASH, iso
from domain.events import Outcome
from domain.game import event_hash
from replays.record import FORMAT_1, FORMAT_2, Record, RecordEvent, RecordHeader, chained_data
from replays.signature import Signature

EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)
MICROSECOND = timedelta(microseconds=1)

CompactEvent = Annotated[list[Any], msgspec.Meta(
    min_length=2, max_length=4,
    description="One event: [type, data], [type, data, at] or [type, data, at, seal] (docs/record-format.md). "
                "type: the event type, '.Name' for the record's rule system's '<rules>.Name'; data: the event's "
                "data as hashed (a sealed event the reader may not read: its sealed form); at: the recording "
                "time as integer microseconds since 1970-01-01T00:00:00Z, or its exact ISO 8601 text, or null "
                "(absent) when it is the event before's; seal: {\"salt\", \"for\"} of a sealed event held in full.",
    examples=[["DiceRolled", {"draws": [41, 42], "kind": "d6", "faces": [2, 5], "purpose": "raid on Kent (§6)",
                "seat": "p1"}, 1764410412345678]],
    extra_json_schema={"items": {"anyOf": [{"type": "string"}, {"type": "object"}, {"type": "integer"},
                                           {"type": "null"}]},
                       "prefixItems": [
        {"type": "string"},
        {"type": "object"},
        {"anyOf": [{"type": "integer"}, {"type": "string"}, {"type": "null"}]},
        {"type": "object", "properties": {"salt": {"type": "string"}, "for": {"type": "array",
                                                                               "items": {"type": "string"}}},
         "required": ["salt", "for"]},
    ]},
)]


class Head(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The chain's last link: what a signature and a receipt name."""

    version: int
    hash: str


class PortableRecord(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """``herald-record/2`` as written: the header and every fact, one event a line; the hash
    links are recomputed as it is read (docs/record-format.md)."""

    format: str
    header: RecordHeader
    seed_commitment: str
    seed: str | None = None
    outcome: Outcome | None = None
    head: Head
    signature: Signature | None = None
    events: list[CompactEvent]


class _Probe(msgspec.Struct):
    format: str = FORMAT_1


def decode_record(raw: bytes) -> Record:
    """A record of either format; msgspec.DecodeError / ValidationError say what is malformed."""
    if msgspec.json.decode(raw, type=_Probe).format != FORMAT_2:
        return msgspec.json.decode(raw, type=Record)  # format 1 (and anything else, named by the verifier)
    return expand(msgspec.json.decode(raw, type=PortableRecord))


def encode_record(record: Record) -> bytes:
    """The record as ``herald-record/2``: its header fields, then one event a line."""
    rules_prefix = record.header.rules + "."
    head = record.head or ({"version": record.events[-1].version, "hash": record.events[-1].hash}
                           if record.events else {"version": 0, "hash": GENESIS_HASH})
    lines, last_at = [], None
    encode = msgspec.json.Encoder().encode
    for event in record.events:
        type_ = "." + event.type[len(rules_prefix):] if event.type.startswith(rules_prefix) else event.type
        item: list[Any] = [type_, event.data]
        if event.recorded_at != last_at or event.salt is not None or event.for_ is not None:
            item.append(None if event.recorded_at == last_at else _compact_time(event.recorded_at))
            last_at = event.recorded_at
        if event.salt is not None or event.for_ is not None:
            item.append({"salt": event.salt, "for": event.for_})
        lines.append(encode(item))
    top = PortableRecord(format=FORMAT_2, header=record.header, seed_commitment=record.seed_commitment,
                         seed=record.seed, outcome=record.outcome, head=msgspec.convert(head, Head),
                         signature=record.signature, events=[])
    start = encode(top)[:-len(b"[]}")]
    return start + b"[\n" + b",\n".join(lines) + b"\n]}\n"


def expand(wire: PortableRecord) -> Record:
    """The in-memory record of a format-2 record: versions numbered, recording times and
    seals unfolded, every ``prev_hash`` and ``hash`` recomputed (empty when the header's game
    is not a UUID: the verifier names that). Raises msgspec.ValidationError naming the event
    whose array is malformed."""
    try:
        game_id: UUID | None = UUID(wire.header.game)
    except ValueError:
        game_id = None
    rules_prefix = wire.header.rules + "."
    events: list[RecordEvent] = []
    prev, last_at = GENESIS_HASH, None
    for version, item in enumerate(wire.events, start=1):
        where = f"events[{version - 1}] (version {version})"
        type_, data = item[0], item[1]
        if not isinstance(type_, str) or not type_ or not isinstance(data, dict):
            raise msgspec.ValidationError(f"{where}: an event is [type, data, ...] with a type string and a data "
                                          "object")
        if type_.startswith("."):
            type_ = rules_prefix + type_[1:]
        at = item[2] if len(item) > 2 else None
        recorded_at = _time_text(at, where) if at is not None else last_at
        if recorded_at is None:
            raise msgspec.ValidationError(f"{where}: the first event gives its recording time")
        salt = for_ = None
        if len(item) == 4:
            salt, for_ = _seal_of(item[3], where)
        event = RecordEvent(version, type_, data, prev, "", recorded_at, salt, for_)
        if game_id is not None:
            try:
                hashed = chained_data(event)
            except ValueError:
                raise msgspec.ValidationError(f"{where}: the salt is not hex") from None
            event = msgspec.structs.replace(event, hash=event_hash(game_id, version, type_, hashed, prev,
                                                                   recorded_at))
        events.append(event)
        prev, last_at = event.hash, recorded_at
    return Record(header=wire.header, seed_commitment=wire.seed_commitment, events=events, seed=wire.seed,
                  outcome=wire.outcome, head=msgspec.to_builtins(wire.head), signature=wire.signature,
                  format=FORMAT_2)


def _compact_time(text: str) -> int | str:
    """A recording time as integer microseconds since the epoch when that gives its text
    back exactly (every time Herald records), else the text itself."""
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        return text
    if moment.tzinfo is None or moment.utcoffset() != timedelta(0):
        return text
    micros = (moment - EPOCH) // MICROSECOND
    return micros if _utc_text(micros) == text else text


def _utc_text(micros: int) -> str:
    return iso(EPOCH + micros * MICROSECOND)


def _time_text(at: Any, where: str) -> str:
    if isinstance(at, str):
        return at
    if isinstance(at, int) and not isinstance(at, bool):
        try:
            return _utc_text(at)
        except OverflowError:
            raise msgspec.ValidationError(f"{where}: the recording time {at} is out of range") from None
    raise msgspec.ValidationError(f"{where}: the recording time is an integer, a string or null")


def _seal_of(value: Any, where: str) -> tuple[str, list[str]]:
    if (not isinstance(value, dict) or value.keys() != {"salt", "for"} or not isinstance(value["salt"], str)
            or not isinstance(value["for"], list) or not all(isinstance(s, str) for s in value["for"])):
        raise msgspec.ValidationError(f"{where}: a held sealed event's fourth item is {{\"salt\": hex, \"for\": "
                                      "[seats]}")
    return value["salt"], value["for"]
