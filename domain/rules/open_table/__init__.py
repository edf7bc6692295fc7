"""The open table: records any game played at a real table (see RULES_NOTES.md)."""

from domain.rules.open_table.engine import OpenTable

__all__ = ["OpenTable"]
