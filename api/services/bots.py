"""Bot seats (issue 29), played in the background: after every write of this process, a game
whose bot seat is to act gets its move from :func:`analysis.bot.choose` on one worker thread,
recorded through the games service's committer as ``BotPlayed`` (policy, rollouts, candidates)
then the seat's ``DecisionTaken`` and whatever the rules cause — after the human's command is
committed and answered, never inside its request. The choice is computed off the committer and
recorded only if the game is still at the version it was chosen from (else chosen again)."""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Iterable
from typing import TYPE_CHECKING
from uuid import UUID

from analysis.bot import Choice, NoMove, choose
from api import clock
from api.committer import Decided
from api.errors import HeraldError
from domain.events import BotPlayed
from domain.game import Game, chain, game_rng, project_game, resolve_decision
from domain.rules.base import RuleViolation

if TYPE_CHECKING:
    from api.services.games import Games

log = logging.getLogger("herald.bots")


class Stale(Exception):
    """The game moved on while the bot was choosing."""


class Bots:
    """The one bot worker of a process."""

    def __init__(self, games: Games):
        self.games = games
        self._queue: queue.Queue[UUID | None] = queue.Queue()
        self._waiting: set[UUID] = set()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        if self._thread is not None:
            return
        self.games.committer.written_hooks.append(self.written)
        self.games.bot_hooks.append(self.nudge)
        self._thread = threading.Thread(target=self._run, name="herald-bots", daemon=True)
        self._thread.start()

    def close(self) -> None:
        thread, self._thread = self._thread, None
        if thread is not None:
            self._queue.put(None)
            thread.join(timeout=30)

    def written(self, game_ids: Iterable[UUID], _events: object = ()) -> None:
        """A written hook of the games service: look at each game written (cheap, any thread)."""
        for game_id in game_ids:
            self.nudge(game_id)

    def nudge(self, game_id: UUID) -> None:
        with self._lock:
            if game_id in self._waiting:
                return
            self._waiting.add(game_id)
        self._queue.put(game_id)

    def _run(self) -> None:
        while (game_id := self._queue.get()) is not None:
            with self._lock:
                self._waiting.discard(game_id)
            try:
                self.move(game_id)
            except Stale:
                self.nudge(game_id)
            except (NoMove, RuleViolation, HeraldError) as error:
                log.warning("bot of game %s did not move: %s", game_id, error)
            except Exception:  # the worker must outlive one bad game
                log.exception("bot of game %s failed", game_id)

    def move(self, game_id: UUID) -> bool:
        """Play the bot seat to act in this game, if any; whether one moved."""
        game = self.games.game(game_id)
        if game.seating is None or not game.seating.bots:
            return False
        seat = next((s for s in game.to_act() if s in game.seating.bots), None)
        if seat is None:
            return False
        bot = game.seating.bots[seat]
        choice = choose(game.rules, game.state, seat, game.next_draw, bot.policy, bot.rollouts,
                        key=f"{game.id}|{game.version}|{seat}")
        self.record(game_id, game.version, seat, bot.policy, choice)
        return True

    def record(self, game_id: UUID, version: int, seat: str, policy: str, choice: Choice) -> None:
        games = self.games
        seed = games.secrets.server_seed(game_id)

        def decide(game: Game) -> Decided:
            if game.version != version:
                raise Stale()
            now = clock.now()
            played = chain(game.id, game.version + 1, game.head,
                           [BotPlayed(seat=seat, policy=policy, rollouts=choice.rollouts,
                                      candidates=choice.candidates)], now)
            before = project_game(game, played)
            decision = resolve_decision(before, seat, choice.command, game_rng(before, seed), now, seed)
            return Decided(played + decision.events, decision.game, lambda: None)

        games._warm(game_id)
        games.committer.run(game_id, decide)
