"""The Kingdoms of Crusaders commands: one tagged union (tag field ``type``)."""

from __future__ import annotations

import msgspec


class Prepare(msgspec.Struct, frozen=True, tag="prepare", tag_field="type", forbid_unknown_fields=True):
    """Preparation for a game: shuffle the deck, determine who moves first, deal five cards each."""


class Place(msgspec.Struct, frozen=True, tag="place", tag_field="type", forbid_unknown_fields=True):
    """Place one card from the hand in one of the player's own sectors (1 to 5)."""

    card: str
    sector: int


KocCommand = Prepare | Place
