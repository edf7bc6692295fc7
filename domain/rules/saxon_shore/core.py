"""Shared machinery: the fold (``evolve``), read-only queries on the state, and the
decision context that ``decide`` works through (emit events, roll dice, queue jobs, ask)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import msgspec

from domain.dice import STANDARD_DICE
from domain.events import DecisionTaken, DiceRolled, EventData, Outcome
from domain.rng import Rng
from domain.rules.base import RuleViolation
from domain.rules.saxon_shore.board import RESOURCES, Board
from domain.rules.saxon_shore.model import (
    NO_RES,
    Battle,
    BattleSet,
    Declared,
    EventDrawn,
    Flow,
    GameDecided,
    Job,
    Player,
    PlayerSet,
    Prompt,
    Province,
    ProvinceSet,
    Res,
    Resolved,
    SaxonState,
    TurnBegan,
    Unit,
    UnitsSet,
)

D6 = STANDARD_DICE["d6"]
REGULAR_KINDS = ("regular", "knight", "berserker", "monk")
TROOP_KINDS = ("king", *REGULAR_KINDS, "mercenary", "peasant")


def violation(reason: str, message: str, rule: str) -> RuleViolation:
    return RuleViolation(f"saxon_shore.{reason}", message, rule)


# -- the fold ---------------------------------------------------------------------------------
def evolve(state: SaxonState, event: EventData) -> SaxonState:
    """Fold one event: every rule event carries its effect, so this only assigns."""
    replace = msgspec.structs.replace
    match event:
        case ProvinceSet(name=name, province=province):
            return replace(state, provinces={**state.provinces, name: province})
        case PlayerSet(seat=seat, player=player):
            return replace(state, players={**state.players, seat: player})
        case UnitsSet(units=units, removed=removed):
            table = dict(state.units)
            for uid in removed:
                table.pop(uid, None)
            top = state.next_unit
            for unit in units:
                table[unit.id] = unit
                top = max(top, unit.id + 1)
            return replace(state, units=table, next_unit=top)
        case TurnBegan(turn=turn, order=order):
            return replace(state, turn=turn, order=tuple(order))
        case BattleSet(battle=battle):
            return replace(state, battle=battle)
        case Flow(phase=phase, stage=stage, jobs=jobs, prompt=prompt, storms=storms, won=won):
            return replace(state, phase=phase, stage=stage, jobs=tuple(jobs), prompt=prompt, storms=tuple(storms),
                           won=won)
        case Declared(declared=declared):
            return replace(state, declared=tuple(tuple(d) for d in declared))
        case GameDecided(outcome=outcome):
            return replace(state, ended=outcome, prompt=None, jobs=())
        case DiceRolled() | DecisionTaken() | EventDrawn() | Resolved():
            return state
    return state


# -- queries ------------------------------------------------------------------------------------
def capacity(state: SaxonState, prov: str) -> int:
    """§2.1 carrying capacity: population -1 per ravage, +1 road, +1 city, +1 monastery."""
    if prov not in state.provinces:
        return 0
    p = state.provinces[prov]
    return max(0, state.board.population[prov] - p.ravage + p.road + p.city + p.monastery)


def alive(state: SaxonState) -> tuple[str, ...]:
    return tuple(s for s in state.order if state.players[s].alive)


def owned(state: SaxonState, seat: str) -> list[str]:
    """The seat's provinces, in map order."""
    provinces = state.provinces
    return [name for name in state.board.provinces if provinces[name].owner == seat]


def units_at(state: SaxonState, loc: str, owner: Any = ..., kinds: Iterable[str] | None = None) -> list[Unit]:
    kinds = tuple(kinds) if kinds is not None else None
    return [u for _, u in sorted(state.units.items())
            if u.loc == loc and (owner is ... or u.owner == owner) and (kinds is None or u.kind in kinds)]


def units_of(state: SaxonState, seat: str, kinds: Iterable[str] | None = None) -> list[Unit]:
    kinds = tuple(kinds) if kinds is not None else None
    return [u for _, u in sorted(state.units.items()) if u.owner == seat and (kinds is None or u.kind in kinds)]


