"""The seat routes of issue 29: take an open or offered seat, decline an offered one, give a
held seat's own seed (blind seeds). Thin: parse, call :mod:`api.services.seating`, encode."""

from __future__ import annotations

from typing import Annotated
from uuid import UUID

from fastapi import APIRouter, Header, Path, Request
from fastapi.responses import Response
from starlette.concurrency import run_in_threadpool

from api.http import bearer, doc, read_body, respond
from api.wire.games import MetaResponse
from api.wire.seating import DeclineSeat, GiveSeed, SeatTakenResponse, TakeSeat

GameId = Annotated[UUID, Path(description="The game's UUID")]
ERRORS = (400, 401, 403, 404, 409, 413, 422)


TAKE_EXAMPLE = {"player": "Guy de Lusignan", "seed": "guy-7f3c9a2e41"}
DECLINE_EXAMPLE = {"player": "Guy de Lusignan"}
SEED_EXAMPLE = {"seed": "alice-52d0b8e6c3"}


def seating_router(max_body: int) -> APIRouter:
    router = APIRouter(tags=["seats"])

    @router.post("/games/{game_id}/seats/{seat}/take",
                 **doc(body=TakeSeat, limit=max_body, response=SeatTakenResponse, status=201, errors=ERRORS,
                       token="needs", example=TAKE_EXAMPLE))
    async def take(request: Request, game_id: GameId, seat: str,
                   authorization: Annotated[str | None, Header(description="Bearer <player token>")] = None
                   ) -> Response:
        """Take a seat with your player token: one offered to you (``invite``), or an open one
        with the ``invitation`` secret its link holds. Recorded as ``SeatTaken`` (your seed
        beside it when the game's seeds are blind) and your ``SeatClaimed``. The answer holds
        the seat's token, shown once: nobody else ever holds it."""
        body = await read_body(request, TakeSeat, max_body)
        seats = request.app.state.herald.seats
        return respond(await run_in_threadpool(seats.take, game_id, seat, body, bearer(authorization)), 201)

    @router.post("/games/{game_id}/seats/{seat}/decline",
                 **doc(body=DeclineSeat, limit=max_body, response=MetaResponse, status=201, errors=ERRORS,
                       token="needs", example=DECLINE_EXAMPLE))
    async def decline(request: Request, game_id: GameId, seat: str,
                      authorization: Annotated[str | None, Header(description="Bearer <player token>")] = None
                      ) -> Response:
        """Decline the seat offered to you, with your player token (``SeatDeclined``): the seat
        is open from then on, taken by whoever holds the game's invitation link."""
        body = await read_body(request, DeclineSeat, max_body)
        seats = request.app.state.herald.seats
        return respond(await run_in_threadpool(seats.decline, game_id, seat, body, bearer(authorization)), 201)

    @router.post("/games/{game_id}/seats/{seat}/seed",
                 **doc(body=GiveSeed, limit=max_body, response=MetaResponse, status=201, errors=ERRORS,
                       token="needs", example=SEED_EXAMPLE))
    async def seed(request: Request, game_id: GameId, seat: str,
                   authorization: Annotated[str | None, Header(description="Bearer <seat token>")] = None
                   ) -> Response:
        """A seat held since the game's creation gives its own seed, once the server's seed
        commitment is recorded (games created with ``blind_seeds``): ``SeedGiven``."""
        body = await read_body(request, GiveSeed, max_body)
        seats = request.app.state.herald.seats
        return respond(await run_in_threadpool(seats.give_seed, game_id, seat, body, bearer(authorization)), 201)

    return router
