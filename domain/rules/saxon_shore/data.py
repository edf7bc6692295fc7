"""The Saxon Shore map, loaded once from ``map.json`` (a documented reconstruction).

Pure data and graph queries: provinces, wild provinces, sea zones, borders and coasts,
the random province table (§3.4) and the "random adjacent province" numbers (§11: 32, 34).
:func:`problems` checks a map (ours or an owner's printed one) against every fact the
rulebook states and the shape the rules need, and lists every problem it finds.
"""

from __future__ import annotations

import json
from collections import deque
from pathlib import Path

PACKAGE = Path(__file__).parent
MAP_FILE = "map.json"
RESOURCES = ("wheat", "wool", "iron", "gold", "slaves")
BORDER_TYPES = ("normal", "forest", "marsh", "mountain")
PATH_TYPES = ("mountain", "forest", "marsh")


_PLACE = {"type": "object", "properties": {"population": {"type": "integer", "minimum": 1, "maximum": 3},
                                           "coasts": {"type": "array", "items": {"type": "string"}},
                                           "resources": {"type": "array", "items": {"enum": list(RESOURCES[:4])}}}}
MAP_SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "Saxon Shore map (the form of map.json; herald rules check FILE lists every problem)",
    "type": "object",
    "required": ["random_province_table", "provinces", "wild_provinces", "sea_zones", "sea_links", "borders"],
    "properties": {
        "random_province_table": {"type": "array", "items": {"type": "array", "items": {"type": "string"}}},
        "provinces": {"type": "object", "additionalProperties": _PLACE},
        "wild_provinces": {"type": "object", "additionalProperties": {
            "type": "object", "required": ["terrain", "random_adjacent"],
            "properties": {"terrain": {"enum": list(PATH_TYPES)}, "coasts": {"type": "array"},
                           "wildmen_die": {"type": "integer"}, "random_adjacent": {"type": "array"}}}},
        "sea_zones": {"type": "object", "additionalProperties": {
            "type": "object", "required": ["die", "random_adjacent"],
            "properties": {"die": {"type": "array", "items": {"type": "integer"}}, "random_adjacent": {"type": "array"}}}},
        "sea_links": {"type": "array", "items": {"type": "array", "items": {"type": "string"}}},
        "borders": {"type": "array", "items": {"type": "array", "prefixItems": [
            {"type": "string"}, {"type": "string"}, {"enum": list(BORDER_TYPES)}]}},
    },
}

# What the rulebook itself prints: a map must agree with it.
BOOK_TABLE = (
    ("Strathclyde", "Orkney", "Bernicia", "Hereford", "Norfolk", "Thanet"),
    ("Godowin", "Cumbria", "Diera", "Gwent", "Suffolk", "Kent"),
    ("Rheged", "Gwynedd", "Elmet", "Hwicce", "Essex", "Surrey"),
    ("Ulster", "Wrekin", "Mercia", "Somerset", "Oxford", "Sussex"),
    ("Leinster", "Caerdigion", "Lindsey", "Devon", "Middlesex", "Wight"),
    ("Munster", "Dyfed", "Lincoln", "Cornwall", "Berkshire", "Wessex"),
)  # §3.4
BOOK_WILDMEN = {1: "The Weald", 2: "The Fens", 3: "Powys", 4: "Cheviot", 5: "The Pennines", 6: "Connaught"}  # §11 32
BOOK_WILD = ("The Weald", "The Fens", "Powys", "The Pennines", "Cheviot", "Caledonia", "Connaught")  # §7


def problems(raw: object, scenario_id: str | None = None) -> list[str]:
    """Every way ``raw`` (a decoded map.json) fails the rulebook's facts or the rules' needs;
    empty when it is a usable Saxon Shore map, the same for every scenario (``scenario_id``:
    :class:`~domain.rules.base.OwnerData`)."""
    out: list[str] = []
    try:
        _problems(raw, out)
    except (TypeError, AttributeError, KeyError, ValueError) as error:
        out.append(f"the map is malformed ({type(error).__name__}: {error}); see map.json for its form")
    return out


