"""The replay viewer (issue 7): static pages and ES modules under ``api/viewer/``, served
by the API itself, with no build step. ``/viewer`` lists games and opens a portable record
file; ``/viewer/{game_id}?v=N`` shows one game's board at version N.

The pages read the public API (``/games/{id}``, ``/events``, ``/timeline``, ``/state``,
``/events/stream``). A record file opened from disk is not stored as a game: ``POST
/viewer/record`` verifies it once and holds it for a while (replays/opened.py), and the page
reads it as it reads a game, a page or a step at a time, under ``/viewer/records/{key}``.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import string
from pathlib import Path
from typing import Annotated, Any
from uuid import UUID

import msgspec
from fastapi import APIRouter, Query, Request
from fastapi.responses import FileResponse, HTMLResponse, Response
from starlette.concurrency import run_in_threadpool

from api import work
from api.budgets import Ticket
from api.config import Settings
from api.errors import Invalid, NotFound, TooLarge
from api.http import MAX_INT, read_record, respond
from api.lru import Lru
from api.routes.params import After
from api.wire.games import EventsPage, TimelinePage
from projections.outline import Section
from replays.opened import OpenedRecord, RecordNotOpened
from replays.record import Record, RecordHeader
from replays.record_format import decode_record
from replays.verify import Verdict

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


class OpenedRecordSummary(msgspec.Struct, frozen=True):
    """A portable record opened in the viewer (``POST /viewer/record``): the key its pages and
    steps are read by (``/viewer/records/{key}/…``), the header its chain proves, the
    verifier's verdict, its length, and how far this copy's boards can be folded (up to an
    event sealed for someone else, until the seed is revealed)."""

    key: str
    header: RecordHeader
    verdict: Verdict
    head: int
    folded: int
    blocked: int | None = None
    seed: str | None = None


class Outline(msgspec.Struct, frozen=True):
    """``GET /viewer/games/{id}/outline``: where each turn and phase begins, up to ``version``."""

    version: int
    sections: list[Section]


class Outlines:
    """The outlines of the games most recently asked about, each extended from where it was
    left as the game goes on (one fold per new event, never a refold from the start). The fold
    is an expensive read (api/budgets.py): done on the request's ticket, in a worker process
    for a long stretch, from the game where it was left, held here as its checkpoint row."""

    def __init__(self, games: int = 64):
        self._held: Lru[UUID, tuple[int, bytes | None, list[Section]]] = Lru(games)

    def of(self, herald: Any, game_id: UUID, ticket: Ticket) -> Outline:
        head = herald.games.head(game_id)  # 404 for a game that does not exist (the game is not folded)
        version, start, found = self._held.get(game_id) or (0, None, [])
        if version < head:
            newer = herald.store.stream(game_id, version, head)
            if version and (start is None or any(e.type == "DecisionsVoided" for e in newer)):
                # A ruling's DecisionsVoided refolds the board from it on without the voided play
                # (the versions before it stand as they were shown), from the play log a row
                # leaves out: folded from the start (so is a board its row cannot carry)
                start, found, newer = None, [], herald.store.stream(game_id, 0, head)
            start, more = ticket.run(work.outline, start, work.encode_events(newer),
                                     msgspec.json.encode(found[-1]) if found else None)
            found = found + work.decoded_sections(more)
            self._held.put(game_id, (head, start, found))
        return Outline(head, found)


PAGE = 10_000  # events or lines of narrative in one page of an opened record


def _keyed(raw: bytes) -> tuple[str, Record]:
    """A record body and its key: the SHA-256 of its bytes (another copy, another key)."""
    return hashlib.sha256(raw).hexdigest()[:32], decode_record(raw)


def _open(key: str, record: Record) -> OpenedRecord:
    try:
        return OpenedRecord(key, record)
    except RecordNotOpened as error:
        raise Invalid(str(error), code=error.code, version=error.version) from None


def _page(page: str, title: str = "Herald viewer") -> HTMLResponse:
    return HTMLResponse(_page_html(page, title), headers=NO_CACHE)


@functools.cache
def _page_html(page: str, title: str) -> str:
    """The viewer's page ``page``: its body (``<page>.html``) in the one shell every page shares
    (``page.html``: the head, the style sheet, the page's own module ``<page>.js``)."""
    shell = string.Template((VIEWER_DIR / "page.html").read_text(encoding="utf-8"))
    body = (VIEWER_DIR / f"{page}.html").read_text(encoding="utf-8")
    return shell.substitute(title=title, script=f"{page}.js", page=page, body=body)


def viewer_router(settings: Settings | None = None) -> APIRouter:
    """The viewer's routes; include once in the app."""
    settings = settings or Settings.from_env()
    router = APIRouter()
    # the records opened most recently, holding at most HERALD_VIEWER_HELD_EVENTS events in all
    records: Lru[str, OpenedRecord] = Lru(settings.viewer_held_events, weight=lambda opened: opened.head)
    opening = asyncio.Semaphore(settings.viewer_concurrency)
    outlines = Outlines()

    @router.get("/", include_in_schema=False)
    @router.get("/viewer", include_in_schema=False)
    def viewer_home() -> HTMLResponse:
        """The home page: the game list, the portable-record opener and links to the docs."""
        return _page("home")

    @router.get("/viewer/assets/{path:path}", include_in_schema=False)
    def viewer_asset(path: str) -> FileResponse:
        """A static file of the viewer (ES modules, CSS)."""
        root = VIEWER_DIR.resolve()
        target = (root / path).resolve()
        if not target.is_relative_to(root) or not target.is_file() or target.suffix not in CONTENT_TYPES:
            raise NotFound(f"no viewer asset {path!r}")
        return FileResponse(target, media_type=CONTENT_TYPES[target.suffix], headers=NO_CACHE)

    @router.get("/viewer/record", include_in_schema=False)
    def viewer_record_page() -> HTMLResponse:
        """The board of a portable record file opened from disk."""
        return _page("game")

    @router.post("/viewer/record", include_in_schema=False)
    async def viewer_record(request: Request) -> Response:
        """Open a portable record without storing it as a game: verified whole once, then held
        (the most recently opened, up to HERALD_VIEWER_HELD_EVENTS events in all) to be read
        a page or a step at a time under ``/viewer/records/{key}``. The same file opened again
        is the same key. Private to the viewer, so not in the OpenAPI contract."""
        key, record = await read_record(request, settings.max_record_body, _keyed)
        if len(record.events) > settings.viewer_max_events:
            raise TooLarge(f"the record has {len(record.events)} events; the viewer opens at most "
                           f"{settings.viewer_max_events} (HERALD_VIEWER_MAX_EVENTS)", code="record_too_long")
        opened = records.get(key)
        if opened is None:
            async with opening:  # a few records at a time: CPU and memory stay within bounds
                opened = records.get(key) or await run_in_threadpool(_open, key, record)
            records.put(opened.key, opened)
        return respond(OpenedRecordSummary(opened.key, opened.header, opened.verdict, opened.head, opened.folded,
                                           opened.blocked, opened.seed))

    def held(key: str) -> OpenedRecord:
        opened = records.get(key)
        if opened is None:
            raise NotFound(f"no record {key!r} is open here (opened records are held for a while): open the file "
                           "again with POST /viewer/record", code="record_not_open")
        return opened

    @router.get("/viewer/records/{key}/events", include_in_schema=False)
    def viewer_record_events(key: str, after: After = 0,
                             limit: Annotated[int, Query(ge=1, le=PAGE)] = 1000) -> Response:
        """A page of an opened record's events, as the file holds them (each with its version
        and recomputed hash links)."""
        events, following = held(key).events_page(after, limit)
        return respond(EventsPage(events, following))

    @router.get("/viewer/records/{key}/timeline", include_in_schema=False)
    def viewer_record_timeline(key: str, after: After = 0,
                               limit: Annotated[int, Query(ge=1, le=PAGE)] = 1000) -> Response:
        """A page of an opened record's lines of narrative."""
        entries, following = held(key).timeline_page(after, limit)
        return respond(TimelinePage(entries, following))

    @router.get("/viewer/records/{key}/state", include_in_schema=False)
    async def viewer_record_state(key: str, at: Annotated[int, Query(ge=1, le=MAX_INT)]) -> Response:
        """The board at version ``at`` of an opened record, as a spectator of that copy sees it."""
        opened = held(key)
        if at > opened.head:
            raise NotFound(f"the record has versions 1 to {opened.head}, not {at}", code="no_such_version")
        return respond(await run_in_threadpool(opened.step, at))

    @router.get("/viewer/records/{key}/outline", include_in_schema=False)
    def viewer_record_outline(key: str) -> Response:
        """Where each turn and phase of an opened record begins (as far as its boards are folded)."""
        opened = held(key)
        return respond(Outline(opened.folded, opened.sections))

    @router.get("/viewer/tournaments", include_in_schema=False)
    @router.get("/viewer/tournaments/{tournament_id}", include_in_schema=False)
    def viewer_tournament(tournament_id: UUID | None = None) -> HTMLResponse:
        """The tournaments, or one tournament's standings, crosstable and pairings by round,
        each game linked to its replay (read from the public tournament routes)."""
        return _page("tournament", "Tournaments · Herald viewer")

    @router.get("/viewer/games/{game_id}/outline", include_in_schema=False)
    def viewer_outline(request: Request, game_id: UUID) -> Response:
        """Where each turn and phase of a game begins, from the spectator's view at each
        version (the viewer's move list groups and jumps by them). Private to the viewer. An
        expensive read when the game has moved on since it was last asked (api/budgets.py)."""
        with request.app.budgets.ticket(request.scope) as ticket:
            return respond(outlines.of(request.app.state.herald, game_id, ticket))

    @router.get("/viewer/{game_id}", include_in_schema=False)
    def viewer_game(game_id: UUID) -> HTMLResponse:
        """One game's board at any step (``?v=N``), its timeline, and live updates."""
        return _page("game")

    return router
