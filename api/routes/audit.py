"""Audit and study routes: annotations, disputes, rulings, abandonment, forks, dice
statistics and the server's public keys (issue 5)."""

from __future__ import annotations


from fastapi import APIRouter, Request
from fastapi.responses import Response
from starlette.concurrency import run_in_threadpool

from api.config import Settings
from api.http import bearer, doc, read_body, respond
from api.routes.params import GameId, Token
from api.services.games import Games
from api.wire.games import (
    AbandonRequest,
    AnnotationRequest,
    DisputeRequest,
    Entries,
    ForkList,
    ForkRequest,
    GameCreatedResponse,
    Inspection,
    InspectionRequest,
    Keys,
    MetaResponse,
    PublicKey,
    ReleaseRequest,
    RulingRequest,
)
from projections.dice import DiceReport
from replays.signature import key_id



def audit_router(settings: Settings) -> APIRouter:
    router = APIRouter(tags=["audit and study"])

    def games(request: Request) -> Games:
        return request.app.state.herald.games

    meta_errors = (400, 401, 403, 404, 409, 413, 422)

    def seat_act(path: str, name: str, body_type: type, summary: str, response: type = MetaResponse,
                 action: str | None = None) -> None:
        """The POST ``name`` (its OpenAPI operation): one audit act (``Games.<action>``, by default
        ``Games.<name>``) by a seat, the umpire or the director, answered 201."""
        async def act(request: Request, game_id: GameId,
                      authorization: Token = None) -> Response:
            body = await read_body(request, body_type, settings.max_command_body)
            recorded = await run_in_threadpool(getattr(games(request), action or name), game_id, body, bearer(authorization))
            return respond(recorded, 201)

        router.add_api_route(path, act, methods=["POST"], name=name, description=summary,
                             **doc(body=body_type, limit=settings.max_command_body, response=response, status=201,
                                   token="needs", errors=meta_errors))

    seat_act("/games/{game_id}/annotations", "annotate", AnnotationRequest,
             "A study note (or arrow) at a version, by a seat or the umpire; it changes no state.")

    @router.get("/games/{game_id}/annotations", **doc(response=Entries, errors=(404,)))
    def annotations(request: Request, game_id: GameId) -> Response:
        """Every annotation of a game, in order."""
        return respond(Entries(games(request).events_of_type(game_id, ("Annotated",))))

    seat_act("/games/{game_id}/disputes", "dispute", DisputeRequest,
             "A seat disputes the play at a version (``freeze`` stops play until the ruling).", action="raise_dispute")

    @router.get("/games/{game_id}/disputes", **doc(response=Entries, errors=(404,)))
    def disputes(request: Request, game_id: GameId) -> Response:
        """Every dispute and ruling of a game, any play they voided and the decks shuffled again
        after it, in order."""
        return respond(Entries(games(request).events_of_type(
            game_id, ("DisputeRaised", "DisputeRuled", "DecisionsVoided", "VoidedCardsReshuffled", "FreezeReleaseAgreed",
                      "FreezeLifted", "FreezeLapsed"))))

    seat_act("/games/{game_id}/rulings", "rule", RulingRequest,
             "An umpire's ruling: upheld or rejected; upheld may void play from a version on\n"
             "(the voided events stay in the record) and may reveal the seed.")
    seat_act("/games/{game_id}/inspections", "inspection", InspectionRequest,
             "The umpire's inspection (admin token or the tournament's director): the full state at\n"
             "a version, every hand included. Recorded first as an ``Inspected`` event naming who\n"
             "looked and when, so the players see it.", response=Inspection, action="inspect")

    @router.post("/games/{game_id}/disputes/{dispute}/release",
                 **doc(body=ReleaseRequest, limit=settings.max_command_body,
                       response=MetaResponse, status=201, errors=meta_errors, token="needs"))
    async def release(request: Request, game_id: GameId, dispute: int,
                      authorization: Token = None) -> Response:
        """With no umpire (no admin token configured, not a tournament game): a seat agrees that
        play frozen by ``dispute`` may go on. The freeze lifts when the seat that raised it
        agrees, or every other seat has; it also lapses on its own after
        HERALD_FREEZE_LAPSE_SECONDS (recorded as FreezeLapsed when the next command comes)."""
        body = await read_body(request, ReleaseRequest, settings.max_command_body)
        return respond(await run_in_threadpool(games(request).release, game_id, dispute, body,
                                               bearer(authorization)), 201)

    seat_act("/games/{game_id}/abandon", "abandon", AbandonRequest,
             "A seat agrees to abandon; once every seat has, the game ends with no winner and its seed is revealed.")

    @router.post("/games/{game_id}/fork", **doc(body=ForkRequest, limit=settings.max_command_body,
                                                response=GameCreatedResponse, status=201, token="accepts",
                                                errors=(400, 401, 403, 404, 409, 413, 422)))
    async def fork(request: Request, game_id: GameId,
                   authorization: Token = None) -> Response:
        """A study game from a version of this one: ``same`` dice (once the seed is public),
        ``fresh`` dice (a new seed) or ``forced`` faces. The original is untouched. Before the
        seed is revealed, play holding sealed events is forked by an umpire only (403)."""
        body = await read_body(request, ForkRequest, settings.max_command_body)
        created = await run_in_threadpool(games(request).fork, game_id, body, bearer(authorization))
        return respond(created, 201, {"Location": f"/games/{created.id}"})

    @router.get("/games/{game_id}/forks", **doc(response=ForkList, errors=(404,)))
    def forks(request: Request, game_id: GameId) -> Response:
        """The games forked from this one."""
        return respond(ForkList(games(request).forks(game_id)))

    @router.get("/games/{game_id}/dice", **doc(response=DiceReport, errors=(404,)))
    def game_dice(request: Request, game_id: GameId) -> Response:
        """Every roll of a game by die kind and seat: counts, expected counts, chi-square."""
        service = games(request)
        service.game(game_id)
        return respond(service.dice.for_game(str(game_id)))

    @router.get("/players/{name}/dice", **doc(response=DiceReport))
    def player_dice(request: Request, name: str) -> Response:
        """Every roll a player made, in every game, by die kind."""
        return respond(games(request).dice.for_player(name))

    @router.get("/keys", **doc(response=Keys))
    def keys(request: Request) -> Response:
        """The public key that signs exported records (verify with it: `herald replay verify --key`)."""
        public = request.app.state.herald.public_key
        return respond(Keys([PublicKey("ed25519", public, key_id(public))]))

    return router