def _problems(raw: object, out: list[str]) -> list[str]:
    if not isinstance(raw, dict):
        return ["the map is a JSON object (see map.json)"]
    for key in ("random_province_table", "provinces", "wild_provinces", "sea_zones", "sea_links", "borders"):
        if key not in raw:
            out.append(f"missing {key!r}")
    if out:
        return out
    try:
        table = tuple(tuple(row) for row in raw["random_province_table"])
    except TypeError:
        table = ()
    if table != BOOK_TABLE:
        out.append("random_province_table must be the rulebook's (§3.4)")
    provinces, wild, seas = raw["provinces"], raw["wild_provinces"], raw["sea_zones"]
    if not all(isinstance(x, dict) for x in (provinces, wild, seas)):
        return out + ["provinces, wild_provinces and sea_zones are objects keyed by name"]
    names = {p for row in BOOK_TABLE for p in row}
    if set(provinces) != names:
        out.append(f"provinces must be the 36 of the random province table (§1, §3.4); "
                   f"missing {sorted(names - set(provinces))}, unknown {sorted(set(provinces) - names)}")
    if set(wild) != set(BOOK_WILD):
        out.append(f"wild_provinces must be the seven of §7: {', '.join(BOOK_WILD)}")
    if len(seas) != 3:
        out.append("there are three sea zones (§1)")
    places = set(provinces) | set(wild) | set(seas)
    tokens = 0
    for name, p in provinces.items():
        if not isinstance(p, dict):
            out.append(f"{name}: an object with population, coasts, resources")
            continue
        if p.get("population") not in (1, 2, 3):
            out.append(f"{name}: population rating 1 to 3 (§1)")
        res = p.get("resources", [])
        if not isinstance(res, list) or any(r not in RESOURCES[:4] for r in res):
            out.append(f"{name}: resources among wheat, wool, iron, gold (slaves are never produced, §1)")
            res = []
        tokens += len(res)
        if any(z not in seas for z in p.get("coasts", []) or []):
            out.append(f"{name}: coasts must name sea zones")
    kent = provinces.get("Kent", {}) if isinstance(provinces.get("Kent"), dict) else {}
    if kent.get("population") != 3 or sorted(kent.get("resources", [])) != ["iron", "wheat"]:
        out.append("Kent has population 3 (§1) and produces wheat and iron (§1, §8.1)")
    producing = [n for n, p in provinces.items() if isinstance(p, dict) and p.get("resources")]
    if len(producing) != 13 or tokens != 14:
        out.append("thirteen provinces produce resources: twelve one each, Kent two (§1)")
    devon = provinces.get("Devon", {}) if isinstance(provinces.get("Devon"), dict) else {}
    if len(devon.get("coasts", [])) != 2:
        out.append("Devon has a north and a south coast (§4.6.4)")
    for name, w in wild.items():
        if not isinstance(w, dict) or w.get("terrain") not in PATH_TYPES:
            out.append(f"{name}: terrain is mountain, forest or marsh (§11 12)")
            continue
        if "population" in w:
            out.append(f"{name}: wild provinces have no population rating (§1)")
        if any(z not in seas for z in w.get("coasts", [])):
            out.append(f"{name}: coasts must name sea zones")
    dies = {w.get("wildmen_die"): n for n, w in wild.items() if isinstance(w, dict) and "wildmen_die" in w}
    if dies != BOOK_WILDMEN:
        out.append("the wildmen die is the rulebook's: 1 The Weald ... 6 Connaught (§11 32)")
    faces = sorted(f for z in seas.values() if isinstance(z, dict) for f in z.get("die", []))
    if faces != [1, 2, 3, 4, 5, 6]:
        out.append("each face of the sea-zone die (§11 34, 51) names exactly one sea zone")
    borders: set[frozenset] = set()
    for entry in raw["borders"]:
        if not (isinstance(entry, list) and len(entry) == 3 and entry[0] in places and entry[1] in places
                and entry[0] != entry[1] and entry[0] not in seas and entry[1] not in seas
                and entry[2] in BORDER_TYPES):
            out.append(f"border {entry!r}: two land places and one of {', '.join(BORDER_TYPES)}")
            continue
        pair = frozenset(entry[:2])
        if pair in borders:
            out.append(f"border {entry[0]}-{entry[1]} listed twice")
        borders.add(pair)
    for a, b in raw["sea_links"]:
        if a not in seas or b not in seas:
            out.append(f"sea link {a}-{b}: two sea zones")
    for name, spec in [*wild.items(), *seas.items()]:
        targets = spec.get("random_adjacent", []) if isinstance(spec, dict) else []
        if len(targets) != 6:
            out.append(f"{name}: six numbers for a random adjacent province (§11 32, 34)")
        for t in targets:
            near = (frozenset((name, t)) in borders) if name in wild else name in (provinces.get(t) or {}).get(
                "coasts", [])
            if t not in provinces or not near:
                out.append(f"{name}: random adjacent {t!r} is not a province adjacent to it")
    return out


