"""How ``decide`` works: the decision context (emit events, roll dice, queue jobs, ask), the
registries of jobs and prompt answers, and the run of the turn to the next decision."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import msgspec

from domain.dice import STANDARD_DICE
from domain.events import EventData, Outcome
from domain.rng import Rng
from domain.rules.base import RuleViolation
from domain.rules.saxon_shore.data import Board
from domain.rules.saxon_shore.evolve import evolve
from domain.rules.saxon_shore.events import (
    BattleSet,
    Declared,
    EventDrawn,
    Flow,
    GameDecided,
    PlayerSet,
    ProvinceSet,
    Resolved,
    TurnBegan,
    UnitsSet,
)
from domain.rules.saxon_shore.state import (
    NO_RES,
    Battle,
    Job,
    Player,
    Prompt,
    Province,
    Res,
    SaxonState,
    Unit,
    res_add,
    victory,
)

D6 = STANDARD_DICE["d6"]


def violation(reason: str, message: str, rule: str) -> RuleViolation:
    return RuleViolation(f"saxon-shore.{reason}", message, rule)


# -- the decision context ------------------------------------------------------------------------
JobFn = Callable[["Ctx", Job], None]
ChoiceFn = Callable[["Ctx", Prompt, str], None]
JOBS: dict[str, JobFn] = {}
CHOICES: dict[str, ChoiceFn] = {}
# Prompt kinds whose answers are composed rather than listed: a check that an option not in
# ``prompt.options`` is still a valid answer (the listed ones are examples of the form).
COMPOSED: dict[str, Callable[[SaxonState, Prompt, str], bool]] = {}
# Prompt kinds whose options spend tokens: whether an option can still be paid (a seat may
# hire a mercenary, "at any time", before it answers).
AFFORDABLE: dict[str, Callable[[SaxonState, Prompt, str], bool]] = {}


def option_ok(state: SaxonState, prompt: Prompt, option: str) -> bool:
    """Whether ``option`` answers the open question now."""
    composed = COMPOSED.get(prompt.kind)
    if option not in prompt.options and not (composed and composed(state, prompt, option)):
        return False
    affordable = AFFORDABLE.get(prompt.kind)
    return affordable is None or affordable(state, prompt, option)


def job(kind: str):
    def register(fn: JobFn) -> JobFn:
        JOBS[kind] = fn
        return fn
    return register


def choice(kind: str):
    def register(fn: ChoiceFn) -> ChoiceFn:
        CHOICES[kind] = fn
        return fn
    return register


class Ctx:
    """What ``decide`` works through: the state as its events leave it so far, the
    events themselves, the job queue and the prompt to leave open."""

    def __init__(self, state: SaxonState, rng: Rng):
        self.state = state
        self.rng = rng
        self.events: list[EventData] = []
        self.jobs: list[Job] = list(state.jobs)
        self.prompt: Prompt | None = state.prompt
        self.phase = state.phase
        self.stage = state.stage
        self.storms = list(state.storms)
        self._checked: tuple[tuple, Outcome | None] | None = None

    # events and dice
    def emit(self, event: EventData) -> None:
        self.events.append(event)
        self.state = evolve(self.state, event)

    def roll(self, count: int, purpose: str, seat: str | None = None) -> list[int]:
        event = self.rng.roll(D6, count, purpose, seat)
        self.emit(event)
        return [int(f) for f in event.faces]

    def d6(self, purpose: str, seat: str | None = None) -> int:
        return self.roll(1, purpose, seat)[0]

    def note(self, what: str, seat: str | None = None, province: str | None = None, **detail: int | str) -> None:
        self.emit(Resolved(what=what, seat=seat, province=province, detail=detail))

    # state changes
    @property
    def board(self) -> Board:
        return self.state.board

    def prov(self, name: str) -> Province:
        return self.state.provinces[name]

    def set_prov(self, name: str, why: str, **changes: Any) -> None:
        self.emit(ProvinceSet(name=name, province=msgspec.structs.replace(self.prov(name), **changes), why=why))

    def player(self, seat: str) -> Player:
        return self.state.players[seat]

    def set_player(self, seat: str, why: str, **changes: Any) -> None:
        self.emit(PlayerSet(seat=seat, player=msgspec.structs.replace(self.player(seat), **changes), why=why))

    def gain(self, seat: str, changes: dict[str, int], why: str) -> None:
        if changes:
            self.set_player(seat, why, res=res_add(self.player(seat).res, changes))

    def pay(self, seat: str, pay: Iterable[str], why: str) -> None:
        changes: dict[str, int] = {}
        for name in pay:
            changes[name] = changes.get(name, 0) - 1
        self.gain(seat, changes, why)

    def add_units(self, kind: str, owner: str | None, loc: str, why: str, count: int = 1, **kw: Any) -> list[int]:
        first = self.state.next_unit
        units = [Unit(id=first + i, kind=kind, owner=owner, loc=loc, **kw) for i in range(count)]
        if units:
            self.emit(UnitsSet(units=units, why=why))
        return [u.id for u in units]

    def update_units(self, units: list[Unit], why: str) -> None:
        if units:
            self.emit(UnitsSet(units=units, why=why))

    def remove_units(self, ids: Iterable[int], why: str) -> None:
        ids = sorted(set(ids))
        if ids:
            self.emit(UnitsSet(removed=ids, why=why))

    def morale(self, prov: str, step: int, why: str) -> None:
        """§2.1: increase (+1) or decrease (-1) morale by one marker."""
        current = self.prov(prov).morale
        new = max(-1, min(1, current + step))
        if new != current:
            self.set_prov(prov, why, morale=new)

    def set_owner(self, prov: str, seat: str | None, why: str) -> None:
        self.set_prov(prov, why, owner=seat)

    def set_battle(self, battle: Battle | None) -> None:
        self.emit(BattleSet(battle=battle))

    # flow
    def push(self, *jobs: Job) -> None:
        """Run these next, before the rest of the queue."""
        self.jobs[0:0] = list(jobs)

    def ask(self, kind: str, seat: str, options: Iterable[str], **kw: Any) -> None:
        self.prompt = Prompt(kind=kind, seat=seat, options=tuple(options), **kw)

    def flow_event(self) -> Flow:
        return Flow(phase=self.phase, stage=self.stage, jobs=list(self.jobs), prompt=self.prompt,
                    storms=list(self.storms), won=self.victory())

    def declare(self, entries: list[tuple[str, str, str]]) -> None:
        self.emit(Declared(declared=[list(e) for e in entries]))  # type: ignore[misc]

    def victory(self) -> Outcome | None:
        """§1 victory of the state so far, recomputed only when provinces or players changed."""
        key = (self.state.provinces, self.state.players, self.state.turn)
        if self._checked is None or any(a is not b for a, b in zip(key, self._checked[0])):
            self._checked = (key, victory(self.state))
        return self._checked[1]

    def over(self) -> bool:
        return self.state.ended is not None or self.victory() is not None

    def decided(self, outcome: Outcome) -> None:
        self.emit(GameDecided(outcome=outcome))

    def begin_turn(self, turn: int, order: list[str]) -> None:
        self.emit(TurnBegan(turn=turn, order=order))

    def drawn(self, seat: str, number: int, title: str) -> None:
        self.emit(EventDrawn(seat=seat, number=number, title=title))


def run(ctx: Ctx) -> None:
    """Run queued jobs until one waits for a decision or the game is decided."""
    while ctx.prompt is None:
        if ctx.over():
            ctx.jobs.clear()
            return
        if not ctx.jobs:
            ctx.jobs.append(Job("begin_turn"))
        step = ctx.jobs.pop(0)
        if step.seat and step.seat in ctx.state.players and not ctx.state.players[step.seat].alive:
            continue
        JOBS[step.kind](ctx, step)


def no_res() -> Res:
    return NO_RES
