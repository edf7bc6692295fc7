"""The tournament routes (``/tournaments…``) and the ratings (``GET /players…``). Thin:
parse, call the tournaments service (:mod:`api.services.tournaments`), encode."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated, Literal
from uuid import UUID

import msgspec
from fastapi import APIRouter, Header, Path, Query, Request
from fastapi.responses import Response, StreamingResponse
from starlette.concurrency import run_in_threadpool

from api.http import MAX_INT, bearer, doc, read_body, respond
from api.routes.params import After, Limit
from api.services.tournaments import Tournaments
from api.wire.tournaments import (
    Adjust,
    CreateTournament,
    CrosstableBody,
    Forfeit,
    Leaderboard,
    MyGames,
    PlayerProfile,
    PlayerRegisteredResponse,
    RegisterPlayer,
    RoundInfo,
    RoundPairedResponse,
    StandingsBody,
    TournamentCreatedResponse,
    TournamentEventsPage,
    TournamentsPage,
    TournamentSummary,
    Withdraw,
)
from domain.tournaments.standings import crosstable_csv, standings_csv
from replays.archive import TournamentArchive

MAX_BODY = 64 * 1024
TournamentId = Annotated[UUID, Path(description="The tournament's UUID")]


def service(request: Request) -> Tournaments:
    return request.app.state.herald.tournaments


def _csv(text: str, filename: str) -> Response:
    return Response(text, media_type="text/csv; charset=utf-8",
                    headers={"Content-Disposition": f'attachment; filename="{filename}"'})


Auth = Annotated[str | None, Header(description="Bearer director token (or the admin token)")]
Format = Annotated[str, Query(pattern="^(json|csv)$", description="json (default) or csv")]

router = APIRouter(tags=["tournaments"])


@router.post("/tournaments", **doc(body=CreateTournament, limit=MAX_BODY, setting=None,
                                   response=TournamentCreatedResponse, status=201,
                                   errors=(400, 401, 403, 404, 413, 422), token="accepts"))
async def create_tournament(request: Request, authorization: Annotated[str | None, Header(
        description="Bearer <player token> of the director, a registered player: a rated tournament only")] = None
                            ) -> Response:
    """Open a tournament. The director token is shown once: keep it. A rated tournament
    needs a registered director (``director``, created with their player token: 401/403
    otherwise), so someone answers for the names it registers."""
    body = await read_body(request, CreateTournament, MAX_BODY)
    created = await run_in_threadpool(service(request).create, body, bearer(authorization))
    return respond(created, 201, {"Location": f"/tournaments/{created.id}"})


@router.get("/tournaments", **doc(response=TournamentsPage, errors=(422,)))
def list_tournaments(
    request: Request,
    rules: str | None = None,
    after: Annotated[int | None, Query(ge=0, le=MAX_INT, description="the `next` cursor of the previous page")] = None,
    limit: Annotated[int, Query(ge=1, le=500)] = 50,
) -> Response:
    """Every tournament, newest first."""
    rows, cursor = service(request).list(rules, after, limit)
    return respond(TournamentsPage(rows, cursor))


@router.get("/tournaments/{tournament_id}", **doc(response=TournamentSummary, errors=(404,)))
def get_tournament(request: Request, tournament_id: TournamentId) -> Response:
    """One tournament: players, rounds paired, each table's game and result."""
    return respond(service(request).summary(tournament_id))


@router.post("/tournaments/{tournament_id}/players",
             **doc(body=RegisterPlayer, limit=MAX_BODY, setting=None, response=PlayerRegisteredResponse, status=201,
                   errors=(401, 403, 404, 409, 422), token="needs"))
async def register_player(request: Request, tournament_id: TournamentId, authorization: Auth = None) -> Response:
    """Register a player (director). The player token is shown once: hand it to the player."""
    body = await read_body(request, RegisterPlayer, MAX_BODY)
    made = await run_in_threadpool(service(request).register, tournament_id, body, bearer(authorization))
    return respond(made, 201)


@router.post("/tournaments/{tournament_id}/players/{player}/withdraw",
             **doc(body=Withdraw, limit=MAX_BODY, setting=None,
                   response=TournamentSummary, errors=(401, 403, 404, 409, 422), token="needs"))
async def withdraw_player(request: Request, tournament_id: TournamentId, player: str,
                          authorization: Auth = None) -> Response:
    """Withdraw a player from the rounds not yet paired (director), with a reason."""
    body = await read_body(request, Withdraw, MAX_BODY)
    return respond(await run_in_threadpool(service(request).withdraw, tournament_id, player, body,
                                           bearer(authorization)))


@router.post("/tournaments/{tournament_id}/rounds",
             **doc(response=RoundPairedResponse, status=201, errors=(401, 403, 404, 409), token="needs"))
def pair_round(request: Request, tournament_id: TournamentId, authorization: Auth = None,
               bye_bot: Annotated[Literal["heuristic", "random"] | None, Query(
                   description="Fill each bye with a game against the server's bot playing this analysis "
                               "policy (practice: the bye's points stand, the game is outside the standings)")] = None
               ) -> Response:
    """Pair the next round (director): creates each table's game and returns its seat tokens
    (each player can also fetch their own from ``/tournaments/{id}/my-games``, a filled bye's
    game too, at table 0)."""
    return respond(service(request).pair(tournament_id, bearer(authorization), bye_bot), 201)


