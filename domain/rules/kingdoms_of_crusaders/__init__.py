"""The Kingdoms of Crusaders (see RULES_NOTES.md for every reading of the damaged rulebook)."""

from domain.rules.kingdoms_of_crusaders.engine import KingdomsOfCrusaders

__all__ = ["KingdomsOfCrusaders"]
