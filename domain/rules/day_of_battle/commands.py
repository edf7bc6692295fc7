"""Day of Battle commands: one tagged union (tag field ``type``, kebab-case; fields snake_case).

Units and leaders are named ``seat/id`` (``"crusaders/knights-bohemond"``). Positions and
ranges are inches, as the players measure them on the table and declare them.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.rules.base import TaggedCommand


class DrawLeader(TaggedCommand, tag="draw-leader"):
    """Draw a leader's social rank (1-4, or the Western table) and his other attributes."""

    leader: str


class InitiateScouting(TaggedCommand, tag="initiate-scouting"):
    """1-7: only the Byzantine army may initiate scouting as a pre-battle function."""


class DeclineScouting(TaggedCommand, tag="decline-scouting"):
    """The Byzantine player does not opt for scouting."""


class Deploy(TaggedCommand, tag="deploy"):
    """Place a unit: ``x`` inches from the army's left flank edge, ``y`` inches from its rear edge."""

    unit: str
    x: float
    y: float


class FinishDeployment(TaggedCommand, tag="finish-deployment"):
    """Every unit of the army is on the table."""


class BeginMove(TaggedCommand, tag="begin-move"):
    """Start the game move: each leader's initiative die and command cards."""


class _Manoeuvre(TaggedCommand, kw_only=True):
    """1-8: a Note 8 unit may fire its skirmish weapons, free, before or after a manoeuvre
    (``fire_at`` the target, ``fire_range_inches``, ``fire_when``); ``fire_in_open`` and
    ``fire_modifiers`` (reason → value, added after the weapon bonus) as for an order to fire."""

    fire_at: str | None = None
    fire_range_inches: float | None = None
    fire_when: Literal["before", "after"] = "after"
    fire_in_open: bool = True
    fire_modifiers: dict[str, int] = {}


class Move(_Manoeuvre, tag="move"):
    """A manoeuvre: the unit moves to (x, y), in its own army's frame (free fire: 1-8)."""

    unit: str
    x: float
    y: float


class ChangeFormation(_Manoeuvre, tag="change-formation"):
    """A manoeuvre: the unit changes formation (free fire: 1-8 lists "change formation")."""

    unit: str
    formation: Literal["line", "column", "square", "wedge"]


class Fire(TaggedCommand, tag="fire"):
    """The unit fires on ``target`` (an exchange of fire: the target may return fire).
    ``in_open``: the exchange is in the open; ``modifiers``: other modifiers the players agree,
    added after the weapon bonus."""

    unit: str
    target: str
    range_inches: float
    in_open: bool = True
    modifiers: dict[str, int] = {}


class ReturnFire(TaggedCommand, tag="return-fire"):
    """The target of a fire returns it (a reaction: its leader incurs the (-) distraction)."""

    modifiers: dict[str, int] = {}


class HoldFire(TaggedCommand, tag="hold-fire"):
    """The target of a fire does not return it."""


class Charge(TaggedCommand, tag="charge"):
    """A manoeuvre: charge ``target``. ``caught_in_one_normal_move``: the players measure whether
    the charger reaches the target in one normal move (1-10). ``x``, ``y``: where the charger
    ends its charge (in contact, or where it stops), in its army's frame (required since 2.0.0).
    A Note 8 charger may fire before contact (``fire_before_contact``, with ``fire_in_open`` and
    ``fire_modifiers``)."""

    unit: str
    target: str
    caught_in_one_normal_move: bool
    from_front: bool = True
    attached_leader: str | None = None
    fire_before_contact: bool = False
    x: float | None = None
    y: float | None = None
    fire_in_open: bool = True
    fire_modifiers: dict[str, int] = {}


class FallBack(TaggedCommand, tag="fall-back"):
    """1-10 A: horse archers fall back directly away from the charger (``how``); any other unit
    falls back as the core chart allows (players' statement). ``x``, ``y``: where it stands
    after, in its army's frame (required since 2.0.0)."""

    how: Literal["15-inches-away", "into-rough-or-difficult-terrain",
                 "through-supporting-friend-in-good-order"] | None = None
    x: float | None = None
    y: float | None = None


class Evade(TaggedCommand, tag="evade"):
    """The target of a charge evades to (x, y) (core rules: players' statement)."""

    x: float
    y: float


class CounterCharge(TaggedCommand, tag="counter-charge"):
    """The target of a charge charges the charger in turn and they meet (core rules: players'
    statement); both enter combat."""

    attached_leader: str | None = None


class TerrainCheck(TaggedCommand, tag="terrain-check"):
    """1-10 B: horse archers caught in one normal move make a terrain check; failing, they stand
    and fire (``in_open``, ``modifiers`` for that fire)."""

    in_open: bool = True
    modifiers: dict[str, int] = {}


class DefensiveFire(TaggedCommand, tag="defensive-fire"):
    """1-8: a skirmish-weapon unit charged may fire before the combat (with the (-) penalty)."""

    attached_leader: str | None = None
    in_open: bool = True
    modifiers: dict[str, int] = {}


