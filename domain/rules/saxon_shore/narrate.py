"""One-line narratives of Saxon Shore's events and commands, for timelines.

Pure: an event carries its effect (the province, player or counters as they now stand, and the
rulebook's reason in ``why``), so a line says what happened and how things stand after it;
nothing here reads the game's state. Province and sea-zone names are the map's own.
"""

from __future__ import annotations

import re
from typing import Any

from domain.rules.saxon_shore.data import PATH_TYPES, RESOURCES
from domain.rules.saxon_shore.view import describe_command as board_command

LIMIT = 160
MORALE = {-1: "low", 0: "normal", 1: "high"}
KINDS = {"king": "king", "regular": "regular", "knight": "mounted knight", "berserker": "berserker",
         "monk": "warrior monk", "mercenary": "mercenary", "peasant": "peasant", "boat": "boat"}
PHASES = {"setup": "set-up", "trade": "trade (§4.3)", "market": "market (§4.4)", "improve": "improvement (§4.5)",
          "raise": "raising troops (§4.6)", "convert": "conversion (§5)", "move": "movement (§7)",
          "declare": "combat declaration (§8)", "combat": "combat (§8)", "random events": "random events (§3)"}
IMPROVEMENTS = ("road", "wall", "city", "monastery")
# What each kind of open question asks; {seat}, {prov}, {arg} and {n} from the prompt.
PROMPTS = {
    "start": "{seat} to choose a starting province (§10)",
    "king_place": "{seat} to place a new king",
    "place_unit": "{seat} to place a {arg}",
    "path": "{seat} to choose a mountain path, woodland trail or marsh way",
    "bumper": "{seat} to choose a resource of the bumper year",
    "famine": "{seat} to pay grain against famine in {prov}, or not",
    "trade_gain": "{seat} to choose a resource",
    "home": "{seat} to choose where the troops in {prov} go home",
    "offer": "{seat} to accept or decline the trade offer of {arg}",
    "casualty": "{seat} to choose a casualty in the battle for {prov}",
    "city_retreat": "{seat} to fight on or retreat into the city of {prov}",
    "city_assault": "{seat} to assault the city of {prov}, or destroy an improvement or ravage it",
    "king_bonus": "{seat} to choose the king's move in the battle for {prov}",
    "conquest": "{seat} to destroy, ravage or spare conquered {prov}",
    "rebellion": "{seat} to let {prov} go or lead the rebels",
    "fire": "{seat} to pay for repairs or let the city of {prov} burn",
    "traders": "{seat} to deal with the traders",
    "family_offer": "{seat} to offer resources to keep {prov}",
    "family_accept": "{seat} to accept or refuse the offer for {prov}",
    "boat_place": "{seat} to place a free boat",
    "ruin": "{seat} to choose a Roman ruin",
    "assassin": "{seat} to choose the assassin's target",
    "hammer": "{seat} to choose where the hammer of God falls",
}
MOVES = re.compile(r"^moves (?P<src>.+?) to (?P<dst>.+) \((?P<rule>§[^)]*)\)$")


