"""Saline (see RULES_NOTES.md for every reading and every reconstructed component)."""

from domain.rules.saline.engine import Saline

__all__ = ["Saline"]
