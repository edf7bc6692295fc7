"""Human wording of each legal command (GET /legal-commands ``labels``): one line each, with
names, not ids."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import msgspec

from domain.rules.base import default_label
from domain.rules.day_of_battle import commands as c
from domain.rules.day_of_battle.data import CHARTS
from domain.rules.day_of_battle.rules import fighting
from domain.rules.day_of_battle.state import DayOfBattleState


def _unit(state: DayOfBattleState, uid: str) -> str:
    u = state.units.get(uid)
    return u.name if u else uid


def _leader(state: DayOfBattleState, lid: str | None) -> str:
    l = state.leaders.get(lid or "")
    return l.name if l else str(lid)


def label(state: DayOfBattleState, seat: str, raw: dict[str, Any], players: Mapping[str, str]) -> str:
    """"Light crossbowmen fire their light crossbow on Turkoman horse archers (right) at 10" (3 command points)"."""
    try:
        command = msgspec.convert({"command": raw}, _Envelope).command
    except msgspec.ValidationError:
        return default_label(raw)
    try:
        return _label(state, command)
    except (KeyError, AttributeError):
        return default_label(raw)


class _Envelope(msgspec.Struct, frozen=True):
    command: c.DayOfBattleCommand


def _label(state: DayOfBattleState, command: Any) -> str:
    m, f = CHARTS.order_costs.manoeuvre, CHARTS.order_costs.fire
    match command:
        case c.DrawLeader(leader=lid):
            return f"Draw the social rank and attributes of {_leader(state, lid)}"
        case c.InitiateScouting():
            return "Opt for scouting (the opponents' scouting points are halved)"
        case c.DeclineScouting():
            return "Do not scout"
        case c.Deploy(unit=uid, x=x, y=y):
            return f"Deploy {_unit(state, uid)} {x:g}\" from the left flank, {y:g}\" from the rear edge"
        case c.FinishDeployment():
            return "Finish deploying the army"
        case c.BeginMove():
            return "Begin the game move: initiative rolls and command cards"
        case c.Move(unit=uid, x=x, y=y):
            return f"Move {_unit(state, uid)} to {x:g}\", {y:g}\"{_free_fire(state, command)} ({m} command points)"
        case c.ChangeFormation(unit=uid, formation=form):
            return f"Form {_unit(state, uid)} in {form}{_free_fire(state, command)} ({m} command points)"
        case c.Fire(unit=uid, target=tid, range_inches=r):
            u = state.units[uid]
            return (f"{u.name} fire their {u.arms.name.lower()} on {_unit(state, tid)} at {r:g}\""
                    f"{_open(command.in_open)}{_mods(command.modifiers)} ({f} command points)")
        case c.ReturnFire():
            back = f"Return the fire of {_unit(state, state.fire.firer)}" if state.fire else "Return fire"
            return back + _mods(command.modifiers)
        case c.HoldFire():
            return "Hold fire"
        case c.Charge(unit=uid, target=tid, caught_in_one_normal_move=caught):
            reach = "reaching it in one normal move" if caught else "not reaching it in one normal move"
            extra = "".join(x for x, on in (
                (" in its flank", not command.from_front),
                (f", {_leader(state, command.attached_leader)} attached", command.attached_leader),
                (", firing before contact", command.fire_before_contact)) if on)
            end = f", ending at {command.x:g}\", {command.y:g}\"" if command.x is not None else ""
            return f"{_unit(state, uid)} charge {_unit(state, tid)}{extra}, {reach}{end} ({m} command points)"
        case c.FallBack(how=how):
            to = f" to {command.x:g}\", {command.y:g}\"" if command.x is not None else ""
            return "Fall back from the charge" + (f": {how.replace('-', ' ')}" if how else "") + to
        case c.Evade(x=x, y=y):
            return f"Evade the charge to {x:g}\", {y:g}\""
        case c.CounterCharge(attached_leader=lid):
            return "Counter-charge the charger" + (f", {_leader(state, lid)} attached" if lid else "")
        case c.TerrainCheck():
            return "Caught by the charge: make a terrain check (failing, stand and fire" + _open(command.in_open) + ")"
        case c.DefensiveFire(attached_leader=lid):
            return ("Fire before the combat" + _open(command.in_open) + _mods(command.modifiers)
                    + (f", {_leader(state, lid)} attached" if lid else "") + " (the commanding leader is distracted)")
        case c.Stand(attached_leader=lid):
            return "Stand and receive the charge" + (f", {_leader(state, lid)} attached" if lid else "")
        case c.Fight(unit=uid, dice=dice, target_number=n):
            return f"{_unit(state, uid)} roll {dice} combat dice needing {n} or less (the players' statement)"
        case c.Dismount(unit=uid):
            return f"Dismount {_unit(state, uid)}, horse holders behind them ({m} command points)"
        case c.ContactHorseHolders(unit=uid, horse_holders=hid):
            return f"{_unit(state, uid)} contact {_unit(state, hid)}"
        case c.EndMove():
            return "End the game move"
        case c.ProposeRuling(topic=topic, decision=decision):
            return f"Ask for a ruling on {topic}: {decision}"
        case c.AcceptRuling(number=n):
            return f"Accept ruling {n}"
        case c.RejectRuling(number=n):
            return f"Reject ruling {n}"
    return default_label(msgspec.to_builtins(command))


def _open(in_open: bool) -> str:
    return "" if in_open else ", not in the open"


def _mods(mods: dict[str, int]) -> str:
    return "".join(f", {k} {v:+d}" for k, v in sorted(mods.items()))


def _free_fire(state: DayOfBattleState, command: c.Move | c.ChangeFormation) -> str:
    if command.fire_at is None:
        return ""
    return (f", firing freely {command.fire_when} on {_unit(state, command.fire_at)} at "
            f"{command.fire_range_inches:g}\"{_open(command.fire_in_open)}")


def prompt(state: DayOfBattleState, seat: str, players: Mapping[str, str]) -> str | None:
    """What ``seat``, one of the seats to act, is asked now."""
    who = players.get(seat) or seat
    if state.ruling is not None:
        return f"Does {who} accept ruling {state.ruling.number}: {state.ruling.proposal.get('decision')}?"
    if state.phase == "leaders":
        return f"{who}: draw the cards of your leaders (social rank, esteem, motivation, skills)"
    if state.phase == "deployment":
        return f"{who}: where does each unit of the {state.armies[seat].name} deploy?"
    if state.charge is not None:
        return (f"{_unit(state, state.charge.charger)} charge {_unit(state, state.charge.target)}: "
                f"how does {who} respond?")
    if state.melee is not None:
        return f"{_unit(state, fighting(state))} are in combat: {who}, roll their combat dice"
    if state.fire is not None:
        return f"{_unit(state, state.fire.firer)} fire on {_unit(state, state.fire.target)}: does {who} return fire?"
    if not state.move_begun:
        return f"Move {state.move}: {who} begins the game move"
    return f"Move {state.move}: what does {who} order next?"