# -- words -------------------------------------------------------------------------------------------
def clip(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= LIMIT else text[: LIMIT - 1] + "…"


def cap(text: str) -> str:
    """Capitalised, unless it begins with a seat (``p2's king assassinated``)."""
    return text if re.match(r"p\d", text) else text[:1].upper() + text[1:]


def plural(n: int, word: str) -> str:
    if n == 1:
        return f"{n} {word}"
    return f"{n} {word[:-1]}ies" if word.endswith("y") and word[-2:-1] not in "aeiou" else f"{n} {word}s"


def listing(items: list[str]) -> str:
    if not items:
        return ""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def resources(res: Any) -> str:
    """``[1, 0, 0, 2, 0]`` or ``{"wheat": 1}`` → ``1 wheat, 2 gold``; nothing → ``nothing``."""
    pairs = res.items() if isinstance(res, dict) else zip(RESOURCES, res or ())
    held = [f"{n} {name}" for name, n in pairs if n]
    return ", ".join(held) or "nothing"


def counters(units: list[dict[str, Any]]) -> str:
    """``p1: king and 2 boats in Norfolk; neutral: mercenary in Kent`` (at most three groups)."""
    groups: dict[tuple[str, str], dict[str, int]] = {}
    for u in units:
        kind = KINDS.get(str(u.get("kind")), str(u.get("kind")))
        if u.get("kind") == "king" and u.get("quality"):
            kind = f"{int(u['quality']):+d} king"
        where = str(u.get("loc"))
        if u.get("coast"):
            where += f" ({u['coast']})"
        kinds = groups.setdefault((str(u.get("owner") or "neutral"), where), {})
        kinds[kind] = kinds.get(kind, 0) + 1
    parts = [f"{owner}: {listing([k if n == 1 else plural(n, k) for k, n in kinds.items()])} in {where}"
             for (owner, where), kinds in groups.items()]
    more = len(parts) - 3
    return "; ".join(parts[:3]) + (f"; and {more} more" if more > 0 else "")


# -- events ------------------------------------------------------------------------------------------
def describe_event(event_type: str, d: dict[str, Any]) -> str | None:
    """One line for one ``saxon-shore.*`` event; None for a type this module does not know."""
    if not event_type.startswith("saxon-shore."):
        return None
    fn = EVENTS.get(event_type.removeprefix("saxon-shore."))
    return clip(fn(d)) if fn is not None else None


def _province_set(d):
    name, why = d.get("name"), str(d.get("why") or "changed")
    p = d.get("province") or {}
    if why == "new turn":
        return f"{name}: this turn's marks cleared"
    state = [f"held by {p['owner']}" if p.get("owner") else "neutral", f"morale {MORALE.get(p.get('morale', 0))}"]
    if p.get("ravage") or "ravage" in why:
        state.append(f"ravage {p.get('ravage', 0)}")
    state += [i for i in IMPROVEMENTS if p.get(i)]
    if p.get("trade_res"):
        state.append(f"{p.get('trade_seat')}'s {p['trade_res']} for trade")
    if p.get("famine"):
        state.append("famine")
    return f"{name}: {why} — {', '.join(state)}"


def _player_set(d):
    seat, why = d.get("seat"), str(d.get("why") or "changed")
    p = d.get("player") or {}
    if p.get("alive") is False:
        return f"{seat} is eliminated: no provinces left"
    if why == "new turn":
        return f"{seat}: last turn's cards and trade offers put away"
    if why.startswith("converts"):
        return f"{seat} {why}"
    text = f"{seat}: {why} — holds {resources(p.get('res'))}"
    if "path" in why:
        paths = [f"{n} {kind}" for kind, n in zip(PATH_TYPES, p.get("paths") or ()) if n]
        text += f"; paths: {', '.join(paths) or 'none'}"
    if "offer" in why:
        text += f"; {plural(int(p.get('offers', 0)), 'offer')} made this turn"
    return text


def _units_set(d):
    why = str(d.get("why") or "")
    units = list(d.get("units") or [])
    removed = list(d.get("removed") or [])
    if why.startswith("movement phase"):
        return f"{cap(why)}: movement points for {plural(len(units), 'counter')}"
    moved = MOVES.match(why)
    if moved and units:
        owners = sorted({str(u.get("owner") or "neutral") for u in units})
        kinds: dict[str, int] = {}
        for u in units:
            k = KINDS.get(str(u.get("kind")), str(u.get("kind")))
            kinds[k] = kinds.get(k, 0) + 1
        what = listing([k if n == 1 else plural(n, k) for k, n in kinds.items()])
        return f"{listing(owners)} moves {what} from {moved['src']} to {moved['dst']} ({moved['rule']})"
    parts = []
    if units:
        parts.append(counters(units))
    if removed:
        parts.append(f"{plural(len(removed), 'counter')} removed")
    return f"{cap(why)} — {'; '.join(parts)}" if parts else cap(why)


def _turn_began(d):
    return f"Turn {d.get('turn')} begins — order of play: {', '.join(map(str, d.get('order') or ()))}"


def _event_drawn(d):
    return f"Event {d.get('number')} ({d.get('seat')}): {d.get('title')}"


def _resolved(d):
    what, seat, prov = str(d.get("what") or ""), d.get("seat"), d.get("province")
    x = d.get("detail") or {}
    if what.startswith("raid (") and "attack" in x:
        a, f = int(x["attack"]), int(x.get("defence", 0))
        result = "the raiders pillage" if a > f else "the raid is repulsed" if f > a else "a stand-off"
        return f"{seat} raids {prov} (§8.1): attack {a} against defence {f} — {result}"
    if what.startswith("raid by ") and "attack" in x:
        a, f = int(x["attack"]), int(x.get("defence", 0))
        result = "the province is pillaged" if a > f else "they are beaten off"
        return f"{prov} raided by {what[8:]}: attack {a} against defence {f} — {result}"
    if what.startswith("battle round"):
        hits = plural(int(x.get("attacker_hits", 0)), "hit"), plural(int(x.get("defender_hits", 0)), "hit")
        return (f"Battle for {prov}, round {x.get('round')} (§8.2): "
                f"the attacker scores {hits[0]}, the defender {hits[1]}")
    if what.startswith("the defender wins"):
        if not seat:
            return f"{prov}: the militia beat off the invaders (§8.2)"
        return f"{prov}: the defender ({seat}) wins the battle (§8.2)"
    if what.startswith("battle between invaders"):
        return f"{prov}: {seat + ' wins' if seat else 'nobody survives'} the battle between invaders (§8.2)"
    if what.startswith("rebels win"):
        return f"{prov}: the rebels beat {seat} (§11 64) and the province is neutral"
    if what.startswith("city trade") and "roll" in x:
        return f"{seat} trades in the city of {prov} (§4.2): rolled {x.get('roll')}, total {x.get('total')}"
    if what.startswith("trade offer declined"):
        return f"{seat} declines the trade offer (§4.3)"
    if what.startswith("trade fails"):
        return f"{seat}'s trade in {prov} fails: famine (§11 25)"
    detail = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in sorted(x.items()))
    who = f"{seat}: " if seat else ""
    where = f" in {prov}" if prov and prov not in what else ""
    return f"{who}{what}{where}" + (f" ({detail})" if detail else "")


