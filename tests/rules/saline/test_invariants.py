"""Saline's declared invariants (invariants.py: the 80 salt cubes, each œillet and card in one place)."""

from __future__ import annotations

import msgspec

from domain.rules.registry import RULE_SYSTEMS
from tests.rules.conformance import BOUNDED, played


def test_the_declared_invariants_catch_a_broken_state():
    """base.py, "Optional methods": the invariants the conformance suite checks after every event
    of its games; here a played state is broken (a salt cube more than the 80) and they report it, so that check can fail."""
    rules = RULE_SYSTEMS["saline"]
    state = played("saline", 1, BOUNDED)[0].state
    assert rules.invariants(state) == []
    broken = msgspec.structs.replace(state, salt_reserve=state.salt_reserve + 1)
    assert rules.invariants(broken)
