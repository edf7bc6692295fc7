"""The REST API (DESIGN.md, "API conventions"): the app assembled from its routes
(:mod:`api.routes`) over one :class:`api.bootstrap.Herald`. Thin: parse, call a service, encode."""

from __future__ import annotations

import os

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, nullcontext
from typing import Any

from fastapi import FastAPI
from fastapi.middleware.cors import CORSMiddleware
from starlette.concurrency import run_in_threadpool

from api.bootstrap import Herald
from api.budgets import Budgets
from api.collector import settled
from api.command_route import CommandRoute, command_target
from api.config import Settings
from api.past_states import PAST_STATES_BYTES, RenderedStates, answer_past_state
from api import contract, problems
from api.health import HealthCheck
from api.numbers import whole_number
from api.http import Link, install_error_handlers, install_openapi, refused_at_door, send_error
from api.live import Live, Slots
from api.ratelimit import Limit, WriteLimits
from api.transfer import compressing, guard_body
from api.routes.analysis import analysis_router
from api.routes.analysis import close as close_analyses
from api.routes.audit import audit_router
from api.routes.ratings import ratings_router
from api.routes.turns import turns_router
from api.routes.docs import install_docs
from api.routes.games import games_router
from api.routes.health import health_router
from api.routes.players import players_router
from api.routes.rules import rules_router
from api.routes.seating import seating_router
from api.routes.tournaments import router as tournaments_router
from api.routes.viewer import viewer_router
from replays.verify import VerifyRequest


