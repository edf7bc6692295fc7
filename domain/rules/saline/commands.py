"""Saline commands: one tagged union (tag field ``type``)."""

from __future__ import annotations

from domain.rules.base import TaggedCommand
from domain.rules.saline.events import Stated


class Prepare(TaggedCommand, tag="prepare"):
    """Set-up: objectives, secret objectives, favours, liards, mulons, the market, event cards, the first player."""


class Place(TaggedCommand, tag="place"):
    """Set-up: place the green œillet around the mulon as the player wishes."""

    position: str


class PlayCard(TaggedCommand, tag="play"):
    """Play an event card (by id) or the favour (``card`` "favour") for one effect, with its choices;
    ``outcome``: for an owner's printed instruction (``as_printed``), what the players state it does."""

    card: str
    effect: str
    target: str | None = None
    colour: str | None = None
    space: int | None = None
    position: str | None = None
    outcome: Stated | None = None


class Pass(TaggedCommand, tag="pass"):
    """Do not answer the card just played; or play nothing before another player's action or draw
    resolves."""


class Buy(TaggedCommand, tag="buy"):
    """Buy the œillet on market space ``space`` (1 to 4) and place it at ``position``."""

    space: int
    position: str


class Harvest(TaggedCommand, tag="harvest"):
    colour: str


class Sell(TaggedCommand, tag="sell"):
    """Sell the mulon's salt, then pay the gabelle; ``sacrifice``: the position of the œillet given
    up when the gabelle cannot be paid."""

    sacrifice: str | None = None


class DoNothing(TaggedCommand, tag="nothing"):
    """Do nothing: take 1 liard from the reserve."""


class EndTurn(TaggedCommand, tag="end"):
    """End the day turn (after the action)."""


class Draw(TaggedCommand, tag="draw"):
    """Draw the night's event card: the end of the turn."""


class Discard(TaggedCommand, tag="discard"):
    """Discard an event card down to the hand limit of 2 (secret)."""

    card: str


class Sacrifice(TaggedCommand, tag="sacrifice"):
    """Unable to pay the gabelle after a sale (raised while it was announced): the position of the
    œillet given up (FAQ)."""

    position: str


SalineCommand = Prepare | Place | PlayCard | Pass | Buy | Harvest | Sell | DoNothing | EndTurn | Draw | Discard | Sacrifice
