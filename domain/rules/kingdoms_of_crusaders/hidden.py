"""What a rollout may not see in The Kingdoms of Crusaders (domain/rules/base.py, "Rollouts"):
the other seats' hands, dealt again from the cards the reader cannot tell apart. ``rnd`` is the
rollout's ``random.Random``, handed in: nothing here draws on its own."""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from domain.rules.kingdoms_of_crusaders.state import KingdomsOfCrusadersState


def determinize(state: KingdomsOfCrusadersState, seen: frozenset[str], rnd: Any) -> KingdomsOfCrusadersState:
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
