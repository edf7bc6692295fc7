"""The shape of Day of Battle's ``choices`` (rules.py ``choices``), for the OpenAPI contract:
each choice names a command ``type`` and, per field, the values it may take. Checked against
the choices of played games by tests/rules/test_choice_types.py."""

from __future__ import annotations

from typing import Literal

import msgspec


class Span(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Any number from ``min`` to ``max`` inches."""

    min: int
    max: int


class Reach(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """More than ``min`` inches (``exclusive_min``), up to the range ``max`` names in words."""

    min: int
    exclusive_min: bool
    max: str


class OneOf(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    one_of: list[str | None]


class EndChoice(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """An end-of-battle ruling's ``end``: the winning seat, or null for a draw."""

    winner: OneOf


class DeployChoice(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag="deploy", tag_field="type"):
    """Place any of ``unit`` at a point (x, y) of the army's deployment ``zone``."""

    description: str
    unit: list[str]
    x: Span
    y: Span
    zone: Literal["original", "eastern", "western facing eastern"]


class MoveChoice(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag="move", tag_field="type"):
    """Move any of ``unit`` to a point (x, y) of the table."""

    description: str
    unit: list[str]
    x: Span
    y: Span


class FireChoice(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag="fire", tag_field="type"):
    """Fire at a range in ``range_inches``, with modifiers described in words."""

    description: str
    range_inches: Reach
    modifiers: str


class RulingChoice(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag="propose-ruling",
                   tag_field="type"):
    """A ruling: one of ``topic``, honour ``deeds`` by name (and their value), an ``end``."""

    description: str
    topic: list[str]
    deeds: dict[str, int]
    end: EndChoice


Choice = DeployChoice | MoveChoice | FireChoice | RulingChoice
