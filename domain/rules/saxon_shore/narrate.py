"""One-line narratives of Saxon Shore's events and commands, for timelines.

Pure, and it reads fields only: an event says what happened in the rulebook's words
(events.py), so a line is built from its fields, never by parsing prose, and nothing here reads
the game's state. Provinces and sea zones by the map's names, counters by their kind, players by
their names when ``names`` (seat -> name) is given, else by seat; plurals counted.
"""

from __future__ import annotations

import string
from collections.abc import Callable, Mapping
from functools import partial
from typing import Any

from domain.rules.saxon_shore.data import RESOURCES
from domain.rules.words import NO_NAMES, Names, and_list, outcome_text, plural, seat_name

LIMIT = 160

KINDS = {"king": ("king", "kings"), "regular": ("regular", "regulars"), "knight": ("mounted knight", "mounted knights"),
         "berserker": ("berserker", "berserkers"), "monk": ("warrior monk", "warrior monks"),
         "mercenary": ("mercenary", "mercenaries"), "peasant": ("peasant", "peasants"), "boat": ("boat", "boats"),
         "militia": ("militia", "militia"), "rebel": ("rebel", "rebels")}
PATHS = {"mountain": "a mountain path", "forest": "a woodland trail", "marsh": "a marsh way"}
PHASES = {"trade": "trading (§4.3)", "market": "market (§4.4)", "improve": "improvement (§4.5)",
          "raise": "raising troops (§4.6)", "convert": "conversion (§5)", "move": "movement (§7)",
          "declare": "combat declaration (§8)"}
# What brought an event about, by the section it applies (a line names the cause when it is not the player).
CAUSES = {"3.1": "the king's death", "3.4": "random province improvement", "4.2": "city trade", "5": "conversion",
          "6": "population recovery", "8.1": "spoils of the raid", "8.2": "conquest", "9.2": "end of turn",
          "11 11": "random event", "11 16": "missionary activity", "11 21": "good omens", "11 22": "dragons sighted",
          "11 23": "plague", "11 24": "epidemic", "11 32": "the wildmen", "11 34": "the vikings", "11 26": "rebellion", "11 31": "fire", "11 33": "bumper year",
          "11 36": "a gold horde", "11 41": "family ties", "11 42": "a free boat", "11 43": "Saxon relatives",
          "11 45": "a Roman ruin", "11 46": "a saint", "11 53": "bad debts", "11 61": "the elders",
          "11 62": "earthquake", "11 63": "muttering in the ranks", "11 65": "the hammer of God",
          "11 64": "widespread rebellion", "11 66": "the end times", "12.1": "conversion to Paganism", "12.2": "city defences"}
# What each kind of question asks; {who} and {prov} from the PromptOpened.
PROMPTS = {
    "start": "{who} to pick a starting province",
    "king_place": "{who} to place the new king",
    "place_unit": "{who} to place the new troop",
    "path": "{who} to choose a mountain path, woodland trail or marsh way",
    "bumper": "{who} to choose the resource of the bumper year",
    "famine": "{who} to spend a grain against famine in {prov}, or not",
    "trade_gain": "{who} to choose a resource",
    "home": "{who} to choose where the troops in {prov} go home",
    "offer": "{who} to accept or decline the trade offer",
    "casualty": "{who} to choose a casualty in the battle for {prov}",
    "city_retreat": "{who} to fight on or retreat into the city of {prov}",
    "city_assault": "{who} to assault the city of {prov}, or destroy an improvement or ravage it",
    "king_bonus": "{who} to choose the king's move in the battle for {prov}",
    "conquest": "{who} to destroy, ravage or spare conquered {prov}",
    "rebellion": "{who} to let {prov} go or lead its rebels",
    "fire": "{who} to pay for repairs or let the city of {prov} burn",
    "traders": "{who} to deal with the traders",
    "family_offer": "{who} to offer resources to keep {prov}",
    "family_accept": "{who} to accept or refuse the offer for {prov}",
    "boat_place": "{who} to place the free boat",
    "ruin": "{who} to choose the Roman ruin",
    "assassin": "{who} to choose the assassin's target",
    "hammer": "{who} to choose where the hammer of God falls",
}
TRADE_RESULTS = {3: "a random resource", 4: "a resource of choice", 5: "a resource of choice",
                 6: "two random resources"}


