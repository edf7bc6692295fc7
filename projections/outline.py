"""The outline of a game: where each turn and phase begins, as a spectator sees them.

The viewer's move list groups the decisions by turn and phase and jumps between them; a
5,000-step Saxon Shore game cannot be browsed by version numbers alone, and asking for the
board at every version to learn its turn would be 5,000 requests. The outline is read from
the spectator's view at each version (``RuleSystem.section``: its top-level ``turn``, ``round``
or ``day`` and ``phase``), so it tells nothing that ``GET /games/{id}/state?at=N`` would not tell
a spectator; they are kept only where they change.
"""

from __future__ import annotations

from collections.abc import Iterable

import msgspec

from domain.game import Game, Recorded, apply

class Section(msgspec.Struct, frozen=True):
    """From version ``start`` on, the game is in this turn and phase (null where the rule
    system's view has none)."""

    start: int
    turn: int | None
    phase: str | None


def sections(game: Game | None, events: Iterable[Recorded], last: Section | None = None) -> tuple[Game | None, list[Section]]:
    """Fold ``events`` from ``game`` and list a Section wherever the turn or phase changes
    (after ``last``, the section the fold starts in). Returns the game at the end too."""
    out: list[Section] = []
    for event in events:
        game = apply(game, event)
        turn, phase = game.rules.section(game.state)
        if last is None or (turn, phase) != (last.turn, last.phase):
            last = Section(event.version, turn, phase)
            out.append(last)
    return game, out
