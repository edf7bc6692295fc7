"""The REST API (DESIGN.md, "API conventions"). Thin: parse, call the service, encode."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Annotated, Any
from uuid import UUID

import msgspec
from fastapi import FastAPI, Header, Path, Query, Request
from fastapi.middleware.cors import CORSMiddleware
from fastapi.responses import Response, StreamingResponse
from starlette.concurrency import run_in_threadpool

from api.audit_routes import audit_router
from api.command_route import OPERATION as COMMAND_OPERATION
from api.command_route import CommandRoute, command_target
from api.config import Settings
from api.docs_routes import install_docs
from api.errors import Conflict, Illegal, Invalid, NotFound
from api import contract, problems
from api.http import (
    MAX_INT,
    RECORD_DEPTH,
    Link,
    bearer,
    database_away,
    doc,
    error_body,
    install_error_handlers,
    install_openapi,
    read_body,
    respond,
    send_error,
    unstorable_target,
)
from api.health import Health, HealthCheck
from api.live import Live, Slots
from api.players import players_router
from api.ratelimit import WriteLimits
from api.viewer_routes import viewer_router
from api.tournaments import attach as attach_tournaments
from api.tournaments import router as tournaments_router
from api.service import (
    CheckResult,
    CommandRequest,
    CreateGame,
    EventsPage,
    GameCreatedResponse,
    GameSummary,
    Herald,
    LegalCommands,
    StateAt,
    TimelinePage,
)
from domain.rules.registry import RULE_SYSTEMS
from projections.index import GameRow
from replays.record import Record
from replays.verify import Verdict, VerifyRequest

GameId = Annotated[UUID, Path(description="The game's UUID")]
KEEP_ALIVE_SECONDS = 15  # an idle live stream sends a comment this often


class LiveResponse(StreamingResponse):
    """A live stream that gives its slot back however it ends (even before its first byte)."""

    def __init__(self, content: Any, release: Callable[[], None], **kwargs: Any) -> None:
        super().__init__(content, **kwargs)
        self._release = release

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            self._release()


class ScenarioInfo(msgspec.Struct, frozen=True):
    id: str
    title: str
    seats: list[str]
    players: dict[str, int]


class RuleSystemInfo(msgspec.Struct, frozen=True):
    id: str
    version: str
    title: str
    scenarios: list[ScenarioInfo]
    die_kinds: dict[str, list[int | str]]
    command_schema: dict[str, Any]
    owner_data: dict[str, Any] | None = None  # {"option", "schema"}: the owner's own data file, if taken


class RuleSystemList(msgspec.Struct, frozen=True):
    rules: list[RuleSystemInfo]


class GamesPage(msgspec.Struct, frozen=True):
    games: list[GameRow]
    next: int | None


def _rules_info(system_id: str) -> RuleSystemInfo:
    rules = RULE_SYSTEMS[system_id]
    return RuleSystemInfo(
        id=rules.id,
        version=rules.version,
        title=rules.title,
        scenarios=[
            ScenarioInfo(s.id, s.title, list(s.seats), {"min": s.min_players, "max": s.max_players})
            for s in rules.scenarios.values()
        ],
        die_kinds={k: list(d.faces) for k, d in sorted(rules.die_kinds.items())},
        command_schema=msgspec.json.schema(rules.command_type),
        owner_data=({"option": rules.owner_data_option, "schema": rules.owner_data_schema()}
                    if rules.owner_data_option else None),
    )


class HeraldApp(FastAPI):
    """FastAPI, with the write limits (api/ratelimit.py) and the hot command route
    (api/command_route.py) answered ahead of it."""

    def __init__(self, *, command_body_limit: int, limits: WriteLimits, cors_origins: tuple[str, ...] = (),
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.commands: Any = CommandRoute(lambda: self.state.herald, limit=command_body_limit)
        self.limits = limits if limits.on else None
        if cors_origins:  # off unless configured (HERALD_CORS_ORIGINS)
            self.commands = CORSMiddleware(self.commands, **cors_options(cors_origins))
            self.add_middleware(CORSMiddleware, **cors_options(cors_origins))

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            refused = unstorable_target(scope)
            if refused is not None:
                return await send_error(send, refused)
            if self.limits is not None:
                wait = self.limits.wait(scope)
                if wait:
                    return await self.limits.refuse(send, wait)
            if command_target(scope) is not None:
                return await self.commands(scope, receive, send)
        await super().__call__(scope, receive, send)


def cors_options(origins: tuple[str, ...]) -> dict[str, Any]:
    """Cross-origin reads and writes for the configured origins only; tokens travel in the
    Authorization header, never in cookies, so no credentials."""
    return {"allow_origins": list(origins), "allow_methods": ["GET", "POST"],
            "allow_headers": ["Authorization", "Content-Type", "Idempotency-Key", "If-Match", "Last-Event-ID"],
            "expose_headers": ["Location", "Idempotent-Replayed"], "max_age": 600}


GAME_EXAMPLE = {"rules": "open-table", "seats": {"alice": {"player": "Alice"}, "bob": {"player": "Bob"}}}
# A created game or tournament leads to every operation on it (OpenAPI links): a client, or the
# fuzzer's stateful phase (tests/api/test_fuzzing.py), follows them from the creation's answer.
LINKS = [
    Link(("post", "/games"), "201", "game_id", "$response.body#/id", "Bearer {$response.body#/seat_tokens/alice}",
         {"/games/{game_id}/commands": {"seat": "alice", "command": {"type": "roll", "label": "linked", "dice": "2d6"}},
          "/games/{game_id}/annotations": {"text": "a note"},
          "/games/{game_id}/fork": {"version": 1, "dice": "fresh"}}),
    Link(("post", "/games/{game_id}/fork"), "201", "game_id", "$response.body#/id"),
    Link(("post", "/tournaments"), "201", "tournament_id", "$response.body#/id",
         "Bearer {$response.body#/director_token}",
         {"/tournaments/{tournament_id}/players": {"name": "Ann"}}),
]


def _last_event_id(value: str) -> int:
    """A Last-Event-ID header: the version of an event Herald sent (ASCII digits, 64 bits)."""
    if not (value.isascii() and value.isdigit() and int(value) <= MAX_INT):
        raise Invalid(f"Last-Event-ID is the version of an event, not {value[:40]!r}", code="bad_last_event_id")
    return int(value)


def create_app(herald: Herald | None = None, settings: Settings | None = None) -> FastAPI:
    """The Herald app. With no ``herald`` given, one is opened at start-up from the
    environment and closed at shutdown."""
    settings = settings or Settings.from_env()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        owned = herald is None
        app.state.herald = herald or Herald(admin_token=settings.admin_token,
                                            freeze_lapse_seconds=settings.freeze_lapse_seconds)
        attach_tournaments(app.state)  # its directors are umpires of their games from the start
        if owned:
            attach_live(app.state)
        try:
            yield
        finally:
            await app.state.live.close()
            if owned:
                app.state.herald.close()

    app = HeraldApp(
        command_body_limit=settings.max_command_body,
        cors_origins=settings.cors_origins,
        limits=WriteLimits(settings.writes_per_token, settings.write_burst_per_token,
                           settings.writes_per_address, settings.write_burst_per_address),
        title="Herald",
        version="0.1.0",
        summary="Event-sourced game records for board wargames: verifiable dice, replay, audit.",
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
    )
    install_docs(app)

    def attach_live(state: Any) -> None:
        """One follower of the event log for this process's live streams, and their caps."""
        state.live = Live.of(state.herald.store, settings.sse_poll_seconds)
        state.herald.written_hooks.append(state.live.written)
        state.stream_slots = Slots(settings.max_streams, settings.max_streams_per_client)
        state.health = HealthCheck(state.herald.store)

    if herald is not None:
        app.state.herald = herald
        attach_tournaments(app.state)
        attach_live(app.state)
    install_error_handlers(app)

    def service(request: Request) -> Herald:
        return request.app.state.herald

    @app.get("/health", **doc(response=Health))
    async def health(request: Request) -> Response:
        """The server is up (``ok``); whether its database answers; each read model's lag
        behind the event log. Figures at most a second old (the benchmark's baseline)."""
        return respond(await request.app.state.health.health())

    @app.get("/ready", **doc(response=Health, errors=(503,)))
    async def ready(request: Request) -> Response:
        """200 when this process can serve (its database answers now), else 503: what a load
        balancer checks before sending it requests."""
        found = await request.app.state.health.probe()
        if found.database != "reachable":
            raise database_away()
        return respond(found)

    @app.get("/rules", **doc(response=RuleSystemList))
    def list_rules() -> Response:
        """Every rule system Herald records, with scenarios, seats, dice and command schemas."""
        return respond(RuleSystemList([_rules_info(s) for s in sorted(RULE_SYSTEMS)]))

    @app.get("/rules/{system}", **doc(response=RuleSystemInfo, errors=(404,)))
    def get_rules(system: str) -> Response:
        """One rule system: scenarios, seats, die kinds and the schema of its commands."""
        if system not in RULE_SYSTEMS:
            raise NotFound(f"no rule system {system!r}; known: {', '.join(sorted(RULE_SYSTEMS))}")
        return respond(_rules_info(system))

    @app.post("/games", **doc(body=CreateGame, response=GameCreatedResponse, status=201,
                              errors=(400, 401, 403, 413, 422),
                              example=GAME_EXAMPLE))
    async def create_game(request: Request) -> Response:
        """Create a game. The seat tokens are shown once: keep them."""
        body = await read_body(request, CreateGame, settings.max_command_body)
        created = await run_in_threadpool(service(request).create, body)
        return respond(created, 201, {"Location": f"/games/{created.id}"})

    @app.get("/games", **doc(response=GamesPage, errors=(422,)))
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

    @app.get("/games/{game_id}", **doc(response=GameSummary, errors=(404,)))
    def get_game(request: Request, game_id: GameId, authorization: Annotated[str | None, Header()] = None) -> Response:
        """One game: status, version, who is to act, the current view (a seat's token shows its own view)."""
        return respond(service(request).summary(game_id, bearer(authorization)))

    @app.get("/games/{game_id}/legal-commands", **doc(response=LegalCommands, errors=(401, 403, 404, 422)))
    def legal_commands(request: Request, game_id: GameId, seat: str,
                       authorization: Annotated[str | None, Header()] = None) -> Response:
        """Every command ``seat`` may send now: ``commands``, each ready to post as it is, and
        ``choices``, larger spaces described as choices a client composes (the command
        ``type``, a ``description``, the values each field may take; see the rule system's
        notes). ``complete``: every command the rules would accept is listed or described.
        In a game with secrets (before its seed is revealed) only with that seat's token."""
        return respond(service(request).legal_commands(game_id, seat, bearer(authorization)))

    @app.post("/games/{game_id}/commands/check", **doc(body=CommandRequest, response=CheckResult,
                                                       errors=(400, 401, 403, 404, 413, 422)))
    async def check_command(request: Request, game_id: GameId,
                            authorization: Annotated[str | None, Header()] = None) -> Response:
        """Would this command be recorded now? The same body as ``POST /games/{id}/commands``
        (with the seat's token): 200 with ``accepted`` and, if not, the ``problem`` the command
        would get (its code and the rule it breaks). Nothing is recorded, no die is drawn."""
        body = await read_body(request, CommandRequest, settings.max_command_body)
        try:
            await run_in_threadpool(service(request).check, game_id, body, bearer(authorization))
        except (Illegal, Conflict) as error:
            return respond(CheckResult(False, msgspec.json.decode(error_body(error))))
        return respond(CheckResult(True))

    @app.get("/games/{game_id}/events", **doc(response=EventsPage, errors=(404, 422)))
    def list_events(
        request: Request,
        game_id: GameId,
        after: Annotated[int, Query(ge=0, le=MAX_INT)] = 0,
        limit: Annotated[int, Query(ge=1, le=1000)] = 100,
        authorization: Annotated[str | None, Header()] = None,
    ) -> Response:
        """The history, oldest first: each event with its hash link. An event sealed for
        seats the reader (by its token) is not comes as ``{"sealed", "for"}``."""
        herald = service(request)
        return respond(herald.events(game_id, after, limit, herald.reader(game_id, bearer(authorization))))

    @app.get("/games/{game_id}/events/stream",
             responses={200: {"content": {"text/event-stream": {}}}, **doc(errors=(404, 429))["responses"]})
    async def stream_events(
        request: Request,
        game_id: GameId,
        after: Annotated[int, Query(ge=0, le=MAX_INT)] = 0,
        last_event_id: Annotated[str | None, Header(
            pattern="^[0-9]{1,19}$",
            description="the id of the last event received: the stream resumes after it")] = None,
        authorization: Annotated[str | None, Header()] = None,
    ) -> StreamingResponse:
        """Server-Sent Events: every event after ``after`` (or Last-Event-ID), then live ones,
        each as this connection's reader (by its token) may see it. The stream closes once
        the game has ended and every event was sent. Open streams are capped per client and
        in total (429 with Retry-After beyond)."""
        herald = service(request)
        await run_in_threadpool(herald.game, game_id)  # 404 before the stream starts
        reader = await run_in_threadpool(herald.reader, game_id, bearer(authorization))
        start = after if last_event_id is None else _last_event_id(last_event_id)
        live: Live = request.app.state.live
        client = request.client.host if request.client else "unknown"
        request.app.state.stream_slots.take(client)

        def read(sent: int) -> tuple[EventsPage, bool]:
            """The next page, and whether the game has ended with nothing left to send."""
            game = herald.game(game_id)
            page = herald.events(game_id, sent, 500, reader)  # redacted for this connection's reader
            last = page.events[-1].version if page.events else sent
            return page, game.ended and last >= game.version

        async def events() -> AsyncIterator[bytes]:
            sent = start
            with live.listen(game_id) as listener:  # registered before the first read: no write is missed
                while True:
                    listener.changed.clear()
                    page, ended = await run_in_threadpool(read, sent)
                    for event in page.events:
                        yield (f"id: {event.version}\nevent: {event.type}\ndata: ".encode()
                               + msgspec.json.encode(event) + b"\n\n")
                        sent = event.version
                    if ended:
                        return
                    if page.next is not None:
                        continue
                    if not await listener.wait(KEEP_ALIVE_SECONDS):
                        yield b": keep-alive\n\n"

        return LiveResponse(events(), lambda: request.app.state.stream_slots.give_back(client),
                            media_type="text/event-stream",
                            headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})

    @app.get("/games/{game_id}/state", **doc(response=StateAt, errors=(404, 422)))
    def state_at(
        request: Request,
        game_id: GameId,
        at: Annotated[int | None, Query(ge=1, le=MAX_INT, description="a version; the latest when omitted")] = None,
        authorization: Annotated[str | None, Header()] = None,
    ) -> Response:
        """The board as it stood at version ``at``."""
        return respond(service(request).state_at(game_id, at, bearer(authorization)))

    @app.get("/games/{game_id}/timeline", **doc(response=TimelinePage, errors=(404, 422)))
    def timeline(
        request: Request,
        game_id: GameId,
        after: Annotated[int, Query(ge=0, le=MAX_INT)] = 0,
        limit: Annotated[int, Query(ge=1, le=1000)] = 100,
        authorization: Annotated[str | None, Header()] = None,
    ) -> Response:
        """The game told as one readable line per event; a sealed event is told as sealed."""
        herald = service(request)
        return respond(herald.timeline(game_id, after, limit, herald.reader(game_id, bearer(authorization))))

    @app.get("/games/{game_id}/record", **doc(response=Record, errors=(404,)))
    def get_record(request: Request, game_id: GameId,
                   authorization: Annotated[str | None, Header()] = None) -> Response:
        """The portable record: header, seed commitment (and seed once revealed), every event;
        sealed events as the reader (by its token) may see them, whole once the seed is revealed."""
        herald = service(request)
        return respond(herald.record(game_id, herald.reader(game_id, bearer(authorization))))

    @app.post("/records/verify", **doc(body=Record, response=Verdict, errors=(400, 413, 422)))
    async def verify_record(request: Request) -> Response:
        """Verify a portable record: hash chain, seed commitment, every draw, full replay.
        The body is a record, or ``{"record", "receipts"?, "public_key"?}`` (VerifyRequest)
        to also prove the record holds each receipted head and was signed by that key."""
        raw = await read_body(request, dict, settings.max_body, RECORD_DEPTH)
        try:
            if "record" in raw and "header" not in raw:
                wrapped = msgspec.convert(raw, VerifyRequest)
            else:
                wrapped = VerifyRequest(msgspec.convert(raw, Record))
        except msgspec.ValidationError as error:
            raise Invalid(f"the body is not a record nor a VerifyRequest: {error}", code="invalid_body") from None
        verdict = await run_in_threadpool(service(request).verify, wrapped.record, wrapped.receipts,
                                          wrapped.public_key)
        return respond(verdict)

    app.include_router(viewer_router(settings))
    app.include_router(players_router(settings.max_command_body))
    app.include_router(tournaments_router)
    app.include_router(audit_router(settings))
    app.include_router(problems.router())
    install_openapi(app, [VerifyRequest], paths=COMMAND_OPERATION, links=LINKS)
    contract.install(app)
    return app


app = create_app()
