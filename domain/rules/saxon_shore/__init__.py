"""Saxon Shore: the game of Dark Ages Britain, 2 to 5 players (see RULES_NOTES.md)."""

from domain.rules.saxon_shore.engine import SaxonShore

__all__ = ["SaxonShore"]
