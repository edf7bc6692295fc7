"""The replay viewer (issue 7): static pages and ES modules under ``api/viewer/``, served
by the API itself, with no build step. ``/viewer`` lists games and opens a portable record
file; ``/viewer/{game_id}?v=N`` shows one game's board at version N.

The pages read the public API (``/games/{id}``, ``/events``, ``/timeline``, ``/state``,
``/events/stream``). A record file opened from disk is not stored: ``POST /viewer/record``
folds it here and answers every step's spectator view at once.
"""

from __future__ import annotations

import gzip
from pathlib import Path
from typing import Any
from uuid import UUID

import msgspec
from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, Response
from starlette.concurrency import run_in_threadpool

from api.config import Settings
from api.errors import Invalid, NotFound
from api.http import RECORD_DEPTH, read_body, respond
from domain.game import Game, IncompatibleRecord, apply
from domain.rules.base import RuleViolation
from projections.timeline import TimelineEntry, narrate
from replays.record import Record, RecordEvent, RecordHeader, from_record_event
from replays.verify import Verdict, verify

VIEWER_DIR = Path(__file__).resolve().parent / "viewer"
CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".json": "application/json",
}
NO_CACHE = {"Cache-Control": "no-cache"}


class RecordStep(msgspec.Struct, frozen=True):
    """The board at one version of a record, as a spectator sees it."""

    version: int
    to_act: list[str]
    view: Any
    text: str


class RecordViews(msgspec.Struct, frozen=True):
    """A portable record opened in the viewer: its header and events, the verifier's
    verdict, one readable line per event and the board at every version."""

    header: RecordHeader
    events: list[RecordEvent]
    verdict: Verdict
    timeline: list[TimelineEntry]
    steps: list[RecordStep]
    seed: str | None = None


def record_views(record: Record) -> RecordViews:
    """Fold a record event by event: the spectator's board after each one."""
    if not record.events:
        raise Invalid("the record has no events", code="record_empty")
    game_id = UUID(record.header.game)
    game: Game | None = None
    steps: list[RecordStep] = []
    timeline: list[TimelineEntry] = []
    for event in record.events:
        recorded = from_record_event(game_id, event)
        try:
            game = apply(game, recorded)
        except (IncompatibleRecord, RuleViolation, KeyError, ValueError, TypeError, msgspec.ValidationError) as error:
            raise Invalid(f"the record cannot be replayed at version {event.version}: {error}",
                          code="record_unreadable") from None
        steps.append(RecordStep(event.version, game.to_act(), game.rules.view(game.state, None),
                                game.rules.render_text(game.state)))
        timeline.append(narrate(game.rules, recorded))
    return RecordViews(record.header, record.events, verify(record), timeline, steps, record.seed)


def _page(name: str) -> FileResponse:
    return FileResponse(VIEWER_DIR / name, media_type=CONTENT_TYPES[".html"], headers=NO_CACHE)


def viewer_router(settings: Settings | None = None) -> APIRouter:
    """The viewer's routes; include once in the app."""
    settings = settings or Settings.from_env()
    router = APIRouter()

    @router.get("/viewer", include_in_schema=False)
    def viewer_home() -> FileResponse:
        """The game list and the portable-record opener."""
        return _page("index.html")

    @router.get("/viewer/assets/{path:path}", include_in_schema=False)
    def viewer_asset(path: str) -> FileResponse:
        """A static file of the viewer (ES modules, CSS)."""
        root = VIEWER_DIR.resolve()
        target = (root / path).resolve()
        if not target.is_relative_to(root) or not target.is_file() or target.suffix not in CONTENT_TYPES:
            raise NotFound(f"no viewer asset {path!r}")
        return FileResponse(target, media_type=CONTENT_TYPES[target.suffix], headers=NO_CACHE)

    @router.get("/viewer/record", include_in_schema=False)
    def viewer_record_page() -> FileResponse:
        """The board of a portable record file opened from disk."""
        return _page("game.html")

    @router.post("/viewer/record", include_in_schema=False)
    async def viewer_record(request: Request) -> Response:
        """Open a portable record without storing it: its verdict, timeline and the
        spectator's board at every version (what the viewer draws from a file). The body is
        a portable record; the answer a ``RecordViews``. Private to the viewer, so not in
        the OpenAPI contract."""
        record = await read_body(request, Record, settings.max_body, RECORD_DEPTH)
        views = await run_in_threadpool(record_views, record)
        if "gzip" not in request.headers.get("accept-encoding", ""):
            return respond(views)
        # Every step's board repeats most of the last one: gzip takes 4 MB to under 100 kB.
        body = await run_in_threadpool(lambda: gzip.compress(msgspec.json.encode(views), 6))
        return Response(body, media_type="application/json",
                        headers={"Content-Encoding": "gzip", "Vary": "Accept-Encoding"})

    @router.get("/viewer/{game_id}", include_in_schema=False)
    def viewer_game(game_id: UUID) -> FileResponse:
        """One game's board at any step (``?v=N``), its timeline, and live updates."""
        return _page("game.html")

    return router
