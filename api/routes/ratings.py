"""Ratings people read (issue 29): a player's history in a rule system, what a game did to
its players' ratings, and a tournament's players' ratings, each on the display scale of
:func:`projections.ratings.display` (1500 for a newcomer) beside OpenSkill's own figures."""

from __future__ import annotations

from typing import Annotated
from uuid import UUID

import msgspec
from fastapi import APIRouter, Path, Request
from fastapi.responses import Response
from starlette.concurrency import run_in_threadpool

from api.http import doc, respond
from projections.ratings import DISPLAY_BASE, DISPLAY_SCALE, Rating, RatingChange

SCALE = (f"display = round({DISPLAY_BASE} + {DISPLAY_SCALE} × ordinal), ordinal = mu − 3·sigma (OpenSkill "
         "Plackett-Luce): a newcomer reads 1500")


class RatingHistory(msgspec.Struct, frozen=True):
    """GET /players/{name}/ratings/{rules}: the ratings now (one per scenario) and every rated
    game, oldest first, with the change it made; ``scale`` says how ``display`` is made."""

    player: str
    rules: str
    ratings: list[Rating]
    history: list[RatingChange]
    scale: str = SCALE


class GameRatings(msgspec.Struct, frozen=True):
    """GET /games/{id}/ratings: what the game did to each player's rating (empty: not rated)."""

    game: str
    changes: list[RatingChange]
    scale: str = SCALE


class TournamentRatings(msgspec.Struct, frozen=True):
    """GET /tournaments/{id}/ratings: each registered player's ratings in the tournament's rule
    system and scenarios (a player with none has not played a rated game there yet)."""

    tournament: str
    rules: str
    ratings: dict[str, list[Rating]]
    scale: str = SCALE


def ratings_router() -> APIRouter:
    router = APIRouter(tags=["tournaments"])

    def tournaments(request: Request):
        return request.app.state.herald.tournaments

    @router.get("/players/{name}/ratings/{rules}", **doc(response=RatingHistory, errors=(404,)))
    def history(request: Request, name: Annotated[str, Path(description="The player's name")],
                rules: Annotated[str, Path(description="A rule system's id")]) -> Response:
        """A player's ratings in one rule system and the change each rated game made."""
        service = tournaments(request)
        service.settled()
        now = [r for r in service.ratings.of_player(name) if r.rules == rules]
        return respond(RatingHistory(name, rules, now, service.ratings.history(name, rules)))

    @router.get("/games/{game_id}/ratings", **doc(response=GameRatings, errors=(404,)))
    async def game_ratings(request: Request, game_id: Annotated[UUID, Path(description="The game's UUID")]) -> Response:
        """What a game did to its players' ratings, on the display scale (empty until it is rated)."""
        herald = request.app.state.herald
        await run_in_threadpool(herald.games.game, game_id)  # 404 for no game
        service = herald.tournaments

        def changes() -> list[RatingChange]:
            service.settled()
            return service.ratings.of_game(str(game_id))

        return respond(GameRatings(str(game_id), await run_in_threadpool(changes)))

    @router.get("/tournaments/{tournament_id}/ratings", **doc(response=TournamentRatings, errors=(404,)))
    def tournament_ratings(request: Request,
                           tournament_id: Annotated[UUID, Path(description="The tournament's UUID")]) -> Response:
        """The ratings of a tournament's players in its rule system and scenarios."""
        service = tournaments(request)
        t = service.tournament(tournament_id)
        service.settled()
        scenarios = set(t.created.scenarios)
        found = {name: [r for r in service.ratings.of_player(name)
                        if r.rules == t.created.rules and (not scenarios or r.scenario in scenarios)]
                 for name in sorted(t.players)}
        return respond(TournamentRatings(str(tournament_id), t.created.rules, found))

    return router

