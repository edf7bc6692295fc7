"""The Day of Battle game state: frozen Structs, changed only by :mod:`.evolve`.

Units and leaders are keyed ``seat/id`` (two armies may both field "spearmen"). The deck is the
shared 54-card deck: the state keeps the last recorded shuffle and the cards drawn since; its
order is never stored (docs/DECISIONS.md, "Deck orders are never stored").
"""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.events import CardsShuffled, Outcome
from domain.rules.day_of_battle.data import Dismounted, Weapon

Phase = Literal["leaders", "deployment", "battle", "over"]
Condition = Literal["good-order", "disordered", "routed", "lost"]


class Unit(msgspec.Struct, frozen=True):
    id: str  # seat/unit
    seat: str
    name: str
    troop_type: str
    figures_per_cos: int
    figures: int
    combat_value: int
    leader: str  # seat/leader
    weapon: str | None = None
    arms: Weapon | None = None  # the weapon's line of the chart the battle uses (1-9, or the owner's)
    note8: bool = False
    skirmish: bool = False
    eastern_spearmen: bool = False
    mounted: bool = False
    may_dismount: bool = False
    dismounted: bool = False
    horse_holders_of: str | None = None
    x: float | None = None
    y: float | None = None
    formation: str = "line"
    condition: Condition = "good-order"
    half_dice_in_fight: bool = False
    dismounted_as: Dismounted | None = None  # the profile's dismounted statistics (1-3)

    @property
    def cos(self) -> int:
        """Cos. still standing: a part-filled Cos. still rolls its die."""
        return -(-self.figures // self.figures_per_cos)

    @property
    def deployed(self) -> bool:
        return self.x is not None


class Skills(msgspec.Struct, frozen=True, kw_only=True):
    """A leader's attributes drawn for him (1-4), None until drawn: what his own seat sees of
    him beside the public ones (the state's :class:`Leader` and the view's ``LeaderView``)."""

    esteem: int | None = None
    household: int | None = None
    motivation: str | None = None
    initiative: int | None = None
    morale: int | None = None
    combat: int | None = None
    personal_combat: int | None = None


class Leader(Skills, frozen=True):
    id: str  # seat/leader
    seat: str
    name: str
    eastern: bool
    fixed_rank: int | None = None  # the profile fixes it; else it is drawn (1-4)
    social_rank: int | None = None
    title: str | None = None
    drawn: bool = False
    command_points: int = 0
    command_cards: tuple[str, ...] = ()
    distraction: int = 0  # (-) modifiers owed to the next initiative roll (1-8)
    honour: int = 0
    lost: str | None = None  # "killed" or "captured" (a ruling): no initiative, cards or orders


class Charge(msgspec.Struct, frozen=True):
    charger: str
    target: str
    caught: bool
    from_front: bool
    attached_leader: str | None = None
    terrain_check: bool | None = None  # a caught horse archer unit's terrain check, once taken
    fire: tuple[bool, tuple[tuple[str, int], ...]] | None = None  # fire before contact owed: in_open, modifiers


class Melee(msgspec.Struct, frozen=True):
    """A combat joined by a charge: the units in it (charger first), those with half dice, and
    those that have rolled their combat dice."""

    units: tuple[str, ...]
    half_dice: tuple[str, ...] = ()
    rolled: tuple[str, ...] = ()


class PendingFire(msgspec.Struct, frozen=True):
    exchange: int
    firer: str
    target: str
    range_inches: float
    in_open: bool
    modifiers: tuple[tuple[str, int], ...] = ()


class Ruling(msgspec.Struct, frozen=True):
    number: int
    proposed_by: str
    proposal: dict  # the propose-ruling command as accepted
    accepted: tuple[str, ...] = ()


class Army(msgspec.Struct, frozen=True):
    id: str
    name: str
    edge: str
    western: bool
    eastern: bool
    handicap: int
    points: int


class DayOfBattleState(msgspec.Struct, frozen=True):
    scenario: str
    seats: tuple[str, ...]
    armies: dict[str, Army]
    width_feet: int
    units: dict[str, Unit]
    leaders: dict[str, Leader]
    phase: Phase = "leaders"
    edition: int = 2  # 1: the rules of version 1.0.0, kept for its records (engine ``at_version``)
    shuffle: CardsShuffled | None = None
    shuffles: int = 0
    out: tuple[str, ...] = ()  # cards drawn since the last shuffle
    scouting: dict[str, int] | None = None
    deployed: tuple[str, ...] = ()  # seats that have finished deploying
    move: int = 0
    mover: str | None = None
    move_begun: bool = False
    exchanges: int = 0
    fire: PendingFire | None = None
    charge: Charge | None = None
    melee: Melee | None = None
    fired: tuple[str, ...] = ()  # units given an order to fire this game move (1-8: either or)
    free_fired: tuple[str, ...] = ()  # units that fired freely with a manoeuvre this game move
    ruling: Ruling | None = None
    rulings: int = 0
    result: Outcome | None = None

    @property
    def width_inches(self) -> int:
        return self.width_feet * 12

    def opponents(self, seat: str) -> list[str]:
        edge = self.armies[seat].edge
        return [s for s in self.seats if self.armies[s].edge != edge]