def _battle_set(d):
    b = d.get("battle")
    if not b:
        return "The battle is over"
    prov, mode, att, dfn = b.get("prov"), b.get("mode"), b.get("attacker"), b.get("defender")
    if mode == "pillaged":
        return f"{att} pillages {prov} from outside the city walls (§12.2)"
    if mode == "invaders":
        text = f"Battle for {prov} between invaders: {att} against {dfn}"
    elif mode == "rebels":
        text = f"Rebellion in {prov}: {plural(int(b.get('rebels', 0)), 'rebel')} against {dfn}"
    else:
        text = f"Battle for {prov}: {att} invades, {dfn + ' defends' if dfn else 'the province is neutral'}"
    if b.get("militia"):
        text += f"; {b['militia']} militia (strength {b.get('militia_strength', 2)})"
    if b.get("in_city"):
        text += "; the defenders hold the city"
    if b.get("round"):
        text += f"; after round {b['round']}"
    return text


def _flow(d):
    won = d.get("won")
    if won:
        head = "Draw" if won.get("draw") or not won.get("winner") else f"{won.get('winner')} wins"
        return f"{head}: {won.get('reason')}"
    p = d.get("prompt")
    if not p:
        return f"next: {PHASES.get(str(d.get('phase')), d.get('phase'))}"
    if p.get("kind") == "phase":
        name = (p.get("args") or ["?"])[0]
        stage = f" {p['n']}" if p.get("n") else ""
        return f"next: {p.get('seat')} in the {PHASES.get(name, name)} phase{stage}"
    template = PROMPTS.get(str(p.get("kind")), "{seat} to choose: " + str(p.get("kind")).replace("_", " "))
    args = p.get("args") or [""]
    return "next: " + template.format(seat=p.get("seat"), prov=p.get("prov") or "the province", arg=args[0],
                                      n=p.get("n", 0))


def _declared(d):
    declared = d.get("declared") or []
    if not declared:
        return "Combat (§8): declarations open"
    seat, prov, act = (list(declared[-1]) + ["", "", ""])[:3]
    words = {"raid": f"a raid on {prov}", "invade": f"an invasion of {prov}"}
    return f"{seat} declares {words.get(act, f'{act} in {prov}')} (§8)"


def _game_decided(d):
    o = d.get("outcome") or {}
    head = "Draw" if o.get("draw") or not o.get("winner") else f"{o.get('winner')} wins"
    return f"Game over — {head}: {o.get('reason')}"


EVENTS = {
    "ProvinceSet": _province_set,
    "PlayerSet": _player_set,
    "UnitsSet": _units_set,
    "TurnBegan": _turn_began,
    "EventDrawn": _event_drawn,
    "Resolved": _resolved,
    "BattleSet": _battle_set,
    "Flow": _flow,
    "Declared": _declared,
    "GameDecided": _game_decided,
}


# -- commands ----------------------------------------------------------------------------------------
IMPROVEMENT_WORDS = {"morale": "higher morale", "ravage": "a ravage marker removed", "road": "a road",
                     "wall": "a wall", "city": "a city", "monastery": "a monastery"}


def describe_command(command: dict[str, Any]) -> str:
    """A recorded command: the board's wording (which other tests pin) for move, declare and
    choose; resources and counters in words for the rest."""
    c = command
    match c.get("type"):
        case "offer":
            return clip(f"offers {c.get('to')} {resources(c.get('give') or {})} for {resources(c.get('take') or {})}")
        case "improve":
            what = IMPROVEMENT_WORDS.get(str(c.get("improvement")), str(c.get("improvement")))
            return clip(f"pays {listing(list(c.get('pay') or [])) or 'nothing'} for {what} in {c.get('province')}")
        case "hire":
            return f"hires mercenary {c.get('unit')} for {c.get('pay')}"
        case "raise-regular":
            return clip(f"raises a regular in {c.get('province')}, paying {listing(list(c.get('pay') or []))}")
        case "raise-peasants":
            return f"raises peasants in {c.get('province')}, paying {c.get('pay')}"
        case "raise-boats":
            places = listing([f"{p.get('province')} ({p.get('sea')})" for p in c.get("places") or []])
            return clip(f"raises boats in {places}, paying {c.get('pay')}")
        case "peasant-to-boat":
            return f"turns peasant {c.get('unit')} into a boat on the {c.get('sea')}".replace("the The ", "The ")
        case "raise-monk":
            return clip(f"raises a warrior monk in {c.get('province')}, paying {listing(list(c.get('pay') or []))}")
    return clip(board_command(c))
