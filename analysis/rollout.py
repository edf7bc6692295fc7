"""One rollout: play a position to its end with a policy, every die and shuffle drawn from a
seeded :class:`random.Random`. Deterministic given the seed; never the game's own seed.

Policies (documented in docs/analysis.md):

- ``random``: a uniform choice among the legal commands (random-legal play).
- ``heuristic``: the rule system's own habit, as it declares it (``RuleSystem.rollout_policy``,
  in its package's ``policy.py``); a rule system that declares none plays ``random`` only.
"""

from __future__ import annotations

import random
from typing import Any

from domain.dice import DieKind
from domain.events import CardsShuffled, DiceRolled
from domain.rules.base import Policy, RuleSystem, any_of

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


def uniform(rules: RuleSystem, state: Any, seat: str, commands: list[Any], rnd: random.Random) -> Any:
    """Random-legal: any legal command, each as likely."""
    return any_of(commands, rnd)


POLICIES = ("random", "heuristic")


def policies(rules: RuleSystem) -> tuple[str, ...]:
    """The policies a rollout of ``rules`` may play: none for a rule system that offers no
    rollouts (``determinize = offers_no_rollouts``); ``random``; and ``heuristic`` when it
    declares its own habit (``RuleSystem.rollout_policy``)."""
    if not rules.offers_rollouts:
        return ()
    return POLICIES if rules.rollout_policy is not None else ("random",)


def policy_for(rules: RuleSystem, name: str) -> Policy:
    """The policy called ``name`` for ``rules`` (KeyError, saying why, when it has none)."""
    if name not in policies(rules):
        offered = policies(rules)
        raise KeyError(f"{rules.id} plays no {name!r} rollouts; it plays "
                       + (", ".join(offered) if offered else "none (it offers no rollouts)"))
    return uniform if name == "random" else type(rules).rollout_policy  # type: ignore[return-value]


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