class Board:
    """Read-only map data with the graph queries the rules need. Two boards are equal when their
    maps are (a game refolded from its record builds an equal one)."""

    def __init__(self, raw: dict):
        found = problems(raw)
        if found:
            raise ValueError("; ".join(found))
        self.key = json.dumps(raw, sort_keys=True)
        self.table: tuple[tuple[str, ...], ...] = tuple(tuple(row) for row in raw["random_province_table"])
        self.provinces: tuple[str, ...] = tuple(raw["provinces"])  # map order, used wherever order matters
        self.index = {name: i for i, name in enumerate(self.provinces)}
        self.population = {n: p["population"] for n, p in raw["provinces"].items()}
        self.produces = {n: tuple(p.get("resources", ())) for n, p in raw["provinces"].items()}
        self.coasts = {n: tuple(p.get("coasts", ())) for n, p in raw["provinces"].items()}
        self.wild_coasts = {n: tuple(w.get("coasts", ())) for n, w in raw["wild_provinces"].items()}
        self.wild = tuple(raw["wild_provinces"])
        self.wild_terrain = {n: w["terrain"] for n, w in raw["wild_provinces"].items()}
        self.wildmen_die = {w["wildmen_die"]: n for n, w in raw["wild_provinces"].items() if "wildmen_die" in w}
        self.seas = tuple(raw["sea_zones"])
        self.sea_die = {face: n for n, z in raw["sea_zones"].items() for face in z["die"]}
        self.random_adjacent = {n: tuple(w["random_adjacent"]) for n, w in raw["wild_provinces"].items()}
        self.random_adjacent.update({n: tuple(z["random_adjacent"]) for n, z in raw["sea_zones"].items()})
        self.border: dict[tuple[str, str], str] = {}
        for a, b, kind in raw["borders"]:
            self.border[(a, b)] = kind
            self.border[(b, a)] = kind
        self.land_neighbours = {n: tuple(sorted({b for (a, b) in self.border if a == n}, key=self.order_key))
                                for n in (*self.provinces, *self.wild)}
        self.sea_links = {z: set() for z in self.seas}
        for a, b in raw["sea_links"]:
            self.sea_links[a].add(b)
            self.sea_links[b].add(a)
        self.sea_provinces = {z: tuple(p for p in self.provinces if z in self.coasts[p]) for z in self.seas}
        self.resource_provinces = tuple(p for p in self.provinces if self.produces[p])

    def __eq__(self, other: object) -> bool:
        return self is other or (isinstance(other, Board) and self.key == other.key)

    def __hash__(self) -> int:
        return hash(self.key)

    def order_key(self, name: str) -> int:
        if name in self.index:
            return self.index[name]
        if name in self.wild:
            return 100 + self.wild.index(name)
        return 200 + self.seas.index(name)

    # -- tables ---------------------------------------------------------------------------
    def table_province(self, row: int, column: int) -> str:
        """The random province table (§3.4): first die the row, second the column."""
        return self.table[row - 1][column - 1]

    def column(self, column: int) -> tuple[str, ...]:
        """The provinces named in one column of the random province table, top to bottom."""
        return tuple(row[column - 1] for row in self.table)

    # -- geography ------------------------------------------------------------------------
    def is_sea(self, loc: str) -> bool:
        return loc in self.sea_links

    def normal_neighbours(self, prov: str) -> tuple[str, ...]:
        """Provinces (wild included) across a normal border."""
        return tuple(n for n in self.land_neighbours.get(prov, ()) if self.border[(prov, n)] == "normal")

    def shore(self, place: str) -> tuple[str, ...]:
        """The sea zones a province or a wild province touches."""
        return self.coasts.get(place) or self.wild_coasts.get(place) or ()

    def share_coastline(self, a: str, b: str) -> bool:
        """§7: boats move province to province only when both touch the same sea zone (a wild
        province on the coast too: boats pass it, but cannot end their movement there)."""
        return (a, b) in self.border and bool(set(self.shore(a)) & set(self.shore(b)))

    def distances(self, start: str, *, by_sea: bool) -> dict[str, int]:
        """Steps from ``start`` across normal borders (never through wild provinces);
        with ``by_sea`` sea zones count as provinces too (§2.1, nearest friendly province)."""
        seen = {start: 0}
        queue = deque([start])
        while queue:
            here = queue.popleft()
            if self.is_sea(here):
                nxt = [*self.sea_provinces[here], *sorted(self.sea_links[here])]
            else:
                nxt = [n for n in self.normal_neighbours(here) if n not in self.wild]
                if by_sea:
                    nxt += list(self.coasts.get(here, ()))
            for n in nxt:
                if n not in seen:
                    seen[n] = seen[here] + 1
                    queue.append(n)
        return seen


BOARD = Board(json.loads((PACKAGE / MAP_FILE).read_text()))
