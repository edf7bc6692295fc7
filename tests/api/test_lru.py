"""api/lru.py: the one bounded map the services and the viewer keep games, tournaments, outlines
and opened records in."""

from __future__ import annotations

from api.lru import Lru


def test_the_least_recently_used_entry_goes_first():
    held: Lru[str, int] = Lru(2)
    held.put("a", 1)
    held.put("b", 2)
    assert held.get("a") == 1  # "a" is now the most recently used
    held.put("c", 3)
    assert "b" not in held and held.get("a") == 1 and held.get("c") == 3


def test_a_weighted_map_holds_at_most_its_size_in_weight_and_always_the_newest():
    """As the viewer holds opened records: at most HERALD_VIEWER_HELD_EVENTS events in all, and
    always the record just opened, however long."""
    held: Lru[str, list[int]] = Lru(10, weight=len)
    held.put("a", [0] * 4)
    held.put("b", [0] * 5)
    held.put("a", [0] * 6)  # put again: its old weight is not counted twice
    assert "b" not in held and held.get("a") == [0] * 6
    held.put("long", [0] * 50)
    assert "a" not in held and held.get("long") == [0] * 50
