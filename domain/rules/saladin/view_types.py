"""The shape of Saladin's view (view.py ``view``), for the OpenAPI contract."""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.events import Outcome
from domain.rules.saladin.state import Fate, Options, Pending, Phase


class TrackSlot(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    slot: int
    marker: str | None  # "+1", "give" or nothing
    lance: bool  # a lance still stands on it


class ActionView(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    id: str
    name: str
    cost: int  # with the surcharge
    status: str
    ordered: bool


class BannerView(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    id: str
    name: str
    side: str
    card: str
    card_side: Literal["ordered", "deployed"]
    status: str
    engaged: list[str]
    fate: Fate
    location: str
    lances: dict[str, int]  # per location of the banner
    track: list[TrackSlot]
    surcharge: int
    actions: list[ActionView]


class OrdersView(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    available: int
    spent: int
    box: int
    in_arsuf: int
    unused: int


class LeaderView(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    id: str
    name: str
    card_side: Literal["ordered", "deployed"]
    used: list[str]


class SideView(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    orders: OrdersView
    losses_track: int
    lances_boxed: int
    leader: LeaderView
    passed: bool
    captured_banners: list[str]


class CardData(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    source: Literal["reconstruction", "owner"]
    data_hash: str
    options: Options


class View(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The whole board: nothing in Saladin is hidden."""

    scenario: str
    turn: int
    phase: Phase
    to_act: str | None
    initiative: str | None
    banners: list[BannerView]
    sides: dict[str, SideView]
    arsuf_lances: int | None
    markers: dict[str, str]
    horns: bool
    horns_required: bool
    pending: Pending | None
    outcome: Outcome | None
    card_data: CardData
