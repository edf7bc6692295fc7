"""One-line narratives of the Kingdoms of Crusaders' events and commands. A drawn card is never
named: the line says only that a seat drew, so it is safe for every reader."""

from __future__ import annotations

from typing import Any

from domain.rules.kingdoms_of_crusaders.data import NAMES


def _territory(sector: Any) -> str:
    return f"{NAMES.get(sector, sector)} (sector {sector})"


def describe_command(command: dict[str, Any]) -> str:
    kind = command.get("type")
    if kind == "prepare":
        return "prepares the game: shuffle, who moves first, five cards each"
    if kind == "place":
        return f"places {command.get('card')} in sector {command.get('sector')}"
    return str(kind)


def describe_event(event_type: str, data: dict[str, Any]) -> str | None:
    name = event_type.removeprefix("kingdoms-of-crusaders.")
    if name == "CardsDrawn":
        n = data.get("count")
        return f"{data.get('seat', '?')} draws {n} card{'s' if n != 1 else ''} from the top of the deck"
    if name == "DrawnCards":
        return f"{data.get('seat', '?')} takes the cards drawn into the hand"
    if name == "TurnBegan":
        return f"turn {data.get('turn')}: {data.get('seat')} to move"
    if name == "CardPlaced":
        card = data.get("card") or {}
        line = (f"{data.get('seat')} places {card.get('id')} ({', '.join(card.get('symbols') or [])}) in "
                f"{_territory(data.get('sector'))}")
        return line + "; the army there is complete" if data.get("completed") else line
    if name == "TerritoryWon":
        return (f"{data.get('seat')} wins {_territory(data.get('sector'))} and places victory marker "
                f"{data.get('marker')}")
    if name == "HandsShown":
        return "every hand is shown"
    if name == "GameDecided":
        outcome = data.get("outcome") or {}
        return f"{outcome.get('winner') or 'nobody'} wins: {outcome.get('reason', '')}"
    return None
