"""The shape of Saxon Shore's ``choices`` (choices.py, whose docstring gives each form in
words), for the OpenAPI contract. Checked against the choices of played games by
tests/rules/test_choice_types.py."""

from __future__ import annotations

import msgspec


class _Choice(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag_field="type"):
    """A choice: the command ``type`` it composes and, in words, what it asks."""

    description: str


class TokensUpTo(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Any count from 0 to n of each resource named."""

    tokens_up_to: dict[str, int]


class OneOf(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    one_of: list[str]


class PerRecipient(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """What may be asked of each recipient: tokens up to what it holds."""

    per_recipient: dict[str, TokensUpTo]


class Place(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    province: str
    sea: str


class OneOrTwoPlaces(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One place, or two of different provinces."""

    one_or_two_distinct_provinces_of: list[Place]


class Groups(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Place → the ids of the units that may move together from there (any non-empty subset)."""

    groups: dict[str, list[int]]


class Steps(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Place → the places one step may go to from it; a path is one step or more."""

    steps: dict[str, list[str]]


class ChooseChoice(_Choice, tag="choose"):
    option: TokensUpTo


class OfferChoice(_Choice, tag="offer"):
    to: OneOf
    give: TokensUpTo
    take: PerRecipient


class RaiseBoatsChoice(_Choice, tag="raise-boats"):
    places: OneOrTwoPlaces
    pay: OneOf


class MoveChoice(_Choice, tag="move"):
    units: Groups
    path: Steps


Choice = ChooseChoice | OfferChoice | RaiseBoatsChoice | MoveChoice
