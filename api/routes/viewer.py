"""The replay viewer (issue 7): static pages and ES modules under ``api/viewer/``, served
by the API itself, with no build step. ``/viewer`` lists games and opens a portable record
file; ``/viewer/{game_id}?v=N`` shows one game's board at version N.

The pages read the public API (``/games/{id}``, ``/events``, ``/timeline``, ``/state``,
``/events/stream``). A record file opened from disk is not stored: ``POST /viewer/record``
folds it here and answers every step's spectator view at once.
"""

from __future__ import annotations

import asyncio
import threading
from collections import OrderedDict
from pathlib import Path
from typing import Any
from uuid import UUID

import msgspec
from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, Response
from starlette.concurrency import run_in_threadpool

from api.config import Settings
from api.errors import Invalid, NotFound, TooLarge
from api.http import RECORD_DEPTH, read_body, respond
from domain.game import Game, IncompatibleRecord, apply
from domain.rules.base import RuleViolation
from projections.outline import Section, sections
from projections.timeline import TimelineEntry, narrate, player_names
from replays.record import Record, RecordEvent, RecordHeader, derive_record, from_record_event
from replays.verify import Verdict, check_chain, verify

VIEWER_DIR = Path(__file__).resolve().parent.parent / "viewer"
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


class ViewLimits(msgspec.Struct, frozen=True):
    """The most work one opened record may cost: events folded, and bytes of the boards
    (every step's view and text, encoded) held to answer it."""

    events: int = 5_000
    view_bytes: int = 64 * 1024 * 1024


def record_views(record: Record, limits: ViewLimits = ViewLimits()) -> RecordViews:
    """Check a record's hash chain, then fold it event by event: the spectator's board after
    each one, held encoded and within ``limits``. The header shown is the one the chain
    proves, never the file's own (the verdict names any field where they disagree)."""
    if not record.events:
        raise Invalid("the record has no events", code="record_empty")
    if len(record.events) > limits.events:
        raise TooLarge(f"the record has {len(record.events)} events; the viewer opens at most {limits.events} "
                       "(HERALD_VIEWER_MAX_EVENTS)", code="record_too_long")
    broken = list(check_chain(record))
    if broken:
        first = broken[0]
        at = f"version {first.version}: " if first.version is not None else ""
        raise Invalid(f"the record's hash chain does not hold ({at}{first.what}); it is not opened",
                      code="record_chain_broken", version=first.version)
    try:
        header = derive_record(record.header.game, record.events, record.seed).header
    except msgspec.ValidationError as error:
        raise Invalid(f"the record cannot be replayed at version 1: {error}", code="record_unreadable") from None
    game_id = UUID(record.header.game)
    game: Game | None = None
    steps: list[RecordStep] = []
    timeline: list[TimelineEntry] = []
    held = 0
    blocked: RecordEvent | None = None  # the board cannot be folded past a sealed event
    for event in record.events:
        try:
            recorded = from_record_event(game_id, event)
            if blocked is None and event.sealed:
                blocked = event
            if blocked is None:
                game = apply(game, recorded)
                view = msgspec.Raw(msgspec.json.encode(game.rules.view(game.state, None)))
                text = game.rules.render_text(game.state, player_names(game.created.seats))
            else:
                view, text = msgspec.Raw(b"null"), (f"sealed from version {blocked.version} (for "
                                                    f"{', '.join(blocked.data['for'])}) until the seed is revealed: "
                                                    "the board is not shown")
        except (IncompatibleRecord, RuleViolation, KeyError, ValueError, TypeError, msgspec.ValidationError) as error:
            raise Invalid(f"the record cannot be replayed at version {event.version}: {error}",
                          code="record_unreadable", version=event.version) from None
        if game is None:
            raise Invalid("the record's first event is sealed", code="record_unreadable", version=event.version)
        held += len(view) + len(text)
        if held > limits.view_bytes:
            raise TooLarge(f"the boards of this record's first {event.version} steps exceed "
                           f"{limits.view_bytes} bytes (HERALD_VIEWER_MAX_VIEW_BYTES)", code="record_views_too_large")
        steps.append(RecordStep(event.version, [] if blocked else game.to_act(), view, text))
        timeline.append(narrate(game.rules, recorded, player_names(game.created.seats)))
    return RecordViews(header, record.events, verify(record), timeline, steps, record.seed)


