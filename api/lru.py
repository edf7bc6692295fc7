"""A bounded map, safe across threads, that forgets the least recently used entry first: what
the services keep of games, tournaments and opened records so a hot read costs no store read."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


def _one(value: object) -> int:
    return 1


class Lru(Generic[K, V]):
    """Entries weighing at most ``size`` in all (each weighs ``weight(value)``, 1 by default: at
    most ``size`` entries), the newest always kept; :meth:`get` and :meth:`put` each make their
    key the most recently used."""

    def __init__(self, size: int, weight: Callable[[V], int] = _one):
        self.size = size
        self._weight = weight
        self._items: OrderedDict[K, V] = OrderedDict()
        self._held = 0
        self._lock = threading.Lock()

    def get(self, key: K) -> V | None:
        with self._lock:
            found = self._items.get(key)
            if found is not None:
                self._items.move_to_end(key)
            return found

    def put(self, key: K, value: V) -> None:
        with self._lock:
            old = self._items.pop(key, None)
            if old is not None:
                self._held -= self._weight(old)
            self._items[key] = value
            self._held += self._weight(value)
            while len(self._items) > 1 and self._held > self.size:
                _, gone = self._items.popitem(last=False)
                self._held -= self._weight(gone)

    def __contains__(self, key: object) -> bool:
        return key in self._items
