"""The bodies of the registered-player routes: ``POST /players`` and seat claims."""

from __future__ import annotations

from typing import Annotated

import msgspec

from api.wire.common import documented
from domain.creation import MAX_PLAYER_NAME


class RegisterName(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """POST /players: the name you play under (as seats name it)."""

    name: Annotated[str, documented(minLength=1, maxLength=MAX_PLAYER_NAME)]


class NameRegistered(msgspec.Struct, frozen=True):
    name: str
    player_token: str


class SeatClaim(msgspec.Struct, frozen=True):
    """A claimed seat and its new token: the token the game's creator (or a tournament's
    director) held for it acts for it no more. Shown once: keep it."""

    game: str
    seat: str
    player: str
    seat_token: str
