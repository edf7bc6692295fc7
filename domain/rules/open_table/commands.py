"""The open table's commands (the wire forms of DESIGN.md)."""

from __future__ import annotations

from typing import Any

from domain.events import Outcome
from domain.rules.base import TaggedCommand


class Note(TaggedCommand, tag="note"):
    """A free-form decision: a short text and an optional JSON payload."""

    text: str
    payload: Any = None


class Roll(TaggedCommand, tag="roll"):
    """A named roll: ``dice`` is ``"3d6"`` or ``"2xsaladin-combat"``."""

    label: str
    dice: str


class Shuffle(TaggedCommand, tag="shuffle"):
    """Gather every card of a deck and shuffle it."""

    deck: str


class Draw(TaggedCommand, tag="draw"):
    """Draw ``count`` cards from the top of a deck, face up."""

    deck: str
    count: int = 1


class Take(TaggedCommand, tag="take"):
    """Draw ``count`` cards from the top of a deck into your hand, privately."""

    deck: str
    count: int = 1


class Play(TaggedCommand, tag="play"):
    """Play a card from your hand face up: it is revealed as it is played."""

    card: str


class Discard(TaggedCommand, tag="discard"):
    """Discard a card from your hand face down: only you know which (sealed)."""

    card: str


class ShowHand(TaggedCommand, tag="show-hand"):
    """Show your whole hand to everyone."""


class End(TaggedCommand, tag="end"):
    """Propose (or agree to) ending the game with this outcome."""

    outcome: Outcome


OpenTableCommand = Note | Roll | Shuffle | Draw | Take | Play | Discard | ShowHand | End
