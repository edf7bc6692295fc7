"""What a seat sees (everything in Saxon Shore is open), and the text board."""

from __future__ import annotations

from typing import Any

import msgspec

from domain.rules.saxon_shore.data import PATH_TYPES, RESOURCES
from domain.rules.saxon_shore.state import capacity
from domain.rules.saxon_shore.state import SaxonState
from domain.rules.words import NO_NAMES, Names, seat_name, with_names

MORALE = {-1: "low", 0: "normal", 1: "high"}
SHORT = {"king": "K", "regular": "R", "knight": "N", "berserker": "B", "monk": "M", "mercenary": "$",
         "peasant": "p", "boat": "b"}


def _plain(value: Any) -> Any:
    """JSON-ready builtins (lists, not tuples)."""
    return msgspec.json.decode(msgspec.json.encode(value))


def _by_place(state: SaxonState) -> dict[str, list[Any]]:
    """Each place's units in unit-number order (one pass over the units, not one per place)."""
    found: dict[str, list[Any]] = {}
    for _, u in sorted(state.units.items()):
        found.setdefault(u.loc, []).append(u)
    return found


def view(state: SaxonState, seat: str | None) -> dict[str, Any]:
    """Everything is open in Saxon Shore: the whole board, every hand of resources."""
    outcome = state.ended or state.won
    placed = _by_place(state)
    provinces = {}
    for name in state.board.provinces:
        p = state.provinces[name]
        provinces[name] = {
            "owner": p.owner, "castle": p.owner is not None, "population": state.board.population[name],
            "capacity": capacity(state, name), "produces": list(state.board.produces[name]),
            "morale": MORALE[p.morale], "ravage": p.ravage,
            "improvements": [i for i in ("road", "wall", "city", "monastery") if getattr(p, i)],
            "trade": {"seat": p.trade_seat, "resource": p.trade_res} if p.trade_res else None,
            "troops": _plain(placed.get(name, [])),
        }
    players = {}
    for s in state.seats:
        pl = state.players[s]
        king = next((u for u in state.units.values() if u.owner == s and u.kind == "king"), None)
        players[s] = {
            "alive": pl.alive, "religion": "christian" if pl.christian else "pagan",
            "resources": dict(zip(RESOURCES, pl.res)), "paths": dict(zip(PATH_TYPES, pl.paths)),
            "king": {"province": king.loc, "quality": king.quality} if king else None,
            "boats": sum(1 for u in state.units.values() if u.owner == s and u.kind == "boat"),
            "provinces": sum(1 for p in state.provinces.values() if p.owner == s),
            "cards": [c for c in ("forced_march", "chainmail", "heresy", "bumper") if getattr(pl, c)],
        }
    return {
        "turn": state.turn, "phase": state.phase, "stage": state.stage, "order": list(state.order),
        "to_act": [state.prompt.seat] if state.prompt and outcome is None else [],
        "prompt": _plain(state.prompt) if state.prompt and outcome is None else None,
        "provinces": provinces, "players": players,
        "sea_zones": {z: {"units": _plain(placed.get(z, [])), "storm": z in state.storms} for z in state.board.seas},
        "battle": _plain(state.battle) if state.battle else None,
        "options": _plain(state.options),
        "outcome": _plain(outcome) if outcome else None,
    }


def _troops(placed: dict[str, list[Any]], loc: str, label: dict[str, str]) -> str:
    parts = []
    for u in placed.get(loc, ()):
        q = f"{u.quality:+d}" if u.kind == "king" and u.quality else ""
        parts.append(f"{label.get(u.owner, u.owner) if u.owner else 'n'}:{SHORT[u.kind]}{q}")
    return " ".join(parts)


def render_text(state: SaxonState, names: Names = NO_NAMES) -> str:
    """One line per province and player, players by name: a board readable at a glance."""
    outcome = state.ended or state.won
    placed = _by_place(state)

    label = {s: seat_name(names, s) for s in state.seats}  # each seat's player, once

    def who(seat: str) -> str:
        return label.get(seat) or seat_name(names, seat)

    own = max([3, *map(len, label.values())])
    column = {s: f"{n:<{own}}" for s, n in label.items()}
    nobody = "-".ljust(own)
    lines = [f"Saxon Shore — turn {state.turn}, {state.phase}"
             + (f" {state.stage}" if state.stage else "") + f" — order {', '.join(who(s) for s in state.order)}"]
    if state.prompt and outcome is None:
        lines.append(f"waiting for {who(state.prompt.seat)}: {state.prompt.kind}"
                     + (f" ({state.prompt.args[0]})" if state.prompt.kind == "phase" else ""))
    for s in state.seats:
        pl = state.players[s]
        res = " ".join(f"{r}:{n}" for r, n in zip(RESOURCES, pl.res) if n) or "no resources"
        owned = [p for p in state.board.provinces if state.provinces[p].owner == s]
        status = "" if pl.alive else " (eliminated)"
        lines.append(f"{who(s)}{status} {'Christian' if pl.christian else 'Pagan'} — {len(owned)} province{'' if len(owned) == 1 else 's'} — {res}")
    lines.append(f"province        {'own':<{own}} pop cap morale ravage improvements      troops")
    for name in state.board.provinces:
        p = state.provinces[name]
        imps = ",".join(i for i in ("road", "wall", "city", "monastery") if getattr(p, i))
        if p.trade_res:
            imps += f" [{who(p.trade_seat)}:{p.trade_res}]"
        lines.append(f"{name:<15} {(column.get(p.owner) or who(p.owner).ljust(own)) if p.owner else nobody} "
                     f"{state.board.population[name]:>3} {capacity(state, name):>3} {MORALE[p.morale]:<6} "
                     f"{p.ravage:>6} {imps:<17} {_troops(placed, name, label)}")
    for z in state.board.seas:
        lines.append(f"{z:<15} sea{' STORM' if z in state.storms else ''} {_troops(placed, z, label)}")
    lines.append("troops: K king (+n quality), R regular, N mounted knight, B berserker, M warrior monk, "
                 "$ mercenary, p peasant, b boat; n: neutral")
    if outcome:
        lines.append(f"GAME OVER: {who(outcome.winner) + ' wins' if outcome.winner else 'a draw'} — "
                     f"{with_names(outcome.reason, names)}")
    return "\n".join(lines)

