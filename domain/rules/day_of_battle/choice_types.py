"""The shape of Day of Battle's ``choices`` (rules.py ``choices``), for the OpenAPI contract:
each choice names a command ``type`` and, per field, the values it may take. Checked against
the choices of played games by tests/rules/test_choice_types.py."""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.rules.base import TaggedChoice


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


class DeployChoice(TaggedChoice, tag="deploy"):
    """Place any of ``unit`` at a point (x, y) of the army's deployment ``zone``."""

    unit: list[str]
    x: Span
    y: Span
    zone: Literal["original", "eastern", "western facing eastern"]


class MoveChoice(TaggedChoice, tag="move"):
    """Move any of ``unit`` to a point (x, y) of the table."""

    unit: list[str]
    x: Span
    y: Span


class FormationChoice(TaggedChoice, tag="change-formation"):
    """Any of ``unit`` takes one of ``formation`` (a manoeuvre)."""

    unit: list[str]
    formation: list[str]


class ChargeChoice(TaggedChoice, tag="charge"):
    """Any of ``unit`` charges one of ``target`` and ends at a point (x, y) of the table."""

    unit: list[str]
    target: list[str]
    x: Span
    y: Span
    caught_in_one_normal_move: list[bool]
    from_front: list[bool]


class FireChoice(TaggedChoice, tag="fire"):
    """Any of ``unit`` fires at one of ``target`` at a range in ``range_inches``, in the open or
    not, with modifiers described in words."""

    unit: list[str]
    target: list[str]
    range_inches: Reach
    in_open: list[bool]
    modifiers: str


class FallBackChoice(TaggedChoice, tag="fall-back"):
    """The charged unit falls back to a point (x, y) of the table."""

    x: Span
    y: Span


class EvadeChoice(TaggedChoice, tag="evade"):
    """The charged unit evades to a point (x, y) of the table."""

    x: Span
    y: Span


class FightChoice(TaggedChoice, tag="fight"):
    """The fighting ``unit`` states its combat dice and target number (core rules)."""

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


class RulingChoice(TaggedChoice, tag="propose-ruling"):
    """A ruling: one of ``topic``, honour ``deeds`` by name (and their value), an ``end``, the
    ``rolls`` Herald makes once it is accepted, ``leaders`` lost."""

    topic: list[str]
    deeds: dict[str, int]
    end: EndChoice
    rolls: RollsChoice
    leaders: LeadersChoice


Choice = (DeployChoice | MoveChoice | FormationChoice | ChargeChoice | FireChoice | FallBackChoice | EvadeChoice
          | FightChoice | RulingChoice)
