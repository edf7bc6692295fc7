"""Board state at any version, folded from the nearest checkpoint below it.

Checkpoints are the game as it stood every ``every`` versions (and just after each ruling's
void). A request folds at most ``every - 1`` events from one: from memory (the most recently
used ``checkpoints`` of every game, log left out, so the bound is in boards, not in events),
else from the store's database (projections/board_store.py, written by the fold that first
passed them, read back by any process, a restarted one included), else by folding on from the
highest checkpoint below. That last fold — a game nobody has read yet — is built one stretch
of ``BUILD_STRETCH`` versions at a time, one fold per game at a time: requests arriving
together for it wait for that fold instead of each folding the game from zero, each only until
its own checkpoint is built, and every checkpoint it passes is kept, and handed to the
database.

A checkpoint leaves out the game's play log (every event folded into its rule state, about a
quarter of a kilobyte an event, shared by every later version): a fold from a checkpoint
carries only the events it folded, and when it meets a ruling's ``DecisionsVoided``, whose
refold needs the play from the start, the log is read back from the store first
(:func:`played`). The game after the void is then a checkpoint of its own, so this happens
once a void.
"""

from __future__ import annotations

import bisect
import threading
import zlib
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING
from uuid import UUID

import msgspec

from domain.events import META_EVENTS
from domain.game import Game, PlayLog, Recorded, apply
from projections.board_store import decode, exact, setup_of

if TYPE_CHECKING:
    from projections.board_store import StoredBoards

LoadEvents = Callable[[UUID, int, int], list[Recorded]]  # (game, after, upto) -> events
# The fold of a stretch done elsewhere (api/budgets.py: in a worker process): from a game's
# checkpoint row (None: the beginning) through events (msgspec JSON), the version and row (None:
# one a row cannot carry exactly) of each checkpoint passed (api/work.py, ``checkpoints``)
FoldAway = Callable[[bytes | None, bytes], list[tuple[int, bytes | None]]]
BUILD_STRETCH = 256  # versions folded (one read of the store) each time the checkpoints' builder holds their lock
CHECKPOINTS = 2048  # boards kept in memory, all games together (a few kB each; 17 kB for a Saxon Shore board read back alone)


@dataclass
class _Checkpoints:
    """One game's checkpoints in memory: the game at each of ``versions`` (sorted); version 0
    is the empty game (None), always there."""

    games: dict[int, Game | None] = field(default_factory=lambda: {0: None})
    versions: list[int] = field(default_factory=lambda: [0])
    tails: dict[int, bytes] = field(default_factory=dict)  # a checkpoint's events to the end of its block, encoded
    building: threading.Lock = field(default_factory=threading.Lock)

    def below(self, version: int) -> int:
        """The highest checkpoint at or below ``version``."""
        return self.versions[bisect.bisect_right(self.versions, version) - 1]


_decode_events = msgspec.json.Decoder(list[Recorded]).decode


def _tail(events: list[Recorded]) -> bytes:
    return zlib.compress(msgspec.json.encode(events), 1)


def _events(tail: bytes) -> list[Recorded]:
    return _decode_events(zlib.decompress(tail))


def played(events: list[Recorded]) -> PlayLog | None:
    """The play log a game folded from ``events`` (its first on) holds, as
    :func:`domain.game.advance` builds it: every event but the audit ones, newest first."""
    log = None
    for event in events:
        if event.type not in META_EVENTS:
            log = PlayLog(event.version, event.typed(), log)
    return log