def king_of(state: SaxonState, seat: str) -> Unit | None:
    return next((u for u in units_of(state, seat, ("king",))), None)


def is_christian_province(state: SaxonState, prov: str) -> bool:
    """A province's religion is its owner's; a neutral province is Christian when it has a
    monastery (RULES_NOTES.md)."""
    owner = state.provinces[prov].owner
    return state.players[owner].christian if owner else state.provinces[prov].monastery


def res_count(player: Player, name: str) -> int:
    return player.res[RESOURCES.index(name)]


def res_add(res: Res, changes: dict[str, int]) -> Res:
    out = list(res)
    for name, n in changes.items():
        out[RESOURCES.index(name)] += n
    return tuple(out)  # type: ignore[return-value]


def can_pay(player: Player, pay: Iterable[str]) -> bool:
    need: dict[str, int] = {}
    for name in pay:
        if name not in RESOURCES:
            return False
        need[name] = need.get(name, 0) + 1
    return all(res_count(player, n) >= k for n, k in need.items())


def held(player: Player) -> list[str]:
    """The kinds of resource a player holds at least one of."""
    return [n for n, k in zip(RESOURCES, player.res) if k > 0]


def encode_tokens(tokens: dict[str, int]) -> str:
    """``{"wheat": 1, "gold": 2}`` → ``wheat=1,gold=2`` (resource order, zero counts dropped)."""
    return ",".join(f"{k}={v}" for k, v in sorted(tokens.items(), key=lambda kv: RESOURCES.index(kv[0])) if v)


def decode_tokens(text: str) -> dict[str, int] | None:
    """The inverse of :func:`encode_tokens`; None when ``text`` is not such a list."""
    out: dict[str, int] = {}
    for part in text.split(","):
        name, eq, count = part.partition("=")
        if not eq or name not in RESOURCES or name in out or not count.isdigit() or int(count) < 1:
            return None
        out[name] = int(count)
    return out


def nearest_friendly(state: SaxonState, seat: str, start: str, free_of_enemies: bool = False) -> list[str]:
    """§2.1: the nearest friendly province(s): across normal borders, else counting sea zones."""
    def ok(p: str) -> bool:
        if state.provinces[p].owner != seat:
            return False
        if free_of_enemies:
            return not any(u.owner not in (None, seat) and u.kind != "boat" for u in units_at(state, p))
        return True
    for by_sea in (False, True):
        dist = state.board.distances(start, by_sea=by_sea)
        found = [p for p in state.board.provinces if p in dist and ok(p)]
        if found:
            best = min(dist[p] for p in found)
            return [p for p in found if dist[p] == best]
    return []


def victory(state: SaxonState) -> Outcome | None:
    """§1: eliminate all others, four cities, eight resource provinces, or ten provinces."""
    if state.turn == 0:
        return None
    living = alive(state)
    if len(living) == 1 and len(state.order) > 1:
        return Outcome(winner=living[0], reason="eliminated all other players", ranking=list(living))
    if not living:
        return Outcome(draw=True, reason="every kingdom fell")
    provinces: dict[str, int] = {}
    cities: dict[str, int] = {}
    producing: dict[str, int] = {}
    for name, p in state.provinces.items():
        if p.owner is not None:
            provinces[p.owner] = provinces.get(p.owner, 0) + 1
            cities[p.owner] = cities.get(p.owner, 0) + p.city
            producing[p.owner] = producing.get(p.owner, 0) + bool(state.board.produces[name])
    for seat in living:
        if cities.get(seat, 0) >= 4:
            return Outcome(winner=seat, reason="built four cities", scores=scores(state))
        if producing.get(seat, 0) >= 8:
            return Outcome(winner=seat, reason="controls eight resource provinces", scores=scores(state))
        if provinces.get(seat, 0) >= 10:
            return Outcome(winner=seat, reason="controls ten provinces", scores=scores(state))
    return None


def scores(state: SaxonState) -> dict[str, float]:
    return {s: float(len(owned(state, s))) for s in state.seats}


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
