"""Saline commands: one tagged union (tag field ``type``)."""

from __future__ import annotations

import msgspec

from domain.rules.saline.events import Stated


class _Command(msgspec.Struct, frozen=True, tag_field="type", forbid_unknown_fields=True):
    pass


class Prepare(_Command, tag="prepare"):
    """Set-up: objectives, secret objectives, favours, liards, mulons, the market, event cards, the first player."""


class Place(_Command, tag="place"):
    """Set-up: place the green œillet around the mulon as the player wishes."""

    position: str


class PlayCard(_Command, tag="play"):
    """Play an event card (by id) or the favour (``card`` "favour") for one effect, with its choices;
    ``outcome``: for an owner's printed instruction (``as_printed``), what the players state it does."""

    card: str
    effect: str
    target: str | None = None
    colour: str | None = None
    space: int | None = None
    position: str | None = None
    outcome: Stated | None = None


class Pass(_Command, tag="pass"):
    """Do not answer the card just played; or play nothing before another player's action or draw
    resolves."""


class Buy(_Command, tag="buy"):
    """Buy the œillet on market space ``space`` (1 to 4) and place it at ``position``."""

    space: int
    position: str


class Harvest(_Command, tag="harvest"):
    colour: str


class Sell(_Command, tag="sell"):
    """Sell the mulon's salt, then pay the gabelle; ``sacrifice``: the position of the œillet given
    up when the gabelle cannot be paid."""

    sacrifice: str | None = None


class DoNothing(_Command, tag="nothing"):
    """Do nothing: take 1 liard from the reserve."""


class EndTurn(_Command, tag="end"):
    """End the day turn (after the action)."""


class Draw(_Command, tag="draw"):
    """Draw the night's event card: the end of the turn."""


class Discard(_Command, tag="discard"):
    """Discard an event card down to the hand limit of 2 (secret)."""

    card: str


class Sacrifice(_Command, tag="sacrifice"):
    """Unable to pay the gabelle after a sale (raised while it was announced): the position of the
    œillet given up (FAQ)."""

    position: str


SalineCommand = Prepare | Place | PlayCard | Pass | Buy | Harvest | Sell | DoNothing | EndTurn | Draw | Discard | Sacrifice
