"""Board state at any version, from cached checkpoints: a request folds at most
``every - 1`` events, never the whole game from zero."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from uuid import UUID

from domain.game import Game, Recorded, apply

LoadEvents = Callable[[UUID, int, int], list[Recorded]]  # (game, after, upto) -> events


class Boards:
    """Checkpoints every ``every`` versions for the ``games`` most recently asked about."""

    def __init__(self, load_events: LoadEvents, every: int = 16, games: int = 256):
        self._load = load_events
        self._every = every
        self._games = games
        self._checkpoints: OrderedDict[UUID, dict[int, Game]] = OrderedDict()
        self._lock = threading.Lock()

    def at(self, game_id: UUID, version: int) -> Game:
        """The game as it stood at ``version`` (1 <= version <= its current version)."""
        with self._lock:
            points = self._checkpoints.get(game_id, {})
            self._checkpoints[game_id] = points
            self._checkpoints.move_to_end(game_id)
            while len(self._checkpoints) > self._games:
                self._checkpoints.popitem(last=False)
            start = max((v for v in points if v <= version), default=0)
            game = points.get(start)
        history = lambda upto: self._load(game_id, 0, upto)  # noqa: E731 - for DecisionsVoided
        for event in self._load(game_id, start, version):
            game = apply(game, event, history)
            if event.version % self._every == 0:
                with self._lock:
                    points[event.version] = game
        if game is None or game.version != version:
            raise LookupError(f"game {game_id} has no version {version}")
        return game
