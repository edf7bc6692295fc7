"""The shape of Saxon Shore's ``choices`` (choices.py, whose docstring gives each form in
words), for the OpenAPI contract. Checked against the choices of played games by
tests/rules/test_choice_types.py."""

from __future__ import annotations

import msgspec

from domain.rules.base import TaggedChoice


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


class ChooseChoice(TaggedChoice, tag="choose"):
    option: TokensUpTo


class OfferChoice(TaggedChoice, tag="offer"):
    to: OneOf
    give: TokensUpTo
    take: PerRecipient


class RaiseBoatsChoice(TaggedChoice, tag="raise-boats"):
    places: OneOrTwoPlaces
    pay: OneOf


class MoveChoice(TaggedChoice, tag="move"):
    units: Groups
    path: Steps


Choice = ChooseChoice | OfferChoice | RaiseBoatsChoice | MoveChoice
