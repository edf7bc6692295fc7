"""The Kingdoms of Crusaders commands: one tagged union (tag field ``type``)."""

from __future__ import annotations

from domain.rules.base import TaggedCommand


class Prepare(TaggedCommand, tag="prepare"):
    """Preparation for a game: shuffle the deck, determine who moves first, deal five cards each."""


class Place(TaggedCommand, tag="place"):
    """Place one card from the hand in one of the player's own sectors (1 to 5)."""

    card: str
    sector: int


KingdomsOfCrusadersCommand = Prepare | Place
