"""Seals (DESIGN.md, "Hidden information"): how an event only some seats may read is kept
in a chain everybody verifies.

An event sealed for some seats is hashed into the chain in its *sealed form*
``{"sealed": SEAL, "for": [seats]}``, where ``SEAL = sha256(salt || canonical data)`` and
``salt = HMAC-SHA256(server_seed, f"seal|{game_id}|{version}")``. A reader who may not read it
gets the sealed form; its seats get the data and the salt, and recompute the seal; once the
seed is revealed anyone derives every salt and checks every seal.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterable
from typing import Any
from uuid import UUID

import msgspec

SEALED_KEYS = frozenset({"sealed", "for"})


def salt(server_seed: bytes, game_id: UUID | str, version: int) -> bytes:
    """The salt of the event at ``version``: one salt given away reveals nothing of the seed."""
    return hmac.digest(server_seed, f"seal|{str(game_id).lower()}|{version}".encode(), "sha256")


def canonical(data: Any) -> bytes:
    """The canonical JSON of event data: msgspec, sorted keys, compact, UTF-8."""
    return msgspec.json.encode(data, order="sorted")


def seal(salt_bytes: bytes, data: Any) -> str:
    """SHA-256 over the salt followed by the canonical data, in hex."""
    return hashlib.sha256(salt_bytes + canonical(data)).hexdigest()


def sealed_form(seal_hex: str, readers: Iterable[str]) -> dict[str, Any]:
    """What a reader without access gets in place of ``data`` (and what the chain hashes)."""
    return {"sealed": seal_hex, "for": sorted(readers)}


def is_sealed_form(data: Any) -> bool:
    """Whether ``data`` is a sealed form rather than an event's own data."""
    return isinstance(data, dict) and data.keys() == SEALED_KEYS and isinstance(data.get("sealed"), str)


def readers_of(value: frozenset[str] | Iterable[str] | None) -> tuple[str, ...] | None:
    """The one stored form of an event's readers: None (everyone) or the seats, sorted."""
    return None if value is None else tuple(sorted(value))
