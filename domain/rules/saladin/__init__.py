"""Saladin: Hattin and Arsuf (see RULES_NOTES.md for every interpretation and reconstruction)."""

from domain.rules.saladin.engine import Saladin

__all__ = ["Saladin"]
