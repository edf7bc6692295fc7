"""What always holds in a game of Saxon Shore (domain/rules/base.py, ``RuleSystem.invariants``):
no count below zero (resource tokens, §4; paths, §11 12-15), morale low, normal or high (§4.5),
and every counter on the map where the map has a place (§2.1), known by its own id."""

from __future__ import annotations

from typing import Any

from domain.rules.saxon_shore.state import SaxonState

MORALE = (-1, 0, 1)


def counts_and_counters(rules: Any, state: SaxonState) -> list[str]:
    """Every way ``state`` breaks the counts and the counters' places."""
    broken = [f"{seat} holds {p.res} resource tokens" for seat, p in state.players.items() if min(p.res) < 0]
    broken += [f"{seat} has paths {p.paths}" for seat, p in state.players.items() if min(p.paths) < 0]
    broken += [f"{name} has morale {p.morale}" for name, p in state.provinces.items() if p.morale not in MORALE]
    broken += [f"{name} is ravaged {p.ravage} times" for name, p in state.provinces.items() if p.ravage < 0]
    board = state.board
    places = set(board.provinces) | set(board.wild) | set(board.seas) if board is not None else None
    for key, unit in state.units.items():
        if key != unit.id or not 0 < unit.id < state.next_unit:
            broken.append(f"counter {key} is numbered {unit.id} (next {state.next_unit})")
        if places is not None and unit.loc not in places:
            broken.append(f"counter {unit.id} ({unit.kind}) is at {unit.loc!r}, no place on the map")
        if unit.owner is not None and unit.owner not in state.seats:
            broken.append(f"counter {unit.id} is {unit.owner!r}'s, no seat of this game")
    return broken
