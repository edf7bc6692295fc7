"""The open table for people and clients: the view of one seat (or a spectator) and a text board."""

from __future__ import annotations

from typing import Any

import msgspec

from domain.events import Outcome
from domain.rules.open_table.state import OpenTableState, cards_in_hand
from domain.rules.words import NO_NAMES, Names, plural, seat_name


def view(state: OpenTableState, seat: str | None, everything: bool = False) -> dict[str, Any]:
    """Everything on the table is open but the hands: ``seat`` sees its own hand, every
    other hand is a count, until the end reveals them all (``everything``: at every step, as
    once the seed is revealed). Deck orders are never in the state."""
    return {
        "seats": list(state.seats),
        "decisions": state.decisions,
        "rolls": state.rolls,
        "dice": sorted(state.dice),
        "decks": {
            name: {"size": len(d.cards), "left": d.left, "drawn": list(d.drawn),
                   "shuffled": d.shuffle is not None}
            for name, d in sorted(state.decks.items())
        },
        "hands": {s: cards_in_hand(state, s) if s == seat or state.ended or everything else len(h)
                  for s, h in sorted(state.hands.items())},
        "played": [{"seat": s, "card": c} for s, c in state.played],
        "face_down": dict(sorted(state.face_down.items())),
        "end_proposals": {s: msgspec.to_builtins(o) for s, o in sorted(state.proposals.items())},
        "ended": msgspec.to_builtins(state.ended),
    }

def render_text(state: OpenTableState, names: Names = NO_NAMES, everything: bool = False) -> str:
    """The table at a glance, players by name: hands as counts until the end, or once the seed is
    revealed (``everything``) card by card."""
    lines = [f"Open table — seats: {', '.join(seat_name(names, s) for s in state.seats)}",
             f"decisions: {state.decisions}   rolls: {state.rolls}"]
    for name, d in sorted(state.decks.items()):
        shown = " ".join(d.drawn[-10:]) or "-"
        lines.append(f"deck {name}: {d.left}/{len(d.cards)} left; last drawn face up: {shown}")
    for seat, hand in sorted(state.hands.items()):  # a spectator's board: hands as counts
        shown = (" ".join(cards_in_hand(state, seat)) or "no cards") if state.ended or everything \
            else plural(len(hand), "card")
        lines.append(f"{seat_name(names, seat)}'s hand: {shown}; face down: {state.face_down.get(seat, 0)}")
    if state.played:
        lines.append("played: " + " ".join(f"{seat_name(names, s)}:{c}" for s, c in state.played[-10:]))
    for seat, outcome in sorted(state.proposals.items()):
        lines.append(f"{seat_name(names, seat)} proposes to end: {describe_outcome(outcome, names)}")
    if state.ended:
        lines.append(f"ENDED: {describe_outcome(state.ended, names)}")
    return "\n".join(lines)


def describe_outcome(outcome: Outcome, names: Names = NO_NAMES) -> str:
    result = "draw" if outcome.draw else f"{seat_name(names, outcome.winner)} wins"
    return f"{result} ({outcome.reason})" if outcome.reason else result
