"""The Kingdoms of Crusaders' declared invariants (invariants.py: every card in one place only)."""

from __future__ import annotations

import msgspec

from domain.rules.registry import RULE_SYSTEMS
from tests.rules.conformance import BOUNDED, played


def test_the_declared_invariants_catch_a_broken_state():
    """base.py, "Optional methods": the invariants the conformance suite checks after every event
    of its games; here a played state is broken (a card in two hands) and they report it, so that check can fail."""
    rules = RULE_SYSTEMS["kingdoms-of-crusaders"]
    state = played("kingdoms-of-crusaders", 1, BOUNDED)[0].state
    assert rules.invariants(state) == []
    seat = next(s for s in state.seats if state.hands[s])
    card = state.hands[seat][0]
    other = next(s for s in state.seats if s != seat)
    broken = msgspec.structs.replace(state, hands={**state.hands, other: state.hands[other] + (card,)})
    assert rules.invariants(broken)