# -- words ---------------------------------------------------------------------------------------
def clip(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= LIMIT else text[: LIMIT - 1] + "…"


def cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def article(word: str) -> str:
    return ("an " if word[:1] in "aeiou" else "a ") + word


def kinds(counters: list[dict[str, Any]], bare: bool = False) -> str:
    """``a king and 2 regulars`` (kinds in the order first met)."""
    counts: dict[str, int] = {}
    for c in counters:
        counts[str(c.get("kind"))] = counts.get(str(c.get("kind")), 0) + 1
    words = []
    for kind, n in counts.items():
        one, many = KINDS.get(kind, (kind, kind + "s"))
        words.append((one if bare else article(one)) if n == 1 else f"{n} {many}")
    return and_list(words) or "nothing"


def tokens(res: Mapping[str, Any] | None) -> str:
    """``{"wheat": 2, "gold": 1}`` → ``2 wheat and 1 gold``; nothing → ``nothing``."""
    pairs = sorted(((k, int(v)) for k, v in (res or {}).items() if v),
                   key=lambda kv: RESOURCES.index(kv[0]) if kv[0] in RESOURCES else 99)
    return and_list([f"{n} {'slave' if k == 'slaves' and n == 1 else k}" for k, n in pairs]) or "nothing"


def paid(items: list[str] | str | None) -> str:
    """``["iron", "wool"]`` → ``iron and wool``."""
    return and_list([items] if isinstance(items, str) else list(items or ())) or "nothing"


def sec(section: Any) -> str:
    return f" (§{section})" if section else ""


def cause(section: Any, fallback: str = "") -> str:
    return CAUSES.get(str(section), fallback)


class Who:
    """Players by name (seat ids when names are not known)."""

    def __init__(self, names: Names | None):
        self.names = names or NO_NAMES  # a caller without names passes None, as before words.py

    def __call__(self, seat: Any) -> str:
        return seat_name(self.names, str(seat) if seat else None)

    def whose(self, seat: Any) -> str:
        name = self(seat)
        return name + ("'" if name.endswith("s") else "'s")

    def groups(self, counters: list[dict[str, Any]]) -> str:
        """Counters grouped by owner: ``Aelle's 2 mercenaries and a neutral regular``."""
        owners: dict[Any, list[dict[str, Any]]] = {}
        for c in counters:
            owners.setdefault(c.get("owner"), []).append(c)
        parts = [(f"{self.whose(o)} {kinds(cs, bare=True)}" if o else f"the neutral {kinds(cs, bare=True)}")
                 for o, cs in owners.items()]
        return and_list(parts) or "nothing"


class Words(string.Formatter):
    """Fills a line's template from an event's fields: ``{seat:who}`` the player by name,
    ``{owner:whose}`` "Aelle's", and ``tokens``, ``paid``, ``kinds``, ``list`` and ``path`` in
    words (the functions above)."""

    def __init__(self, who: Who):
        self.who = who

    def get_value(self, key: Any, args: Any, kwargs: Any) -> Any:
        return kwargs.get(key)

    def format_field(self, value: Any, spec: str) -> str:
        match spec:
            case "who":
                return self.who(value)
            case "whose":
                return self.who.whose(value)
            case "tokens":
                return tokens(value)
            case "paid":
                return paid(value)
            case "kinds":
                return kinds(value or [])
            case "list":
                return and_list(list(value or []))
            case "path":
                return PATHS.get(str(value), str(value))
        return format(value, spec)


def say(template: str, d: dict[str, Any], who: Who) -> str:
    """An event's line from its template (LINES), then the section it applies."""
    return Words(who).vformat(template, (), d) + sec(d.get("section"))


# Events whose line says their fields in a fixed order (the others have functions below).
LINES = {
    "EventDrawn": "{seat:who} draws event {number}: {name}",
    "PathGained": "{seat:who} gains {path:path}",
    "FamineStruck": "Famine in {province}: the province is ravaged and its city trade fails this turn",
    "FamineAverted": "{seat:who} spends a grain against the famine in {province}",
    "StormsAtSea": "Storms in {sea} this turn",
    "LostAtSea": "{seat:who} loses {units:kinds} in the storm ({seas:list})",
    "ResourceSwapped": "{seat:who} swaps one {gave} for one {took} with the traders",
    "FamilyOfferMade": "{seat:who} offers {to:who} {tokens:tokens} to decline {province}",
    "FamilyTiesDeclined": "{seat:who} takes {owner:whose} {tokens:tokens} and declines {province}",
    "CityRepaired": "{seat:who} pays {paid:paid} to repair the city of {province} after the fire",
    "ResourcesProduced": "{seat:who} gains {gained:tokens} from production",
    "TradeDeclined": "{seat:who} declines {offerer:whose} offer",
    "TradingRoundEnded": "Offers were made, so another round of trading follows",
    "ResourcePlacedForTrade": "{seat:who} places {resource} for trade in the city of {province}",
    "MercenaryHired": "{seat:who} hires the mercenary in {province} for {paid}",
    "PeasantReplacedByBoat": "{seat:who} turns a peasant in {province} into a boat on {sea}",
    "MovementBegan": "Movement {stage} begins: every unit has two movement points",
    "RaidDeclared": "{seat:who} declares a raid on {province}",
    "InvasionDeclared": "{seat:who} declares an invasion of {province}, paying {paid}",
    "RetreatedIntoCity": "{seat:who} retreats into the city of {province}",
    "CityAssaulted": "{seat:who} assaults the city of {province}, every troop two boxes weaker",
    "CityLeftUnassaulted": "{seat:who} leaves the city of {province} unassaulted and pillages instead",
}


# -- events --------------------------------------------------------------------------------------
def describe_event(event_type: str, d: dict[str, Any], names: Names = NO_NAMES) -> str | None:
    """One line for one ``saxon-shore.*`` event; None for a type this module does not know."""
    if not event_type.startswith("saxon-shore."):
        return None
    fn = EVENTS.get(event_type.removeprefix("saxon-shore."))
    return clip(fn(d, Who(names))) if fn is not None else None


def _starting(d, who):
    religion = ", and is Christian" if d.get("religion") == "christian" else ""
    return f"{who(d.get('seat'))} picks {d.get('province')}: a castle, a king and one gold{religion}{sec(d.get('section'))}"


def _turn(d, who):
    return f"Turn {d.get('turn')} begins; order of play: {and_list([who(s) for s in d.get('order') or ()])}"


def _prompt(d, who):
    if d.get("kind") == "phase":
        name = PHASES.get(str(d.get("phase")), str(d.get("phase")))
        stage = f", stage {d['stage']}" if d.get("stage") else ""
        return f"Next: {who(d.get('seat'))} in the {name} phase{stage}"
    template = PROMPTS.get(str(d.get("kind")), "{who} to choose")
    return "Next: " + template.format(who=who(d.get("seat")), prov=d.get("province") or "the province") \
        + sec(d.get("section"))


def _decided(d, who):
    return f"Game over, {outcome_text(d.get('outcome') or {}, who.names)}"


def _eliminated(d, who):
    lost = d.get("units") or []
    gone = f"; {kinds(lost)} leave the map" if lost else ""
    return f"{who(d.get('seat'))} is eliminated: no provinces left{gone}{sec(d.get('section'))}"


def _king_died(d, who):
    seat, s = d.get("seat"), str(d.get("section"))
    if d.get("by"):
        return f"{who(d['by'])} has {who.whose(seat)} king assassinated in {d.get('province')}{sec(s)}"
    if s == "11 44":
        return f"{who.whose(seat)} king dies: the sword in the stone is drawn{sec(s)}"
    return f"{who.whose(seat)} king dies in {d.get('province')}{sec(s)}"


def _crowned(d, who):
    quality = int(d.get("quality") or 0)
    if str(d.get("section")) == "11 44":
        return f"Arthur, a +2 king, rules for {who(d.get('seat'))} from {d.get('province')}{sec(d.get('section'))}"
    kind = "a normal king" if quality == 0 else f"a {quality:+d} king"
    return f"{who(d.get('seat'))} crowns {kind} in {d.get('province')}{sec(d.get('section'))}"


def _placed(d, who):
    n = len(d.get("units") or ())
    what = kinds([{"kind": d.get("kind")}] * n)
    where = str(d.get("province")) + (f" ({d['coast']})" if d.get("coast") else "")
    owner = f" for {who(d['owner'])}" if d.get("owner") else " (neutral)"
    why = cause(d.get("section"), "set-up") if str(d.get("section")) != "10" else "set-up"
    return f"{cap(why)}: {what} placed in {where}{owner}{sec(d.get('section'))}"


def _deserted(d, who):
    units = d.get("units") or []
    verb = "deserts" if len(units) == 1 else "desert"
    why = cause(d.get("section"))
    return f"{who.groups(units)} {verb}" + (f": {why}" if why else "") + sec(d.get("section"))


def _eliminated_units(d, who):
    units = d.get("units") or []
    where = f" in {d['province']}" if d.get("province") else ""
    homeless = str(d.get("section")) in ("8.1", "9.2", "11 26", "11 41")
    why = "no friendly province to go to" if homeless else cause(d.get("section"))
    verb = "is" if len(units) == 1 else "are"
    return f"{who.groups(units)} {verb} eliminated{where}" + (f": {why}" if why else "") + sec(d.get("section"))


def _peasants_boats(d, who):
    return f"All peasants and boats are removed from the map: {plural(len(d.get('units') or ()), 'counter')}" \
        + sec(d.get("section"))


def _returned(d, who):
    units = d.get("units") or []
    verb = "returns" if len(units) == 1 else "return"
    return (f"{who.whose(d.get('seat'))} {kinds(units, bare=True)} {verb} from {d.get('start')} to {d.get('to')}, "
            f"the nearest friendly province{sec(d.get('section'))}")


OUTSIDERS = {"wildmen": ("wildman", "wildmen"), "vikings": ("viking", "vikings")}


def _outsiders(d, who):
    one, many = OUTSIDERS.get(str(d.get("who")), (str(d.get("who")), str(d.get("who"))))
    return (f"{plural(int(d.get('count') or 0), one, many)} and a chief from {d.get('origin')} raid "
            f"{d.get('province')} (strength {d.get('strength')}){sec(d.get('section'))}")


def _morale(d, who):
    s, prov = d.get("section"), d.get("province")
    if d.get("seat"):
        return f"{who(d['seat'])} pays {paid(d.get('paid'))} to raise morale in {prov} to {d.get('morale')}{sec(s)}"
    why = cause(s)
    return (f"{cap(why) + ': m' if why else 'M'}orale in {prov} goes from {d.get('was')} to {d.get('morale')}{sec(s)}")


def _built(d, who):
    s, prov, imp = d.get("section"), d.get("province"), str(d.get("improvement"))
    if d.get("paid"):
        return f"{who(d.get('seat'))} builds {article(imp)} in {prov}, paying {paid(d.get('paid'))}{sec(s)}"
    if d.get("seat"):
        return f"{cap(cause(s, 'the rules'))}: {who(d['seat'])} gains {article(imp)} in {prov}{sec(s)}"
    return f"{cap(cause(s, 'the rules'))}: {article(imp)} in {prov}{sec(s)}"


def _destroyed(d, who):
    imp, prov = d.get("improvement"), d.get("province")
    return _laid_waste(d, who, f"destroys the {imp} of {prov}", f"the {imp} of {prov} is destroyed")


def _ravaged(d, who):
    prov = d.get("province")
    return _laid_waste(d, who, f"ravages {prov}", f"{prov} is ravaged")


def _laid_waste(d, who, done_by: str, done: str) -> str:
    """A raider's deed (``by`` a player, with the spoils taken), or what a cause did."""
    s = d.get("section")
    if d.get("by"):
        spoils = f" and takes {tokens(d.get('spoils'))}" if d.get("spoils") else ""
        return f"{who(d['by'])} {done_by}{spoils}{sec(s)}"
    return f"{cap(cause(s, 'raiders'))}: {done}{sec(s)}"


def _ravage_removed(d, who):
    s, prov = d.get("section"), d.get("province")
    if d.get("seat"):
        return f"{who(d['seat'])} pays {paid(d.get('paid'))} to remove a ravage marker from {prov}{sec(s)}"
    return f"A ravage marker is removed from {prov}{sec(s)}"


def _conquered(d, who):
    former = f" from {who(d['former'])}" if d.get("former") else ""
    return (f"{who(d.get('seat'))} conquers {d.get('province')}{former}: castle placed, morale {d.get('morale')}"
            f"{sec(d.get('section'))}")


def _neutral(d, who):
    s = str(d.get("section"))
    if s == "11 64":
        return f"The rebels take {d.get('province')} from {who(d.get('former'))}: the province is neutral{sec(s)}"
    return f"{d.get('province')} secedes from {who(d.get('former'))} and becomes neutral{sec(s)}"


def _joined(d, who):
    former = f" (it was {who.whose(d['former'])})" if d.get("former") else ""
    return f"{d.get('province')} joins {who.whose(d.get('seat'))} kingdom through family ties{former}" \
        + sec(d.get("section"))


def _gained(d, who):
    why = cause(d.get("section"))
    return f"{who(d.get('seat'))} gains {tokens(d.get('gained'))}" + (f": {why}" if why else "") \
        + sec(d.get("section"))


def _trade_rolled(d, who):
    roll, total = int(d.get("roll") or 0), int(d.get("total") or 0)
    result = "a failed trade" if roll == 1 or total <= 2 else TRADE_RESULTS.get(total, "two resources of choice")
    return (f"{who.whose(d.get('seat'))} {d.get('resource')} is traded in {d.get('province')}: rolled {roll}, "
            f"total {total}, {result}{sec(d.get('section'))}")


def _trade_failed(d, who):
    why = {"famine": "famine", "no city": "the city is gone", "eliminated": "the trader is out of the game"}
    return (f"{who.whose(d.get('seat'))} trade of {d.get('resource')} in {d.get('province')} fails: "
            f"{why.get(str(d.get('reason')), d.get('reason'))}{sec(d.get('section'))}")


def _offer_words(give: Any, take: Any) -> str:
    if give and take:
        return f"{tokens(give)} for {tokens(take)}"
    return f"a gift of {tokens(give)}" if give else f"a request for {tokens(take)}"


def _offered(d, who):
    return f"{who(d.get('seat'))} offers {who(d.get('to'))} {_offer_words(d.get('give'), d.get('take'))}" \
        + sec(d.get("section"))


def _accepted(d, who):
    return (f"{who(d.get('seat'))} accepts {who.whose(d.get('offerer'))} offer: "
            f"{_offer_words(d.get('give'), d.get('take'))}{sec(d.get('section'))}")


def _raised(d, who):
    n = len(d.get("units") or ())
    what = kinds([{"kind": d.get("kind")}] * n)
    return f"{who(d.get('seat'))} raises {what} in {d.get('province')}, paying {paid(d.get('paid'))}" \
        + sec(d.get("section"))


def _boats(d, who):
    places: dict[str, int] = {}
    for b in d.get("boats") or []:
        where = f"{b.get('province')} ({b.get('sea')})"
        places[where] = places.get(where, 0) + 1
    what = and_list([f"{kinds([{'kind': 'boat'}] * n)} in {where}" for where, n in places.items()])
    return f"{who(d.get('seat'))} raises {what}, paying {d.get('paid')}{sec(d.get('section'))}"


def _converted(d, who):
    faith = "Christianity" if d.get("religion") == "christian" else "Paganism"
    return f"{who(d.get('seat'))} converts to {faith}{sec(d.get('section'))}"


def _moved(d, who):
    path = list(d.get("path") or [])
    via = f" via {and_list(path[:-1])}" if len(path) > 1 else ""
    used = f", using {and_list([PATHS.get(p, p) for p in d.get('paths_used') or []])}" if d.get("paths_used") else ""
    stop = ", and must stop there" if d.get("halted") else ""
    return (f"{who(d.get('seat'))} moves {kinds(d.get('units') or [])} from {d.get('start')} to "
            f"{path[-1] if path else '?'}{via}{used}{stop}{sec(d.get('section'))}")


def _forced(d, who):
    n = len(d.get("units") or ())
    return (f"{who(d.get('seat'))} force-marches {plural(n, 'unit')} at {d.get('location')}: one more movement point"
            f"{sec(d.get('section'))}")


def _raid(d, who):
    raider = who(d["raider"]) if d.get("raider") else "The raiders"
    result = {"attacker": "the raiders win", "defender": "the raid is repulsed",
              "draw": "a draw, and the raiders stay"}.get(str(d.get("result")), str(d.get("result")))
    return (f"{raider} raids {d.get('province')}: attack {d.get('attack')} against defence {d.get('defence')}, "
            f"{result}{sec(d.get('section'))}")


def _repulsed(d, who):
    dead, freed = d.get("eliminated") or [], d.get("freed") or []
    losses = []
    if dead:
        losses.append(f"{kinds(dead)} {'is' if len(dead) == 1 else 'are'} eliminated")
    if freed:
        losses.append(f"{kinds(freed)} {'reverts' if len(freed) == 1 else 'revert'} to neutrality")
    return (f"{who.whose(d.get('seat'))} raiders are repulsed from {d.get('province')}: "
            f"{and_list(losses) or 'all survive'}{sec(d.get('section'))}")


def _battle_began(d, who):
    prov, mode, s = d.get("province"), d.get("mode"), d.get("section")
    if mode == "invaders":
        return f"{who(d.get('defender'))} and {who(d.get('attacker'))} fight for {prov} before it is invaded{sec(s)}"
    militia = int(d.get("militia") or 0)
    guard = f" with {plural(militia, 'militia', 'militia')} of strength {d.get('militia_strength')}" if militia else ""
    if mode == "rebels":
        return (f"{plural(int(d.get('rebels') or 0), 'rebel')} rise against {who(d.get('defender'))} in {prov}, "
                f"who stands{guard or ' alone'}{sec(s)}")
    defender = f"{who(d['defender'])} defends" if d.get("defender") else "the neutral province defends"
    return f"{who(d.get('attacker'))} invades {prov}; {defender}{guard}{sec(s)}"


def _king_moved(d, who):
    moves = d.get("moves") or []
    if not moves:
        return f"{who.whose(d.get('seat'))} king lets the troops stand in the battle for {d.get('province')}" \
            + sec(d.get("section"))
    words = [f"{article(KINDS.get(str(m.get('kind')), (m.get('kind'),))[0])} from box {m.get('box')} to box "
             f"{max(1, min(6, int(m.get('box') or 0) + int(m.get('step') or 0)))}" for m in moves]
    direction = "down" if int(moves[0].get("step") or 0) < 0 else "up"
    return f"{who.whose(d.get('seat'))} king moves {and_list(words)} ({direction}){sec(d.get('section'))}"


def _round(d, who):
    return (f"Battle for {d.get('province')}, round {d.get('round')}: the attacker scores "
            f"{plural(int(d.get('attacker_hits') or 0), 'hit')}, the defender "
            f"{plural(int(d.get('defender_hits') or 0), 'hit')}{sec(d.get('section'))}")


def _casualty(d, who):
    kind = str(d.get("kind"))
    one = KINDS.get(kind, (kind,))[0]
    if kind == "rebel":
        return f"A rebel falls in the battle for {d.get('province')}{sec(d.get('section'))}"
    if kind == "militia":
        return f"A militia falls in the battle for {d.get('province')}{sec(d.get('section'))}"
    owner = who(d["owner"]) if d.get("owner") else "The neutral province"
    return f"{owner} loses {article(one)} in the battle for {d.get('province')}{sec(d.get('section'))}"


def _battle_ended(d, who):
    prov, won_by, s = d.get("province"), d.get("won_by"), d.get("section")
    if won_by == "nobody":
        if str(s) == "12.2":
            return f"The battle for {prov} ends outside the city walls{sec(s)}"
        return f"Nobody survives the battle for {prov}{sec(s)}"
    if d.get("winner"):
        return f"{who(d['winner'])} wins the battle for {prov}{sec(s)}"
    if won_by == "attacker":
        return f"The rebels win the battle for {prov}{sec(s)}"
    return f"The militia of {prov} beat off the attackers{sec(s)}"


EVENTS: dict[str, Callable[[dict[str, Any], Who], str]] = {
    "StartingProvincePicked": _starting, "TurnBegan": _turn, "PromptOpened": _prompt, "GameDecided": _decided,
    "PlayerAsked": _prompt, "PlayerEliminated": _eliminated, "KingDied": _king_died, "KingCrowned": _crowned,
    "UnitsPlaced": _placed, "UnitsDeserted": _deserted, "UnitsEliminated": _eliminated_units,
    "PeasantsAndBoatsRemoved": _peasants_boats, "TroopsReturned": _returned, "OutsidersRaid": _outsiders,
    "MoraleChanged": _morale, "ImprovementBuilt": _built, "ImprovementDestroyed": _destroyed,
    "ProvinceRavaged": _ravaged, "RavageRemoved": _ravage_removed, "ProvinceConquered": _conquered,
    "ProvinceBecameNeutral": _neutral, "ProvinceJoined": _joined, "ResourcesGained": _gained,
    "CityTradeRolled": _trade_rolled, "CityTradeFailed": _trade_failed, "TradeOffered": _offered,
    "TradeAccepted": _accepted, "TroopsRaised": _raised, "BoatsRaised": _boats, "Converted": _converted,
    "UnitsMoved": _moved, "ForcedMarchMade": _forced, "RaidFought": _raid, "RaidersRepulsed": _repulsed,
    "BattleBegan": _battle_began, "KingMovedTroops": _king_moved, "BattleRoundFought": _round,
    "CasualtyRemoved": _casualty, "BattleEnded": _battle_ended,
    **{name: partial(say, template) for name, template in LINES.items()},
}


# -- commands ------------------------------------------------------------------------------------
IMPROVEMENT_WORDS = {"morale": "higher morale", "ravage": "a ravage marker removed", "road": "a road",
                     "wall": "a wall", "city": "a city", "monastery": "a monastery"}


def option_words(option: str) -> str:
    """A prompt's option in words: ``spend_grain`` → ``spend grain``, ``wheat=2,gold=1`` → ``2 wheat
    and 1 gold``, ``wool>gold`` → ``wool for gold``, ``up regular@3`` → ``up: the regular in box 3``."""
    if "=" in option:
        counts = dict(part.partition("=")[::2] for part in option.split(","))
        return tokens({k: int(v) for k, v in counts.items() if v.isdigit()})
    if ">" in option:
        give, _, take = option.partition(">")
        return f"{give} for {take}"
    if "@" in option and option.split(" ", 1)[0] in ("up", "up2", "down"):
        verb, _, targets = option.partition(" ")
        where = and_list([f"the {KINDS.get(k, (k,))[0]} in box {b}" for k, _, b in
                         (t.partition("@") for t in targets.split(", "))])
        how = {"up": "up one box", "up2": "up two boxes", "down": "down one box"}.get(verb, verb)
        return f"{how}: {where}"
    if "@" in option:
        province, _, sea = option.partition("@")
        return f"{province} ({sea})"
    if option.startswith(("destroy:", "ravage:")):
        parts = option.split(":")
        return f"destroy the {parts[2]} of {parts[1]}" if parts[0] == "destroy" else f"ravage {parts[1]}"
    if ":" in option:
        province, _, imp = option.partition(":")
        return f"{article(imp)} in {province}"
    return option.replace("_", " ").replace("+", " and ")


# Commands whose line says their fields in a fixed order (describe_command words the others).
COMMAND_LINES = {
    "done": "is done with this phase",
    "place-trade": "places {resource} for trade in {province}",
    "hire": "hires a mercenary for {pay}",
    "raise-regular": "raises a regular in {province}, paying {pay:paid}",
    "raise-peasants": "raises peasants in {province}, paying {pay}",
    "peasant-to-boat": "turns a peasant into a boat on {sea}",
    "raise-monk": "raises a warrior monk in {province}, paying {pay:paid}",
    "convert": "converts to the other religion",
    "forced-march": "force-marches the units at {location}",
}


def describe_command(command: dict[str, Any], names: Names = NO_NAMES) -> str:
    """A recorded command in words (the events after it say what it did)."""
    c, who = command, Who(names)
    if c.get("type") in COMMAND_LINES:
        return clip(Words(who).vformat(COMMAND_LINES[c["type"]], (), c))
    match c.get("type"):
        case "choose":
            option = str(c.get("option"))
            return clip(f"chooses {who(option) if option in who.names else option_words(option)}")
        case "offer":
            return clip(f"offers {who(c.get('to'))} {_offer_words(c.get('give'), c.get('take'))}")
        case "improve":
            what = IMPROVEMENT_WORDS.get(str(c.get("improvement")), str(c.get("improvement")))
            return clip(f"pays {paid(c.get('pay'))} for {what} in {c.get('province')}")
        case "raise-boats":
            places = and_list([f"{p.get('province')} ({p.get('sea')})" for p in c.get("places") or []])
            return clip(f"raises boats in {places}, paying {c.get('pay')}")
        case "move":
            path = list(c.get("path") or [])
            via = f" via {and_list(path[:-1])}" if len(path) > 1 else ""
            return clip(f"moves {plural(len(c.get('units') or ()), 'unit')} to {path[-1] if path else '?'}{via}")
        case "declare":
            if c.get("action") == "invade":
                return f"declares an invasion of {c.get('province')}, paying {c.get('pay')}"
            return f"declares a raid on {c.get('province')}"
    return str(c.get("type"))