class Outline(msgspec.Struct, frozen=True):
    """``GET /viewer/games/{id}/outline``: where each turn and phase begins, up to ``version``."""

    version: int
    sections: list[Section]


class Outlines:
    """The outlines of the games most recently asked about, each extended from where it was
    left as the game goes on (one fold per new event, never a refold from the start)."""

    def __init__(self, games: int = 64):
        self._games = games
        self._held: OrderedDict[UUID, tuple[Game, list[Section]]] = OrderedDict()
        self._lock = threading.Lock()

    def of(self, herald: Any, game_id: UUID) -> Outline:
        head = herald.games.game(game_id).version  # 404 for a game that does not exist
        with self._lock:
            held = self._held.get(game_id)
        game, found = held if held else (None, [])
        if game is None or game.version < head:
            # A ruling's DecisionsVoided folds like any event (the board from it on is refolded
            # without the voided play; the versions before it stand as they were shown).
            newer = herald.store.stream(game_id, game.version if game else 0, head)
            game, more = sections(game, newer, found[-1] if found else None)
            found = found + more
            with self._lock:
                self._held[game_id] = (game, found)
                self._held.move_to_end(game_id)
                while len(self._held) > self._games:
                    self._held.popitem(last=False)
        return Outline(head, found)


def _page(name: str) -> FileResponse:
    return FileResponse(VIEWER_DIR / name, media_type=CONTENT_TYPES[".html"], headers=NO_CACHE)


def viewer_router(settings: Settings | None = None) -> APIRouter:
    """The viewer's routes; include once in the app."""
    settings = settings or Settings.from_env()
    router = APIRouter()
    limits = ViewLimits(settings.viewer_max_events, settings.viewer_max_view_bytes)
    opening = asyncio.Semaphore(settings.viewer_concurrency)
    outlines = Outlines()

    @router.get("/", include_in_schema=False)
    @router.get("/viewer", include_in_schema=False)
    def viewer_home() -> FileResponse:
        """The home page: the game list, the portable-record opener and links to the docs."""
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
        record = await read_body(request, Record, settings.max_record_body, RECORD_DEPTH)
        async with opening:  # a few records at a time: memory stays within their limits
            views = await run_in_threadpool(record_views, record, limits)
            # Every step's board repeats most of the last one: gzip (the app's, api/transfer.py,
            # for a client that accepts it) takes 4 MB to under 100 kB.
            return respond(views)

    @router.get("/viewer/tournaments", include_in_schema=False)
    @router.get("/viewer/tournaments/{tournament_id}", include_in_schema=False)
    def viewer_tournament(tournament_id: UUID | None = None) -> FileResponse:
        """The tournaments, or one tournament's standings, crosstable and pairings by round,
        each game linked to its replay (read from the public tournament routes)."""
        return _page("tournament.html")

    @router.get("/viewer/games/{game_id}/outline", include_in_schema=False)
    def viewer_outline(request: Request, game_id: UUID) -> Response:
        """Where each turn and phase of a game begins, from the spectator's view at each
        version (the viewer's move list groups and jumps by them). Private to the viewer."""
        return respond(outlines.of(request.app.state.herald, game_id))

    @router.get("/viewer/{game_id}", include_in_schema=False)
    def viewer_game(game_id: UUID) -> FileResponse:
        """One game's board at any step (``?v=N``), its timeline, and live updates."""
        return _page("game.html")

    return router
