"""Board state at any version, from cached checkpoints every ``every`` versions.

A request folds at most ``every - 1`` events from the checkpoint below it (a run of
versions, :meth:`Boards.between`, folds from the checkpoint below its first). The checkpoints
a request needs that are not built yet are built by folding on from the highest one, one
fold per game at a time, a stretch of ``BUILD_STRETCH`` versions at a time: requests
arriving together for a game seen for the first time wait for that fold instead of each
folding the game from zero, each only until its own checkpoint is built.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from uuid import UUID

from domain.game import Game, Recorded, apply

LoadEvents = Callable[[UUID, int, int], list[Recorded]]  # (game, after, upto) -> events
BUILD_STRETCH = 256  # versions folded (one read of the store) each time the checkpoints' builder holds their lock


@dataclass
class _Checkpoints:
    """One game's checkpoints: versions every, 2*every, ... up to ``top``, all present."""

    games: dict[int, Game | None] = field(default_factory=lambda: {0: None})
    top: int = 0
    building: threading.Lock = field(default_factory=threading.Lock)


class Boards:
    """Checkpoints for the ``games`` most recently asked about."""

    def __init__(self, load_events: LoadEvents, every: int = 16, games: int = 256):
        self._load = load_events
        self.every = every
        self._games = games
        self._checkpoints: OrderedDict[UUID, _Checkpoints] = OrderedDict()
        self._lock = threading.Lock()

    def at(self, game_id: UUID, version: int) -> Game:
        """The game as it stood at ``version`` (1 <= version <= its current version)."""
        return self.between(game_id, version, version)[0]

    def between(self, game_id: UUID, first: int, last: int) -> list[Game]:
        """The game as it stood at each version from ``first`` to ``last`` (1 <= first <=
        last <= its current version): one read of the store, one fold."""
        points = self._points(game_id)
        while first - self._below(points, first) >= self.every:
            # build the missing checkpoints once, a stretch at a time, so that a reader of an
            # earlier version waits for its own checkpoint only; the last stretch on the way
            with points.building:
                below = self._below(points, first)
                if first - below <= BUILD_STRETCH:
                    return self._fold(game_id, points, first, last)
                self._fold(game_id, points, below + BUILD_STRETCH)
        return self._fold(game_id, points, first, last)

    def keep(self, game_id: UUID, game: Game) -> None:
        """A game folded elsewhere, version after version from the first (a verifier's replay):
        kept when it is the next checkpoint, so no request folds that stretch again."""
        points = self._points(game_id)
        if game.version == points.top + self.every:
            points.games[game.version] = game
            points.top = game.version

    def _points(self, game_id: UUID) -> _Checkpoints:
        with self._lock:
            points = self._checkpoints.get(game_id)
            if points is None:
                points = self._checkpoints[game_id] = _Checkpoints()
                while len(self._checkpoints) > self._games:
                    self._checkpoints.popitem(last=False)
            else:
                self._checkpoints.move_to_end(game_id)
            return points

    def _below(self, points: _Checkpoints, version: int) -> int:
        return min(version - version % self.every, points.top)

    def _fold(self, game_id: UUID, points: _Checkpoints, first: int, last: int | None = None) -> list[Game]:
        """Fold from the checkpoint below ``first`` up to ``last`` (``first`` when None),
        keeping the checkpoints passed; the games at ``first`` to ``last``."""
        last = first if last is None else last
        start = self._below(points, first)
        game = points.games[start]
        games = [game] if start == first else []
        for event in self._load(game_id, start, last):
            game = apply(game, event)
            if event.version % self.every == 0 and event.version > points.top:
                points.games[event.version] = game
                points.top = event.version
            if event.version >= first:
                games.append(game)
        if game is None or game.version != last or not games:
            raise LookupError(f"game {game_id} has no version {last}")
        return games
