"""The fold of Saxon Shore: every rule event carries its effect, so evolve only assigns."""

from __future__ import annotations

import msgspec

from domain.events import DecisionTaken, DiceRolled, EventData
from domain.rules.saxon_shore.events import *  # noqa: F403
from domain.rules.saxon_shore.state import SaxonState


# -- the fold ---------------------------------------------------------------------------------
def evolve(state: SaxonState, event: EventData) -> SaxonState:
    """Fold one event: every rule event carries its effect, so this only assigns."""
    replace = msgspec.structs.replace
    match event:
        case ProvinceSet(name=name, province=province):
            return replace(state, provinces={**state.provinces, name: province})
        case PlayerSet(seat=seat, player=player):
            return replace(state, players={**state.players, seat: player})
        case UnitsSet(units=units, removed=removed):
            table = dict(state.units)
            for uid in removed:
                table.pop(uid, None)
            top = state.next_unit
            for unit in units:
                table[unit.id] = unit
                top = max(top, unit.id + 1)
            return replace(state, units=table, next_unit=top)
        case TurnBegan(turn=turn, order=order):
            return replace(state, turn=turn, order=tuple(order))
        case BattleSet(battle=battle):
            return replace(state, battle=battle)
        case Flow(phase=phase, stage=stage, jobs=jobs, prompt=prompt, storms=storms, won=won):
            return replace(state, phase=phase, stage=stage, jobs=tuple(jobs), prompt=prompt, storms=tuple(storms),
                           won=won)
        case Declared(declared=declared):
            return replace(state, declared=tuple(tuple(d) for d in declared))
        case GameDecided(outcome=outcome):
            return replace(state, ended=outcome, prompt=None, jobs=())
        case DiceRolled() | DecisionTaken() | EventDrawn() | Resolved():
            return state
    return state


