"""Saxon Shore's declared invariants (counts never below zero, every counter on a place of the map)."""

from __future__ import annotations

import msgspec

from domain.rules.registry import RULE_SYSTEMS
from tests.rules.conformance import BOUNDED, played


def test_the_declared_invariants_catch_a_broken_state():
    """base.py, "Optional methods": the invariants the conformance suite checks after every event
    of its games; here a played state is broken (a counter at a place off the map) and they report it, so that check can fail."""
    rules = RULE_SYSTEMS["saxon-shore"]
    state = played("saxon-shore", 1, BOUNDED)[0].state
    assert rules.invariants(state) == []
    unit = next(iter(state.units.values()))
    broken = msgspec.structs.replace(state, units={**state.units, unit.id: msgspec.structs.replace(unit, loc="Atlantis")})
    assert rules.invariants(broken)
