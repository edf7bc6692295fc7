"""The game routes: create and list games, read one (summary, legal commands, events, live
stream, state, timeline, record), check a command, verify a record. Thin: parse, call the
games service (:mod:`api.services.games`), encode. Recording a command is
:mod:`api.command_route`."""

from __future__ import annotations

from inspect import cleandoc
from typing import Annotated, Any
from uuid import UUID

import msgspec
from fastapi import APIRouter, Header, Query, Request
from fastapi.responses import Response, StreamingResponse
from starlette.concurrency import run_in_threadpool

from api import work
from api.config import Settings
from api.errors import Conflict, NotFound
from api.http import MAX_INT, bearer, doc, error_body, read_body, read_json, read_record, respond
from api.past_states import RenderedStates
from api.past_states import answer as past_answer
from api.routes.params import GameId, After, Limit, Token
from api.routes.streams import EventStream, live_stream, resume_after
from api.services.games import Games
from api.services.players import check_seat_names
from api.wire.games import (
    CheckResult,
    CommandRequest,
    CommandResponse,
    CreateGame,
    EventsPage,
    GameCreatedResponse,
    GamesPage,
    GameSummary,
    LegalCommands,
    RecordImported,
    StateAt,
    TimelinePage,
)
from api.wire.common import Head
from domain.rules.base import RuleViolation
from replays.record_format import PortableRecord, decode_record, encode_record
from replays.verify import Verdict

COMMAND_EXAMPLE = {"seat": "alice", "command": {"type": "roll", "label": "opening roll", "dice": "2d6"}}
GAME_EXAMPLE = {"rules": "open-table", "seats": {"alice": {"player": "Alice"}, "bob": {"player": "Bob"}}}


class CommandRouteResponse(Response):
    """Hands a request that reached the framework to the command route itself (its body unread)."""

    def __init__(self, route: Any) -> None:
        self.route = route
        self.background = None

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        await self.route(scope, receive, send)


