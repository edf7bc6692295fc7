"""Determinization (issue 19: "never a peek at hidden information"): before each rollout from a
position with secrets, every card the reader may not see is dealt again at random from the
cards it cannot tell apart, keeping what it can see (its own hand, the table, every count).

What a rule system keeps secret, and how a rollout deals it again, is its own: its
``determinize`` (domain/rules/base.py, "Rollouts"; no default that sees everything).
``seen`` is the seats whose secrets the reader reads (None: everything, once the seed is public). The deck orders are
never in a state: a rollout's :class:`analysis.rollout.RolloutRng` draws fresh ones anyway.

Only the pool of unseen cards and the size of each hidden hand are read from the true state,
and a reader can count both from what it sees, so the true cards never steer a rollout.
"""

from __future__ import annotations

import random
from typing import Any

from domain.rules.base import RuleSystem


def determinize(rules: RuleSystem, state: Any, seen: frozenset[str] | None, rnd: random.Random) -> Any:
    """``state`` with everything the reader may not see dealt again by the rule system's own
    ``determinize`` (unchanged for a reader who sees everything)."""
    return state if seen is None else rules.determinize(state, seen, rnd)