class Boards:
    """Checkpoints of the ``games`` most recently asked about, at most ``checkpoints`` in
    memory, backed by ``stored`` (the database's) when given."""

    def __init__(self, load_events: LoadEvents, every: int = 16, games: int = 256,
                 checkpoints: int = CHECKPOINTS, stored: StoredBoards | None = None):
        self._load = load_events
        self.every = every
        self._games = games
        self._max = checkpoints
        self.stored = stored
        self._checkpoints: OrderedDict[UUID, _Checkpoints] = OrderedDict()
        self._kept: OrderedDict[tuple[UUID, int], None] = OrderedDict()  # every checkpoint in memory, oldest use first
        self._lock = threading.Lock()

    def at(self, game_id: UUID, version: int, away: FoldAway | None = None) -> Game:
        """The game as it stood at ``version`` (1 <= version <= its current version); the
        missing checkpoints built by ``away`` when given (:meth:`between`)."""
        return self.between(game_id, version, version, away)[0]

    def quick(self, game_id: UUID, version: int) -> Game | None:
        """:meth:`at` when a checkpoint within a block below ``version`` is in memory or in
        the database (at most ``every - 1`` events to fold), else None: nothing is built."""
        points = self._points(game_id)
        return self._fold(game_id, points, version)[0] if self._near(game_id, points, version) else None

    def between(self, game_id: UUID, first: int, last: int, away: FoldAway | None = None) -> list[Game]:
        """The game as it stood at each version from ``first`` to ``last`` (1 <= first <=
        last <= its current version): one read of the store, one fold. The checkpoints missing
        below ``first`` are built by ``away`` when given (each stretch it cannot fold exactly,
        here), the last block's fold here."""
        points = self._points(game_id)
        if self._near(game_id, points, first):
            return self._fold(game_id, points, first, last)
        while True:
            # build the missing checkpoints once, a stretch at a time, so that a reader of an
            # earlier version waits for its own checkpoint only; the last stretch on the way
            with points.building:
                if self._near(game_id, points, first, stored=False):
                    break
                below = points.below(first)
                upto = min(below + BUILD_STRETCH, first - first % self.every) if away else below + BUILD_STRETCH
                if upto <= below or (not away and first - below <= BUILD_STRETCH):
                    return self._fold(game_id, points, first, last)
                if away is None or not self._fold_away(game_id, points, upto, away):
                    self._fold(game_id, points, upto)
        return self._fold(game_id, points, first, last)

    def keep(self, game_id: UUID, games: Iterable[Game]) -> None:
        """Games folded elsewhere (a verifier's replay): those standing at a checkpoint are
        kept, in memory and handed to the database, so no request folds that stretch again."""
        points = self._points(game_id)
        kept = [msgspec.structs.replace(g, log=None) for g in games
                if g.version % self.every == 0 and g.version not in points.games]
        for game in kept:
            self._keep(game_id, points, game)
        if kept and self.stored is not None:
            self.stored.put((game_id, g) for g in kept)

    @property
    def size(self) -> int:
        """Checkpoints held in memory."""
        return len(self._kept)

    def _points(self, game_id: UUID) -> _Checkpoints:
        with self._lock:
            points = self._checkpoints.get(game_id)
            if points is None:
                points = self._checkpoints[game_id] = _Checkpoints()
                while len(self._checkpoints) > self._games:
                    gone, old = self._checkpoints.popitem(last=False)
                    for version in old.versions[1:]:
                        self._kept.pop((gone, version), None)
            else:
                self._checkpoints.move_to_end(game_id)
            return points

    def _near(self, game_id: UUID, points: _Checkpoints, version: int, stored: bool = True) -> bool:
        """Whether a checkpoint within a block below ``version`` is in memory (fetching the
        database's nearest into memory first, when ``stored`` and memory has none)."""
        block = version - version % self.every
        with self._lock:
            below = points.below(version)
            if below in points.games and below >= block:
                self._touch(game_id, below)
                return True
        if not stored or self.stored is None or block == 0:
            return False
        found = self.stored.nearest(game_id, version)
        if found is None or found.version <= below:
            return False
        self._keep(game_id, points, found)
        return found.version >= block

    def _touch(self, game_id: UUID, version: int) -> None:
        if (game_id, version) in self._kept:
            self._kept.move_to_end((game_id, version))

    def _keep(self, game_id: UUID, points: _Checkpoints, game: Game) -> None:
        """Hold ``game`` as a checkpoint in memory, dropping the least recently used beyond
        the bound (every game's together)."""
        with self._lock:
            if game.version in points.games:
                self._touch(game_id, game.version)
                return
            points.games[game.version] = game
            bisect.insort(points.versions, game.version)
            self._kept[(game_id, game.version)] = None
            while len(self._kept) > self._max:
                (gone, version), _ = self._kept.popitem(last=False)
                old = self._checkpoints.get(gone)
                if old is not None and version in old.games:
                    del old.games[version]
                    old.versions.remove(version)
                    old.tails.pop(version, None)

    def _end(self, version: int) -> int:
        """The last version of the block a checkpoint at ``version`` starts (or is inside)."""
        return version - version % self.every + self.every - 1

    def _fold(self, game_id: UUID, points: _Checkpoints, first: int, last: int | None = None) -> list[Game]:
        """Fold from the checkpoint below ``first`` up to ``last`` (``first`` when None),
        keeping the checkpoints passed (in memory, and handed to the database) and the events
        of each whole block read (in memory, with its checkpoint: the next fold in that block
        reads nothing from the store); the games at ``first`` to ``last``."""
        last = first if last is None else last
        with self._lock:
            start = points.below(first)
            game = points.games[start]
            tail = points.tails.get(start) if last <= self._end(start) else None
            self._touch(game_id, start)
        # within a block, its events to the block's end: the block's tail, kept for the next fold
        events = _events(tail) if tail is not None else self._load(game_id, start, max(last, self._end(start)))
        games = [game] if start == first else []
        passed: list[Game] = []
        for event in events:
            if event.version > last:
                break
            if event.type == "DecisionsVoided" and start:
                # the refold needs the play from the start, which a checkpoint leaves out
                game = msgspec.structs.replace(game, log=played(self._load(game_id, 0, event.version - 1)))
            game = apply(game, event)
            if (event.version % self.every == 0 or event.type == "DecisionsVoided") and event.version not in points.games:
                kept = msgspec.structs.replace(game, log=None)
                self._keep(game_id, points, kept)
                passed.append(kept)
            if event.version >= first:
                games.append(game)
        if tail is None:
            self._keep_tails(points, start, events)
        if passed and self.stored is not None:
            self.stored.put((game_id, g) for g in passed)
        if game is None or game.version != last or not games:
            raise LookupError(f"game {game_id} has no version {last}")
        return games

    def _fold_away(self, game_id: UUID, points: _Checkpoints, upto: int, away: FoldAway) -> bool:
        """:meth:`_fold` up to ``upto``, its fold done by ``away``: the checkpoints it passed
        kept (in memory, and their rows handed to the database as they are), the events read
        kept as tails. False, nothing done, when the fold must be here: a void after a
        checkpoint (its refold needs the play log a row leaves out), a board its row cannot
        carry exactly."""
        with self._lock:
            start = points.below(upto)
            game = points.games[start]
        events = self._load(game_id, start, upto)
        if start and any(e.type == "DecisionsVoided" for e in events):
            return False
        setup = None if game is None else self._setup(game_id, game)
        begin = None if game is None else exact(game, setup)
        if game is not None and begin is None:
            return False
        rows = away(begin, msgspec.json.encode(events))
        if not rows or any(data is None for _, data in rows):
            return False
        passed: list[tuple[UUID, int, bytes]] = []
        for version, data in rows:
            if version not in points.games:
                board = decode(data, lambda header: self._setup(game_id, header) if setup is None else setup)
                setup = self._setup(game_id, board) if setup is None else setup
                self._keep(game_id, points, board)
                passed.append((game_id, version, data))
        self._keep_tails(points, start, events)
        if passed and self.stored is not None:
            self.stored.put_rows(passed)
        return True

    def _setup(self, game_id: UUID, game: Game) -> object:
        return setup_of(game) if self.stored is None else self.stored.setup(game_id, game)

    def _keep_tails(self, points: _Checkpoints, start: int, events: list[Recorded]) -> None:
        """Keep the events of each whole block after a checkpoint in memory that ``events``
        (the store's, from ``start`` on) cover."""
        if not events:
            return
        with self._lock:
            for version in points.versions[bisect.bisect_left(points.versions, start):]:
                end = self._end(version)
                if end > events[-1].version:
                    break
                if version not in points.tails:
                    points.tails[version] = _tail(events[version - start:end - start])
