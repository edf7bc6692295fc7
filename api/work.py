"""The expensive reads' work, as it runs in a worker process (api/budgets.py) or, for small
inputs, in the server's own thread: bytes in, bytes out. Events cross as msgspec JSON, a game
as its board checkpoint row (projections/board_store.py: the rule state without its play log,
exact or not sent), an answer encoded; an analysis's boards as its rollouts get them."""

from __future__ import annotations

import msgspec

from analysis import engine
from analysis.engine import Position
from api.http import decoded_record
from domain.game import Game, Recorded, apply
from projections.board_store import decode, exact, setup_of
from projections.outline import Section, sections
from replays.verify import read_verify_request, verify

_events = msgspec.json.Decoder(list[Recorded]).decode
_sections = msgspec.json.Decoder(list[Section]).decode


def encode_events(events: list[Recorded]) -> bytes:
    return msgspec.json.encode(events)


def row(game: Game | None, setup: object = None) -> bytes | None:
    """A game's checkpoint row (None for none, or one the row cannot carry exactly);
    ``setup``: the game's setup, when known (:func:`projections.board_store.setup_of`)."""
    return None if game is None else exact(game, setup_of(game) if setup is None else setup)


def game_of(data: bytes | None) -> Game | None:
    return None if data is None else decode(data, setup_of)


def verify_body(raw: bytes) -> bytes:
    """``POST /records/verify``: the body checked and decoded as the route's, the record
    verified; the Verdict, encoded."""
    record, receipts, public_key = decoded_record(raw, read_verify_request)
    return msgspec.json.encode(verify(record, receipts, public_key))


def outline(start: bytes | None, events: bytes, last: bytes | None) -> tuple[bytes | None, bytes]:
    """``GET /viewer/games/{id}/outline``: from the game ``start`` (None: the beginning), fold
    ``events`` and list where the turn or phase changes after ``last`` (a Section, encoded);
    the game at the end as a row, and the new sections, encoded."""
    game, found = sections(game_of(start), _events(events), None if last is None else msgspec.json.decode(
        last, type=Section))
    return row(game), msgspec.json.encode(found)


def checkpoints(start: bytes | None, events: bytes, every: int) -> list[tuple[int, bytes | None]]:
    """The first fold of a game's past positions (projections/board.py): from the game
    ``start`` (None: the beginning) fold ``events`` (none of them a void's, unless from the
    beginning: a void refolds from the play log a row leaves out), and the game at each
    checkpoint passed (every ``every`` versions, and after each void) as a row."""
    game = game_of(start)
    setup = None
    out: list[tuple[int, bytes | None]] = []
    for event in _events(events):
        game = apply(game, event)
        if event.version % every == 0 or event.type == "DecisionsVoided":
            setup = setup_of(game) if setup is None else setup
            out.append((event.version, row(game, setup)))
    return out


def positions(events: bytes) -> list[Position]:
    """An analysis's boards (analysis/engine.py): every board a decision was taken from, then
    the last. They go on to the analysis pool's processes as its units do (pickled, as
    msgspec Structs of the domain)."""
    return engine.positions(_events(events))


def decoded_sections(data: bytes) -> list[Section]:
    return _sections(data)
