"""Shapes every part of the API shares."""

from __future__ import annotations

from typing import Any

import msgspec


def documented(**schema: Any) -> msgspec.Meta:
    """JSON-schema facts about a field for the OpenAPI contract only: the service still checks
    them, answering with its own problem codes (``unknown_rules``, ``bad_player``...)."""
    return msgspec.Meta(extra_json_schema=schema)


class Head(msgspec.Struct, frozen=True):
    """A chain head: the version of the last event and its hash (a game's or a tournament's)."""

    version: int
    hash: str
