"""Positions reached by play from the opening (issue 26 point 19): each seat picks its starting
province (§10), then the test plays commands through the engine, saying ``done`` to every phase it
does not care about. Every die is planned: a test forces the faces it names (tests/rules/scripted.py,
by the start of a roll's purpose) and the turn's own rolls show quiet faces (``QUIET``: kings live,
mercenaries stay, the set-up mercenaries and the §3.4 roll go to far Orkney, each seat's random
event is 52 An assassin, which it declines, no ravage marker is removed). A die nobody planned
fails the test, so a position is what the test says it is."""

from __future__ import annotations

import copy
from typing import Any

import msgspec

from domain.rng import SeededRng
from tests.rules.scripted import Script, ScriptedRng

from .helpers import DONE, SEED, decision, new_game

QUIET: dict[str, list[int]] = {
    "set-up mercenary": [1, 2],  # Orkney (row 1, column 2)
    "does the king die?": [1],
    "mercenary desertion": [1],
    "random event (§11)": [5, 2],  # 52 An assassin: the drawer answers "none" (ANSWERS)
    "random province improvement": [1, 2],  # Orkney
    "improvement in neutral Orkney": [3],  # its morale rises, nothing else
    "ravage removal": [1],
}
EVENT = "random event (§11)"
ANSWERS = {"assassin": "none"}  # questions a test that does not name them answers so


class PlannedRng(ScriptedRng):
    """Forced faces first (the script), then the quiet faces; any other die is an error."""

    def __init__(self, play: Play):
        super().__init__(play.script, play.game)
        self.quiet = play.quiet
        self.drawn = play.drawn

    def roll(self, kind, count: int, purpose: str, seat: str | None = None):
        if purpose.startswith(EVENT) and self.drawn.get(seat) and not self.script.faces.get(EVENT):
            number = self.drawn[seat].pop(0)
            rolled = SeededRng.roll(self, kind, count, purpose, seat)
            return msgspec.structs.replace(rolled, faces=[number // 10, number % 10])
        queue = next((q for key, q in self.script.faces.items() if q and purpose.startswith(key)), None)
        if queue is not None:
            assert len(queue) >= count, f"{count} dice wanted for {purpose!r}, {len(queue)} forced"
            return super().roll(kind, count, purpose, seat)
        quiet = next((faces for key, faces in self.quiet.items() if purpose.startswith(key)), None)
        if quiet is None:
            raise AssertionError(f"no dice planned for {purpose!r}")
        rolled = SeededRng.roll(self, kind, count, purpose, seat)
        return msgspec.structs.replace(rolled, faces=(quiet * count)[:count])


class Play:
    """A game from the opening: ``starts`` are the seats' starting provinces in seat order
    (p1, p2, ...). ``quiet`` replaces quiet faces (by purpose); ``events``: by seat, the numbers
    of the next random events that seat draws (§11), one a turn; ``dice``: forced faces."""

    def __init__(self, *starts: str, options: dict[str, Any] | None = None,
                 quiet: dict[str, list[int]] | None = None, dice: dict[str, list[int]] | None = None,
                 events: dict[str, list[int]] | None = None):
        self.script = Script(seed=SEED)
        self.drawn = {seat: list(numbers) for seat, numbers in (events or {}).items()}
        self.quiet = {**QUIET, **(quiet or {})}
        self.game = new_game(len(starts), options)
        self.events: list = []  # the last decision's events (typed)
        self.log: list = []  # every decision's
        self.force(dice or {})
        for i, province in enumerate(starts, start=1):
            self.choose(f"p{i}", province)

    @property
    def state(self):
        return self.game.state

    def force(self, dice: dict[str, list[int]]) -> Play:
        """The next rolls whose purpose starts with a key show these faces."""
        for key, faces in dice.items():
            self.script.faces.setdefault(key, []).extend(faces)
        return self

    def act(self, seat: str, command: dict[str, Any], dice: dict[str, list[int]] | None = None) -> Play:
        """One decision through the engine; ``dice`` forced for it must all be used by it."""
        self.force(dice or {})
        stored, self.game = decision(self.game, seat, command, PlannedRng(self))
        self.stored = list(stored)  # the last decision's records
        self.events = [e.typed() for e in stored]
        self.log += self.events
        if dice:
            left = {key: self.script.faces[key] for key in dice if self.script.faces.get(key)}
            assert not left, f"dice not used: {left}"
        return self

    def choose(self, seat: str, option: str, dice: dict[str, list[int]] | None = None) -> Play:
        return self.act(seat, {"type": "choose", "option": option}, dice)

    def done(self, seat: str | None = None, dice: dict[str, list[int]] | None = None) -> Play:
        return self.act(seat or self.state.prompt.seat, DONE, dice)

    def to(self, phase: str, seat: str = "p1", stage: int | None = None, turn: int | None = None,
           answers: dict[str, str] | None = None, asked: str = "phase") -> Play:
        """Say ``done`` to every phase (and answer ``ANSWERS``' questions) until ``seat`` is
        asked to play ``phase`` (``stage`` 1 or 2 of movement and combat; ``turn``); with
        ``asked``, until ``seat`` is asked that question (``phase`` then unused)."""
        answers = {**ANSWERS, **(answers or {})}
        for _ in range(20000):
            s = self.state
            p = s.prompt
            assert p is not None and not self.game.ended, "the game ended on the way"
            if ((p.kind == asked and (asked != "phase" or p.args[0] == phase)) and p.seat == seat
                    and (stage is None or s.stage == stage) and (turn is None or s.turn == turn)):
                return self
            if p.kind == "phase":
                self.done(p.seat)
            elif p.kind in answers:
                self.choose(p.seat, answers[p.kind])
            else:
                raise AssertionError(f"an unplanned question on the way: {p}")
        raise AssertionError(f"{seat} never asked to {phase}")

    def finish(self, limit: int = 3000) -> Play:
        """Say ``done`` (and answer ``ANSWERS``) until the game ends."""
        for _ in range(limit):
            if self.game.ended:
                return self
            p = self.state.prompt
            self.done(p.seat) if p.kind == "phase" else self.choose(p.seat, ANSWERS[p.kind])
        raise AssertionError("the game did not end")

    def move(self, seat: str, ids: list[int], path: list[str], dice: dict[str, list[int]] | None = None) -> Play:
        return self.act(seat, {"type": "move", "units": ids, "path": path}, dice)

    def ids(self, owner: Any = ..., kind: str | None = None, loc: str | None = None) -> list[int]:
        return [i for i, u in sorted(self.state.units.items())
                if (owner is ... or u.owner == owner) and (kind is None or u.kind == kind) and (loc is None or u.loc == loc)]

    def branch(self) -> Play:
        """Another game from this position (its own forced dice)."""
        other = copy.copy(self)
        other.script = copy.deepcopy(self.script)
        other.drawn = copy.deepcopy(self.drawn)
        other.log = list(self.log)
        return other


def cell(province: str) -> list[int]:
    """The two dice that name ``province`` on the random province table (row, column)."""
    from domain.rules.saxon_shore.data import BOARD

    return next([r + 1, c + 1] for r, row in enumerate(BOARD.table) for c, name in enumerate(row) if name == province)


def joining(*provinces: str) -> dict[str, list[int]]:
    """Dice: the next events 41 (family ties) fall on these neutral provinces, which join the
    drawer's kingdom (§11 41)."""
    return {"family ties: random province table": [face for p in provinces for face in cell(p)]}