class HeraldApp(FastAPI):
    """FastAPI, with the write limits (api/ratelimit.py), the expensive reads' shares
    (api/budgets.py), the hot command route (api/command_route.py) and past positions (a
    spectator's, or a seat's by its token) (api/past_states.py) answered ahead of it. The command route skips the framework's routing
    and its own layers (:data:`FAST_PATH_WITHOUT`), never a middleware added to the app: every
    one of those wraps it too (:meth:`build_middleware_stack`); the rendered past positions are
    answered ahead only while the app has no middleware of its own.

    Around all of them, a request body the app answers before reading it whole is read and
    thrown away after the answer, up to ``drain_bytes``, before the connection closes; what the
    framework answers is gzipped for a client that accepts it (api/transfer.py). The two fast
    paths answer uncompressed: a command's answer and a past position are small."""

    def __init__(self, *, command_body_limit: int, limits: WriteLimits, budgets: Budgets,
                 cors_origins: tuple[str, ...] = (), drain_bytes: int = 0, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.framework = compressing(self.routed)
        self.drain_bytes = drain_bytes
        self.command_route = CommandRoute(lambda: self.state.herald.games, limit=command_body_limit)
        self.commands: Any = self.command_route  # wrapped in the app's middleware once the stack is built
        self.limits = limits if limits.on else None
        self.past_states = RenderedStates(PAST_STATES_BYTES)
        self.budgets = budgets  # the expensive reads' shares and workers (api/budgets.py)
        if cors_origins:  # off unless configured (HERALD_CORS_ORIGINS)
            self.add_middleware(CORSMiddleware, **cors_options(cors_origins))

    def build_middleware_stack(self) -> Any:
        """FastAPI's stack, and the command route wrapped in the same user middleware."""
        stack = super().build_middleware_stack()
        fast: Any = self.command_route
        for cls, args, kwargs in reversed(self.user_middleware):
            fast = cls(fast, *args, **kwargs)
        self.commands = fast
        return stack

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            return await guard_body(self.answer, scope, receive, send, self.drain_bytes)
        await super().__call__(scope, receive, send)

    async def answer(self, scope: Any, receive: Any, send: Any) -> None:
        """An HTTP request: refused at the door, a fast path, or the framework."""
        refused = refused_at_door(scope)
        if refused is not None:
            return await send_error(send, refused)
        if self.limits is not None:
            wait = self.limits.wait(scope)
            if wait:
                return await self.limits.refuse(send, wait)
        if command_target(scope) is not None:
            if self.middleware_stack is None:
                self.middleware_stack = self.build_middleware_stack()
            scope["app"] = self
            return await self.commands(scope, receive, send)
        if not self.user_middleware and await answer_past_state(scope, send, self.past_states,
                                                                lambda: self.state.herald.games, self.budgets):
            return  # with middleware (CORS), through the framework: nothing is skipped
        await self.framework(scope, receive, send)

    async def routed(self, scope: Any, receive: Any, send: Any) -> None:
        """The framework: its middleware, routing and routes."""
        await super().__call__(scope, receive, send)


# The framework's own layers the command route does without, and what stands in for each there.
FAST_PATH_WITHOUT = {
    "ServerErrorMiddleware": "the route answers its own 500 (api/http.send_error)",
    "ExceptionMiddleware": "the route maps its own errors (api/http.send_error, api/errors.status_of)",
    "ExceptionTelemetryMiddleware": "FastAPI's telemetry, which Herald does not use",
    "AppBodyLimitMiddleware": "the route reads at most HERALD_MAX_COMMAND_BODY bytes (api/http.read_raw)",
    "AsyncExitStackMiddleware": "closes files of FastAPI's dependencies; the route has none",
}


def cors_options(origins: tuple[str, ...]) -> dict[str, Any]:
    """Cross-origin reads and writes for the configured origins only; tokens travel in the
    Authorization header, never in cookies, so no credentials."""
    return {"allow_origins": list(origins), "allow_methods": ["GET", "POST"],
            "allow_headers": ["Authorization", "Content-Type", "Idempotency-Key", "If-Match", "Last-Event-ID"],
            "expose_headers": ["Location", "Idempotent-Replayed"], "max_age": 600}


COMPRESSION = ("Answers of 1 KiB or more are gzipped for a client that sends `Accept-Encoding: gzip` (with "
               "`Vary: Accept-Encoding`); the live event stream never is. A request body may be sent with "
               "`Content-Encoding: gzip`: each operation's request body says its limit, counted on the decoded "
               "bytes.")


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


SUPERVISOR_ENV = "HERALD_SERVE_SUPERVISOR"  # set by `herald serve --workers N` to its own pid


def end_with_supervisor() -> None:
    """A worker process of ``herald serve --workers N`` ends when its supervisor does, however
    it ended (``kill -9`` included): uvicorn's workers would otherwise go on serving the port
    with no parent."""
    supervisor = os.environ.get(SUPERVISOR_ENV, "")
    if whole_number(supervisor) not in (None, os.getpid()):
        from analysis.pool import end_with_parent

        end_with_parent(int(supervisor))


def create_app(herald: Herald | None = None, settings: Settings | None = None) -> FastAPI:
    """The Herald app. With no ``herald`` given, one is opened at start-up from the
    environment and closed at shutdown."""
    settings = settings or Settings.from_env()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        owned = herald is None
        if owned:
            end_with_supervisor()
        app.state.herald = herald or Herald(admin_token=settings.admin_token,
                                            freeze_lapse_seconds=settings.freeze_lapse_seconds,
                                            clock_sweep_seconds=settings.clock_sweep_seconds,
                                            webhook_retry_seconds=settings.webhook_retry_seconds,
                                            webhook_poll_seconds=settings.webhook_poll_seconds,
                                            webhook_private=settings.webhook_private)
        if owned:
            attach_live(app.state)
            # a served process does at start what its first requests would each wait for (about
            # 0.2 s apiece here; issue 19, a restarted server's first readers): FastAPI builds its
            # routes' handling on first use (the OpenAPI document walks them all), and the first
            # request handed to a worker thread imports anyio's thread backend
            app.openapi()
            await run_in_threadpool(lambda: None)
        app.state.herald.tournaments.follower.start()  # tournament results, in the background
        app.state.herald.bots.start()  # bot seats move in the background (api/services/bots.py)
        app.state.herald.your_turn.sweep.rounds.start()  # flags that fall with nobody writing (issue 29)
        app.state.herald.your_turn.webhooks.rounds.start()  # your-move notices to players' webhooks
        try:
            with settled() if owned else nullcontext():  # a served process's collector (api/collector.py)
                yield
        finally:
            app.state.herald.tournaments.follower.close()
            app.state.herald.bots.close()
            await app.state.herald.your_turn.sweep.rounds.close()
            await app.state.herald.your_turn.webhooks.rounds.close()
            close_analyses(app.state)
            app.budgets.close()
            await app.state.live.close()
            if owned:
                app.state.herald.close()

    app = HeraldApp(
        command_body_limit=settings.max_command_body,
        drain_bytes=4 * settings.max_record_body,  # a refused body is read, up to this, before closing
        cors_origins=settings.cors_origins,
        budgets=Budgets(settings),
        limits=WriteLimits(settings.writes_per_token, settings.write_burst_per_token,
                           settings.writes_per_address, settings.write_burst_per_address,
                           checks=Limit(settings.checks_per_token, settings.check_burst_per_token,
                                        settings.checks_per_address, settings.check_burst_per_address)),
        title="Herald",
        version="0.1.0",
        summary="Event-sourced game records for board wargames: verifiable dice, replay, audit.",
        description=COMPRESSION,
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
    )
    install_docs(app)

    def attach_live(state: Any) -> None:
        """One follower of the event log for this process's live streams, and their caps."""
        state.live = Live.of(state.herald.store, settings.sse_poll_seconds)
        state.herald.committer.written_hooks.append(state.live.written)
        state.stream_slots = Slots(settings.max_streams, settings.max_streams_per_client)
        state.health = HealthCheck(state.herald.store)

    if herald is not None:
        app.state.herald = herald
        attach_live(app.state)
    install_error_handlers(app)
    app.include_router(health_router())
    app.include_router(rules_router())
    app.include_router(games_router(settings))
    app.include_router(viewer_router(settings))
    app.include_router(players_router(settings.max_command_body))
    app.include_router(seating_router(settings.max_command_body))
    app.include_router(tournaments_router)
    app.include_router(audit_router(settings))
    app.include_router(turns_router(settings))
    app.include_router(ratings_router())
    app.include_router(analysis_router())
    app.include_router(problems.router())
    install_openapi(app, [VerifyRequest], links=LINKS)
    contract.install(app)
    return app


app = create_app()
