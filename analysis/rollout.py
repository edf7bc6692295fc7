"""One rollout: play a position to its end with a policy, every die and shuffle drawn from a
seeded :class:`random.Random`. Deterministic given the seed; never the game's own seed.

Policies (documented in docs/analysis.md):

- ``random``: a uniform choice among the legal commands (random-legal play).
- ``heuristic``: one simple habit per rule system, then uniform among what it prefers (below).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from domain.dice import DieKind
from domain.events import CardsShuffled, DiceRolled
from domain.rules.base import RuleSystem

DRAW = "draw"
UNFINISHED = "unfinished"  # the rollout reached its cap without an end (counted apart, see engine)
CAP = {"saladin": 2_000, "kingdoms-of-crusaders": 2_000, "saline": 6_000,  # saline 1.1.0: passes in windows
       "saxon-shore": 3_000}


class RolloutRng:
    """The :class:`domain.rng.Rng` of a rollout: dice and shuffles from a seeded
    ``random.Random``; the order of any shuffle (one of the game's own included) is a fresh
    permutation, the same each time it is asked within the rollout."""

    def __init__(self, rnd: random.Random, next_draw: int = 0):
        self.rnd = rnd
        self.next_draw = next_draw
        self._orders: dict[tuple[str, int, tuple[int, ...]], list[int]] = {}

    def roll(self, kind: DieKind, count: int, purpose: str, seat: str | None = None) -> DiceRolled:
        faces, n = kind.faces, len(kind.faces)
        first = self.next_draw
        self.next_draw += count
        return DiceRolled(draws=list(range(first, first + count)), kind=kind.id,
                          faces=[faces[int(self.rnd.random() * n)] for _ in range(count)], purpose=purpose, seat=seat)

    def shuffle(self, deck: str, size: int, purpose: str = "") -> CardsShuffled:
        first = self.next_draw
        self.next_draw += max(size - 1, 0)
        return CardsShuffled(deck=deck, size=size, draws=list(range(first, self.next_draw)), purpose=purpose)

    def order(self, shuffle: CardsShuffled) -> list[int]:
        key = (shuffle.deck, shuffle.size, tuple(shuffle.draws))
        found = self._orders.get(key)
        if found is None:
            found = list(range(shuffle.size))
            self.rnd.shuffle(found)
            self._orders[key] = found
        return found


Policy = Callable[[RuleSystem, Any, str, list[Any], random.Random], Any]


def uniform(rules: RuleSystem, state: Any, seat: str, commands: list[Any], rnd: random.Random) -> Any:
    """Random-legal: any legal command, each as likely."""
    return commands[int(rnd.random() * len(commands))]


def best(commands: list[Any], score: Callable[[Any], float], rnd: random.Random) -> Any:
    """A command of the highest score, ties broken at random."""
    scores = [score(c) for c in commands]
    top = max(scores)
    tied = [c for c, s in zip(commands, scores) if s == top]
    return tied[rnd.randrange(len(tied))]


def saladin(rules: RuleSystem, state: Any, seat: str, commands: list[Any], rnd: random.Random) -> Any:
    """Saladin: attack. The activation that rolls the most of the seat's own dice (red for the
    Crusaders, green for the Ayyubids) per Order it costs; a reaction before declining; passing
    last. One time in five, any legal command (so a rollout still explores)."""
    if rnd.random() < 0.2:
        return uniform(rules, state, seat, commands, rnd)
    from domain.rules.saladin.rules import card_of, action_cost

    def score(c: Any) -> float:
        kind = type(c).__name__
        if kind == "Activate":
            action = card_of(state, c.banner).action(c.action)
            dice = action.red if seat == "crusaders" else action.green
            return 1 + dice / (1 + action_cost(state, c.banner, action))
        return {"React": 3.0, "Leader": 0.5, "Pass": -1.0, "DeclineReaction": 0.0}.get(kind, 0.0)

    return best(commands, score, rnd)


def kingdoms(rules: RuleSystem, state: Any, seat: str, commands: list[Any], rnd: random.Random) -> Any:
    """The Kingdoms of Crusaders: build where the seat's army is already strongest: a card to
    the sector holding most of the seat's cards, the card with the most symbols. One time in
    five, any legal command."""
    if rnd.random() < 0.2:
        return uniform(rules, state, seat, commands, rnd)

    def score(c: Any) -> float:
        if type(c).__name__ != "Place":
            return 0.0
        sectors = state.sectors.get(seat, ())
        held = len(sectors[c.sector]) if 0 <= c.sector < len(sectors) else 0
        return 1 + held + bin(state.cards.get(c.card, 0)).count("1") / 10

    return best(commands, score, rnd)


def saline(rules: RuleSystem, state: Any, seat: str, commands: list[Any], rnd: random.Random) -> Any:
    """Saline: move the game on. An action of the day (harvest, sell, buy, place) before a card;
    an event card rarely; a favour almost never; pass when asked to answer a card."""
    listed = [(type(c).__name__.lower(), c) for c in commands]
    if any(kind == "pass" for kind, _ in listed):
        return next(c for kind, c in listed if kind == "pass")
    kinds = [k for k, _ in listed]
    for kind in ("prepare", "place", "discard", "harvest", "sell", "buy", "nothing", "end", "draw"):
        if kind in kinds:
            picks = [c for k, c in listed if k == kind]
            return picks[rnd.randrange(len(picks))]
    return uniform(rules, state, seat, commands, rnd)


def saxon_shore(rules: RuleSystem, state: Any, seat: str, commands: list[Any], rnd: random.Random) -> Any:
    """Saxon Shore: expand. Invade or raid when it may, move into a province it does not own,
    raise troops; say ``done`` rather than trade or shuffle boats. Otherwise uniform."""
    def score(c: Any) -> float:
        kind = getattr(c, "type", None) or type(c).__name__
        kind = kind.lower()
        if kind == "declare":
            return 5.0
        if kind == "move":
            path = getattr(c, "path", None) or ()
            target = path[-1] if path else None
            provinces = getattr(state, "provinces", {})
            return 4.0 if target in provinces and provinces[target].owner != seat else 0.5
        if "raise" in kind or kind in ("hire", "improve"):
            return 3.0
        if kind == "done":
            return 1.0
        return 0.2

    if rnd.random() < 0.2:
        return uniform(rules, state, seat, commands, rnd)
    return best(commands, score, rnd)


HEURISTICS: dict[str, Policy] = {
    "saladin": saladin,
    "kingdoms-of-crusaders": kingdoms,
    "saline": saline,
    "saxon-shore": saxon_shore,
}
POLICIES = ("random", "heuristic")


def policy_for(rules_id: str, name: str) -> Policy:
    """The policy called ``name`` for a rule system (KeyError when it has none)."""
    if name == "random":
        if rules_id not in HEURISTICS:
            raise KeyError(rules_id)
        return uniform
    if name == "heuristic":
        return HEURISTICS[rules_id]
    raise KeyError(name)


def play_out(rules: RuleSystem, state: Any, policy: Policy, rnd: random.Random, next_draw: int = 0,
             count: list[int] | None = None) -> str:
    """Play ``state`` to its end: the winning seat, :data:`DRAW`, or :data:`UNFINISHED` when
    nobody can act or the rule system's cap of decisions is reached first. ``count``, if
    given, has the decisions played added to its first item (for bench/)."""
    rng = RolloutRng(rnd, next_draw)
    legal, play, outcome, to_act = rules.legal_commands, rules.play_listed, rules.outcome, rules.to_act
    played, cap = 0, CAP.get(rules.id, 2_000)
    while played < cap and outcome(state) is None:
        seat, commands = None, []
        for seat in to_act(state):
            commands = legal(state, seat)
            if commands:
                break
        if not commands:
            break
        state = play(state, seat, policy(rules, state, seat, commands, rnd), rng)[1]
        played += 1
    if count is not None:
        count[0] += played
    ended = outcome(state)
    if ended is None:
        return UNFINISHED
    return ended.winner if ended.winner is not None else DRAW
