"""Legal commands and prompts in words, for a person choosing (issue 18): territories by
name, cards with their symbols, players by name where known."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.rules.base import default_label, plural
from domain.rules.kingdoms_of_crusaders.data import HAND, NAMES, SECTOR_CAPACITY, symbols
from domain.rules.kingdoms_of_crusaders.state import KingdomsOfCrusadersState


def label(state: KingdomsOfCrusadersState, seat: str, command: dict[str, Any], players: Mapping[str, str]) -> str:
    """"Place A17 (lance, bow) in the County of Edessa (sector 2; 1 card there)"."""
    kind = command.get("type")
    if kind == "prepare":
        return f"Prepare the game: shuffle the deck, roll for the first player, deal {HAND} cards each"
    if kind == "place":
        card, sector = str(command.get("card")), command.get("sector")
        there = ""
        if seat in state.sectors and isinstance(sector, int) and 1 <= sector <= len(state.sectors[seat]):
            there = f"; {plural(len(state.sectors[seat][sector - 1]), 'card')} of {SECTOR_CAPACITY} there"
        kinds = ", ".join(symbols(state.cards[card])) if card in state.cards else "?"
        return f"Place {card} ({kinds}) in {NAMES.get(sector, sector)} (sector {sector}{there})"
    return default_label(command)


def prompt(state: KingdomsOfCrusadersState, seat: str, players: Mapping[str, str]) -> str | None:
    """What ``seat``, one of the seats to act, is asked now."""
    who = players.get(seat) or seat
    if state.phase == "preparation":
        return f"Will {who} prepare the game to begin?"
    return f"Turn {state.turn}: which card does {who} place, and in which of their sectors?"
