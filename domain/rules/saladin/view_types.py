"""The shape of Saladin's view (view.py ``view`` builds these), for the OpenAPI contract.

A view type shows some fields of a state or data Struct as they are and adds its own: each is
made by :func:`shown`, which takes a field named alone from that Struct (its one definition,
type included) and a ``(name, type)`` pair as the view's own, in the order the view prints them.
"""

from __future__ import annotations

import typing
from typing import Any, Literal

import msgspec

from domain.events import Outcome
from domain.rules.saladin.data import Action, Leader
from domain.rules.saladin.state import BannerState, SaladinState, SideState

CardSide = Literal["ordered", "deployed"]


def shown(name: str, source: type[msgspec.Struct], fields: list[str | tuple[str, Any]], doc: str = "") -> Any:
    """A frozen view Struct ``name``: a field named alone is ``source``'s, with its type; a
    ``(name, type)`` pair is the view's own."""
    hints = typing.get_type_hints(source)
    spec = [(f, hints[f]) if isinstance(f, str) else f for f in fields]
    view_type = msgspec.defstruct(name, spec, frozen=True, forbid_unknown_fields=True, module=__name__)
    view_type.__doc__ = doc or None
    return view_type


class TrackSlot(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    slot: int
    marker: str | None  # "+1", "give" or nothing
    lance: bool  # a lance still stands on it


ActionView = shown("ActionView", Action, [
    "id", "name", ("cost", int), "status", "ordered"])  # cost: with the surcharge

BannerView = shown("BannerView", BannerState, [
    "id", ("name", str), "side", "card", ("card_side", CardSide), "status", ("engaged", list[str]), "fate",
    "location",
    ("lances", dict[str, int]),  # per location of the banner
    ("track", list[TrackSlot]), ("surcharge", int), ("actions", list[ActionView])])

OrdersView = shown("OrdersView", SideState, [
    "available", "spent", ("box", int), ("in_arsuf", int), "unused"])

LeaderView = shown("LeaderView", Leader, ["id", "name", ("card_side", CardSide), ("used", list[str])])

SideView = shown("SideView", SideState, [
    ("orders", OrdersView), ("losses_track", int), "lances_boxed", ("leader", LeaderView), "passed",
    ("captured_banners", list[str])])

CardData = shown("CardData", SaladinState, [
    ("source", Literal["reconstruction", "owner"]), ("data_hash", str), "options"])

View = shown("View", SaladinState, [
    "scenario", "turn", "phase", ("to_act", str | None), "initiative", ("banners", list[BannerView]),
    ("sides", dict[str, SideView]), ("arsuf_lances", int | None), "markers", "horns", ("horns_required", bool),
    "pending", ("outcome", Outcome | None), ("card_data", CardData)],
    doc="The whole board: nothing in Saladin is hidden.")
