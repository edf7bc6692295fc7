"""A bot seat's choice (issue 29): one of the analysis policies picks the seat's next command,
from what that seat may see only — every card it may not see is dealt again first
(:mod:`analysis.hidden`) — after ``rollouts`` seeded rollouts of each legal command when asked
(flat Monte Carlo: the command whose rollouts the seat wins most, a draw counting half).

Deterministic given its key (the game, the version and the seat): the same position gives
the same choice. The budget is a count, never a clock: at most :data:`BUDGET` rollouts a
decision, so a bot's move takes a bounded time and its record says exactly what was played."""

from __future__ import annotations

import random
from typing import Any

import msgspec

from analysis.hidden import determinize
from analysis.rollout import DRAW, RolloutRng, play_out, policy_for
from domain.rules.base import RuleSystem, RuleViolation

BUDGET = 64  # rollouts a decision at most, over every candidate command


class NoMove(Exception):
    """The bot's seat has nothing it may send."""


class Choice(msgspec.Struct, frozen=True):
    command: dict[str, Any]
    rollouts: int  # played from each candidate
    candidates: int


def choose(rules: RuleSystem, state: Any, seat: str, next_draw: int, policy_name: str, rollouts: int,
           key: str) -> Choice:
    """The bot's command for ``seat`` in ``state`` (the true state: only what the seat may see
    steers the choice)."""
    commands = rules.legal_commands(state, seat)
    if not commands:
        raise NoMove(f"{seat} has no legal command")
    policy = policy_for(rules, policy_name)
    seen = frozenset({seat})
    per = min(rollouts, BUDGET // len(commands))
    if per < 1 or len(commands) == 1:
        rnd = random.Random(key)
        chosen = policy(rules, determinize(rules, state, seen, rnd), seat, commands, rnd)
        return Choice(msgspec.to_builtins(chosen), 0, len(commands))
    scores = []
    for i, command in enumerate(commands):
        score = 0.0
        for r in range(per):
            rnd = random.Random(f"{key}|{i}|{r}")
            rng = RolloutRng(rnd, next_draw)
            try:
                after = rules.play(determinize(rules, state, seen, rnd), seat, command, rng)[1]
                result = play_out(rules, after, policy, rnd, rng.next_draw)
            except RuleViolation:  # a hand dealt again made the command illegal: no result
                continue
            score += 1.0 if result == seat else 0.5 if result == DRAW else 0.0
        scores.append(score)
    best = max(range(len(commands)), key=lambda i: (scores[i], -i))
    return Choice(msgspec.to_builtins(commands[best]), per, len(commands))
