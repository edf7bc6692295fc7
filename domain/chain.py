"""Hash-chained event streams: what a game's record and a tournament's record share.

Each stream registers its event types under stable names (part of the record format), and
every stored event carries ``prev_hash`` and ``hash``: SHA-256 of the canonical JSON (msgspec,
sorted keys) of ``{<stream>, "version", "type", "data", "prev_hash", "recorded_at"}``, where
``<stream>`` is the stream's kind (``"game"``, ``"tournament"``) keyed to its id.

An event only some seats may read (``readers``) is hashed in its sealed form
``{"sealed": SEAL, "for": [seats]}`` in place of its data (:mod:`domain.seals`), so every
reader verifies the whole chain without reading it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable
from datetime import datetime, timezone
from typing import Any, ClassVar, TypeVar
from uuid import UUID

import msgspec

from domain.seals import readers_of, seal, sealed_form

GENESIS_HASH = "0" * 64

S = TypeVar("S", bound="StoredEvent")


class EventData(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Base of every event's data. ``type_name`` is the event's stable name in records. Every
    event type inherits its configuration: frozen, and no field its type does not declare."""

    type_name: ClassVar[str]
    # fields added to the type after records of it were made, each defaulting to None: while
    # one holds None it is left out of the data, so an event that does not use it is stored
    # (and hashed) byte for byte as it was before the field existed
    later_fields: ClassVar[tuple[str, ...]] = ()


class EventRegistry:
    """The event types of one kind of stream, by their stable record names."""

    def __init__(self, unknown: type[Exception]):
        self.types: dict[str, type[EventData]] = {}
        self._unknown = unknown

    def register(self, name: str) -> Callable[[type[EventData]], type[EventData]]:
        """A class decorator registering an EventData class under ``name``."""

        def register(cls: type[EventData]) -> type[EventData]:
            if name in self.types and self.types[name] is not cls:
                raise ValueError(f"event type {name!r} registered twice")
            cls.type_name = name
            self.types[name] = cls
            return cls

        return register

    def from_data(self, type_name: str, data: dict[str, Any]) -> EventData:
        """Rebuild a typed event from its stored ``type`` and ``data``."""
        try:
            cls = self.types[type_name]
        except KeyError:
            raise self._unknown(type_name) from None
        return msgspec.convert(data, cls)


def to_data(event: EventData) -> dict[str, Any]:
    """The JSON-ready ``data`` of an event, exactly as it is stored and hashed (a later field
    holding None left out: :attr:`EventData.later_fields`)."""
    data = msgspec.to_builtins(event)
    for name in event.later_fields:
        if data.get(name, 0) is None:
            del data[name]
    return data


def iso(moment: datetime) -> str:
    """The one text form of a recording time, as hashed and served: ``isoformat`` to the
    microsecond. A UTC time (every time Herald records) is formatted directly, the same
    text in a fifth of the time (``isoformat`` asks the time zone for its offset)."""
    if moment.tzinfo is timezone.utc:
        return _UTC % (moment.year, moment.month, moment.day, moment.hour, moment.minute, moment.second,
                       moment.microsecond)
    return moment.isoformat(timespec="microseconds")


_UTC = "%04d-%02d-%02dT%02d:%02d:%02d.%06d+00:00"


def link_hash(stream: str, stream_id: UUID | str, version: int, type_: str, data: dict[str, Any], prev_hash: str,
              recorded_at: str) -> str:
    """SHA-256 of the event's canonical JSON (sorted keys), which includes ``prev_hash``."""
    canonical = msgspec.json.encode(
        {stream: str(stream_id), "version": version, "type": type_, "data": data,
         "prev_hash": prev_hash, "recorded_at": recorded_at},
        order="sorted",
    )
    return hashlib.sha256(canonical).hexdigest()


class StoredEvent(msgspec.Struct, frozen=True):
    """One stored event: its place in its stream, its data and its hash link. Subclasses
    name the stream (``stream``) and decode ``data`` with their registry."""

    originator_id: UUID
    originator_version: int
    timestamp: datetime
    type: str
    data: dict[str, Any]
    prev_hash: str
    hash: str
    readers: tuple[str, ...] | None = None  # the seats that may read it; None: everyone
    seal: str | None = None  # sha256(salt || canonical data) of a sealed event

    stream: ClassVar[str]

    @property
    def version(self) -> int:
        return self.originator_version

    @property
    def hashed_data(self) -> dict[str, Any]:
        """What the hash link covers: the data, or the sealed form of a sealed event."""
        return self.data if self.readers is None else sealed_form(self.seal or "", self.readers)


Salt = Callable[[int], bytes]  # version -> the salt of the event sealed there


def chain(cls: type[S], stream_id: UUID, version: int, prev_hash: str, events: Iterable[EventData],
          now: datetime, readers: Iterable[frozenset[str] | tuple[str, ...] | None] | None = None,
          salt: Salt | None = None) -> list[S]:
    """Wrap event data as stored events of ``cls``, numbering and hash-linking them.
    ``readers`` (one per event) seals the events only some seats may read, with ``salt``;
    without a salt (a replay that has no seed) the seal is left empty."""
    out = []
    stream, recorded_at = str(stream_id), iso(now)
    events = list(events)
    who = list(readers) if readers is not None else [None] * len(events)
    for offset, (event, allowed) in enumerate(zip(events, who, strict=True)):
        data = to_data(event)
        v = version + offset
        seats = readers_of(allowed)
        sealed = None if seats is None else (seal(salt(v), data) if salt is not None else "")
        hashed = data if seats is None else sealed_form(sealed, seats)
        digest = link_hash(cls.stream, stream, v, event.type_name, hashed, prev_hash, recorded_at)
        out.append(cls(stream_id, v, now, event.type_name, data, prev_hash, digest, seats, sealed))
        prev_hash = digest
    return out
