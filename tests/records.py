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


def played_to_the_end(created, pick, seed: bytes, now, game_id: int = 11) -> list:
    """The stored events of a game created by ``created`` (a GameCreated committing to ``seed``)
    and played to its end, each decision the ``pick`` Random's choice among the listed commands,
    dice drawn from ``seed``: a whole record to verify."""
    from uuid import UUID

    from domain.game import create_game, project_game, take_decision
    from domain.rng import SeededRng

    records = create_game(UUID(int=game_id), created, now)
    game = project_game(None, records)
    while game.outcome is None:
        [seat] = game.rules.to_act(game.state)
        command = msgspec.to_builtins(pick.choice(game.rules.legal_commands(game.state, seat)))
        new = take_decision(game, seat, command, SeededRng(seed, game.id, "", game.next_draw), now, seed)
        records += new
        game = project_game(game, new)
    return records
