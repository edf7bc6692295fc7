"""Registered players (issue 11, point 7): ``POST /players`` registers a name once and returns
its secret token (shown once, stored hashed); a casual game is rated only when every seat's
player vouched for it with that token, at creation (``seats.{seat}.player_token``) or by
claiming the seat before play starts (``POST /games/{id}/seats/{seat}/claim``).

The registry and the claims are events of each name's private stream
(:mod:`domain.players`); the ratings read model (:mod:`projections.ratings`) reads them
from the notification log."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated
from uuid import UUID

import msgspec
from eventsourcing.persistence import IntegrityError
from fastapi import APIRouter, Header, Path, Request
from fastapi.responses import Response
from starlette.concurrency import run_in_threadpool

from api.errors import Conflict, Forbidden, Invalid, NotFound, Unauthorized
from api.http import bearer, doc, read_body, respond
from api.store import HeraldStore
from api.tokens import hash_token, matches, new_token
from domain.players import PlayerRegistered, SeatClaimed, player_stream_id

MAX_NAME = 100


class RegisterName(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """POST /players: the name you play under (as seats name it)."""

    name: str


class NameRegistered(msgspec.Struct, frozen=True):
    name: str
    player_token: str


class SeatClaim(msgspec.Struct, frozen=True):
    game: str
    seat: str
    player: str


class PlayerRegistry:
    """Registered names and the seats their players vouched for, over the event store."""

    def __init__(self, store: HeraldStore):
        self.store = store

    def register(self, name: str, now: datetime) -> NameRegistered:
        name = name.strip()
        if not name or len(name) > MAX_NAME:
            raise Invalid(f"a player name of 1 to {MAX_NAME} characters", code="bad_player")
        token = new_token()
        try:
            self.store.append(PlayerRegistered(player_stream_id(name), 1, now, name, hash_token(token)))
        except IntegrityError:
            raise Conflict(f"the name {name!r} is registered already", code="name_taken") from None
        return NameRegistered(name, token)

    def claim(self, name: str, token: str | None, game_id: UUID, seat: str, now: datetime) -> SeatClaimed:
        """The event vouching that ``name`` sits in ``seat``, if ``token`` is that name's."""
        if not token:
            raise Unauthorized(f"send {name!r}'s player token to vouch for the seat")
        stream = list(self.store.events.get(player_stream_id(name)))
        if not stream or not isinstance(stream[0], PlayerRegistered):
            raise NotFound(f"no registered player {name!r} (POST /players registers a name)",
                           code="unknown_player")
        if not matches(stream[0].token_hash, token):
            raise Forbidden(f"that is not {name!r}'s player token", code="wrong_token")
        return SeatClaimed(player_stream_id(name), stream[-1].originator_version + 1, now, name, str(game_id), seat)


def players_router(max_body: int) -> APIRouter:
    router = APIRouter(tags=["players"])

    @router.post("/players", **doc(body=RegisterName, response=NameRegistered, status=201, errors=(400, 409, 413, 422)))
    async def register(request: Request) -> Response:
        """Register the name you play under. The player token is shown once: keep it. Casual
        games count for ratings only when every seat's player vouched with their token."""
        body = await read_body(request, RegisterName, max_body)
        made = await run_in_threadpool(request.app.state.herald.register_player, body.name)
        return respond(made, 201)

    @router.post("/games/{game_id}/seats/{seat}/claim",
                 **doc(response=SeatClaim, status=201, errors=(401, 403, 404, 409)))
    def claim(request: Request, game_id: Annotated[UUID, Path(description="The game's UUID")], seat: str,
              authorization: Annotated[str | None, Header(description="Bearer <player token>")] = None) -> Response:
        """Vouch, with your player token, that you sit in ``seat`` (before play starts): a
        casual game is rated once every seat's player has."""
        return respond(request.app.state.herald.claim_seat(game_id, seat, bearer(authorization)), 201)

    return router
