"""Clocks as the server reads them now (issue 29): each seat's time left, and when a
running clock's flag falls. Recording a fall is the games service's (``Games.touch`` and
every write to a game); finding the games whose flag may have fallen is the sweep's
(:class:`ClockSweep`)."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

from api import clock
from api.periodic import Periodic
from api.wire.games import GameClock, SeatClock
from domain import clocks as timing
from domain.chain import iso
from domain.game import Game

log = logging.getLogger("herald")


def clock_reading(game: Game, now: datetime) -> GameClock | None:
    """A clocked game's clocks at ``now`` (None: the game has no clock)."""
    if game.clocks is None or game.created.clock is None:
        return None
    control, clocks = game.created.clock, game.clocks
    seats = {}
    for seat, left in clocks.left.items():
        running = clocks.running.get(seat)
        if running is None or game.ended:
            seats[seat] = SeatClock(left, False)
            continue
        allowed = timing.allowed_ms(control, clocks, seat)
        shown = min(left, allowed - timing.elapsed_ms(running[1], now))  # a delay's free time first
        seats[seat] = SeatClock(max(0, shown), True, iso(running[1] + timedelta(milliseconds=allowed + 1)))
    return GameClock(control, seats, clocks.flagged)


def deadline(game: Game) -> datetime | None:
    """The earliest moment a running clock of ``game`` has fallen (None: none runs)."""
    if game.clocks is None or game.created.clock is None or game.ended:
        return None
    times = [started + timedelta(milliseconds=timing.allowed_ms(game.created.clock, game.clocks, seat) + 1)
             for seat, (_, started) in game.clocks.running.items()]
    return min(times) if times else None


class ClockSweep:
    """Every ``seconds``, the games whose earliest flag time has passed (by the turns read
    model's deadlines) are touched: a fallen flag is recorded though nobody writes to the
    game. Any number of processes may sweep: a fall is recorded once (the committer's
    optimistic write; the second finds no flag standing)."""

    def __init__(self, games: Any, turns: Any, seconds: float):
        self.games, self.turns, self.seconds = games, turns, seconds
        self.rounds = Periodic(self.sweep, seconds, "clock sweep")

    def sweep(self) -> int:
        """Touch every game whose flag time has passed; how many games were touched."""
        self.turns.catch_up()
        due = self.turns.due(clock.now())
        for game_id in due:
            try:
                self.games.touch(game_id)
            except Exception:
                log.warning("clock sweep: game %s", game_id, exc_info=True)
        return len(due)
