"""The Saxon Shore map, loaded once from ``map.json`` (a documented reconstruction).

Pure data and graph queries: provinces, wild provinces, sea zones, borders and coasts,
the random province table (§3.4) and the "random adjacent province" numbers (§11: 32, 34).
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


class Board:
    """Read-only map data with the graph queries the rules need."""

    def __init__(self, raw: dict):
        self.table: tuple[tuple[str, ...], ...] = tuple(tuple(row) for row in raw["random_province_table"])
        self.provinces: tuple[str, ...] = tuple(raw["provinces"])  # map order, used wherever order matters
        self.index = {name: i for i, name in enumerate(self.provinces)}
        self.population = {n: p["population"] for n, p in raw["provinces"].items()}
        self.produces = {n: tuple(p.get("resources", ())) for n, p in raw["provinces"].items()}
        self.coasts = {n: tuple(p["coasts"]) for n, p in raw["provinces"].items()}
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
        self._check()

    def _check(self) -> None:
        assert len(self.provinces) == 36 and len(self.wild) == 7 and len(self.seas) == 3
        assert sorted(p for row in self.table for p in row) == sorted(self.provinces)
        assert len(self.resource_provinces) == 13
        assert sum(len(r) for r in self.produces.values()) == 14
        for a, b in self.border:
            assert a in self.land_neighbours and b in self.land_neighbours, (a, b)
        for name, targets in self.random_adjacent.items():
            assert len(targets) == 6
            for t in targets:
                assert t in self.provinces
                assert (name in self.seas and name in self.coasts[t]) or (name, t) in self.border, (name, t)

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

    def share_coastline(self, a: str, b: str) -> bool:
        """§7: boats move province to province only when both touch the same sea zone."""
        return (a, b) in self.border and bool(set(self.coasts.get(a, ())) & set(self.coasts.get(b, ())))

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
