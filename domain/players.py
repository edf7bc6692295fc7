"""Players who proved who they are (issue 11, point 7): a name registered once with a secret,
and each seat of a casual game that player vouched for with it.

One private stream per registered name: ``PlayerRegistered`` (the hash of the player's
token, never the token) then one ``SeatClaimed`` per game seat the player vouched for. They
are never served or exported; the ratings read model counts a casual game only when every
seat's player claimed it, so ratings follow from the recorded events alone and a rebuild
from zero gives the same."""

from __future__ import annotations

from datetime import datetime
from uuid import NAMESPACE_URL, UUID, uuid5

import msgspec


class PlayerRegistered(msgspec.Struct, frozen=True):
    originator_id: UUID
    originator_version: int
    timestamp: datetime
    name: str
    token_hash: str


class SeatClaimed(msgspec.Struct, frozen=True):
    """``player`` vouched, with their token, that they sit in ``seat`` of ``game``."""

    originator_id: UUID
    originator_version: int
    timestamp: datetime
    player: str
    game: str
    seat: str


def player_stream_id(name: str) -> UUID:
    """The id of a registered name's private stream."""
    return uuid5(NAMESPACE_URL, f"herald:player:{name}")
