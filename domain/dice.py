"""Die kinds: declared data, never code (DESIGN.md, "Verifiable randomness").

A die kind is an ordered list of faces; a die shows ``faces[uniform(len(faces))]``.
"""

from __future__ import annotations

import re

import msgspec

Face = int | str


class DieKind(msgspec.Struct, frozen=True):
    """A kind of die: its id and its faces, in the order the draw indexes them."""

    id: str
    faces: tuple[Face, ...]
    title: str = ""


def _numbered(sides: int) -> DieKind:
    return DieKind(f"d{sides}", tuple(range(1, sides + 1)), f"{sides}-sided die")


STANDARD_DICE: dict[str, DieKind] = {
    kind.id: kind
    for kind in (
        *(_numbered(s) for s in (4, 6, 8, 10, 12, 20, 100)),
        DieKind(
            "saladin-combat",
            ("blank", "blank", "stroke", "stroke", "double", "slash"),
            "Saladin combat die: 2 blank, 2 single stroke, 1 double stroke, 1 slash",
        ),
    )
}

_DICE_SPEC = re.compile(r"^\s*(\d{1,3})\s*(?:x\s*([a-z0-9][a-z0-9-]*)|d(\d{1,3}))\s*$", re.ASCII)  # "٣d6" is not one
MAX_DICE_PER_ROLL = 100


class DiceSpecError(ValueError):
    """A dice expression that does not name a known die kind or a sane count."""


def parse_dice(spec: str, kinds: dict[str, DieKind]) -> tuple[int, DieKind]:
    """Parse ``"3d6"`` or ``"2xsaladin-combat"`` into (count, die kind)."""
    match = _DICE_SPEC.match(spec.lower())
    if not match:
        raise DiceSpecError(f"{spec!r} is not a dice expression like '3d6' or '2xsaladin-combat'")
    count = int(match.group(1))
    kind_id = match.group(2) or f"d{match.group(3)}"
    if kind_id not in kinds:
        raise DiceSpecError(f"unknown die kind {kind_id!r}; known: {', '.join(sorted(kinds))}")
    if not 1 <= count <= MAX_DICE_PER_ROLL:
        raise DiceSpecError(f"a roll has 1 to {MAX_DICE_PER_ROLL} dice, not {count}")
    return count, kinds[kind_id]
