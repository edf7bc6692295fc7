"""Legal commands and prompts in words, for a person choosing (issue 18): provinces and
resources by name, the open question asked as a question, players by name where known.

Command types are read in either spelling (``raise-boats`` or ``raise_boats``), and the open
prompt through its fields alone, so the wording does not depend on the engine's internals."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.rules.base import default_label, plural

PHASES = {"setup": "set-up", "trade": "trade (§4.3)", "market": "market (§4.4)", "improve": "improvement (§4.5)",
          "raise": "raising troops (§4.6)", "convert": "conversion (§5)", "move": "movement (§7)",
          "declare": "combat declaration (§8)"}
# What each kind of open question asks: {who}, {prov}, {arg} and {n} from the prompt.
QUESTIONS = {
    "start": "Which province does {who} choose to start in (§10)?",
    "king_place": "Where does {who} place the new king?",
    "place_unit": "Where does {who} place the {arg}?",
    "path": "Which does {who} take: a mountain path, a woodland trail or a marsh way?",
    "bumper": "Which resource of the bumper year does {who} take?",
    "famine": "Does {who} pay grain against the famine in {prov}?",
    "trade_gain": "Which resource does {who} take?",
    "home": "Where do {who}'s troops in {prov} go home?",
    "offer": "Does {who} accept the trade offer of {arg}?",
    "casualty": "Which unit does {who} lose in the battle for {prov}?",
    "city_retreat": "Does {who} fight on, or retreat into the city of {prov}?",
    "city_assault": "Does {who} assault the city of {prov}, destroy an improvement, or ravage it?",
    "king_bonus": "How does {who}'s king act in the battle for {prov}?",
    "conquest": "Does {who} destroy, ravage or spare conquered {prov}?",
    "rebellion": "Does {who} let {prov} go, or lead the rebels?",
    "fire": "Does {who} pay for repairs, or let the city of {prov} burn?",
    "traders": "How does {who} deal with the traders?",
    "family_offer": "What does {who} offer to keep {prov}?",
    "family_accept": "Does {who} accept the offer for {prov}?",
    "boat_place": "Where does {who} place the free boat?",
    "ruin": "Which Roman ruin does {who} choose?",
    "assassin": "Whom does {who}'s assassin strike?",
    "hammer": "Where does the hammer of God fall, as {who} chooses?",
}
IMPROVEMENTS = {"morale": "raise morale", "ravage": "remove a ravage marker", "road": "build a road",
                "wall": "build a wall", "city": "build a city", "monastery": "build a monastery"}


def label(state: Any, seat: str, command: dict[str, Any], players: Mapping[str, str]) -> str:
    """"Raise a regular in Kent, paying iron and wheat", "Choose: spend grain"."""
    c = command
    match str(c.get("type", "")).replace("_", "-"):
        case "choose":
            return f"Choose: {_option(c.get('option'), players)}"
        case "done":
            return "Done: end your part of this phase"
        case "offer":
            return (f"Offer {_who(c.get('to'), players)} {_tokens(c.get('give'))} "
                    f"for {_tokens(c.get('take'))}")
        case "place-trade":
            return f"Place {c.get('resource')} in the city of {c.get('province')} for trade"
        case "improve":
            what = IMPROVEMENTS.get(str(c.get("improvement")), str(c.get("improvement")))
            return f"{what.capitalize()} in {c.get('province')}, paying {_listing(c.get('pay'))}"
        case "hire":
            return f"Hire the mercenary {_where(state, c.get('unit'))}, paying {c.get('pay')}"
        case "raise-regular":
            return f"Raise a regular in {c.get('province')}, paying {_listing(c.get('pay'))}"
        case "raise-peasants":
            return f"Raise peasants in {c.get('province')}, paying {c.get('pay')}"
        case "raise-boats":
            places = _listing([f"{p.get('province')} on the {p.get('sea')}" for p in c.get("places") or []
                               if isinstance(p, Mapping)])
            return f"Raise boats in {places}, paying {c.get('pay')}"
        case "peasant-to-boat":
            return f"Turn the peasant {_where(state, c.get('unit'))} into a boat on the {c.get('sea')}"
        case "raise-monk":
            return f"Raise a warrior monk in {c.get('province')}, paying {_listing(c.get('pay'))}"
        case "convert":
            return "Convert (from Paganism to Christianity, or back)"
        case "move":
            path = [str(p) for p in c.get("path") or []]
            return f"Move {_units(state, c.get('units'))} along {' → '.join(path) or '?'}"
        case "forced-march":
            return f"Force-march the units at {c.get('location')} (one more movement point)"
        case "declare":
            act = "Raid" if c.get("action") == "raid" else "Invade"
            paying = f", paying {c['pay']}" if c.get("pay") else ""
            return f"{act} {c.get('province')}{paying}"
    return default_label(c)


def prompt(state: Any, seat: str, players: Mapping[str, str]) -> str | None:
    """The open question, ``seat``'s (the seat it waits for)."""
    asked = state.prompt
    kind, args = str(getattr(asked, "kind", "")), tuple(getattr(asked, "args", ()) or ())
    who = _who(seat, players)
    if kind == "phase":
        name = args[0] if args else "?"
        stage = f" (stage {asked.n})" if getattr(asked, "n", 0) else ""
        return f"What does {who} do in the {PHASES.get(name, name)} phase{stage}? (done when finished)"
    template = QUESTIONS.get(kind, "What does {who} choose (" + kind.replace("_", " ") + ")?")
    arg = _who(args[0], players) if args else ""
    return template.format(who=who, prov=getattr(asked, "prov", None) or "the province", arg=arg,
                           n=getattr(asked, "n", 0))


def _who(seat: Any, players: Mapping[str, str]) -> str:
    return players.get(str(seat)) or str(seat)


def _option(option: Any, players: Mapping[str, str]) -> str:
    text = str(option)
    if text in players:
        return players[text]
    if "=" in text:  # resource tokens, e.g. "wheat=1,gold=2"
        pairs = [part.partition("=") for part in text.split(",")]
        return _listing([f"{n} {kind}" for kind, _, n in pairs])
    return text.replace("_", " ")


def _where(state: Any, unit_id: Any) -> str:
    """"in Kent" for a counter on the map (its id where the map does not know it)."""
    unit = (getattr(state, "units", {}) or {}).get(unit_id)
    return f"in {unit.loc}" if unit is not None else f"(counter {unit_id})"


def _units(state: Any, ids: Any) -> str:
    """``[3, 4, 7]`` → "the king and 2 regulars" (by each counter's kind on the map)."""
    known = getattr(state, "units", {}) or {}
    kinds: dict[str, int] = {}
    for unit_id in ids or []:
        unit = known.get(unit_id)
        kind = str(getattr(unit, "kind", "unit")) if unit is not None else "unit"
        kinds[kind] = kinds.get(kind, 0) + 1
    return _listing([f"the {kind}" if kind == "king" else plural(n, kind) for kind, n in kinds.items()])


def _tokens(tokens: Any) -> str:
    if not tokens:
        return "nothing"
    if isinstance(tokens, Mapping):
        return _listing([f"{n} {kind}" for kind, n in tokens.items()])
    return str(tokens)


def _listing(items: Any) -> str:
    items = [str(i) for i in items or []]
    if not items:
        return "nothing"
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]
