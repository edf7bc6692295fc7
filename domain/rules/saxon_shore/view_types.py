"""The shape of Saxon Shore's view (view.py ``view``), for the OpenAPI contract. Counters,
the open prompt, the battle and the options are the model's own types, as the view sends them."""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.events import Outcome
from domain.rules.saxon_shore.state import Battle, Options, Prompt, Unit


class TradeView(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    seat: str | None
    resource: str


class ProvinceView(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    owner: str | None
    castle: bool
    population: int
    capacity: int
    produces: list[str]
    morale: Literal["low", "normal", "high"]
    ravage: int
    improvements: list[str]
    trade: TradeView | None
    troops: list[Unit]


class KingView(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    province: str
    quality: int


class PlayerView(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    alive: bool
    religion: Literal["christian", "pagan"]
    resources: dict[str, int]
    paths: dict[str, int]
    king: KingView | None
    boats: int
    provinces: int
    cards: list[str]


class SeaZoneView(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    units: list[Unit]
    storm: bool


class View(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The whole board: everything in Saxon Shore is open."""

    turn: int
    phase: str
    stage: int
    order: list[str]
    to_act: list[str]
    prompt: Prompt | None
    provinces: dict[str, ProvinceView]
    players: dict[str, PlayerView]
    sea_zones: dict[str, SeaZoneView]
    battle: Battle | None
    options: Options
    outcome: Outcome | None
