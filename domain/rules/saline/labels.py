"""Legal commands and prompts in words, for a person choosing (issue 18): cards and effects
by their names in the data, places around the mulon in words, players by name where known."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.rules.base import default_label, plural
from domain.rules.saline.legality import favour_effects_named
from domain.rules.saline.state import SalineState

PLACES = {"N": "north", "NE": "north-east", "E": "east", "SE": "south-east", "S": "south", "SW": "south-west",
          "W": "west", "NW": "north-west"}


def label(state: SalineState, seat: str, command: dict[str, Any], players: Mapping[str, str]) -> str:
    """"Buy the red œillet on market space 2 (2 liards), north-east of your mulon"."""
    kind = command.get("type")
    match kind:
        case "prepare":
            return "Set up the game: objectives, favours, liards, mulons, the market, the first player"
        case "place":
            return f"Place your green œillet {_place(command.get('position'))}"
        case "play":
            return _play(state, command, players)
        case "pass":
            if state.pending is None and state.window is not None:
                return f"Play nothing before {_held(state, players)}"
            return "Let the card just played be"
        case "sacrifice":
            return f"Sacrifice your œillet {_place(command.get('position'))} (the gabelle cannot be paid)"
        case "buy":
            space = command.get("space")
            return f"Buy {_market(state, space)}, {_place(command.get('position'))}"
        case "harvest":
            return f"Harvest your {command.get('colour')} œillets"
        case "sell":
            sacrifice = command.get("sacrifice")
            rest = f", giving up your œillet {_place(sacrifice)}" if sacrifice else ""
            return f"Sell the salt of your mulon, then pay the gabelle ({state.gabelle}){rest}"
        case "nothing":
            return "Do nothing: take 1 liard from the reserve"
        case "end":
            return "End your day turn"
        case "draw":
            return "Draw the night's event card (the end of your turn)"
        case "discard":
            return f"Discard {_card(state, command.get('card'))} (down to the hand limit; kept secret)"
    return default_label(command)


def prompt(state: SalineState, seat: str, players: Mapping[str, str]) -> str | None:
    """What ``seat``, one of the seats to act, is asked now."""
    who = players.get(seat) or seat
    if state.phase == "preparation":
        return f"Will {who} set up the game to begin?"
    if state.phase == "placing":
        return f"Where around the mulon does {who} place the green œillet?"
    if state.discarding:
        return f"{who} holds more than 2 event cards: which one is discarded?"
    if state.pending is not None and state.asked:
        p = state.pending
        return (f"{players.get(p.seat) or p.seat} played {p.effect}: does {who} answer with a card, "
                f"or let it be?")
    if state.sacrificing:
        return f"{who} cannot pay the gabelle after the sale: which œillet is sacrificed?"
    if state.window is not None:
        return (f"Before {_held(state, players)}: does {who} play a card bearing the triangle, or the favour, "
                f"or pass?")
    if state.phase == "day":
        return f"Day {state.day}: what does {who} do (one action, cards before or after)?"
    return f"Night: does {who} play a card before drawing the night's event card?"


ACTIONS = {"buy": "buys an œillet", "harvest": "harvests", "sell": "sells", "nothing": "does nothing",
           "draw": "draws the night's card"}


def _held(state: SalineState, players: Mapping[str, str]) -> str:
    """"Anne sells": the action a window holds, in words."""
    w = state.window
    return f"{players.get(w.holder) or w.holder} {ACTIONS.get(w.step, w.step)}"


def _play(state: SalineState, command: dict[str, Any], players: Mapping[str, str]) -> str:
    card = command.get("card")
    own = state.cat.events.get(str(card), ()) if card != "favour" else favour_effects_named(state, command.get("effect"))
    effect = next((e for e in own if e.name == command.get("effect")), state.cat.effects.get(str(command.get("effect"))))
    line = f"Play {_card(state, card)} for {command.get('effect')}"
    if command.get("target"):
        line += f" against {players.get(command['target']) or command['target']}"
    if command.get("colour"):
        line += f", {command['colour']}"
    if command.get("space"):
        line += f", {_market(state, command['space'])} {_place(command.get('position'))}"
    if effect is not None and effect.cost:
        line += f" (costs {plural(effect.cost, 'liard')})"
    return line


def _card(state: SalineState, card: Any) -> str:
    if card == "favour":
        return "your favour"
    effects = state.cat.events.get(str(card))
    return f"the event card {card} ({' / '.join(e.name for e in effects)})" if effects else str(card)


def _market(state: SalineState, space: Any) -> str:
    if isinstance(space, int) and 1 <= space <= len(state.market):
        oeillet = state.market[space - 1]
        colour = state.colour(oeillet) if oeillet else "empty"
        price = state.cat.prices[space - 1] if space <= len(state.cat.prices) else "?"
        return f"the {colour} œillet on market space {space} ({plural(price, 'liard')})" \
            if isinstance(price, int) else f"the {colour} œillet on market space {space}"
    return f"market space {space}"


def _place(position: Any) -> str:
    return f"{PLACES.get(str(position), position)} of your mulon"