class Stand(TaggedCommand, tag="stand"):
    """The target of a charge stands and receives it."""

    attached_leader: str | None = None


class Fight(TaggedCommand, tag="fight"):
    """A unit in combat rolls its combat dice (core rules: players' statement): the players state
    its ``dice`` and the ``target_number`` (a die equal to or under it hits) and the
    ``modifiers`` that number includes (reason → value, for the record). Herald rolls, halving
    the dice (rounding down) when 1-10 has the unit fight with half dice."""

    unit: str
    dice: int
    target_number: int
    modifiers: dict[str, int] = {}


class Dismount(TaggedCommand, tag="dismount"):
    """1-3: knights who began mounted dismount, once; the horse holders placed within 3"."""

    unit: str
    horse_holders_x: float
    horse_holders_y: float


class ContactHorseHolders(TaggedCommand, tag="contact-horse-holders"):
    """1-3: an enemy unit contacts the horse holders, who are lost."""

    unit: str
    horse_holders: str


class EndMove(TaggedCommand, tag="end-move"):
    """End the game move; the next army moves."""


class HonourDeed(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    leader: str
    deed: str


class UnitCondition(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    unit: str
    condition: Literal["good-order", "disordered", "routed", "lost"]


class Casualties(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    unit: str
    figures: int


class StatedRoll(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A roll the core rules call for (core rules: players' statement): ``purpose``, the
    ``unit`` it is for, its ``dice`` and ``target_number`` (a die equal to or under it
    succeeds) and the ``modifiers`` that number includes (reason → value, for the record)."""

    purpose: Literal["morale", "rally", "order-test", "combat", "personal-combat", "other"]
    unit: str
    dice: int
    target_number: int
    modifiers: dict[str, int] = {}


class LeaderFate(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    leader: str
    fate: Literal["killed", "captured"]


class EndOfBattle(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    winner: str | None = None  # a seat (its side wins), or None for a draw
    reason: str = ""


class ProposeRuling(TaggedCommand, tag="propose-ruling"):
    """A free, recorded ruling where the core rules are not in the record: what the umpire (or
    the players together) decided, with its effects as structured fields. Recorded once every
    other seat accepts it; then Herald rolls its ``rolls`` (the players' statement of a roll the
    core rules call for) and records them, and its ``leaders`` are killed or captured."""

    topic: Literal["combat-result", "response", "morale", "honour", "casualties", "end-of-battle", "other"]
    rule: str
    decision: str
    ruled_by: Literal["umpire", "players"] = "players"
    honour: list[HonourDeed] = []
    conditions: list[UnitCondition] = []
    casualties: list[Casualties] = []
    end: EndOfBattle | None = None
    rolls: list[StatedRoll] = []
    leaders: list[LeaderFate] = []


class AcceptRuling(TaggedCommand, tag="accept-ruling"):
    number: int


class RejectRuling(TaggedCommand, tag="reject-ruling"):
    number: int


DayOfBattleCommand = (
    DrawLeader | InitiateScouting | DeclineScouting | Deploy | FinishDeployment | BeginMove | Move
    | ChangeFormation | Fire | ReturnFire | HoldFire | Charge | FallBack | Evade | CounterCharge | TerrainCheck
    | DefensiveFire | Stand | Fight | Dismount | ContactHorseHolders | EndMove | ProposeRuling | AcceptRuling | RejectRuling
)


# -- 1.0.0's commands ---------------------------------------------------------------------------------------------
ADDED_IN_2: dict[str, tuple[str, ...]] = {
    "move": ("fire_in_open", "fire_modifiers"),
    "change-formation": ("fire_at", "fire_range_inches", "fire_when", "fire_in_open", "fire_modifiers"),
    "charge": ("x", "y", "fire_in_open", "fire_modifiers"),
    "fall-back": ("x", "y"),
    "terrain-check": ("in_open", "modifiers"),
    "defensive-fire": ("in_open", "modifiers"),
    "propose-ruling": ("rolls", "leaders"),
}
NEW_IN_2 = ("evade", "counter-charge", "fight")


def recorded(command: msgspec.Struct, edition: int) -> dict:
    """The command as ``DecisionTaken`` (and a proposed ruling) records it: under 1.0.0 without
    the fields 2.0.0 added, so that 1.0.0's records replay byte for byte."""
    data = msgspec.to_builtins(command)
    if edition == 1:
        for name in ADDED_IN_2.get(data["type"], ()):
            data.pop(name, None)
    return data


def beyond_1(command: msgspec.Struct) -> str | None:
    """What in ``command`` 1.0.0 did not have (a command type, or a field not at its default)."""
    tag = command.__struct_config__.tag
    if tag in NEW_IN_2:
        return f"the command {tag}"
    for field in msgspec.structs.fields(command):
        if field.name in ADDED_IN_2.get(tag, ()) and getattr(command, field.name) != (
                field.default if field.default is not msgspec.NODEFAULT else field.default_factory()):
            return f"the field {field.name} of {tag}"
    return None
