"""One-line narratives of the Kingdoms of Crusaders' events and commands, players by name. A
drawn card is never named in a public line: the line says only that a seat drew, so it is safe
for every reader; the sealed ``DrawnCards`` names them for its seat alone."""

from __future__ import annotations

from typing import Any

from domain.rules.kingdoms_of_crusaders.data import NAMES
from domain.rules.words import Names, and_list, outcome_text, plural, seat_name


def _territory(sector: Any) -> str:
    if sector not in NAMES:
        return f"sector {sector}"
    the = "the " if NAMES[sector].split()[0] in ("Kingdom", "County", "Principality") else ""
    return f"{the}{NAMES[sector]} (sector {sector})"


def _card(card: dict[str, Any]) -> str:
    symbols = card.get("symbols") or []
    return f"{card.get('id')} ({and_list(symbols)})" if symbols else str(card.get("id"))


def describe_command(command: dict[str, Any], names: Names) -> str:
    kind = command.get("type")
    if kind == "prepare":
        return "prepares the game: the deck shuffled, who moves first, five cards each"
    if kind == "place":
        return f"places {command.get('card')} in {_territory(command.get('sector'))}"
    return str(kind)


def describe_event(event_type: str, data: dict[str, Any], names: Names) -> str | None:
    who = seat_name(names, data.get("seat"))
    match event_type.removeprefix("kingdoms-of-crusaders."):
        case "CardsDrawn":
            return f"{who} draws {plural(data['count'], 'card')} from the top of the deck"
        case "DrawnCards":
            return f"{who} takes the {plural(len(data['cards']), 'card')} drawn into their hand"
        case "TurnBegan":
            return f"turn {data['turn']}: {who} to move"
        case "CardPlaced":
            line = f"{who} places {_card(data['card'])} in {_territory(data['sector'])}"
            return line + "; the army there is complete" if data.get("completed") else line
        case "TerritoryWon":
            return f"{who} wins {_territory(data['sector'])} and places victory marker {data['marker']}"
        case "HandsShown":
            hands = [f"{seat_name(names, s)} {and_list(_card(c) for c in cards) or 'no cards'}"
                     for s, cards in data["hands"].items()]
            return "every hand is shown: " + "; ".join(hands)
        case "GameDecided":
            return outcome_text(data["outcome"], names)
    return None
