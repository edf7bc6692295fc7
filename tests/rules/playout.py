"""The one seeded playout loop (issue 31, "the six harnesses go"): a game played decision by
decision through the core (``take_decision``, ``project_game``), the rule system's declared
invariants (``RuleSystem.invariants``, domain/rules/base.py) asserted after every event. What a
suite asserts beyond them is its own, passed as small hooks:

- ``seat``: who acts, given the rule system, the state and the game's ``random.Random``
  (:func:`a_seat_that_may_act`, :func:`one_seat`, :func:`any_seat`);
- ``pick``: the command, given the :class:`Step` (uniform among the listed by default);
- ``before``: checks once the seat's commands are listed, before the pick (probes of unlisted
  commands; they may draw from ``step.rnd``, so they come before the pick that does);
- ``after_event``: checks of the game after each event of the decision is folded;
- ``after_decision``: checks of the game once the whole decision is folded;
- ``until``: a game that need not end stops when it says so.

tests/rules/conformance.py plays every registered rule system with it; each rule system's
simulation tests and the bench scripts (bench/bench_koc_sim.py, bench/bench_saline_sim.py) play
their rulebook's properties with it.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import msgspec

from domain.events import CardsShuffled
from domain.game import Game, Recorded, project_game, take_decision
from domain.rng import SeededRng
from domain.rules.base import RuleSystem


class Dealer(SeededRng):
    """The seeded rng, remembering each shuffle's order for the whole game (the real one computes
    it from the seed again on every draw; the order is the same)."""

    def __init__(self, seed: bytes, game: Game, orders: dict):
        super().__init__(seed, game.id, "", game.next_draw)
        self.orders = orders

    def order(self, shuffle: CardsShuffled) -> list[int]:
        key = (tuple(shuffle.draws), shuffle.size)
        if key not in self.orders:
            self.orders[key] = super().order(shuffle)
        return self.orders[key]


@dataclass(slots=True)
class Step:
    """One decision of a playout, as the hooks see it."""

    rules: RuleSystem
    number: int  # decisions taken before this one
    game: Game  # before the decision
    seat: str
    commands: list[Any]  # as listed
    listed: list[dict]  # the same, as builtins
    rnd: random.Random
    rng: Dealer
    command: dict | None = None  # once picked
    events: list[Recorded] = field(default_factory=list)  # the decision's, once decided

    @property
    def state(self) -> Any:
        return self.game.state


@dataclass(slots=True)
class Playout:
    """A game played: the game, the events its decisions recorded (not its creation) and the
    decisions, as ``(seat, command)``."""

    game: Game
    events: list[Recorded]
    decisions: list[tuple[str, dict]]


Seat = Callable[[RuleSystem, Any, random.Random], str]


def a_seat_that_may_act(rules: RuleSystem, state: Any, rnd: random.Random) -> str:
    """Any seat to act that is listed a command, at random: somebody always is."""
    acting = [s for s in rules.to_act(state) if rules.legal_commands(state, s)]
    assert acting, f"{rules.id}: nobody may act, and the game has not ended"
    return rnd.choice(acting)


def any_seat(rules: RuleSystem, state: Any, rnd: random.Random) -> str:
    """Any seat to act, at random (in an out-of-turn window, any of its waiting seats may act first)."""
    return rnd.choice(rules.to_act(state))


def one_seat(rules: RuleSystem, state: Any, rnd: random.Random) -> str:
    """The one seat to act (a game where exactly one seat acts at a time)."""
    (seat,) = rules.to_act(state)
    return seat


def uniform(step: Step) -> dict:
    return step.rnd.choice(step.listed)


def nobody_else_acts(step: Step) -> None:
    """A seat not to act is listed nothing."""
    rules, state = step.rules, step.state
    acting = rules.to_act(state)
    for other in step.game.created.seats:
        if other not in acting:
            assert rules.legal_commands(state, other) == [], f"{other} is listed commands, not being to act"


def playout(rules: RuleSystem, game: Game, rnd: random.Random, *, decisions: int, seed: bytes, now: datetime,
            must_end: bool = True, seat: Seat = a_seat_that_may_act, pick: Callable[[Step], dict] = uniform,
            before: Callable[[Step], None] | None = None,
            after_event: Callable[[Step, Game], None] | None = None,
            after_decision: Callable[[Step, Game], None] | None = None,
            until: Callable[[Game], bool] | None = None) -> Playout:
    """``game`` played on for at most ``decisions`` decisions, to its end if sooner (or until
    ``until`` says), each seat and command picked with ``rnd``, each die and shuffle from ``seed``;
    ``must_end``: a game still on after them fails. The declared invariants are asserted after
    every event, then the hooks run (module docstring)."""
    orders: dict = {}
    events: list[Recorded] = []
    taken: list[tuple[str, dict]] = []
    for number in range(decisions):
        if game.ended or (until is not None and until(game)):
            break
        who = seat(rules, game.state, rnd)
        commands = rules.legal_commands(game.state, who)
        assert commands, f"{rules.id}: {who} is to act and listed nothing at version {game.version}"
        step = Step(rules, number, game, who, commands, msgspec.to_builtins(commands), rnd, Dealer(seed, game, orders))
        if before is not None:
            before(step)
        step.command = pick(step)
        step.events = take_decision(game, who, step.command, step.rng, now, seed)
        for event in step.events:
            game = project_game(game, [event])
            broken = rules.invariants(game.state)
            assert not broken, f"{rules.id}: after {event.type} (version {game.version}): {broken[:3]}"
            if after_event is not None:
                after_event(step, game)
        if after_decision is not None:
            after_decision(step, game)
        events += step.events
        taken.append((who, step.command))
    else:
        assert not must_end or game.ended or (until is not None and until(game)), \
            f"{rules.id}: no end after {decisions} decisions (version {game.version})"
    return Playout(game, events, taken)
