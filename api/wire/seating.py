"""The bodies of the seat routes of issue 29: a seat taken or declined by a registered
player, a seat's own seed (blind seeds), and how a game's seats stand (``GET /games/{id}``)."""

from __future__ import annotations

from typing import Annotated

import msgspec

from api.wire.common import Head, documented
from domain.creation import MAX_PLAYER_NAME
from domain.events import BotSeat
from domain.seating import SEAT_SEED

SeedText = Annotated[str, documented(pattern=SEAT_SEED.pattern)]


class TakeSeat(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """POST /games/{id}/seats/{seat}/take, with ``Authorization: Bearer <player token>``:
    ``player`` takes an open seat (sending the ``invitation`` secret its link holds) or the seat
    offered to them; ``seed``, their own seed, when the game's seeds are blind."""

    player: Annotated[str, documented(minLength=1, maxLength=MAX_PLAYER_NAME)]
    seed: SeedText | None = None
    invitation: str | None = None


class DeclineSeat(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """POST /games/{id}/seats/{seat}/decline, with the invited player's token: the seat is
    open from then on (taken by whoever holds the invitation link)."""

    player: Annotated[str, documented(minLength=1, maxLength=MAX_PLAYER_NAME)]


class GiveSeed(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """POST /games/{id}/seats/{seat}/seed, with the seat's token: the seed of a seat held
    since the game's creation (blind seeds), given once the seed commitment is recorded."""

    seed: SeedText


class SeatTakenResponse(msgspec.Struct, frozen=True):
    """The seat taken and its token, shown once (nobody else ever holds it), and the receipt."""

    game: str
    seat: str
    player: str
    seat_token: str
    version: int
    head: Head


class SeatingInfo(msgspec.Struct, frozen=True):
    """How a game's seats stand: ``awaited`` (to be taken, or to give their seed) holds every
    decision back until it is empty."""

    open: list[str]
    invited: list[str]
    bots: dict[str, BotSeat]
    blind_seeds: bool
    seeds_given: list[str]
    taken: dict[str, str]
    awaited: list[str]