def games_router(settings: Settings) -> APIRouter:
    router = APIRouter()

    def service(request: Request) -> Games:
        return request.app.state.herald.games

    @router.post("/games", **doc(body=CreateGame, limit=settings.max_command_body,
                                 response=GameCreatedResponse, status=201,
                              errors=(400, 401, 403, 404, 413, 422),  # 404: a player_token for no registered name
                              example=GAME_EXAMPLE, token="accepts"))
    async def create_game(request: Request, authorization: Annotated[str | None, Header(
            description="Bearer <director token> (or the admin token): a game naming a tournament only")] = None
                          ) -> Response:
        """Create a game. The seat tokens are shown once: keep them. A game naming a tournament
        (``tournament``) is created by that tournament's director (or the admin) alone: anyone
        else's is refused (401/403; 404 for no such tournament), so a game listed under a
        tournament, and its signed record's ``header.tournament``, come from its director."""
        body = await read_body(request, CreateGame, settings.max_command_body)
        check_seat_names(body.seats)
        herald = request.app.state.herald
        if body.tournament is not None:
            await run_in_threadpool(herald.tournaments.authorize_director, tournament_uuid(body.tournament.id),
                                    bearer(authorization))
        created = await run_in_threadpool(service(request).create, body)
        return respond(created, 201, {"Location": f"/games/{created.id}"})

    @router.get("/games", **doc(response=GamesPage, errors=(422,)))
    def list_games(
        request: Request,
        player: str | None = None,
        rules: str | None = None,
        status: Annotated[str | None, Query(pattern="^(active|ended)$")] = None,
        tournament: str | None = None,
        after: Annotated[int | None, Query(ge=0, le=MAX_INT,
                                           description="the `next` cursor of the previous page")] = None,
        limit: Annotated[int, Query(ge=1, le=500)] = 50,
    ) -> Response:
        """The game index, newest first, filtered and paginated by cursor."""
        rows, cursor = service(request).index.list(
            player=player, rules=rules, status=status, tournament=tournament, after=after, limit=limit
        )
        return respond(GamesPage(rows, cursor))

    @router.get("/games/{game_id}", **doc(response=GameSummary, errors=(404,), token="accepts"))
    def get_game(request: Request, game_id: GameId, authorization: Token = None) -> Response:
        """One game: status, version, who is to act, the current view (a seat's token shows its own view)."""
        return respond(service(request).summary(game_id, bearer(authorization)))

    @router.get("/games/{game_id}/legal-commands", **doc(response=LegalCommands, errors=(401, 403, 404, 422), token="accepts"))
    def legal_commands(request: Request, game_id: GameId, seat: str,
                       authorization: Token = None) -> Response:
        """Every command ``seat`` may send now: ``commands``, each ready to post as it is, and
        ``choices``, larger spaces described as choices a client composes (the command
        ``type``, a ``description``, the values each field may take; see the rule system's
        notes). ``complete``: every command the rules would accept is listed or described.
        In a game with secrets (before its seed is revealed) only with that seat's token."""
        return respond(service(request).legal_commands(game_id, seat, bearer(authorization)))

    @router.post("/games/{game_id}/commands", summary="Record a command",
                 **doc(body=CommandRequest, limit=settings.max_command_body, response=CommandResponse, status=201,
                       errors=(400, 401, 403, 404, 409, 413, 415, 422, 503), example=COMMAND_EXAMPLE,
                       token="needs"))
    async def post_command(
        request: Request,
        game_id: GameId,
        authorization: Annotated[str | None, Header(description="Bearer <seat token>")] = None,
        idempotency_key: Annotated[str | None, Header(
            alias="Idempotency-Key", min_length=1, max_length=200,
            description="A retry with the same key returns the first response and draws no new dice")] = None,
        if_match: Annotated[str | None, Header(
            alias="If-Match", pattern='^(W/)?"?[0-9]{1,18}"?$',
            description="The expected version, when the body does not give expected_version")] = None,
    ) -> Response:
        """Record a seat's command (Bearer seat token). `expected_version` (or If-Match) gives 409
        when stale; an `Idempotency-Key` retry returns the first response (with
        `Idempotent-Replayed: true`) and draws no new dice."""
        # The app answers this path ahead of the framework (api/command_route.py): this
        # declaration is its OpenAPI entry, and hands any request that reaches it to that route.
        return CommandRouteResponse(request.app.command_route)

    @router.post("/games/{game_id}/commands/check", **doc(body=CommandRequest, limit=settings.max_command_body,
                                                          response=CheckResult, token="needs",
                                                       errors=(400, 401, 403, 404, 413, 422)))
    async def check_command(request: Request, game_id: GameId,
                            authorization: Token = None) -> Response:
        """Would this command be recorded now? The same body as ``POST /games/{id}/commands``
        (with the seat's token): 200 with ``accepted`` and, if not, the ``problem`` the command
        would get (its code and the rule it breaks). Nothing is recorded, no die is drawn."""
        body = await read_body(request, CommandRequest, settings.max_command_body)
        try:
            await run_in_threadpool(service(request).check, game_id, body, bearer(authorization))
        except (RuleViolation, Conflict) as error:
            return respond(CheckResult(False, msgspec.json.decode(error_body(error))))
        return respond(CheckResult(True))

    @router.get("/games/{game_id}/events", **doc(response=EventsPage, errors=(404, 422), token="accepts"))
    def list_events(request: Request, game_id: GameId, after: After = 0, limit: Limit = 100,
                    authorization: Token = None) -> Response:
        """The history, oldest first: each event with its hash link. An event sealed for
        seats the reader (by its token) is not comes as ``{"sealed", "for"}``."""
        games = service(request)
        return respond(games.events(game_id, after, limit, games.reader(game_id, bearer(authorization))))

    @router.get("/games/{game_id}/events/stream", response_class=EventStream, openapi_extra=EventStream.documented,
                responses={200: {"description": "The events, one Server-Sent Event each", "content": {
                    "text/event-stream": {"schema": {"type": "string", "description": cleandoc(EventStream.__doc__)}}}},
                    **doc(errors=(404, 429))["responses"]})
    async def stream_events(
        request: Request,
        game_id: GameId,
        after: After = 0,
        last_event_id: Annotated[str | None, Header(
            pattern="^[0-9]{1,19}$",
            description="the id of the last event received: the stream resumes after it")] = None,
        authorization: Token = None,
    ) -> StreamingResponse:
        """Server-Sent Events: every event after ``after`` (or Last-Event-ID), then live ones,
        each as this connection's reader (by its token) may see it. The stream closes once
        the game has ended and every event was sent. Open streams are capped per client and
        in total (429 with Retry-After beyond)."""
        games = service(request)
        await run_in_threadpool(games.game, game_id)  # 404 before the stream starts
        reader = await run_in_threadpool(games.reader, game_id, bearer(authorization))
        sent = resume_after(after, last_event_id)

        def read() -> tuple[list[bytes], bool, bool]:
            """The next page's frames, redacted for this connection's reader; whether more are
            waiting; whether the game has ended with nothing left to send."""
            nonlocal sent
            game = games.game(game_id)
            page = games.events(game_id, sent, 500, reader)
            frames = [f"id: {e.version}\nevent: {e.type}\ndata: ".encode() + msgspec.json.encode(e) + b"\n\n"
                      for e in page.events]
            sent = page.events[-1].version if page.events else sent
            return frames, page.next is not None, game.ended and sent >= game.version

        return live_stream(request, request.app.state.live.listen(game_id), read)

    @router.get("/games/{game_id}/state", **doc(response=StateAt, errors=(404, 422, 429), token="accepts"))
    def state_at(
        request: Request,
        game_id: GameId,
        at: Annotated[int | None, Query(ge=1, le=MAX_INT, description="a version; the latest when omitted")] = None,
        authorization: Token = None,
    ) -> Response:
        """The board as it stood at version ``at``."""
        games = service(request)
        if at is None:
            return respond(games.state_at(game_id, at, bearer(authorization)))
        # a past position never changes: kept under the seat whose view it is (None: a
        # spectator's), and answered ahead of the framework next time (api/past_states.py)
        states: RenderedStates = request.app.past_states
        with request.app.budgets.ticket(request.scope) as ticket:
            body = past_answer(states, games, game_id, at, bearer(authorization), ticket)
        return Response(body, media_type="application/json")

    @router.get("/games/{game_id}/timeline", **doc(response=TimelinePage, errors=(404, 422), token="accepts"))
    def timeline(request: Request, game_id: GameId, after: After = 0, limit: Limit = 100,
                 authorization: Token = None) -> Response:
        """The game told as one readable line per event; a sealed event is told as sealed."""
        games = service(request)
        return respond(games.timeline(game_id, after, limit, games.reader(game_id, bearer(authorization))))

    @router.get("/games/{game_id}/record", **doc(response=PortableRecord, errors=(404,), token="accepts"))
    def get_record(request: Request, game_id: GameId,
                   authorization: Token = None) -> Response:
        """The portable record (``herald-record/2``, docs/record-format.md): header, seed
        commitment (and seed once revealed), the signed chain head, every event; sealed events as
        the reader (by its token) may see them, whole once the seed is revealed."""
        games = service(request)
        record = games.record(game_id, games.reader(game_id, bearer(authorization)))
        return Response(encode_record(record), media_type="application/json")

    @router.post("/records/verify", **doc(body=PortableRecord, response=Verdict, errors=(400, 413, 415, 422, 429),
                                             limit=settings.max_record_body, setting="HERALD_MAX_RECORD_BODY"))
    async def verify_record(request: Request) -> Response:
        """Verify a portable record: hash chain, seed commitment, every draw, full replay.
        The body is a record (``herald-record/2``, or ``herald-record/1`` as exported before),
        or ``{"record", "receipts"?, "public_key"?}`` (VerifyRequest) to also prove the record
        holds each receipted head and was signed by that key. An expensive read: each client
        has a share (429 with Retry-After beyond it, before the body is read; README,
        "Configuration")."""
        with request.app.budgets.ticket(request.scope) as ticket:
            ticket.admit()
            raw = await read_json(request, settings.max_record_body)
            return Response(await ticket.arun(work.verify_body, raw), media_type="application/json")

    @router.post("/records/import", **doc(body=PortableRecord, response=RecordImported, status=201,
                                          errors=(400, 401, 403, 409, 413, 415, 422), token="needs",
                                          limit=settings.max_record_body, setting="HERALD_MAX_RECORD_BODY"))
    async def import_record(request: Request, authorization: Token = None) -> Response:
        """Store a finished game's record (either format, its seed revealed) as a game of this
        server, after verifying it whole (admin token). It keeps its id, events and hashes; its
        record is then exported again as ``herald-record/2``."""
        token = bearer(authorization)
        games = service(request)
        games.check_importer(token)  # refused before a byte of the body is read
        record = await read_record(request, settings.max_record_body, decode_record)
        game_id = await run_in_threadpool(games.import_record, record, token)
        head = games.game(game_id)
        return respond(RecordImported(str(game_id), head.version, Head(head.version, head.head)), 201,
                       {"Location": f"/games/{game_id}"})


    return router


def tournament_uuid(text: str) -> UUID:
    """A tournament id named in a request body: a UUID, else no such tournament (404)."""
    try:
        return UUID(text)
    except ValueError:
        raise NotFound(f"no tournament {text[:80]!r}") from None
