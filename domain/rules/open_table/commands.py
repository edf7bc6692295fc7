"""The open table's commands (the wire forms of DESIGN.md)."""

from __future__ import annotations

from typing import Any

import msgspec

from domain.events import Outcome


class Note(msgspec.Struct, frozen=True, tag="note", tag_field="type", forbid_unknown_fields=True):
    """A free-form decision: a short text and an optional JSON payload."""

    text: str
    payload: Any = None


class Roll(msgspec.Struct, frozen=True, tag="roll", tag_field="type", forbid_unknown_fields=True):
    """A named roll: ``dice`` is ``"3d6"`` or ``"2xsaladin-combat"``."""

    label: str
    dice: str


class Shuffle(msgspec.Struct, frozen=True, tag="shuffle", tag_field="type", forbid_unknown_fields=True):
    """Gather every card of a deck and shuffle it."""

    deck: str


class Draw(msgspec.Struct, frozen=True, tag="draw", tag_field="type", forbid_unknown_fields=True):
    """Draw ``count`` cards from the top of a deck, face up."""

    deck: str
    count: int = 1


class Take(msgspec.Struct, frozen=True, tag="take", tag_field="type", forbid_unknown_fields=True):
    """Draw ``count`` cards from the top of a deck into your hand, privately."""

    deck: str
    count: int = 1


class Play(msgspec.Struct, frozen=True, tag="play", tag_field="type", forbid_unknown_fields=True):
    """Play a card from your hand face up: it is revealed as it is played."""

    card: str


class Discard(msgspec.Struct, frozen=True, tag="discard", tag_field="type", forbid_unknown_fields=True):
    """Discard a card from your hand face down: only you know which (sealed)."""

    card: str


class ShowHand(msgspec.Struct, frozen=True, tag="show-hand", tag_field="type", forbid_unknown_fields=True):
    """Show your whole hand to everyone."""


class End(msgspec.Struct, frozen=True, tag="end", tag_field="type", forbid_unknown_fields=True):
    """Propose (or agree to) ending the game with this outcome."""

    outcome: Outcome


OpenTableCommand = Note | Roll | Shuffle | Draw | Take | Play | Discard | ShowHand | End
