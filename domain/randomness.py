"""Verifiable randomness (DESIGN.md, "Verifiable randomness").

Every draw is HMAC-SHA256 over ``f"{game_id}|{client_seed}|{n}|{k}"`` keyed by the
server seed; anyone holding the revealed seed can recompute every die and shuffle.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
from collections.abc import Iterator, Sequence
from typing import TypeVar
from uuid import UUID

T = TypeVar("T")

_WORD = 2**32


def commitment(server_seed: bytes) -> str:
    """The public commitment to a server seed: its SHA-256, in hex."""
    return hashlib.sha256(server_seed).hexdigest()


def draw_bytes(server_seed: bytes, game_id: UUID, client_seed: str, n: int) -> Iterator[bytes]:
    """The endless byte stream of draw ``n``: HMAC blocks for k = 0, 1, 2, ..."""
    prefix = f"{str(game_id).lower()}|{client_seed}|{n}|"
    k = 0
    while True:
        yield hmac.digest(server_seed, f"{prefix}{k}".encode(), "sha256")
        k += 1


def uniform(server_seed: bytes, game_id: UUID, client_seed: str, n: int, m: int) -> int:
    """An integer in ``range(m)`` from draw ``n``, by rejection sampling of 4-byte words."""
    if m < 1:
        raise ValueError("uniform(m) needs m >= 1")
    limit = _WORD - (_WORD % m)
    for block in draw_bytes(server_seed, game_id, client_seed, n):
        for i in range(0, len(block), 4):
            x = int.from_bytes(block[i : i + 4], "big")
            if x < limit:
                return x % m
    raise AssertionError("unreachable")  # pragma: no cover


class Draws:
    """The draws of one game, numbered from a starting draw number.

    Pure given its inputs: the same seed, game, client seed and draw numbers always give
    the same numbers. ``next`` counts every draw made so far.
    """

    def __init__(self, server_seed: bytes, game_id: UUID, client_seed: str, next_draw: int = 0):
        self._seed = server_seed
        self._game = game_id
        self._client = client_seed
        self.next = next_draw

    def uniform(self, m: int) -> tuple[int, int]:
        """Draw ``uniform(m)`` on the next draw number; return (draw number, value)."""
        n = self.next
        self.next += 1
        return n, uniform(self._seed, self._game, self._client, n, m)

    def at(self, n: int, m: int) -> int:
        """``uniform(m)`` on an already-made draw ``n`` (does not advance)."""
        return uniform(self._seed, self._game, self._client, n, m)

    def order(self, draws: tuple[int, ...], size: int) -> tuple[int, ...]:
        """The deck order an already-made shuffle of ``size`` cards on ``draws`` gave."""
        return shuffle_order(self._seed, self._game, self._client, draws, size)


def shuffled(items: Sequence[T], values: Sequence[int]) -> list[T]:
    """Apply the DESIGN.md shuffle: for i from len-1 down to 1, swap L[i] and L[values[..]].

    ``values[t]`` is the ``uniform(i + 1)`` drawn for the t-th step (i = len-1-t).
    """
    order = list(items)
    for t, i in enumerate(range(len(order) - 1, 0, -1)):
        j = values[t]
        order[i], order[j] = order[j], order[i]
    return order


@functools.lru_cache(maxsize=64)
def shuffle_order(server_seed: bytes, game_id: UUID, client_seed: str, draws: tuple[int, ...],
                  size: int) -> tuple[int, ...]:
    """The permutation (indices into the unshuffled deck) a shuffle of ``size`` cards on
    ``draws`` produced. Pure, so remembered: drawing one card per command from a long deck
    would otherwise recompute ``size - 1`` HMACs per card (issue 11, point 4)."""
    values = [uniform(server_seed, game_id, client_seed, n, i + 1)
              for n, i in zip(draws, range(size - 1, 0, -1), strict=True)]
    return tuple(shuffled(range(size), values))
