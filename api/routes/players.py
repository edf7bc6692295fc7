"""The registered-player routes (issue 11, point 7): ``POST /players`` registers the name
you play under; ``POST /games/{id}/seats/{seat}/claim`` vouches for a seat before play
starts. The registry is :mod:`api.services.players`."""

from __future__ import annotations

from typing import Annotated
from uuid import UUID

from fastapi import APIRouter, Header, Path, Request
from fastapi.responses import Response
from starlette.concurrency import run_in_threadpool

from api.http import bearer, doc, read_body, respond
from api.wire.players import NameRegistered, RegisterName, SeatClaim


def players_router(max_body: int) -> APIRouter:
    router = APIRouter(tags=["players"])

    @router.post("/players", **doc(body=RegisterName, limit=max_body,
                                   response=NameRegistered, status=201, errors=(400, 409, 413, 422)))
    async def register(request: Request) -> Response:
        """Register the name you play under. The player token is shown once: keep it. Casual
        games count for ratings only when every seat's player vouched with their token.

        A name is taken (409 ``name_taken``) when one registered reads the same: compared in
        NFKC, case-folded, inner whitespace as one space (``Zoë``, ``ZOË``, ``Ｚｏë``). A name
        holding an invisible or direction-changing character (zero-width space or joiner, bidi
        controls, tabs…) is refused (422 ``bad_player``). The name is recorded trimmed, in NFC."""
        body = await read_body(request, RegisterName, max_body)
        made = await run_in_threadpool(request.app.state.herald.players.register, body.name)
        return respond(made, 201)

    @router.post("/games/{game_id}/seats/{seat}/claim",
                 **doc(response=SeatClaim, status=201, errors=(401, 403, 404, 409), token="needs"))
    def claim(request: Request, game_id: Annotated[UUID, Path(description="The game's UUID")], seat: str,
              authorization: Annotated[str | None, Header(description="Bearer <player token>")] = None) -> Response:
        """Vouch, with your player token, that you sit in ``seat`` (before play starts): a game
        is rated once every seat's player has. The answer holds the seat's new token, which
        only you now hold: the one the game's creator (or the tournament's director) was given
        for the seat no longer acts for it."""
        return respond(request.app.state.herald.games.claim_seat(game_id, seat, bearer(authorization)), 201)

    return router
