"""Day of Battle commands: one tagged union (tag field ``type``, kebab-case; fields snake_case).

Units and leaders are named ``seat/id`` (``"crusaders/knights-bohemond"``). Positions and
ranges are inches, as the players measure them on the table and declare them.
"""

from __future__ import annotations

from typing import Literal

import msgspec


class _Command(msgspec.Struct, frozen=True, tag_field="type", forbid_unknown_fields=True):
    pass


class DrawLeader(_Command, tag="draw-leader"):
    """Draw a leader's social rank (1-4, or the Western table) and his other attributes."""

    leader: str


class InitiateScouting(_Command, tag="initiate-scouting"):
    """1-7: only the Byzantine army may initiate scouting as a pre-battle function."""


class DeclineScouting(_Command, tag="decline-scouting"):
    """The Byzantine player does not opt for scouting."""


class Deploy(_Command, tag="deploy"):
    """Place a unit: ``x`` inches from the army's left flank edge, ``y`` inches from its rear edge."""

    unit: str
    x: float
    y: float


class FinishDeployment(_Command, tag="finish-deployment"):
    """Every unit of the army is on the table."""


class BeginMove(_Command, tag="begin-move"):
    """Start the game move: each leader's initiative die and command cards."""


class Move(_Command, tag="move"):
    """A manoeuvre: the unit moves to (x, y), in its own army's frame. A Note 8 unit may fire its
    skirmish weapons before or after (``fire_at``, ``fire_range_inches``, ``fire_when``)."""

    unit: str
    x: float
    y: float
    fire_at: str | None = None
    fire_range_inches: float | None = None
    fire_when: Literal["before", "after"] = "after"


class ChangeFormation(_Command, tag="change-formation"):
    unit: str
    formation: Literal["line", "column", "square", "wedge"]


class Fire(_Command, tag="fire"):
    """The unit fires on ``target`` (an exchange of fire: the target may return fire).
    ``in_open``: the exchange is in the open; ``modifiers``: other modifiers the players agree,
    added after the weapon bonus."""

    unit: str
    target: str
    range_inches: float
    in_open: bool = True
    modifiers: dict[str, int] = {}


class ReturnFire(_Command, tag="return-fire"):
    """The target of a fire returns it (a reaction: its leader incurs the (-) distraction)."""

    modifiers: dict[str, int] = {}


class HoldFire(_Command, tag="hold-fire"):
    """The target of a fire does not return it."""


class Charge(_Command, tag="charge"):
    """A manoeuvre: charge ``target``. ``caught_in_one_normal_move``: the players measure whether
    the charger reaches the target in one normal move (1-10). A Note 8 charger may fire before
    contact (``fire_before_contact``)."""

    unit: str
    target: str
    caught_in_one_normal_move: bool
    from_front: bool = True
    attached_leader: str | None = None
    fire_before_contact: bool = False


class FallBack(_Command, tag="fall-back"):
    """1-10 A: horse archers fall back directly away from the charger."""

    how: Literal["15-inches-away", "into-rough-or-difficult-terrain", "through-supporting-friend-in-good-order"]


class TerrainCheck(_Command, tag="terrain-check"):
    """1-10 B: horse archers caught in one normal move make a terrain check."""


class DefensiveFire(_Command, tag="defensive-fire"):
    """1-8: a skirmish-weapon unit charged may fire before the combat (with the (-) penalty)."""

    attached_leader: str | None = None


class Stand(_Command, tag="stand"):
    """The target of a charge stands and receives it."""

    attached_leader: str | None = None


class Dismount(_Command, tag="dismount"):
    """1-3: knights who began mounted dismount, once; the horse holders placed within 3"."""

    unit: str
    horse_holders_x: float
    horse_holders_y: float


class ContactHorseHolders(_Command, tag="contact-horse-holders"):
    """1-3: an enemy unit contacts the horse holders, who are lost."""

    unit: str
    horse_holders: str


class EndMove(_Command, tag="end-move"):
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


class EndOfBattle(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    winner: str | None = None  # a seat (its side wins), or None for a draw
    reason: str = ""


class ProposeRuling(_Command, tag="propose-ruling"):
    """A free, recorded ruling where the core rules are not in the record: what the umpire (or
    the players together) decided, with its effects as structured fields. Recorded once every
    other seat accepts it."""

    topic: Literal["combat-result", "response", "morale", "honour", "casualties", "end-of-battle", "other"]
    rule: str
    decision: str
    ruled_by: Literal["umpire", "players"] = "players"
    honour: list[HonourDeed] = []
    conditions: list[UnitCondition] = []
    casualties: list[Casualties] = []
    end: EndOfBattle | None = None


class AcceptRuling(_Command, tag="accept-ruling"):
    number: int


class RejectRuling(_Command, tag="reject-ruling"):
    number: int


DobCommand = (
    DrawLeader | InitiateScouting | DeclineScouting | Deploy | FinishDeployment | BeginMove | Move
    | ChangeFormation | Fire | ReturnFire | HoldFire | Charge | FallBack | TerrainCheck | DefensiveFire | Stand
    | Dismount | ContactHorseHolders | EndMove | ProposeRuling | AcceptRuling | RejectRuling
)
