"""Determinization (issue 19: "never a peek at hidden information"): before each rollout from a
position with secrets, every card the reader may not see is dealt again at random from the
cards it cannot tell apart, keeping what it can see (its own hand, the table, every count).

What a rule system keeps secret is its own (domain/rules/base.py, "Hidden information"); this
module knows the state of each rule system that has secrets. ``seen`` is the seats whose
secrets the reader reads (None: everything, once the seed is public). The deck orders are
never in a state: a rollout's :class:`analysis.rollout.RolloutRng` draws fresh ones anyway.

Only the pool of unseen cards and the size of each hidden hand are read from the true state,
and a reader can count both from what it sees, so the true cards never steer a rollout.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from msgspec.structs import replace


def kingdoms(state: Any, seen: frozenset[str], rnd: random.Random) -> Any:
    """The Kingdoms of Crusaders: the other seats' hands and the deck's cards are one pool;
    each hidden hand is dealt again from it, as many cards as it holds."""
    hidden = [s for s in state.seats if s not in seen and state.hands.get(s)]
    if not hidden:
        return state
    out = {c for h in state.hands.values() for c in h} | {c for p in state.seats for x in state.sectors[p] for c in x}
    pool = sorted({c for s in hidden for c in state.hands[s]} | {c for c in state.deck if c not in out})
    rnd.shuffle(pool)
    hands = dict(state.hands)
    for s in hidden:
        n = len(state.hands[s])
        hands[s], pool = tuple(pool[:n]), pool[n:]
    return replace(state, hands=hands)


def saline(state: Any, seen: frozenset[str], rnd: random.Random) -> Any:
    """Saline: the other seats' hands and the event cards not yet drawn are one pool, dealt
    again hand by hand (the cards drawn tonight stay as many); the other seats' secret
    objectives not yet claimed are dealt again from the objectives nobody sees. The face-down
    discards stay where they are (RULES_NOTES.md has no way to tell them apart either)."""
    hidden = [s for s in state.seats if s not in seen]
    if not hidden:
        return state
    held = {c for s in hidden for c in state.hands.get(s, ())}
    undrawn = [c for c in state.event_deck if c not in state.events_drawn]
    pool = sorted(held | set(undrawn))
    rnd.shuffle(pool)
    hands, fresh, dealt = dict(state.hands), dict(state.fresh), set()
    for s in hidden:
        n, k = len(state.hands.get(s, ())), len(state.fresh.get(s, ()))
        new, pool = tuple(pool[:n]), pool[n:]
        hands[s] = new
        if s in state.fresh:
            fresh[s] = new[n - k:] if k else ()
        dealt |= set(new)
    in_pile = set(state.event_deck)
    drawn = (state.events_drawn - held) | (dealt & in_pile)
    claimed = {o for got in state.claimed.values() for o in got}
    secret = {s: o for s, o in state.secrets.items() if s in hidden and o not in claimed}
    unseen = sorted(set(state.cat.objectives) - set(state.public_objectives) - claimed
                    - {o for s, o in state.secrets.items() if s not in secret})
    rnd.shuffle(unseen)
    secrets = dict(state.secrets)
    for s in sorted(secret):
        secrets[s] = unseen.pop()
    return replace(state, hands=hands, fresh=fresh, events_drawn=frozenset(drawn), secrets=secrets)


DETERMINIZE: dict[str, Callable[[Any, frozenset[str], random.Random], Any]] = {
    "kingdoms-of-crusaders": kingdoms,
    "saline": saline,
}


def determinize(rules_id: str, state: Any, seen: frozenset[str] | None, rnd: random.Random) -> Any:
    """``state`` with everything the reader may not see dealt again (unchanged for a rule
    system without secrets, or a reader who sees everything)."""
    if seen is None or rules_id not in DETERMINIZE:
        return state
    return DETERMINIZE[rules_id](state, seen, rnd)
