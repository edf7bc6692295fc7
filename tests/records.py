"""Records as tests handle them: any record (either format, as bytes, text or parsed JSON)
in format 1's shape — every event an object with its version and hash links — to read or
forge, and back to the format every export writes."""

from __future__ import annotations

from typing import Any

import msgspec

from replays.record import FORMAT_1, Record
from replays.record_format import decode_record, encode_record


def expanded(record: Any) -> dict:
    """The record as format 1 shows it: ``events`` of ``{"version", "type", "data", "prev_hash",
    "hash", "recorded_at", ...}``."""
    raw = record if isinstance(record, bytes) else record.encode() if isinstance(record, str) \
        else msgspec.json.encode(record)
    return {**msgspec.to_builtins(decode_record(raw)), "format": FORMAT_1}


def compact(record: dict) -> dict:
    """A format-1-shaped record (as :func:`expanded` gives, perhaps edited) written as format 2,
    its head as the record says (a forger's edit of an event shows as a chain that does not
    reach it)."""
    return msgspec.json.decode(encode_record(msgspec.convert(record, Record)))
