"""The Kingdoms of Crusaders commands: one tagged union (tag field ``type``)."""

from __future__ import annotations

import msgspec


class _Command(msgspec.Struct, frozen=True, tag_field="type", forbid_unknown_fields=True):
    pass


class Prepare(_Command, tag="prepare"):
    """Preparation for a game: shuffle the deck, determine who moves first, deal five cards each."""


class Place(_Command, tag="place"):
    """Place one card from the hand in one of the player's own sectors (1 to 5)."""

    card: str
    sector: int


KingdomsOfCrusadersCommand = Prepare | Place
