"""The analysis service (issue 19): who may ask, which boards, and the jobs of the worker pool
(:mod:`analysis.pool`) that compute them, cached per game version, policy, rollouts and what
the reader may see."""

from __future__ import annotations

import os
from typing import Any
from uuid import UUID

from analysis import engine
from analysis.pool import Analyst, Busy, Job
from analysis.rollout import POLICIES, policies
from api import work
from api.budgets import Ticket
from api.errors import Forbidden, HeraldError, Invalid, NotFound
from api.services.games import Games
from domain.game import Game


def analyst_from_env(environ: dict[str, str] | None = None) -> Analyst:
    """The pool: ``HERALD_ANALYSIS_WORKERS`` processes (2), ``HERALD_ANALYSIS_BUDGET`` seconds a job (120),
    niced as the expensive reads' workers are (``HERALD_READ_WORKER_NICENESS``, 10)."""
    env = os.environ if environ is None else environ
    return Analyst(int(env.get("HERALD_ANALYSIS_WORKERS", 2)), float(env.get("HERALD_ANALYSIS_BUDGET", 120)),
                   int(env.get("HERALD_READ_WORKER_NICENESS", 10)))


class AnalysisBusy(HeraldError):
    """Too many analyses running at once (analysis.pool.RUNNING_JOBS): ask again later."""

    status, title, code = 503, "Service unavailable", "analysis_busy"


def _start(analyst: Analyst, *args: Any) -> Job:
    try:
        return analyst.job(*args)
    except Busy as error:
        raise AnalysisBusy(f"{error}: ask again in a few seconds", retry_after=5) from None


def _refuse_if_busy(analyst: Analyst) -> None:
    """Before folding the game's boards (the cost of a new job), refuse one the pool has no room for."""
    if analyst.busy():
        raise AnalysisBusy("too many analyses are running: ask again in a few seconds", retry_after=5)


class Analyses:
    def __init__(self, games: Games, analyst: Analyst):
        self.games = games
        self.analyst = analyst

    def _game(self, game_id: UUID, token: str | None, policy: str,
              ticket: Ticket) -> tuple[Game, frozenset[str] | None]:
        """The game, if this reader may have it analysed, and the seats whose secrets it sees
        (None: everything). A game this process does not hold is folded on the ticket (an
        expensive read: api/budgets.py), from its board checkpoints."""
        game = self._current(game_id, ticket)
        rules = game.created.rules
        offered = policies(game.rules)
        if not offered:
            raise Invalid(f"{rules} does not play itself: its games cannot be analysed by rollouts",
                          code="analysis_unavailable")
        if policy not in offered:
            raise Invalid(f"policy is one of {', '.join(offered)} for {rules}, not {policy!r}"
                          + (" (it declares no habit of its own)" if policy in POLICIES else ""),
                          code="unknown_policy")
        study = game.created.study or game.created.fork is not None
        if not game.ended and not study:
            raise Forbidden("no engine help during play: a game is analysed once it has ended, or as a study fork",
                            code="analysis_of_live_game")
        reader = self.games.reader(game_id, token, game)
        played = self._origin_in_play(game, ticket)
        if played is not None and not self.games.secrets.is_admin(token):
            raise Forbidden(f"no engine help during play: this fork branches from game {played}, which is still "
                            "being played; its forks are analysed once it has ended (or by the umpire)",
                            code="analysis_of_live_game")
        seen = None if reader.everything or not game.rules.has_secrets else reader.seats
        return game, seen

    def _current(self, game_id: UUID, ticket: Ticket) -> Game:
        return self.games.current(game_id, ticket.checkpoints(self.games.boards.every))

    def _origin_in_play(self, game: Game, ticket: Ticket) -> UUID | None:
        """The game a fork (or a fork of a fork) branches from that is still being played, if
        any: forking a live game must not be a way round the rule above. A study game is
        never "in play"."""
        while game.created.fork is not None:
            parent_id = UUID(game.created.fork.game)
            game = self._current(parent_id, ticket)
            if not game.ended and not game.created.study:
                return parent_id
        return None

    def _boards(self, game_id: UUID, ticket: Ticket) -> list[Any]:
        """The game's boards for a new job, folded in a worker on the request's ``ticket`` once it
        is admitted and the analyst has room for a new job."""
        ticket.admit()
        _refuse_if_busy(self.analyst)
        return ticket.run(work.positions, work.encode_events(self.games.store.stream(game_id)))

    def analysis(self, game_id: UUID, token: str | None, policy: str, rollouts: int, ticket: Ticket) -> Job:
        """The job of a game's analysis; a new one starts on the request's ``ticket`` (its
        client's share of the expensive reads, api/budgets.py), which pays for its boards' fold."""
        game, seen = self._game(game_id, token, policy, ticket)
        key = ("game", game_id, game.version, policy, rollouts, seen)
        found = self.analyst.cached(key)
        if found is not None:
            return found
        boards = self._boards(game_id, ticket)
        seats = tuple(game.created.seats)
        units = engine.game_units(game.rules, boards, seen, policy, rollouts, str(game_id))
        return _start(self.analyst, key, units, len(boards), lambda tallies, complete: engine.game_analysis(
            game.rules, boards, tallies, policy, rollouts, seats, complete))

    def commands(self, game_id: UUID, version: int, token: str | None, policy: str, rollouts: int,
                 ticket: Ticket) -> Job:
        """The job of one step's ranked commands, started as :meth:`analysis` starts one."""
        game, seen = self._game(game_id, token, policy, ticket)
        key = ("commands", game_id, game.version, version, policy, rollouts, seen)
        found = self.analyst.cached(key)
        if found is not None:
            return found
        boards = self._boards(game_id, ticket)
        board = next((b for b in boards if b.version == version), None)
        if board is None:
            raise NotFound(f"no decision was taken from version {version}: the boards analysed are "
                           f"{', '.join(str(b.version) for b in boards[:8])}{', …' if len(boards) > 8 else ''}",
                           code="no_such_position")
        rules = game.rules
        seat = board.seat or next(iter(rules.to_act(board.state)), None)
        if seen is not None and seat is not None and seat not in seen:
            raise Forbidden(f"the commands {seat} had at version {version} name its hidden cards: only {seat} "
                            "may see them before the seed is revealed", code="hidden_commands")
        seats = tuple(game.created.seats)
        commands, units = engine.command_units(rules, board, seen, policy, rollouts, str(game_id))
        return _start(self.analyst, key, units, len(commands), lambda tallies, complete: engine.ranked_commands(
            rules, board, commands, tallies, policy, rollouts, seats, complete))


