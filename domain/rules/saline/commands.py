"""Saline commands: one tagged union (tag field ``type``)."""

from __future__ import annotations

import msgspec

from domain.rules.saline.events import Stated


class Prepare(msgspec.Struct, frozen=True, tag="prepare", tag_field="type", forbid_unknown_fields=True):
    """Set-up: objectives, secret objectives, favours, liards, mulons, the market, event cards, the first player."""


class Place(msgspec.Struct, frozen=True, tag="place", tag_field="type", forbid_unknown_fields=True):
    """Set-up: place the green œillet around the mulon as the player wishes."""

    position: str


class PlayCard(msgspec.Struct, frozen=True, tag="play", tag_field="type", forbid_unknown_fields=True):
    """Play an event card (by id) or the favour (``card`` "favour") for one effect, with its choices;
    ``outcome``: for an owner's printed instruction (``as_printed``), what the players state it does."""

    card: str
    effect: str
    target: str | None = None
    colour: str | None = None
    space: int | None = None
    position: str | None = None
    outcome: Stated | None = None


class Pass(msgspec.Struct, frozen=True, tag="pass", tag_field="type", forbid_unknown_fields=True):
    """Do not answer the card just played; or play nothing before another player's action or draw
    resolves."""


class Buy(msgspec.Struct, frozen=True, tag="buy", tag_field="type", forbid_unknown_fields=True):
    """Buy the œillet on market space ``space`` (1 to 4) and place it at ``position``."""

    space: int
    position: str


class Harvest(msgspec.Struct, frozen=True, tag="harvest", tag_field="type", forbid_unknown_fields=True):
    colour: str


class Sell(msgspec.Struct, frozen=True, tag="sell", tag_field="type", forbid_unknown_fields=True):
    """Sell the mulon's salt, then pay the gabelle; ``sacrifice``: the position of the œillet given
    up when the gabelle cannot be paid."""

    sacrifice: str | None = None


class DoNothing(msgspec.Struct, frozen=True, tag="nothing", tag_field="type", forbid_unknown_fields=True):
    """Do nothing: take 1 liard from the reserve."""


class EndTurn(msgspec.Struct, frozen=True, tag="end", tag_field="type", forbid_unknown_fields=True):
    """End the day turn (after the action)."""


class Draw(msgspec.Struct, frozen=True, tag="draw", tag_field="type", forbid_unknown_fields=True):
    """Draw the night's event card: the end of the turn."""


class Discard(msgspec.Struct, frozen=True, tag="discard", tag_field="type", forbid_unknown_fields=True):
    """Discard an event card down to the hand limit of 2 (secret)."""

    card: str


class Sacrifice(msgspec.Struct, frozen=True, tag="sacrifice", tag_field="type", forbid_unknown_fields=True):
    """Unable to pay the gabelle after a sale (raised while it was announced): the position of the
    œillet given up (FAQ)."""

    position: str


SalineCommand = Prepare | Place | PlayCard | Pass | Buy | Harvest | Sell | DoNothing | EndTurn | Draw | Discard | Sacrifice
