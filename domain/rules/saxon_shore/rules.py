"""How ``decide`` works: the decision context (emit events, roll dice, queue jobs, ask), the
registries of jobs and prompt answers, and the run of the turn to the next decision."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from domain.dice import STANDARD_DICE
from domain.events import EventData
from domain.rng import Rng
from domain.rules.base import GAME_OVER, NOT_YOUR_TURN, RuleViolation
from domain.rules.saxon_shore.commands import Choose, Done, Hire, SaxonCommand
from domain.rules.saxon_shore.data import Board
from domain.rules.saxon_shore.events import Counter, MoraleChanged, PlayerAsked, PromptOpened
from domain.rules.saxon_shore.evolve import apply
from domain.rules.saxon_shore.state import CONTROL_DERIVED, MORALE, Job, Player, Prompt, Province, SaxonState, Unit

D6 = STANDARD_DICE["d6"]
# The rulebook section each kind of question applies (PromptOpened.section).
SECTIONS = {
    "start": "10", "king_place": "3.1", "place_unit": "11 11", "path": "11 12", "bumper": "11 33", "famine": "11 25",
    "trade_gain": "4.2", "home": "9.2", "offer": "4.3", "casualty": "8.2", "city_retreat": "12.2",
    "city_assault": "12.2", "king_bonus": "8.2", "conquest": "8.2", "rebellion": "11 26", "fire": "11 31",
    "traders": "11 35", "family_offer": "11 41", "family_accept": "11 41", "boat_place": "11 42", "ruin": "11 45",
    "assassin": "11 52", "hammer": "11 65",
}


def violation(reason: str, message: str, rule: str) -> RuleViolation:
    return RuleViolation(f"saxon-shore.{reason}", message, rule)


# -- the registries ---------------------------------------------------------------------------------
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


# -- the decision context ---------------------------------------------------------------------------
class Ctx:
    """What ``decide`` works through: the state as its events leave it so far, the events
    themselves, and the control (job queue, phase, the prompt to leave open), which the
    decision's PlayerAsked records (PromptOpened before 2.2.0: older.py runs the decision again
    to find it)."""

    def __init__(self, state: SaxonState, rng: Rng):
        self.state = state
        self.rng = rng
        self.events: list[EventData] = []
        self.jobs: list[Job] = list(state.jobs)
        self.prompt: Prompt | None = state.prompt
        self.section = ""
        self.phase = state.phase
        self.stage = state.stage

    # events and dice
    def emit(self, event: EventData) -> None:
        self.events.append(event)
        self.state = apply(self.state, event)

    def roll(self, count: int, purpose: str, seat: str | None = None) -> list[int]:
        event = self.rng.roll(D6, count, purpose, seat)
        self.emit(event)
        return [int(f) for f in event.faces]

    def d6(self, purpose: str, seat: str | None = None) -> int:
        return self.roll(1, purpose, seat)[0]

    # reading the state
    @property
    def board(self) -> Board:
        return self.state.board

    def prov(self, name: str) -> Province:
        return self.state.provinces[name]

    def player(self, seat: str) -> Player:
        return self.state.players[seat]

    def new_ids(self, count: int) -> list[int]:
        """Ids for ``count`` new counters (emit the event placing them before asking again)."""
        return list(range(self.state.next_unit, self.state.next_unit + count))

    def morale(self, prov: str, step: int, section: str) -> None:
        """§2.1: increase (+1) or decrease (-1) morale by one marker."""
        self.set_morale(prov, max(-1, min(1, self.prov(prov).morale + step)), section)

    def set_morale(self, prov: str, level: int, section: str) -> None:
        current = self.prov(prov).morale
        if level != current:
            self.emit(MoraleChanged(province=prov, morale=MORALE[level], was=MORALE[current], section=section))

    # flow
    def push(self, *jobs: Job) -> None:
        """Run these next, before the rest of the queue."""
        self.jobs[0:0] = list(jobs)

    def ask(self, kind: str, seat: str, options: Iterable[str], section: str | None = None, **kw: Any) -> None:
        self.prompt = Prompt(kind=kind, seat=seat, options=tuple(options), **kw)
        self.section = section or SECTIONS.get(kind, "")

    def over(self) -> bool:
        return self.state.ended is not None or self.state.won is not None


def counters(units: Iterable[Unit], owners: bool = True) -> list[Counter]:
    """Counters as the record names them: id, kind, and (``owners``) whose."""
    return [Counter(unit=u.id, kind=u.kind, owner=u.owner if owners else None) for u in units]


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


# -- deciding ------------------------------------------------------------------------------------------
def decide(state: SaxonState, seat: str, command: SaxonCommand, rng: Rng) -> Ctx:
    """Check the command against the open prompt, apply it, run the turn on to the next
    decision; a question or control left open that differs from the one the decision was taken
    in is recorded as PlayerAsked (PromptOpened, without the control, before 2.2.0)."""
    from domain.rules.saxon_shore import phases  # the phases import this module

    prompt = state.prompt
    if state.ended is not None or state.won is not None:
        raise RuleViolation(GAME_OVER, "the game is over", "1")
    if prompt is None or prompt.seat != seat:
        raise RuleViolation(NOT_YOUR_TURN, f"{seat} is not asked anything now", "2.2")
    ctx = Ctx(state, rng)
    if isinstance(command, Hire):  # "at any time" (§4.6.1): the question stays open
        phases.hire_check(state, seat, command)
        phases.hire_apply(ctx, seat, command)
    elif prompt.kind != "phase":
        if not isinstance(command, Choose):
            raise violation("choose_expected", f"answer the {prompt.kind} question with choose", "2.2")
        if not option_ok(state, prompt, command.option):
            raise violation("not_an_option", f"{command.option!r} is not an answer now; the options: "
                                             f"{', '.join(prompt.options[:20])}", "2.2")
        ctx.prompt = None
        CHOICES[prompt.kind](ctx, prompt, command.option)
    else:
        phase = phases.PHASES[prompt.args[0]]
        if isinstance(command, Choose):
            raise violation("wrong_phase", f"the {phase.name} phase takes its own commands, not choose", phase.rule)
        phases.check_command(state, seat, phase, command)
        if isinstance(command, Done):
            ctx.prompt = None
        else:
            phase.applies[type(command)](ctx, seat, command)
    run(ctx)
    if ctx.prompt is not None and (ctx.prompt, tuple(ctx.jobs), ctx.phase, ctx.stage) != (
            state.prompt, state.jobs, state.phase, state.stage):
        ctx.emit(prompt_opened(ctx, state))
    return ctx


def prompt_opened(ctx: Ctx, before: SaxonState) -> PromptOpened:
    """The open question as the record says it: who, what kind, the options (or the phase);
    since 2.2.0 (PlayerAsked) also its details and where the turn stands now, against
    ``before``: the state the decision was taken in."""
    from domain.rules.saxon_shore.phases import PHASES

    p = ctx.prompt
    if p.kind == "phase":
        phase = PHASES[p.args[0]]
        said: dict[str, Any] = {"phase": phase.name, "stage": p.n, "section": phase.rule}
    else:
        said = {"options": list(p.options), "province": p.prov, "section": ctx.section or SECTIONS.get(p.kind, "")}
    if before.version in CONTROL_DERIVED:
        return PromptOpened(seat=p.seat, kind=p.kind, **said)
    done, queued = steps_changed(ctx.state.jobs, ctx.jobs)  # the steps as the fold holds them (TurnBegan's)
    if p.kind != "phase":
        said.update(number=p.n, about=list(p.args))
    return PlayerAsked(seat=p.seat, kind=p.kind, **said, steps_done=done, steps_next=queued,
                       turn_phase=None if ctx.phase == before.phase else ctx.phase,
                       turn_stage=None if ctx.stage == before.stage else ctx.stage)


def steps_changed(before: tuple[Job, ...], after: list[Job]) -> tuple[int, list[Job]]:
    """The queue ``after`` as a change of ``before`` (jobs run and queued only at its front):
    how many of ``before``'s first steps are gone, and the steps now ahead of the rest."""
    kept = 0
    while kept < min(len(before), len(after)) and before[-1 - kept] == after[-1 - kept]:
        kept += 1
    return len(before) - kept, after[:len(after) - kept]
