"""State, commands and rule events of Saxon Shore: frozen msgspec Structs.

State is compact (it is cached and folded often): provinces and players keyed by name,
units keyed by id. The turn's control flow (the job queue and the one open prompt) is
state too, written by :class:`Flow` at the end of every decision.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec

from domain.events import EventData, Outcome, event_type

Res = tuple[int, int, int, int, int]  # wheat, wool, iron, gold, slaves
Resource = Literal["wheat", "wool", "iron", "gold", "slaves"]
Tokens = dict[Resource, Annotated[int, msgspec.Meta(ge=0)]]
NO_RES: Res = (0, 0, 0, 0, 0)


# -- state ------------------------------------------------------------------------------------
class Province(msgspec.Struct, frozen=True, omit_defaults=True):
    """One of the 36 provinces: owner (castle), morale (-1 low, 0, +1 high), ravage,
    improvements, the resource placed in its city for trade, and per-turn marks."""

    owner: str | None = None
    morale: int = 0
    ravage: int = 0
    road: bool = False
    wall: bool = False
    city: bool = False
    monastery: bool = False
    trade_seat: str | None = None
    trade_res: str | None = None
    traded: bool = False  # a trade was made in this city before (§4.2 "first trade": -1)
    famine: bool = False  # §11 25, this turn
    peasants: bool = False  # nominated for peasants this turn (§4.6.3)
    morale_bought: bool = False  # morale increased by payment this turn (§4.5)


class Unit(msgspec.Struct, frozen=True, omit_defaults=True):
    """A counter on the map. ``owner`` None: neutral (unhired mercenary, neutral regular).
    ``loc`` a province or sea zone; ``coast`` the sea zone a boat in a province lies on;
    ``mp`` movement points left this movement phase (-1: halted, §7)."""

    id: int
    kind: str  # king regular knight berserker monk mercenary peasant boat
    owner: str | None
    loc: str
    quality: int = 0  # kings: -1, 0, +1, +2
    coast: str | None = None
    mp: int = 0


class Player(msgspec.Struct, frozen=True, omit_defaults=True):
    """A kingdom: religion, resource tokens, paths (§11 12-15) and cards held this turn."""

    christian: bool = False
    res: Res = NO_RES
    paths: tuple[int, int, int] = (0, 0, 0)  # mountain, forest, marsh
    forced_march: bool = False
    chainmail: bool = False
    heresy: bool = False
    bumper: bool = False
    alive: bool = True
    offers: int = 0


class Job(msgspec.Struct, frozen=True, omit_defaults=True):
    """A step of the turn still to run."""

    kind: str
    seat: str | None = None
    prov: str | None = None
    n: int = 0
    args: tuple[str, ...] = ()


class Prompt(msgspec.Struct, frozen=True, omit_defaults=True):
    """The one decision the game waits for: ``phase`` prompts take phase commands,
    every other kind takes ``choose`` with one of ``options``."""

    kind: str
    seat: str
    options: tuple[str, ...] = ()
    prov: str | None = None
    n: int = 0
    args: tuple[str, ...] = ()


class Battle(msgspec.Struct, frozen=True, omit_defaults=True):
    """A battle on the battle matrix (§8.2) in progress."""

    prov: str
    mode: str  # invasion | invaders | rebels
    attacker: str  # a seat, or "rebels"
    defender: str | None  # a seat, None for a neutral province (or the earlier invader)
    att: tuple[int, ...] = ()
    dfn: tuple[int, ...] = ()
    militia: int = 0
    militia_strength: int = 2
    rebels: int = 0
    round: int = 0
    in_city: bool = False
    att_lift: str = ""  # the king's move each side chose this round (§8.2, §12.3)
    dfn_lift: str = ""


class Options(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """Game options: the §12 optional rules, and a house rule a group may set (a turn limit:
    off by default; the book's only endings are the four of §1)."""

    warrior_monks: bool = False
    city_defences: bool = False
    feeble_rulers: bool = False
    turn_limit: int | None = None
    map: dict[str, Any] | None = None  # the owner's printed map, in map.json's form (checked at creation)


class SaxonState(msgspec.Struct, frozen=True):
    seats: tuple[str, ...]
    order: tuple[str, ...]
    options: Options
    provinces: dict[str, Province]
    players: dict[str, Player]
    units: dict[int, Unit] = {}
    next_unit: int = 1
    turn: int = 0
    phase: str = "setup"
    stage: int = 0
    jobs: tuple[Job, ...] = ()
    prompt: Prompt | None = None
    battle: Battle | None = None
    storms: tuple[str, ...] = ()
    declared: tuple[tuple[str, str, str], ...] = ()  # (seat, province, raid|invade)
    won: Outcome | None = None  # a §1 victory, recorded by Flow when a decision achieves it
    ended: Outcome | None = None  # the turn limit
    board: Any = None  # the map this game is played on (board.Board): ours, or the owner's given at creation


# -- commands ---------------------------------------------------------------------------------
class _Cmd(msgspec.Struct, frozen=True, tag_field="type", forbid_unknown_fields=True):
    pass


class Choose(_Cmd, tag="choose"):
    """Answer the open prompt with one of its options."""

    option: str


class Done(_Cmd, tag="done"):
    """End your part of the current phase."""


class Offer(_Cmd, tag="offer"):
    """§4.3: offer another player resource tokens "in any combination": ``give`` what you hand
    over, ``take`` what you ask for (either may be empty: a gift, a request); they accept or
    decline."""

    to: str
    give: Tokens = {}
    take: Tokens = {}


class PlaceTrade(_Cmd, tag="place_trade"):
    """§4.4: place one resource in a city for trade."""

    province: str
    resource: str


class Improve(_Cmd, tag="improve"):
    """§4.5: pay for an improvement in a province you own."""

    province: str
    improvement: Literal["morale", "ravage", "road", "wall", "city", "monastery"]
    pay: list[str]


class Hire(_Cmd, tag="hire"):
    """§4.6.1: hire an unhired mercenary where your troops stand."""

    unit: int
    pay: str


class RaiseRegular(_Cmd, tag="raise_regular"):
    """§4.6.2: one iron and one of any resource for a regular in a province you own."""

    province: str
    pay: list[str]


class RaisePeasants(_Cmd, tag="raise_peasants"):
    """§4.6.3: one resource: peasants equal to the province's carrying capacity."""

    province: str
    pay: str


class BoatPlace(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    province: str
    sea: str


class RaiseBoats(_Cmd, tag="raise_boats"):
    """§4.6.4: one resource: two boats in one province or one boat in each of two."""

    places: list[BoatPlace]
    pay: str


class PeasantToBoat(_Cmd, tag="peasant_to_boat"):
    """§4.6.4: replace a peasant counter with a boat."""

    unit: int
    sea: str


class RaiseMonk(_Cmd, tag="raise_monk"):
    """§12.1 (option): two resources for a warrior monk; one per monastery owned."""

    province: str
    pay: list[str]


class Convert(_Cmd, tag="convert"):
    """§5: convert from Paganism to Christianity or back."""


class Move(_Cmd, tag="move"):
    """§7: move a group of your units (together, e.g. a boat and what it carries) along ``path``."""

    units: list[int]
    path: list[str]


class ForcedMarch(_Cmd, tag="forced_march"):
    """§11 54: your units at ``location`` gain one movement point."""

    location: str


class Declare(_Cmd, tag="declare"):
    """§8: state whether your troops in a non-friendly province RAID or INVADE (paying one
    resource)."""

    province: str
    action: Literal["raid", "invade"]
    pay: str | None = None


SaxonCommand = (
    Choose | Done | Offer | PlaceTrade | Improve | Hire | RaiseRegular | RaisePeasants | RaiseBoats
    | PeasantToBoat | RaiseMonk | Convert | Move | ForcedMarch | Declare
)


# -- rule events: each carries its effect; evolve only assigns ---------------------------------
@event_type("saxon-shore.ProvinceSet")
class ProvinceSet(EventData, frozen=True):
    name: str
    province: Province
    why: str = ""


@event_type("saxon-shore.PlayerSet")
class PlayerSet(EventData, frozen=True):
    seat: str
    player: Player
    why: str = ""


@event_type("saxon-shore.UnitsSet")
class UnitsSet(EventData, frozen=True):
    """Units placed, moved or changed (the new records); ``removed`` ids leave the map."""

    units: list[Unit] = []
    removed: list[int] = []
    why: str = ""


@event_type("saxon-shore.TurnBegan")
class TurnBegan(EventData, frozen=True):
    turn: int
    order: list[str]


@event_type("saxon-shore.EventDrawn")
class EventDrawn(EventData, frozen=True):
    """§3.3/§11: the two-dice random event a player drew."""

    seat: str
    number: int
    title: str


@event_type("saxon-shore.Resolved")
class Resolved(EventData, frozen=True):
    """A narrative record of a resolution (raid, battle round, trade roll...): no state change."""

    what: str
    seat: str | None = None
    province: str | None = None
    detail: dict[str, int | str] = {}


@event_type("saxon-shore.BattleSet")
class BattleSet(EventData, frozen=True):
    battle: Battle | None


@event_type("saxon-shore.Flow")
class Flow(EventData, frozen=True):
    """The control state after a decision: phase, jobs still to run, the open prompt."""

    phase: str
    stage: int
    jobs: list[Job]
    prompt: Prompt | None
    storms: list[str]
    won: Outcome | None = None


@event_type("saxon-shore.Declared")
class Declared(EventData, frozen=True):
    """§8 combat declarations of this movement-and-combat stage so far (raid or invade)."""

    declared: list[tuple[str, str, str]]


@event_type("saxon-shore.GameDecided")
class GameDecided(EventData, frozen=True):
    """A house-rule turn limit ended the game: ``rulebook_victory`` is False, so a tournament
    can tell such a result from a §1 victory."""

    outcome: Outcome
    house_rule: str = "turn limit"
    rulebook_victory: bool = False
