"""The commands of Saxon Shore: a tagged union of frozen msgspec Structs; ``type`` values are
kebab-case, fields snake_case (docs/DECISIONS.md, "Naming")."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from domain.rules.base import TaggedCommand

Resource = Literal["wheat", "wool", "iron", "gold", "slaves"]
Tokens = dict[Resource, Annotated[int, msgspec.Meta(ge=0)]]


class Choose(TaggedCommand, tag="choose"):
    """Answer the open prompt with one of its options."""

    option: str


class Done(TaggedCommand, tag="done"):
    """End your part of the current phase."""


class Offer(TaggedCommand, tag="offer"):
    """§4.3: offer another player resource tokens "in any combination": ``give`` what you hand
    over, ``take`` what you ask for (either may be empty: a gift, a request); they accept or
    decline."""

    to: str
    give: Tokens = {}
    take: Tokens = {}


class PlaceTrade(TaggedCommand, tag="place-trade"):
    """§4.4: place one resource in a city for trade."""

    province: str
    resource: str


class Improve(TaggedCommand, tag="improve"):
    """§4.5: pay for an improvement in a province you own."""

    province: str
    improvement: Literal["morale", "ravage", "road", "wall", "city", "monastery"]
    pay: list[str]


class Hire(TaggedCommand, tag="hire"):
    """§4.6.1: hire an unhired mercenary where your troops stand."""

    unit: int
    pay: str


class RaiseRegular(TaggedCommand, tag="raise-regular"):
    """§4.6.2: one iron and one of any resource for a regular in a province you own."""

    province: str
    pay: list[str]


class RaisePeasants(TaggedCommand, tag="raise-peasants"):
    """§4.6.3: one resource: peasants equal to the province's carrying capacity."""

    province: str
    pay: str


class BoatPlace(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    province: str
    sea: str


class RaiseBoats(TaggedCommand, tag="raise-boats"):
    """§4.6.4: one resource: two boats in one province or one boat in each of two."""

    places: list[BoatPlace]
    pay: str


class PeasantToBoat(TaggedCommand, tag="peasant-to-boat"):
    """§4.6.4: replace a peasant counter with a boat."""

    unit: int
    sea: str


class RaiseMonk(TaggedCommand, tag="raise-monk"):
    """§12.1 (option): two resources for a warrior monk; one per monastery owned."""

    province: str
    pay: list[str]


class Convert(TaggedCommand, tag="convert"):
    """§5: convert from Paganism to Christianity or back."""


class Move(TaggedCommand, tag="move"):
    """§7: move a group of your units (together, e.g. a boat and what it carries) along ``path``."""

    units: list[int]
    path: list[str]


class ForcedMarch(TaggedCommand, tag="forced-march"):
    """§11 54: your units at ``location`` gain one movement point."""

    location: str


class Declare(TaggedCommand, tag="declare"):
    """§8: state whether your troops in a non-friendly province RAID or INVADE (paying one
    resource)."""

    province: str
    action: Literal["raid", "invade"]
    pay: str | None = None


SaxonCommand = (
    Choose | Done | Offer | PlaceTrade | Improve | Hire | RaiseRegular | RaisePeasants | RaiseBoats
    | PeasantToBoat | RaiseMonk | Convert | Move | ForcedMarch | Declare
)


