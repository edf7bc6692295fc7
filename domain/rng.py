"""The random source a rule system draws from inside ``decide``.

Rule code never calls ``random``: it asks an :class:`Rng` for dice or a shuffle and
gets back the event to record. :class:`SeededRng` draws from the game's seed;
:class:`RecordedRng` hands back the dice already in a record, so a record can be
replayed (and its legality checked) without the seed.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol
from uuid import UUID

from domain.dice import DieKind
from domain.errors import RecordError
from domain.events import CardsShuffled, DiceForced, DiceRolled, EventData
from domain.randomness import Draws


class Rng(Protocol):
    """What a rule system may ask for. Each call returns the event that records it."""

    def roll(self, kind: DieKind, count: int, purpose: str, seat: str | None = None) -> DiceRolled:
        """Roll ``count`` dice of ``kind``: one draw per die."""
        ...

    def shuffle(self, deck: str, size: int, purpose: str = "") -> CardsShuffled:
        """Shuffle a deck of ``size`` cards: ``size - 1`` draws; the order stays hidden."""
        ...

    def order(self, shuffle: CardsShuffled) -> list[int]:
        """The permutation (indices into the unshuffled deck) a past shuffle produced."""
        ...


class NeedsSeed(RecordError):
    """A hidden result (a deck order) cannot be known without the server seed."""

    code = "needs_seed"


class RecordMismatch(RecordError):
    """Replay asked for a random draw the record does not hold at that point."""

    code = "record_mismatch"

    def __init__(self, draw: int | None, what: str):
        super().__init__(what)
        self.draw = draw
        self.what = what


class ForcedFaceMismatch(Exception):
    """A study fork's stated face does not exist on the die the rules asked for."""


class SeededRng:
    """Draws from the server seed, numbering draws from ``next_draw``."""

    def __init__(self, server_seed: bytes, game_id: UUID, client_seed: str, next_draw: int):
        self.draws = Draws(server_seed, game_id, client_seed, next_draw)

    @property
    def next_draw(self) -> int:
        return self.draws.next

    def roll(self, kind: DieKind, count: int, purpose: str, seat: str | None = None) -> DiceRolled:
        numbers, faces = [], []
        for _ in range(count):
            n, value = self.draws.uniform(len(kind.faces))
            numbers.append(n)
            faces.append(kind.faces[value])
        return DiceRolled(draws=numbers, kind=kind.id, faces=faces, purpose=purpose, seat=seat)

    def shuffle(self, deck: str, size: int, purpose: str = "") -> CardsShuffled:
        # the draws are taken, not computed: the order they give is computed when a card is drawn
        first = self.draws.next
        self.draws.next += max(size - 1, 0)
        return CardsShuffled(deck=deck, size=size, draws=list(range(first, self.draws.next)), purpose=purpose)

    def order(self, shuffle: CardsShuffled) -> list[int]:
        return list(self.draws.order(tuple(shuffle.draws), shuffle.size))


class RecordedRng:
    """Replays the random events of a record in order, checking each request matches."""

    def __init__(self, recorded: Iterable[EventData], next_draw: int):
        self._queue = [e for e in recorded if isinstance(e, (DiceRolled, CardsShuffled))]
        self.next_draw = next_draw

    def _take(self, cls: type, draws: int, what: str):
        if not self._queue:
            raise RecordMismatch(self.next_draw, f"the rules drew {what} but the record has no draw here")
        event = self._queue.pop(0)
        expected = list(range(self.next_draw, self.next_draw + draws))
        if not isinstance(event, cls) or event.draws != expected:
            raise RecordMismatch(
                self.next_draw,
                f"the rules drew {what} on draws {expected} but the record has "
                f"{event.type_name} on draws {event.draws}",
            )
        self.next_draw += draws
        return event

    def roll(self, kind: DieKind, count: int, purpose: str, seat: str | None = None) -> DiceRolled:
        event = self._take(DiceRolled, count, f"{count} {kind.id}")
        wrong = [f for f in event.faces if f not in kind.faces]
        if wrong:
            raise RecordMismatch(event.draws[0], f"the record's faces {wrong} are not faces of a {kind.id}")
        return type(event)(draws=event.draws, kind=kind.id, faces=list(event.faces), purpose=purpose, seat=seat)

    def shuffle(self, deck: str, size: int, purpose: str = "") -> CardsShuffled:
        self._take(CardsShuffled, max(size - 1, 0), f"a shuffle of {deck}")
        return CardsShuffled(
            deck=deck, size=size, draws=list(range(self.next_draw - max(size - 1, 0), self.next_draw)), purpose=purpose
        )

    def order(self, shuffle: CardsShuffled) -> list[int]:
        raise NeedsSeed(f"the order of deck {shuffle.deck!r} is hidden until the seed is revealed")


class ForcedRng:
    """A study fork's dice: the stated faces first, die by die, recorded as DiceForced;
    a roll the remaining faces cannot cover whole is rolled from the seed instead."""

    def __init__(self, faces: list[int | str], seeded: SeededRng):
        self._faces = list(faces)
        self._seeded = seeded

    @property
    def next_draw(self) -> int:
        return self._seeded.next_draw

    def roll(self, kind: DieKind, count: int, purpose: str, seat: str | None = None) -> DiceRolled:
        if count > len(self._faces):
            return self._seeded.roll(kind, count, purpose, seat)
        faces, self._faces = self._faces[:count], self._faces[count:]
        wrong = [f for f in faces if f not in kind.faces]
        if wrong:
            raise ForcedFaceMismatch(f"forced face(s) {wrong} are not faces of a {kind.id}")
        first = self._seeded.next_draw
        self._seeded.draws.next += count
        return DiceForced(draws=list(range(first, first + count)), kind=kind.id, faces=faces,
                          purpose=purpose, seat=seat)

    def shuffle(self, deck: str, size: int, purpose: str = "") -> CardsShuffled:
        return self._seeded.shuffle(deck, size, purpose)

    def order(self, shuffle: CardsShuffled) -> list[int]:
        return self._seeded.order(shuffle)
