"""The fold of records made under 2.1.0 and 2.0.0, kept only for them (RULES_NOTES.md, Versions).

Those records leave the turn's control (the job queue, the phase, the open question's details)
out: their ``PromptOpened`` says what a person needs. Their fold derives it: a ``DecisionTaken``
opens a :class:`Pending` decision (the state it was taken in, the command), each ``DiceRolled``
adds its faces, and when the decision's ``PromptOpened`` arrives the decision is run again on
those dice (``rules.decide`` under the record's version), which yields the control exactly as
``decide`` left it. A decision that left the control unchanged recorded no PromptOpened and
needs no run. Nothing is remembered between calls: each such question runs its decision again.
"""

from __future__ import annotations

import msgspec

from domain.events import DecisionTaken, DiceRolled, EventData
from domain.rules.saxon_shore.commands import SaxonCommand
from domain.rules.saxon_shore.events import PromptOpened
from domain.rules.saxon_shore.evolve import apply
from domain.rules.saxon_shore.state import Pending, SaxonState

replace = msgspec.structs.replace


def evolve(state: SaxonState, event: EventData) -> SaxonState:
    """Fold one event of a 2.1.0 or 2.0.0 record: :func:`apply`, and the derived control."""
    match event:
        case DecisionTaken(seat=seat, command=command):
            return replace(state, pending=Pending(before=state, seat=seat, command=command))
        case DiceRolled(faces=faces) if state.pending is not None:
            return replace(state, pending=replace(state.pending, faces=state.pending.faces + tuple(int(f) for f in faces)))
        case PromptOpened() if state.pending is not None:
            from domain.rules.saxon_shore.rules import decide  # rules folds with apply: imported when needed

            ctx = decide(state.pending.before, state.pending.seat, msgspec.convert(state.pending.command, SaxonCommand),
                         RecordedDice(state.pending.faces))
            return replace(state, jobs=tuple(ctx.jobs), prompt=ctx.prompt, phase=ctx.phase, stage=ctx.stage,
                           pending=None)
    return apply(state, event)


class RecordedDice:
    """The dice a recorded decision rolled, handed out again in order (for :func:`evolve`)."""

    def __init__(self, faces: tuple[int, ...]):
        self.faces = faces
        self.used = 0

    def roll(self, kind, count: int, purpose: str, seat: str | None = None) -> DiceRolled:
        faces = list(self.faces[self.used:self.used + count])
        self.used += count
        return DiceRolled(draws=[], kind=kind.id, faces=faces, purpose=purpose, seat=seat)
