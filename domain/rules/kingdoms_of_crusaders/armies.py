"""Armies and domination in territories: squads, the comparison chain, and whether a player
"can still beat" a complete army (RULES_NOTES.md, "Comparing armies" and "Can still beat").

An army is the four (or fewer) cards a player placed in one sector. Because a card carries each
kind at most once, an army is described exactly by how many symbols of each kind it holds
(0 to 4): its *counts*. Counts are packed into one integer, ``sum(count[i] * 5**i)``, and every
one of the 5**5 possible armies is given its place in the comparison chain once, at import.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence

from domain.rules.kingdoms_of_crusaders.data import KINDS

SQUADS = {4: "regiment", 3: "battalion", 2: "company"}
_POW = tuple(5**i for i in range(len(KINDS)))


def counts_of(masks: Iterable[int]) -> tuple[int, ...]:
    """How many symbols of each kind the cards hold."""
    out = [0] * len(KINDS)
    for m in masks:
        for i in range(len(KINDS)):
            out[i] += m >> i & 1
    return tuple(out)


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


def strength(masks: Iterable[int]) -> int:
    """The army's place in the comparison chain (higher is better)."""
    return STRENGTH[pack(counts_of(masks))]


def squads(counts: Sequence[int]) -> dict[str, list[str]]:
    """The army's squads and single symbols by kind, most powerful first."""
    out: dict[str, list[str]] = {"regiments": [], "battalions": [], "companies": [], "singles": []}
    names = {4: "regiments", 3: "battalions", 2: "companies", 1: "singles"}
    for i in reversed(range(len(KINDS))):
        if counts[i]:
            out[names[counts[i]]].append(KINDS[i])
    return out


def can_still_beat(placed: Sequence[int], unseen: Sequence[int], target: int) -> bool:
    """Whether an army holding the cards ``placed`` (fewer than four) could still be completed,
    from the cards not yet seen (``unseen[m]`` cards of mask ``m``), into an army stronger than
    ``target`` (a :data:`STRENGTH` value).

    Exact: a depth-first search over how many cards of each mask to take, pruned by an upper
    bound (each kind counted as if every remaining card of that kind could be taken). The chain
    is strictly monotone in every count, so the bound is sound and the search misses nothing."""
    need = 4 - len(placed)
    if need <= 0:
        return STRENGTH[pack(counts_of(placed))] > target
    pool = [(m, min(unseen[m], need)) for m in _BY_SIZE if unseen[m]]
    # suffix[i]: per kind (8 bits each), the cards among pool[i:] carrying it; total[i]: cards
    suffix = [0] * (len(pool) + 1)
    total = [0] * (len(pool) + 1)
    for i in range(len(pool) - 1, -1, -1):
        m, n = pool[i]
        suffix[i] = suffix[i + 1] + n * _WIDE[m]
        total[i] = total[i + 1] + n
    base = counts_of(placed)

    def search(i: int, left: int, counts: tuple[int, ...]) -> bool:
        if left == 0:
            return STRENGTH[pack(counts)] > target
        if total[i] < left:
            return False
        wide = suffix[i]
        bound = 0
        for k in _KINDS:
            bound += (counts[k] + min(left, wide >> (8 * k) & 255)) * _POW[k]
        if STRENGTH[bound] <= target:
            return False
        m, n = pool[i]
        bits = _BITS[m]
        for take in range(min(n, left), -1, -1):
            after = tuple(c + take * b for c, b in zip(counts, bits))
            if search(i + 1, left - take, after):
                return True
        return False

    return search(0, need, base)


_KINDS = range(len(KINDS))
_BITS = tuple(tuple(m >> k & 1 for k in _KINDS) for m in range(1 << len(KINDS)))
_WIDE = tuple(sum(1 << (8 * k) for k in _KINDS if m >> k & 1) for m in range(1 << len(KINDS)))
_BY_SIZE = tuple(sorted(range(1, 1 << len(KINDS)), key=lambda m: (-bin(m).count("1"), -m)))
