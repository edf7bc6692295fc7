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


class FormationChoice(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag="change-formation",
                      tag_field="type"):
    """Any of ``unit`` takes one of ``formation`` (a manoeuvre)."""

    description: str
    unit: list[str]
    formation: list[str]


class ChargeChoice(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag="charge", tag_field="type"):
    """Any of ``unit`` charges one of ``target`` and ends at a point (x, y) of the table."""

    description: str
    unit: list[str]
    target: list[str]
    x: Span
    y: Span
    caught_in_one_normal_move: list[bool]
    from_front: list[bool]


class FireChoice(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag="fire", tag_field="type"):
    """Any of ``unit`` fires at one of ``target`` at a range in ``range_inches``, in the open or
    not, with modifiers described in words."""

    description: str
    unit: list[str]
    target: list[str]
    range_inches: Reach
    in_open: list[bool]
    modifiers: str


class FallBackChoice(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag="fall-back", tag_field="type"):
    """The charged unit falls back to a point (x, y) of the table."""

    description: str
    x: Span
    y: Span


class EvadeChoice(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag="evade", tag_field="type"):
    """The charged unit evades to a point (x, y) of the table."""

    description: str
    x: Span
    y: Span


class FightChoice(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag="fight", tag_field="type"):
    """The fighting ``unit`` states its combat dice and target number (core rules)."""

    description: str
    unit: list[str]
    dice: Span
    target_number: Span
    modifiers: str


class RollsChoice(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A roll the core rules call for: one of ``purpose``, its dice and target number."""

    purpose: list[str]
    dice: Span
    target_number: Span


class LeadersChoice(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A leader (one of ``leader``) killed or captured (one of ``fate``)."""

    fate: list[str]
    leader: list[str]


class RulingChoice(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag="propose-ruling",
                   tag_field="type"):
    """A ruling: one of ``topic``, honour ``deeds`` by name (and their value), an ``end``, the
    ``rolls`` Herald makes once it is accepted, ``leaders`` lost."""

    description: str
    topic: list[str]
    deeds: dict[str, int]
    end: EndChoice
    rolls: RollsChoice
    leaders: LeadersChoice


Choice = (DeployChoice | MoveChoice | FormationChoice | ChargeChoice | FireChoice | FallBackChoice | EvadeChoice
          | FightChoice | RulingChoice)
