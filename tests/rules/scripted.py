"""Scripted chance for tests that reach a position by play from the opening (issue 26 point 19):
the dice show the faces a test names and a shuffle puts the cards a test names on top, every
other draw seeded as in a real game. One script serves a whole game: :meth:`Script.rng` gives the
rng of each decision."""

from __future__ import annotations

from typing import Any

import msgspec

from domain.events import CardsShuffled, DiceRolled
from domain.rng import SeededRng

SEED = bytes(range(32))


class Script:
    """``decks``: by deck name, the positions in the printed deck of the cards that come off the
    top first, in that order (the rest follow in printed order; a later shuffle of that deck, of
    another size, is seeded). ``faces``: by die kind, or by the start of a roll's purpose, the next
    faces it shows, used up in order (then seeded)."""

    def __init__(self, decks: dict[str, list[int]] | None = None, faces: dict[str, list[Any]] | None = None,
                 seed: bytes = SEED):
        self.decks = dict(decks or {})
        self.faces = {key: list(faces) for key, faces in (faces or {}).items()}
        self.seed = seed
        self._sizes: dict[str, int] = {}

    def rng(self, game: Any) -> ScriptedRng:
        """The rng of ``game``'s next decision."""
        return ScriptedRng(self, game)


class ScriptedRng(SeededRng):
    def __init__(self, script: Script, game: Any):
        super().__init__(script.seed, game.id, "", game.next_draw)
        self.script = script

    def order(self, shuffle: CardsShuffled) -> list[int]:
        top = self.script.decks.get(shuffle.deck)
        size = self.script._sizes.setdefault(shuffle.deck, shuffle.size)
        if top is None or shuffle.size != size:
            return super().order(shuffle)
        chosen = set(top)
        return list(top) + [i for i in range(shuffle.size) if i not in chosen]

    def roll(self, kind, count: int, purpose: str, seat: str | None = None) -> DiceRolled:
        rolled = super().roll(kind, count, purpose, seat)
        key = next((k for k in self.script.faces if k == kind.id or purpose.startswith(k)), None)
        queue = self.script.faces.get(key) if key is not None else None
        if not queue:
            return rolled
        faces, self.script.faces[key] = queue[:count], queue[count:]
        return msgspec.structs.replace(rolled, faces=faces + list(rolled.faces[len(faces):]))
