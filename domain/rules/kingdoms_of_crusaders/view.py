"""What a seat (or a spectator) sees: its own hand face up, every other hand as a count, the
deck as a count; the five territories with every army face up. Hands are shown at the end."""

from __future__ import annotations

import functools
from typing import Any

import msgspec

from domain.rules.kingdoms_of_crusaders.armies import counts_of, squads
from domain.rules.kingdoms_of_crusaders.data import NAMES, SECTOR_CAPACITY, TERRITORIES, symbols
from domain.rules.kingdoms_of_crusaders.rules import to_act
from domain.rules.kingdoms_of_crusaders.state import KingdomsOfCrusadersState
from domain.rules.words import NO_NAMES, Names, seat_name, with_names


def _cards(state: KingdomsOfCrusadersState, ids: tuple[str, ...]) -> list[dict[str, Any]]:
    return [{"id": c, "symbols": symbols(state.cards[c])} for c in ids]


def view(state: KingdomsOfCrusadersState, seat: str | None, everything: bool = False) -> dict[str, Any]:
    """The board from ``seat``'s chair (None: a spectator); ``everything``: every hand shown,
    as once the seed is revealed."""
    territories = []
    for n in TERRITORIES:
        marker = state.winner_of(n)
        armies = {}
        for p in state.seats:
            ids = state.sectors[p][n - 1]
            done = state.completed[n - 1]
            armies[p] = {
                "cards": _cards(state, ids),
                "complete": len(ids) == SECTOR_CAPACITY,
                "completed_order": done.index(p) + 1 if p in done else None,
                "squads": squads(counts_of(state.cards[c] for c in ids)),
            }
        territories.append({
            "sector": n,
            "name": NAMES[n],
            "marker": {"number": marker.number, "seat": marker.seat} if marker else None,
            "armies": armies,
        })
    hands = {}
    for p in state.seats:
        held = state.hands[p]
        hands[p] = {"count": len(held), "cards": _cards(state, held) if p == seat or state.shown or everything else None}
    return {
        "phase": state.phase,
        "seats": list(state.seats),
        "layout": "mirror" if len(state.seats) == 2 else "sector 1 at the left",
        "points_variant": state.points,
        "first": state.first,
        "to_act": next(iter(to_act(state)), None),
        "turn": state.turn,
        "deck": {"size": len(state.deck), "left": len(state.deck) - state.drawn},
        "hands": hands,
        "territories": territories,
        "markers": [{"number": m.number, "sector": m.sector, "seat": m.seat} for m in state.markers],
        "outcome": msgspec.to_builtins(state.result),
    }


def _symbols(card: dict[str, Any]) -> str:
    return "+".join(s[:2] for s in card["symbols"])


def render_text(state: KingdomsOfCrusadersState, names: Names = NO_NAMES, everything: bool = False) -> str:
    """A board a person reads at a glance, players by name: every hand as a count until the end,
    or once the seed is revealed (``everything``) every hand card by card."""
    v = view(state, None, everything)
    who = functools.partial(seat_name, names)
    head = f"The Kingdoms of Crusaders — {v['phase']}, turn {v['turn']}"
    if v["to_act"]:
        head += f", {who(v['to_act'])} to act"
    lines = [head, f"deck: {v['deck']['left']} of {v['deck']['size']} left;  hands: "
             + ", ".join(f"{who(p)} {h['count']}" for p, h in v["hands"].items())]
    for t in v["territories"]:
        m = t["marker"]
        lines.append(f"{t['sector']} {t['name']}" + (f"  — won by {who(m['seat'])} (marker {m['number']})" if m else ""))
        for p, a in t["armies"].items():
            cards = " | ".join(_symbols(c) for c in a["cards"]) or "-"
            sq = ", ".join(f"{k[:-1] if k != 'companies' else 'company'} {' '.join(v_)}"
                           for k, v_ in a["squads"].items() if v_ and k != "singles")
            lines.append(f"   {who(p)}: {cards}" + ("  [complete]" if a["complete"] else "") + (f"  ({sq})" if sq else ""))
    for p, h in v["hands"].items():
        if h["cards"] is not None:
            lines.append(f"{who(p)}'s hand: " + (" | ".join(f"{c['id']} {_symbols(c)}" for c in h["cards"]) or "-"))
    if state.result:
        r = state.result
        lines.append(f"ENDED: {'draw' if r.draw else who(r.winner) + ' wins'} ({with_names(r.reason, names)}); scores "
                     + ", ".join(f"{who(p)} {int(s)}" for p, s in r.scores.items()))
    return "\n".join(lines)
