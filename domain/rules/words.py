"""Words for narration, shared by every rule system: who a seat is, counts with their plurals,
lists said as a person says them. Narration is a projection, never part of the record."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import Any

Names = Mapping[str, str]  # seat id -> how a line names the player in it ("Ann Smith")
NO_NAMES: Names = MappingProxyType({})


def seat_name(names: Names, seat: str | None) -> str:
    """The player in ``seat`` as a line names them: their name, else the seat id."""
    if seat is None:
        return "nobody"
    return names.get(seat, seat)


def plural(count: int, singular: str, many: str | None = None) -> str:
    """``count`` things with the right number: "1 card", "2 cards", "3 dice"."""
    return f"{count} {singular if count == 1 else (many or singular + 's')}"


def and_list(items: Iterable[str], last: str = "and") -> str:
    """"a", "a and b", "a, b and c"."""
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {last} {items[-1]}"


def player_names(seats: Mapping[str, object]) -> dict[str, str]:
    """Seat id -> name from a ``GameCreated``'s seats (SeatInfo or its JSON form). A name that
    two seats share, or none, is told with its seat (``Ann (p1)``) so lines stay unambiguous."""
    player = {s: (info.get("player") if isinstance(info, Mapping) else getattr(info, "player", "")) or ""
              for s, info in seats.items()}
    taken = [p for p in player.values()]
    return {s: (p if p and taken.count(p) == 1 else f"{p} ({s})" if p else s) for s, p in player.items()}


def outcome_text(outcome: Mapping[str, Any], names: Names) -> str:
    """"Ann Smith wins: rout (Ann Smith 34, Bo Lind 26)": an outcome with players by name."""
    line = "a draw" if outcome.get("draw") else (
        f"{seat_name(names, outcome['winner'])} wins" if outcome.get("winner") else "the game ends with no winner")
    if outcome.get("reason"):
        line += f": {with_names(str(outcome['reason']), names)}"
    scores = outcome.get("scores") or {}
    if scores:
        line += " (" + ", ".join(f"{seat_name(names, s)} {number(v)}" for s, v in scores.items()) + ")"
    return line


def number(value: Any) -> str:
    """A number as people write it: 34, not 34.0."""
    return str(int(value)) if isinstance(value, float) and value.is_integer() else str(value)


def with_names(text: str, names: Names) -> str:
    """A rule system's own text (an outcome's reason) with each seat id in it, as a whole word,
    replaced by the player's name: "equal victory markers with p4" -> "... with Di Marsh"."""
    if not names:
        return text
    pattern = "|".join(re.escape(seat) for seat in sorted(names, key=len, reverse=True))
    return re.sub(rf"(?<![\w-])(?:{pattern})(?![\w-])", lambda m: names[m.group(0)], text)
