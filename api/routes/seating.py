"""The seat routes of issue 29: take an open or offered seat, decline an offered one, give a
held seat's own seed (blind seeds). Thin: parse, call :mod:`api.services.seating`, encode."""

from typing import Annotated

from fastapi import APIRouter, Header, Request
from fastapi.responses import Response
from starlette.concurrency import run_in_threadpool

from api.http import bearer, doc, read_body, respond
from api.routes.params import GameId
from api.wire.games import MetaResponse
from api.wire.seating import DeclineSeat, GiveSeed, SeatTakenResponse, TakeSeat

ERRORS = (400, 401, 403, 404, 409, 413, 422)


TAKE_EXAMPLE = {"player": "Guy de Lusignan", "seed": "guy-7f3c9a2e41"}
DECLINE_EXAMPLE = {"player": "Guy de Lusignan"}
SEED_EXAMPLE = {"seed": "alice-52d0b8e6c3"}


# (no ``from __future__ import annotations``: each route's header is described as it is made)
def seating_router(max_body: int) -> APIRouter:
    router = APIRouter(tags=["seats"])

    def seat_route(act: str, name: str, body_type: type, response: type, example: dict[str, str], token: str,
                   summary: str) -> None:
        """The POST ``/games/{game_id}/seats/{seat}/<act>``, operation ``name``: ``Seating.<name>``
        with the body and the bearer token (``token`` says whose), answered 201."""
        async def endpoint(request: Request, game_id: GameId, seat: str,
                           authorization: Annotated[str | None, Header(description=f"Bearer <{token}>")] = None
                           ) -> Response:
            body = await read_body(request, body_type, max_body)
            seats = request.app.state.herald.seats
            return respond(await run_in_threadpool(getattr(seats, name), game_id, seat, body, bearer(authorization)),
                           201)

        router.add_api_route(f"/games/{{game_id}}/seats/{{seat}}/{act}", endpoint, methods=["POST"],
                             name=act, description=summary,
                             **doc(body=body_type, limit=max_body, response=response, status=201, errors=ERRORS,
                                   token="needs", example=example))

    seat_route("take", "take", TakeSeat, SeatTakenResponse, TAKE_EXAMPLE, "player token",
               "Take a seat with your player token: one offered to you (``invite``), or an open one\n"
               "with the ``invitation`` secret its link holds. Recorded as ``SeatTaken`` (your seed\n"
               "beside it when the game's seeds are blind) and your ``SeatClaimed``. The answer holds\n"
               "the seat's token, shown once: nobody else ever holds it.")
    seat_route("decline", "decline", DeclineSeat, MetaResponse, DECLINE_EXAMPLE, "player token",
               "Decline the seat offered to you, with your player token (``SeatDeclined``): the seat\n"
               "is open from then on, taken by whoever holds the game's invitation link.")
    seat_route("seed", "give_seed", GiveSeed, MetaResponse, SEED_EXAMPLE, "seat token",
               "A seat held since the game's creation gives its own seed, once the server's seed\n"
               "commitment is recorded (games created with ``blind_seeds``): ``SeedGiven``.")
    return router
