"""One-line narratives of the open table's commands and events: players by name, cards by
their ids as the deck lists them, counts with their plurals."""

from __future__ import annotations

from typing import Any

from domain.rules.words import Names, and_list, outcome_text, plural, seat_name


def describe_command(command: dict[str, Any], names: Names) -> str:
    kind = command.get("type")
    deck = f"the {command.get('deck')} deck"
    match kind:
        case "note":
            return f"notes: {command.get('text', '')}"
        case "roll":
            dice, label = str(command.get("dice")), command.get("label") or "no stated reason"
            if label == dice or label.startswith(f"{dice} "):  # "3d6 for the charge" names its dice already
                return f"rolls {label}"
            return f"rolls {dice} for {label}"
        case "draw":
            return f"draws {plural(command.get('count', 1), 'card')} face up from {deck}"
        case "shuffle":
            return f"shuffles {deck}"
        case "take":
            return f"takes {plural(command.get('count', 1), 'card')} from {deck} into their hand"
        case "play":
            return f"plays {command.get('card')}"
        case "discard":
            return f"discards {command.get('card')} face down"
        case "show-hand":
            return "shows their hand"
        case "end":
            return f"proposes to end the game — {outcome_text(command.get('outcome') or {}, names)}"
    return str(kind)


def describe_event(event_type: str, data: dict[str, Any], names: Names) -> str | None:
    who = seat_name(names, data.get("seat"))
    match event_type.removeprefix("open-table."):
        case "HandDrawn":
            return f"{who} takes {plural(data['count'], 'card')} from the {data['deck']} deck into their hand"
        case "CardsTaken":
            return f"{who} takes {and_list(data['cards'])} into their hand"
        case "CardPlayed":
            return f"{who} plays {data['card']}"
        case "DiscardedFaceDown":
            return f"{who} discards a card face down"
        case "CardDiscarded":
            return f"{who} discards {data['card']} face down"
        case "HandShown":
            return f"{who} shows their hand: {and_list(data['cards']) or 'no cards'}"
        case "CardsDrawn":
            return f"{who} draws {and_list(data['cards'])} face up from the {data['deck']} deck"
        case "EndProposed":
            return f"{who} proposes to end the game — {outcome_text(data['outcome'], names)}"
    return None
