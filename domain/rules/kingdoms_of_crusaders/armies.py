"""Armies and domination in territories: squads, the comparison chain, and whether a player
"can still beat" a complete army (RULES_NOTES.md, "Comparing armies" and "Can still beat").

An army is the four (or fewer) cards a player placed in one sector, described by how many
symbols of each kind it holds: its *counts*, each capped at four ("a Regiment: four symbols of
the same kind (the most powerful one)": a kind held four times or more is a regiment; RULES_NOTES.md,
reading 5). Counts are packed into one integer, ``sum(count[i] * 5**i)``, and every one of the
5**5 possible armies is given its place in the comparison chain once, at import. Cards are
shapes (data.py: four bits a kind).
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterable, Mapping, Sequence

from domain.rules.kingdoms_of_crusaders.data import KINDS

SQUADS = {4: "regiment", 3: "battalion", 2: "company"}
_POW = tuple(5**i for i in range(len(KINDS)))
_KINDS = range(len(KINDS))


@functools.cache
def kind_counts(card_shape: int) -> tuple[int, ...]:
    """How many symbols of each kind one card carries."""
    return tuple(card_shape >> (4 * k) & 15 for k in _KINDS)


def counts_of(shapes: Iterable[int]) -> tuple[int, ...]:
    """How many symbols of each kind the cards hold, capped at four."""
    out = [0] * len(KINDS)
    for m in shapes:
        for k, c in enumerate(kind_counts(m)):
            out[k] += c
    return tuple(min(c, 4) for c in out)


def pack(counts: Sequence[int]) -> int:
    return sum(c * p for c, p in zip(counts, _POW))


def comparison_key(counts: Sequence[int]) -> tuple:
    """The comparison chain as a tuple compared left to right:

    1. the number of regiments; 2. the regiments' kinds, most powerful first;
    3. the number of battalions; 4. their kinds; 5. the number of companies; 6. their kinds;
    7. the single symbols (kinds held once), most powerful first.

    The last tie-break (who completed the army first) is not a property of the cards and is
    applied by the caller."""
    by_size = {size: tuple(sorted((i for i, c in enumerate(counts) if c == size), reverse=True))
               for size in (4, 3, 2, 1)}
    return (len(by_size[4]), by_size[4], len(by_size[3]), by_size[3], len(by_size[2]), by_size[2], by_size[1])


def _strength_table() -> tuple[int, ...]:
    """Every packed army's place in the chain: equal armies share a place, a better one is higher."""
    every = list(itertools.product(range(5), repeat=len(KINDS)))
    keys = sorted({comparison_key(c) for c in every})
    place = {k: i for i, k in enumerate(keys)}
    table = [0] * 5 ** len(KINDS)
    for c in every:
        table[pack(c)] = place[comparison_key(c)]
    return tuple(table)


STRENGTH = _strength_table()


def strength(shapes: Iterable[int]) -> int:
    """The army's place in the comparison chain (higher is better)."""
    return STRENGTH[pack(counts_of(shapes))]


def squads(counts: Sequence[int]) -> dict[str, list[str]]:
    """The army's squads and single symbols by kind, most powerful first."""
    out: dict[str, list[str]] = {"regiments": [], "battalions": [], "companies": [], "singles": []}
    names = {4: "regiments", 3: "battalions", 2: "companies", 1: "singles"}
    for i in reversed(range(len(KINDS))):
        if counts[i]:
            out[names[counts[i]]].append(KINDS[i])
    return out


def can_still_beat(placed: Sequence[int], unseen: Mapping[int, int], target: int) -> bool:
    """Whether an army holding the cards ``placed`` (fewer than four) could still be completed,
    from the cards not yet seen (``unseen[shape]`` cards of each shape), into an army stronger
    than ``target`` (a :data:`STRENGTH` value).

    Exact: a depth-first search over how many cards of each shape to take, pruned by an upper
    bound (each kind counted as if every remaining card carrying it could be taken, at most
    ``left`` times its most of that kind on one card). The chain is strictly monotone in every
    count, so the bound is sound and the search misses nothing."""
    need = 4 - len(placed)
    if need <= 0:
        return STRENGTH[pack(counts_of(placed))] > target
    pool = sorted(((m, min(n, need)) for m, n in unseen.items() if n), key=lambda p: (-sum(kind_counts(p[0])), -p[0]))
    # per suffix pool[i:]: per kind, the symbols its cards carry (taken at most ``need`` of each)
    # and the most of that kind on one card; total[i]: cards
    size = len(pool)
    suffix = [(0,) * len(KINDS)] * (size + 1)
    most = [(0,) * len(KINDS)] * (size + 1)
    total = [0] * (size + 1)
    for i in range(size - 1, -1, -1):
        m, n = pool[i]
        c = kind_counts(m)
        suffix[i] = tuple(a + n * b for a, b in zip(suffix[i + 1], c))
        most[i] = tuple(max(a, b) for a, b in zip(most[i + 1], c))
        total[i] = total[i + 1] + n
    base = tuple(sum(kind_counts(m)[k] for m in placed) for k in _KINDS)

    def search(i: int, left: int, counts: tuple[int, ...]) -> bool:
        if left == 0:
            return STRENGTH[pack(tuple(min(c, 4) for c in counts))] > target
        if total[i] < left:
            return False
        wide, top = suffix[i], most[i]
        bound = 0
        for k in _KINDS:
            bound += min(4, counts[k] + min(left * top[k], wide[k])) * _POW[k]
        if STRENGTH[bound] <= target:
            return False
        m, n = pool[i]
        bits = kind_counts(m)
        for take in range(min(n, left), -1, -1):
            after = tuple(c + take * b for c, b in zip(counts, bits))
            if search(i + 1, left - take, after):
                return True
        return False

    return search(0, need, base)