@router.get("/tournaments/{tournament_id}/rounds/{number}", **doc(response=RoundInfo, errors=(404, 422)))
def get_round(request: Request, tournament_id: TournamentId,
              number: Annotated[int, Path(ge=1, le=MAX_INT)]) -> Response:
    """One round: tables, games, results (each with its game's GameEnded hash), byes."""
    return respond(service(request).round(tournament_id, number))


@router.get("/tournaments/{tournament_id}/my-games", **doc(response=MyGames, errors=(401, 403, 404), token="needs"))
def my_games(request: Request, tournament_id: TournamentId,
             authorization: Annotated[str | None, Header(description="Bearer player token")] = None) -> Response:
    """A player's games in this tournament, with the seat token of each (Bearer player token)."""
    return respond(service(request).my_games(tournament_id, bearer(authorization)))


@router.post("/tournaments/{tournament_id}/forfeits",
             **doc(body=Forfeit, limit=MAX_BODY, setting=None,
                   response=TournamentSummary, errors=(401, 403, 404, 409, 422), token="needs"))
async def record_forfeit(request: Request, tournament_id: TournamentId, authorization: Auth = None) -> Response:
    """Record a forfeit (director), with a reason: the forfeiting players score 0 at that table."""
    body = await read_body(request, Forfeit, MAX_BODY)
    return respond(await run_in_threadpool(service(request).forfeit, tournament_id, body, bearer(authorization)))


@router.post("/tournaments/{tournament_id}/adjustments",
             **doc(body=Adjust, limit=MAX_BODY, setting=None,
                   response=TournamentSummary, errors=(401, 403, 404, 409, 422), token="needs"))
async def adjust_points(request: Request, tournament_id: TournamentId, authorization: Auth = None) -> Response:
    """Adjust a player's points (director), with a reason that stays in the history."""
    body = await read_body(request, Adjust, MAX_BODY)
    return respond(await run_in_threadpool(service(request).adjust, tournament_id, body, bearer(authorization)))


@router.get("/tournaments/{tournament_id}/standings", **doc(response=StandingsBody, errors=(404, 422),
                                                             also={"text/csv": {"schema": {"type": "string"}}}))
def get_standings(request: Request, tournament_id: TournamentId, format: Format = "json") -> Response:
    """Standings with tie-breaks (Buchholz, Sonneborn-Berger, head-to-head, rule-system margin);
    ``format=csv`` for a spreadsheet."""
    body = service(request).standings(tournament_id)
    if format == "csv":
        return _csv(standings_csv(body.standings), f"standings-{tournament_id}.csv")
    return respond(body)


@router.get("/tournaments/{tournament_id}/crosstable", **doc(response=CrosstableBody, errors=(404, 422),
                                                             also={"text/csv": {"schema": {"type": "string"}}}))
def get_crosstable(request: Request, tournament_id: TournamentId, format: Format = "json") -> Response:
    """The crosstable: each player's every round, opponent ranks, seat, points, game and hash."""
    body = service(request).crosstable(tournament_id)
    if format == "csv":
        return _csv(crosstable_csv(body.rows), f"crosstable-{tournament_id}.csv")
    return respond(body)


@router.get("/tournaments/{tournament_id}/events", **doc(response=TournamentEventsPage, errors=(404, 422)))
def tournament_events(
    request: Request,
    tournament_id: TournamentId,
    after: After = 0,
    limit: Limit = 100,
) -> Response:
    """The tournament's history, oldest first, hash-chained: every pairing, bye, result,
    forfeit and adjustment with its reason."""
    return respond(service(request).events(tournament_id, after, limit))


@router.get("/tournaments/{tournament_id}/games", responses={200: {"content": {"application/x-ndjson": {}}},
                                                               404: {"description": "Problem"}})
def tournament_games(request: Request, tournament_id: TournamentId) -> StreamingResponse:
    """Every game of the tournament as NDJSON: one portable record per line."""
    tournaments = service(request)
    ids = tournaments.game_ids(tournament_id)  # 404 before the stream starts

    def lines() -> Iterator[bytes]:
        for game in ids:
            yield msgspec.json.encode(tournaments.games.record(UUID(game))) + b"\n"

    return StreamingResponse(lines(), media_type="application/x-ndjson")


@router.get("/tournaments/{tournament_id}/archive", **doc(response=TournamentArchive, errors=(404,)))
def tournament_archive(request: Request, tournament_id: TournamentId) -> Response:
    """The whole tournament in one document: its hash-chained history, every game's portable
    record and the standings; ``herald replay verify ARCHIVE`` checks it offline."""
    archive = service(request).archive(tournament_id)
    return Response(msgspec.json.encode(archive), media_type="application/json",
                    headers={"Content-Disposition": f'attachment; filename="tournament-{tournament_id}.json"'})


@router.get("/players", **doc(response=Leaderboard, errors=(422,)))
def leaderboard(request: Request, rules: str, scenario: str,
                limit: Annotated[int, Query(ge=1, le=500)] = 50) -> Response:
    """Ratings in one rule system and scenario, best first (by mu − 3·sigma)."""
    return respond(service(request).leaderboard(rules, scenario, limit))


@router.get("/players/{name}", **doc(response=PlayerProfile))
def get_player(request: Request, name: str) -> Response:
    """A player's ratings (OpenSkill Plackett-Luce), one per rule system and scenario played."""
    return respond(service(request).player(name))

