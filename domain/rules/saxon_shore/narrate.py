"""One-line narratives of Saxon Shore's events and commands, for timelines.

Pure, and it reads fields only: an event says what happened in the rulebook's words
(events.py), so a line is built from its fields, never by parsing prose, and nothing here reads
the game's state. Provinces and sea zones by the map's names, counters by their kind, players by
their names when ``players`` (seat -> name) is given, else by seat; plurals counted.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from domain.rules.saxon_shore.data import RESOURCES

LIMIT = 160
Players = Mapping[str, str] | None

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


def listing(items: list[str]) -> str:
    if not items:
        return ""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def plural(n: int, one: str, many: str | None = None) -> str:
    if n == 1:
        return f"{n} {one}"
    if many is None:
        many = one[:-1] + "ies" if one.endswith("y") and one[-2:-1] not in "aeiou" else one + "s"
    return f"{n} {many}"


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
    return listing(words) or "nothing"


def tokens(res: Mapping[str, Any] | None) -> str:
    """``{"wheat": 2, "gold": 1}`` → ``2 wheat and 1 gold``; nothing → ``nothing``."""
    pairs = sorted(((k, int(v)) for k, v in (res or {}).items() if v),
                   key=lambda kv: RESOURCES.index(kv[0]) if kv[0] in RESOURCES else 99)
    return listing([f"{n} {'slave' if k == 'slaves' and n == 1 else k}" for k, n in pairs]) or "nothing"


def paid(items: list[str] | str | None) -> str:
    """``["iron", "wool"]`` → ``iron and wool``."""
    return listing([items] if isinstance(items, str) else list(items or ())) or "nothing"


def sec(section: Any) -> str:
    return f" (§{section})" if section else ""


def cause(section: Any, fallback: str = "") -> str:
    return CAUSES.get(str(section), fallback)


class Names:
    """Players by name (seat ids when names are not known)."""

    def __init__(self, players: Players):
        self.players = players or {}

    def __call__(self, seat: Any) -> str:
        return self.players.get(str(seat), str(seat)) if seat else "nobody"

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
        return listing(parts) or "nothing"


# -- events --------------------------------------------------------------------------------------
def describe_event(event_type: str, d: dict[str, Any], players: Players = None) -> str | None:
    """One line for one ``saxon-shore.*`` event; None for a type this module does not know."""
    if not event_type.startswith("saxon-shore."):
        return None
    fn = EVENTS.get(event_type.removeprefix("saxon-shore."))
    return clip(fn(d, Names(players))) if fn is not None else None


def _starting(d, who):
    religion = ", and is Christian" if d.get("religion") == "christian" else ""
    return f"{who(d.get('seat'))} picks {d.get('province')}: a castle, a king and one gold{religion}{sec(d.get('section'))}"


def _turn(d, who):
    return f"Turn {d.get('turn')} begins; order of play: {listing([who(s) for s in d.get('order') or ()])}"


def _prompt(d, who):
    if d.get("kind") == "phase":
        name = PHASES.get(str(d.get("phase")), str(d.get("phase")))
        stage = f", stage {d['stage']}" if d.get("stage") else ""
        return f"Next: {who(d.get('seat'))} in the {name} phase{stage}"
    template = PROMPTS.get(str(d.get("kind")), "{who} to choose")
    return "Next: " + template.format(who=who(d.get("seat")), prov=d.get("province") or "the province") \
        + sec(d.get("section"))


def _decided(d, who):
    o = d.get("outcome") or {}
    head = "a draw" if o.get("draw") or not o.get("winner") else f"{who(o.get('winner'))} wins"
    return f"Game over, {head}: {o.get('reason')}"


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


def _drawn(d, who):
    return f"{who(d.get('seat'))} draws event {d.get('number')}: {d.get('name')}{sec(d.get('section'))}"


def _path(d, who):
    return f"{who(d.get('seat'))} gains {PATHS.get(str(d.get('path')), d.get('path'))}{sec(d.get('section'))}"


def _famine(d, who):
    return f"Famine in {d.get('province')}: the province is ravaged and its city trade fails this turn" \
        + sec(d.get("section"))


def _famine_averted(d, who):
    return f"{who(d.get('seat'))} spends a grain against the famine in {d.get('province')}{sec(d.get('section'))}"


OUTSIDERS = {"wildmen": ("wildman", "wildmen"), "vikings": ("viking", "vikings")}


def _outsiders(d, who):
    one, many = OUTSIDERS.get(str(d.get("who")), (str(d.get("who")), str(d.get("who"))))
    return (f"{plural(int(d.get('count') or 0), one, many)} and a chief from {d.get('origin')} raid "
            f"{d.get('province')} (strength {d.get('strength')}){sec(d.get('section'))}")


def _storms(d, who):
    return f"Storms in {d.get('sea')} this turn{sec(d.get('section'))}"


def _lost_at_sea(d, who):
    return (f"{who(d.get('seat'))} loses {kinds(d.get('units') or [])} in the storm "
            f"({listing(list(d.get('seas') or []))}){sec(d.get('section'))}")


def _swapped(d, who):
    return f"{who(d.get('seat'))} swaps one {d.get('gave')} for one {d.get('took')} with the traders" \
        + sec(d.get("section"))


def _family_offer(d, who):
    return (f"{who(d.get('seat'))} offers {who(d.get('to'))} {tokens(d.get('tokens'))} to decline "
            f"{d.get('province')}{sec(d.get('section'))}")


def _family_declined(d, who):
    return (f"{who(d.get('seat'))} takes {who.whose(d.get('owner'))} {tokens(d.get('tokens'))} and declines "
            f"{d.get('province')}{sec(d.get('section'))}")


def _repaired(d, who):
    return (f"{who(d.get('seat'))} pays {paid(d.get('paid'))} to repair the city of {d.get('province')} "
            f"after the fire{sec(d.get('section'))}")


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
    s, prov, imp = d.get("section"), d.get("province"), d.get("improvement")
    if d.get("by"):
        spoils = f" and takes {tokens(d.get('spoils'))}" if d.get("spoils") else ""
        return f"{who(d['by'])} destroys the {imp} of {prov}{spoils}{sec(s)}"
    return f"{cap(cause(s, 'raiders'))}: the {imp} of {prov} is destroyed{sec(s)}"


def _ravaged(d, who):
    s, prov = d.get("section"), d.get("province")
    if d.get("by"):
        spoils = f" and takes {tokens(d.get('spoils'))}" if d.get("spoils") else ""
        return f"{who(d['by'])} ravages {prov}{spoils}{sec(s)}"
    return f"{cap(cause(s, 'raiders'))}: {prov} is ravaged{sec(s)}"


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


def _produced(d, who):
    return f"{who(d.get('seat'))} gains {tokens(d.get('gained'))} from production{sec(d.get('section'))}"


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


def _declined(d, who):
    return f"{who(d.get('seat'))} declines {who.whose(d.get('offerer'))} offer{sec(d.get('section'))}"


def _round_ended(d, who):
    return f"Offers were made, so another round of trading follows{sec(d.get('section'))}"


def _placed_for_trade(d, who):
    return f"{who(d.get('seat'))} places {d.get('resource')} for trade in the city of {d.get('province')}" \
        + sec(d.get("section"))


def _hired(d, who):
    return f"{who(d.get('seat'))} hires the mercenary in {d.get('province')} for {d.get('paid')}{sec(d.get('section'))}"


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
    what = listing([f"{kinds([{'kind': 'boat'}] * n)} in {where}" for where, n in places.items()])
    return f"{who(d.get('seat'))} raises {what}, paying {d.get('paid')}{sec(d.get('section'))}"


def _peasant_boat(d, who):
    return (f"{who(d.get('seat'))} turns a peasant in {d.get('province')} into a boat on {d.get('sea')}"
            f"{sec(d.get('section'))}")


def _converted(d, who):
    faith = "Christianity" if d.get("religion") == "christian" else "Paganism"
    return f"{who(d.get('seat'))} converts to {faith}{sec(d.get('section'))}"


def _movement(d, who):
    return f"Movement {d.get('stage')} begins: every unit has two movement points{sec(d.get('section'))}"


def _moved(d, who):
    path = list(d.get("path") or [])
    via = f" via {listing(path[:-1])}" if len(path) > 1 else ""
    used = f", using {listing([PATHS.get(p, p) for p in d.get('paths_used') or []])}" if d.get("paths_used") else ""
    stop = ", and must stop there" if d.get("halted") else ""
    return (f"{who(d.get('seat'))} moves {kinds(d.get('units') or [])} from {d.get('start')} to "
            f"{path[-1] if path else '?'}{via}{used}{stop}{sec(d.get('section'))}")


def _forced(d, who):
    n = len(d.get("units") or ())
    return (f"{who(d.get('seat'))} force-marches {plural(n, 'unit')} at {d.get('location')}: one more movement point"
            f"{sec(d.get('section'))}")


def _raid_declared(d, who):
    return f"{who(d.get('seat'))} declares a raid on {d.get('province')}{sec(d.get('section'))}"


def _invasion_declared(d, who):
    return f"{who(d.get('seat'))} declares an invasion of {d.get('province')}, paying {d.get('paid')}" \
        + sec(d.get("section"))


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
            f"{listing(losses) or 'all survive'}{sec(d.get('section'))}")


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
    return f"{who.whose(d.get('seat'))} king moves {listing(words)} ({direction}){sec(d.get('section'))}"


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


def _retreated(d, who):
    return f"{who(d.get('seat'))} retreats into the city of {d.get('province')}{sec(d.get('section'))}"


def _assaulted(d, who):
    return (f"{who(d.get('seat'))} assaults the city of {d.get('province')}, every troop two boxes weaker"
            f"{sec(d.get('section'))}")


def _unassaulted(d, who):
    return f"{who(d.get('seat'))} leaves the city of {d.get('province')} unassaulted and pillages instead" \
        + sec(d.get("section"))


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


EVENTS: dict[str, Callable[[dict[str, Any], Names], str]] = {
    "StartingProvincePicked": _starting, "TurnBegan": _turn, "PromptOpened": _prompt, "GameDecided": _decided,
    "PlayerAsked": _prompt,
    "PlayerEliminated": _eliminated, "KingDied": _king_died, "KingCrowned": _crowned, "UnitsPlaced": _placed,
    "UnitsDeserted": _deserted, "UnitsEliminated": _eliminated_units, "PeasantsAndBoatsRemoved": _peasants_boats,
    "TroopsReturned": _returned, "EventDrawn": _drawn, "PathGained": _path, "FamineStruck": _famine,
    "FamineAverted": _famine_averted, "OutsidersRaid": _outsiders, "StormsAtSea": _storms, "LostAtSea": _lost_at_sea,
    "ResourceSwapped": _swapped, "FamilyOfferMade": _family_offer, "FamilyTiesDeclined": _family_declined,
    "CityRepaired": _repaired, "MoraleChanged": _morale, "ImprovementBuilt": _built,
    "ImprovementDestroyed": _destroyed, "ProvinceRavaged": _ravaged, "RavageRemoved": _ravage_removed,
    "ProvinceConquered": _conquered, "ProvinceBecameNeutral": _neutral, "ProvinceJoined": _joined,
    "ResourcesProduced": _produced, "ResourcesGained": _gained, "CityTradeRolled": _trade_rolled,
    "CityTradeFailed": _trade_failed, "TradeOffered": _offered, "TradeAccepted": _accepted,
    "TradeDeclined": _declined, "TradingRoundEnded": _round_ended, "ResourcePlacedForTrade": _placed_for_trade,
    "MercenaryHired": _hired, "TroopsRaised": _raised, "BoatsRaised": _boats, "PeasantReplacedByBoat": _peasant_boat,
    "Converted": _converted, "MovementBegan": _movement, "UnitsMoved": _moved, "ForcedMarchMade": _forced,
    "RaidDeclared": _raid_declared, "InvasionDeclared": _invasion_declared, "RaidFought": _raid,
    "RaidersRepulsed": _repulsed, "BattleBegan": _battle_began, "KingMovedTroops": _king_moved,
    "BattleRoundFought": _round, "CasualtyRemoved": _casualty, "RetreatedIntoCity": _retreated,
    "CityAssaulted": _assaulted, "CityLeftUnassaulted": _unassaulted, "BattleEnded": _battle_ended,
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
        where = listing([f"the {KINDS.get(k, (k,))[0]} in box {b}" for k, _, b in
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


def describe_command(command: dict[str, Any], players: Players = None) -> str:
    """A recorded command in words (the events after it say what it did)."""
    c, who = command, Names(players)
    match c.get("type"):
        case "choose":
            option = str(c.get("option"))
            return clip(f"chooses {who(option) if option in who.players else option_words(option)}")
        case "done":
            return "is done with this phase"
        case "offer":
            return clip(f"offers {who(c.get('to'))} {_offer_words(c.get('give'), c.get('take'))}")
        case "place-trade":
            return f"places {c.get('resource')} for trade in {c.get('province')}"
        case "improve":
            what = IMPROVEMENT_WORDS.get(str(c.get("improvement")), str(c.get("improvement")))
            return clip(f"pays {paid(c.get('pay'))} for {what} in {c.get('province')}")
        case "hire":
            return f"hires a mercenary for {c.get('pay')}"
        case "raise-regular":
            return clip(f"raises a regular in {c.get('province')}, paying {paid(c.get('pay'))}")
        case "raise-peasants":
            return f"raises peasants in {c.get('province')}, paying {c.get('pay')}"
        case "raise-boats":
            places = listing([f"{p.get('province')} ({p.get('sea')})" for p in c.get("places") or []])
            return clip(f"raises boats in {places}, paying {c.get('pay')}")
        case "peasant-to-boat":
            return f"turns a peasant into a boat on {c.get('sea')}"
        case "raise-monk":
            return clip(f"raises a warrior monk in {c.get('province')}, paying {paid(c.get('pay'))}")
        case "convert":
            return "converts to the other religion"
        case "move":
            path = list(c.get("path") or [])
            via = f" via {listing(path[:-1])}" if len(path) > 1 else ""
            return clip(f"moves {plural(len(c.get('units') or ()), 'unit')} to {path[-1] if path else '?'}{via}")
        case "forced-march":
            return f"force-marches the units at {c.get('location')}"
        case "declare":
            if c.get("action") == "invade":
                return f"declares an invasion of {c.get('province')}, paying {c.get('pay')}"
            return f"declares a raid on {c.get('province')}"
    return str(c.get("type"))
