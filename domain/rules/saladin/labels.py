"""Legal commands and prompts in words, for a person choosing (issue 18): names from the
scenario's data (or the owner's cards), never ids; players by name where known."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.rules.base import default_label, plural
from domain.rules.saladin.data import ARSUF
from domain.rules.saladin.rules import action_cost, card_of, tables
from domain.rules.saladin.state import SaladinState

SIDES = {"crusaders": "Crusaders", "ayyubids": "Ayyubids"}
# The commands that carry no banner, action or seat, as a person choosing reads them.
CHOICES = {"decline-reaction": "No reaction: let the action resolve",
           "decline-seize": "Leave the initiative where the Orders put it",
           "pass": "Pass for the rest of the Activation phase"}


def label(state: SaladinState, seat: str, command: dict[str, Any], players: Mapping[str, str]) -> str:
    """"Henry II: Loose at Al-Afdal (1 Order)", "Al-Afdal reacts: Evade (0 Orders)"."""
    kind = command.get("type")
    t = tables(state)
    if kind == "activate" and command.get("banner") in state.banners:
        bid = command["banner"]
        action = card_of(state, bid).action(str(command.get("action")))
        if action is not None:
            target = command.get("target")
            at = f" at {_target(state, target)}" if action.target == "enemy" or target == ARSUF else \
                f" for {_target(state, target)}" if target else ""
            return f"{t.banner(bid).name}: {action.name}{at} ({plural(action_cost(state, bid, action), 'Order')})"
    if kind == "leader":
        leader = t.leaders.get(seat)
        found = next((a for a in leader.actions if a.id == command.get("action")), None) if leader else None
        if found is not None:
            return f"{leader.name}: {found.name}"
    if kind == "react" and command.get("banner") in state.banners:
        bid = command["banner"]
        reaction = card_of(state, bid).reaction(str(command.get("reaction")))
        if reaction is not None:
            return f"{t.banner(bid).name} reacts: {reaction.name} ({plural(reaction.cost, 'Order')})"
    if kind == "choose-first":
        return f"The {_side(command.get('seat'), players)} activate first"
    return CHOICES.get(str(kind)) or default_label(command)


def prompt(state: SaladinState, seat: str, players: Mapping[str, str]) -> str | None:
    """What the phase asks of ``seat``, the active side."""
    who = f"the {_side(seat, players)}"
    if state.phase == "seize":
        return f"Turn {state.turn}: do {who} seize the initiative with their leader, or leave it?"
    if state.phase == "choose-first":
        return f"Turn {state.turn}: {who} hold the initiative: which side activates first?"
    if state.phase == "reaction" and state.pending is not None:
        p, t = state.pending, tables(state)
        action = card_of(state, p.banner).action(p.action)
        what = f"{t.banner(p.banner).name}'s {action.name if action else p.action}"
        return f"{_target(state, p.target)} is the target of {what}: how do {who} react?"
    available = state.sides[seat].available
    return (f"Turn {state.turn}, {plural(available, 'Order')} available: which banner or leader do {who} "
            f"activate, or do they pass?")


def _target(state: SaladinState, target: Any) -> str:
    if target == ARSUF:
        return "Arsuf"
    banners = tables(state).banners
    return banners[target].name if target in banners else str(target)


def _side(seat: Any, players: Mapping[str, str]) -> str:
    name = SIDES.get(str(seat), str(seat))
    return f"{name} ({players[seat]})" if seat in players and players[seat] else name
