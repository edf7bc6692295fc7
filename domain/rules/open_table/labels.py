"""Legal commands in words, for a person choosing one (issue 18): one line each."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.rules.base import default_label, plural


def label(state: Any, seat: str, command: dict[str, Any], players: Mapping[str, str]) -> str:
    """"Take 1 card from standard-54 into your hand", "Play K♠ face up", "Propose a draw"."""
    kind = command.get("type")
    deck = command.get("deck")
    count = command.get("count", 1)
    match kind:
        case "note":
            return "Write a note (any text, with an optional JSON payload)"
        case "roll":
            return f"Roll dice ({command.get('dice') or '1d6'}, or any other dice)"
        case "shuffle":
            return f"Shuffle {deck}: every card not in a hand goes back"
        case "draw":
            return f"Draw {plural(count, 'card')} from {deck} face up"
        case "take":
            return f"Take {plural(count, 'card')} from {deck} into your hand (kept secret)"
        case "play":
            return f"Play {command.get('card')} from your hand face up"
        case "discard":
            return f"Discard {command.get('card')} face down (kept secret)"
        case "show-hand":
            return "Show your hand to everyone"
        case "end":
            return f"Propose to end the game: {_outcome(command.get('outcome') or {}, players)}"
    return default_label(command)


def prompt(state: Any, seat: str, players: Mapping[str, str]) -> str | None:
    """Every seat may record at any time until the end; the question is what to record."""
    waiting = [s for s in state.seats if s in state.proposals and s != seat]
    ask = f"What does {players.get(seat, seat)} record: a note, a roll, a card?"
    if waiting:
        return ask + f" ({', '.join(players.get(s, s) for s in waiting)} proposed to end the game)"
    return ask


def _outcome(outcome: Mapping[str, Any], players: Mapping[str, str]) -> str:
    if outcome.get("draw"):
        words = "a draw"
    elif outcome.get("winner"):
        words = f"{players.get(outcome['winner'], outcome['winner'])} wins"
    else:
        words = "no result"
    reason = outcome.get("reason")
    return f"{words} ({reason})" if reason else words
