"""Playing at a distance (issue 29): a player's "your move" notices (a page, and a live
stream that resumes from ``Last-Event-ID``), and an umpire's result for a game stopped by a
flag's fall. The services are :mod:`api.services.turns` and :mod:`api.services.games`."""

from __future__ import annotations

from typing import Annotated
from uuid import UUID

import msgspec
from fastapi import APIRouter, Header, Path, Query, Request
from fastapi.responses import Response, StreamingResponse
from starlette.concurrency import run_in_threadpool

from api.config import Settings
from api.http import bearer, doc, read_body, respond
from api.routes.params import After, Token
from api.routes.streams import EventStream, live_stream, resume_after
from api.services.turns import TurnsPage, YourTurn
from api.services.webhooks import Deliveries, WebhookRequest, WebhookSet
from api.wire.games import AdjudicationRequest, MetaResponse

PlayerName = Annotated[str, Path(description="The registered player's name")]
PlayerToken = Annotated[str | None, Header(description="Bearer <player token>")]


def turns_router(settings: Settings) -> APIRouter:
    router = APIRouter(tags=["players"])

    def your_turn(request: Request) -> YourTurn:
        return request.app.state.herald.your_turn

    @router.get("/players/{name}/turns", **doc(response=TurnsPage, errors=(401, 403, 404, 422), token="needs"))
    def turns(request: Request, name: PlayerName, after: After = 0,
              limit: Annotated[int, Query(ge=1, le=500)] = 100, authorization: PlayerToken = None) -> Response:
        """Your move: each time one of ``name``'s games came to wait on them (a seat of theirs to
        act, at that version), after id ``after``; with ``name``'s player token only."""
        service = your_turn(request)
        player = service.authorize(name, bearer(authorization))
        return respond(service.page(player, after, limit))

    @router.get("/players/{name}/turns/stream", response_class=EventStream,
                openapi_extra={"security": [{"bearer": []}]},
                responses={200: {"description": "The notices, one Server-Sent Event each", "content": {
                    "text/event-stream": {"schema": {"type": "string", "description":
                        "Each notice as `id: <id>`, `event: turn`, `data: <the notice as JSON, as GET "
                        "/players/{name}/turns gives it>`; `: keep-alive` comments while nothing happens."}}}},
                    **doc(errors=(401, 403, 404, 429))["responses"]})
    async def stream(request: Request, name: PlayerName, after: After = 0,
                     last_event_id: Annotated[str | None, Header(
                         pattern="^[0-9]{1,19}$",
                         description="the id of the last notice received: the stream resumes after it")] = None,
                     authorization: PlayerToken = None) -> StreamingResponse:
        """Server-Sent Events: ``name``'s notices after ``after`` (or Last-Event-ID), then each
        new one as it comes, across all their games (several Herald processes on one
        PostgreSQL database included). With ``name``'s player token only."""
        service = your_turn(request)
        player = await run_in_threadpool(service.authorize, name, bearer(authorization))
        sent = resume_after(after, last_event_id)

        def read() -> tuple[list[bytes], bool, bool]:
            """The next notices' frames, and whether more are waiting (a notice stream never ends)."""
            nonlocal sent
            page = service.page(player, sent, 500)
            sent = page.last
            frames = [f"id: {t.id}\nevent: turn\ndata: ".encode() + msgspec.json.encode(t) + b"\n\n"
                      for t in page.turns]
            return frames, len(page.turns) == 500, False

        return live_stream(request, request.app.state.live.listen_any(), read)

    @router.post("/players/{name}/webhook", **doc(body=WebhookRequest, limit=settings.max_command_body,
                                                  response=WebhookSet, status=201, token="needs",
                                                  errors=(400, 401, 403, 404, 413, 422),
                                                  example={"url": "https://bot.example/herald/turns"}))
    async def set_webhook(request: Request, name: PlayerName, authorization: PlayerToken = None) -> Response:
        """Have ``name``'s notices POSTed to a URL, each signed (``X-Herald-Signature: sha256=``,
        HMAC-SHA256 of the body with the secret this answer shows once), tried again with
        back-off when it fails. Setting it again replaces the URL and the secret."""
        body = await read_body(request, WebhookRequest, settings.max_command_body)
        service = your_turn(request)
        player = await run_in_threadpool(service.authorize, name, bearer(authorization))
        return respond(await run_in_threadpool(service.webhooks.set, player, body.url), 201)

    @router.delete("/players/{name}/webhook", status_code=204, **{
        k: v for k, v in doc(errors=(401, 403, 404), token="needs").items() if k != "status_code"})
    def remove_webhook(request: Request, name: PlayerName, authorization: PlayerToken = None) -> Response:
        """Stop delivering ``name``'s notices (their delivery log stays)."""
        service = your_turn(request)
        service.webhooks.remove(service.authorize(name, bearer(authorization)))
        return Response(status_code=204)

    @router.get("/players/{name}/webhook/deliveries", **doc(response=Deliveries, errors=(401, 403, 404),
                                                            token="needs"))
    def deliveries(request: Request, name: PlayerName, authorization: PlayerToken = None) -> Response:
        """Every attempt to deliver ``name``'s notices, newest first: status, outcome, error, next try."""
        service = your_turn(request)
        return respond(service.webhooks.log(service.authorize(name, bearer(authorization))))

    @router.post("/games/{game_id}/adjudication", tags=["audit and study"],
                 **doc(body=AdjudicationRequest, limit=settings.max_command_body, response=MetaResponse,
                       status=201, token="needs", errors=(400, 401, 403, 404, 409, 413, 422),
                       example={"outcome": {"winner": "p2", "reason": "p1's flag fell; adjudicated a win"}}))
    async def adjudication(request: Request, game_id: Annotated[UUID, Path(description="The game's UUID")],
                           authorization: Token = None) -> Response:
        """An umpire's result (admin token or the tournament's director) for a game stopped by
        a flag's fall: recorded as ``Adjudicated``, then ``GameEnded`` with that outcome."""
        body = await read_body(request, AdjudicationRequest, settings.max_command_body)
        games = request.app.state.herald.games
        return respond(await run_in_threadpool(games.adjudicate, game_id, body, bearer(authorization)), 201)

    return router
