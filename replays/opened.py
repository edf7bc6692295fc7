"""A portable record opened to be studied step by step (the viewer's record files, issue 24):
verified once, then read a page or a step at a time, at any length.

Opening a record checks its hash chain (a broken one is not opened), verifies it whole and
keeps, from the verifier's own fold (no second one), the game every ``every`` versions and the
outline (where each turn and phase begins). The board at any version is then folded from the
checkpoint at or below it; the events and their lines of narrative are read in pages. The
memory an opened record holds is its events and one checkpoint every ``every`` of them.

The board is folded only as far as the record lets this reader fold it: a copy holding an
event sealed for someone else is shown up to it (each later step says so); the seed's reveal
opens every seal.
"""

from __future__ import annotations

from uuid import UUID

import msgspec

from domain.game import Game, Recorded
from projections.board import Boards
from projections.outline import Section
from projections.timeline import TimelineEntry, narrate, player_names
from replays.record import (
    Record,
    RecordEvent,
    RecordHeader,
    Unfoldable,
    derive_record,
    fold_until_sealed,
    from_record_event,
)
from replays.verify import Verdict, check_chain, verify


class RecordNotOpened(Exception):
    """The record cannot be opened: ``code`` says why, ``version`` where (if anywhere)."""

    def __init__(self, message: str, code: str, version: int | None = None):
        super().__init__(message)
        self.code, self.version = code, version


class Step(msgspec.Struct, frozen=True):
    """The board at one version of an opened record, as a spectator of that copy sees it."""

    version: int
    to_act: list[str]
    view: object
    text: str


class OpenedRecord:
    """One record, verified and ready to be read at any version."""

    def __init__(self, key: str, record: Record, every: int = 64):
        if not record.events:
            raise RecordNotOpened("the record has no events", "record_empty")
        broken = list(check_chain(record))
        if broken:
            first = broken[0]
            at = f"version {first.version}: " if first.version is not None else ""
            raise RecordNotOpened(f"the record's hash chain does not hold ({at}{first.what}); it is not opened",
                                  "record_chain_broken", first.version)
        try:
            self.header: RecordHeader = derive_record(record.header.game, record.events, record.seed).header
        except msgspec.ValidationError as error:
            raise RecordNotOpened(f"the record cannot be replayed at version 1: {error}", "record_unreadable", 1) \
                from None
        self.key = key
        self.seed = record.seed
        self.game_id = UUID(record.header.game)
        self.events: list[RecordEvent] = record.events
        self.blocked = next((e.version for e in record.events if e.sealed), None)  # folded up to it, not past
        if self.blocked == 1:
            raise RecordNotOpened("the record's first event is sealed", "record_unreadable", 1)
        self._stored: list[Recorded] = []
        for event in self.events[:self.blocked - 1 if self.blocked else None]:
            try:
                self._stored.append(from_record_event(self.game_id, event))
            except ValueError as error:
                raise RecordNotOpened(f"the record cannot be read at version {event.version}: {error}",
                                      "record_unreadable", event.version) from None
        self.sections: list[Section] = []
        self.boards = Boards(self._load, every=every, games=1)
        self._last: Game | None = None  # the last game witnessed
        self.verdict: Verdict = verify(record, witness=self._witness)
        self._fold_on(self._last)  # past where the replay stopped (a problem, a sealed event)
        self.names = player_names(self.header.seats)

    @property
    def head(self) -> int:
        return len(self.events)

    @property
    def folded(self) -> int:
        """The last version whose board this copy shows."""
        return len(self._stored)

    def _load(self, game_id: UUID, after: int, upto: int) -> list[Recorded]:
        return self._stored[after:upto]

    def _witness(self, game: Game) -> None:
        if game.version > len(self._stored):
            return  # the replay goes on past what this copy lets the viewer fold
        if game.version == 1:
            self.rules = game.rules
        self.boards.keep(self.game_id, [game])
        turn, phase = game.rules.section(game.state)
        if not self.sections or (turn, phase) != (self.sections[-1].turn, self.sections[-1].phase):
            self.sections.append(Section(game.version, turn, phase))
        self._last = game

    def _fold_on(self, game: Game | None) -> None:
        try:
            fold_until_sealed(self.game_id, self.events[game.version if game is not None else 0:], game,
                              self._witness)
        except Unfoldable as error:
            raise RecordNotOpened(f"the record cannot be replayed at version {error.version}: {error.why}",
                                  "record_unreadable", error.version) from None

    def step(self, version: int) -> Step:
        """The board at ``version`` (1 to the head)."""
        if self.blocked is not None and version >= self.blocked:
            sealed = self.events[self.blocked - 1].data["for"]
            return Step(version, [], None, f"sealed from version {self.blocked} (for {', '.join(sealed)}) until "
                                           "the seed is revealed: the board is not shown")
        game = self.boards.at(self.game_id, version)
        revealed = self.seed is not None
        view = game.rules.open_view(game.state) if revealed else game.rules.view(game.state, None)
        return Step(version, game.to_act(), view, game.rules.render_text(game.state, self.names, everything=revealed))

    def events_page(self, after: int, limit: int) -> tuple[list[RecordEvent], int | None]:
        page = self.events[after:after + limit]
        last = after + len(page)
        return page, last if last < self.head else None

    def timeline_page(self, after: int, limit: int) -> tuple[list[TimelineEntry], int | None]:
        page, following = self.events_page(after, limit)
        return [narrate(self.rules, from_record_event(self.game_id, e), self.names) for e in page], following
