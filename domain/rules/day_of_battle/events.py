"""Day of Battle's own events, in the rulebook's words. Each carries what it changes, so
:mod:`.evolve` only assigns. Secret ones (the cards a leader draws for his attributes and
his command, his initiative roll) are read by the drawing seat only (engine ``readers``)."""

from __future__ import annotations

from typing import Any

import msgspec

from domain.events import EventData, Outcome, event_type

P = "day-of-battle."


class Modifier(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One step of a combat value's modification, in the order applied: ``add`` a value or
    ``halve`` (rounding down)."""

    reason: str
    add: int = 0
    halve: bool = False


@event_type(P + "SocialRankDrawn")
class SocialRankDrawn(EventData):
    """1-4 (Eastern) or the core table (Western): the card(s) drawn and the rank they give;
    ``cards`` holds every card drawn (a Western Joker is drawn again). Public."""

    leader: str
    cards: list[str]
    table: str  # "eastern" or "western"
    title: str
    social_rank: int


@event_type(P + "SocialRankSet")
class SocialRankSet(EventData):
    """A leader whose social rank the Army Profile fixes (a scenario names it)."""

    leader: str
    title: str
    social_rank: int


@event_type(P + "LeaderAttributesDrawn")
class LeaderAttributesDrawn(EventData):
    """Esteem, household, motivation and the four skills, each from its card. Sealed for the seat."""

    leader: str
    seat: str
    esteem_card: str
    esteem: int
    household: int
    motivation_card: str
    motivation: str
    skill_cards: dict[str, str]
    initiative: int
    morale: int
    combat: int
    personal_combat: int


@event_type(P + "LeaderReady")
class LeaderReady(EventData):
    """Public: the leader's attributes are drawn (which, only his seat reads)."""

    leader: str
    seat: str


@event_type(P + "ScoutingResolved")
class ScoutingResolved(EventData):
    """1-7: the Byzantine player opts for scouting; each army's scouting points from a card,
    the opponents' halved (rounding down)."""

    by: str
    cards: dict[str, str]
    points: dict[str, int]
    halved: list[str]


@event_type(P + "ScoutingDeclined")
class ScoutingDeclined(EventData):
    by: str


@event_type(P + "UnitDeployed")
class UnitDeployed(EventData):
    unit: str
    x: float
    y: float
    zone: str


@event_type(P + "DeploymentFinished")
class DeploymentFinished(EventData):
    seat: str


@event_type(P + "MoveBegan")
class MoveBegan(EventData):
    seat: str
    move: int


@event_type(P + "InitiativeChecked")
class InitiativeChecked(EventData):
    """The leader's initiative die at the start of his game move: the roll plus distraction
    modifiers (1-8), passed when equal to or under his initiative skill. Sealed for the seat."""

    leader: str
    seat: str
    roll: int
    distraction: int
    total: int
    initiative: int
    passed: bool


@event_type(P + "CommandCardsCounted")
class CommandCardsCounted(EventData):
    """Public: how many command cards the leader draws this move."""

    leader: str
    seat: str
    count: int


@event_type(P + "CommandCardsDrawn")
class CommandCardsDrawn(EventData):
    """Which command cards, and the command points they give. Sealed for the seat."""

    leader: str
    seat: str
    cards: list[str]
    command_points: int


@event_type(P + "OrderGiven")
class OrderGiven(EventData, omit_defaults=True):  # 1.0.0's fields unchanged
    """A leader spends command points on an order to a unit he commands; ``free_fire``: the
    manoeuvre carries the free fire of integral skirmish weapons (1-8, since 2.0.0)."""

    leader: str
    unit: str
    order: str  # move, change-formation, charge, fire, dismount
    cost: int
    free_fire: bool = False


@event_type(P + "UnitMoved")
class UnitMoved(EventData):
    unit: str
    x: float
    y: float


@event_type(P + "FormationChanged")
class FormationChanged(EventData):
    unit: str
    formation: str


@event_type(P + "FireDeclared")
class FireDeclared(EventData):
    """An exchange of fire begins: ``firer`` fires on ``target`` at ``range_inches``; the
    target may return fire (``can_return``)."""

    exchange: int
    firer: str
    target: str
    range_inches: float
    in_open: bool
    can_return: bool
    modifiers: dict[str, int]  # the firer's modifiers the players agreed


@event_type(P + "VolleyFired")
class VolleyFired(EventData):
    """One unit's fire, as resolved: its place in the exchange (``order``: 1 fires first; two
    volleys with the same order were simultaneous), the combat value and each modifier in the
    order applied, the target number, the dice (one per Cos., half for integral skirmish
    weapons), the hits (dice equal to or under the target number) and the damage they do."""

    exchange: int
    order: int
    firer: str
    target: str
    weapon: str
    rate_of_fire: int
    range_inches: float
    range_band: str  # effective or ineffective
    combat_value: int
    modifiers: list[Modifier]
    target_number: int
    dice: int
    half_dice: bool
    faces: list[int]
    hits: int
    damage: str
    figures_lost: int
    disordered: bool
    reaction: bool  # fire without orders (defensive or returned): the (-) distraction


@event_type(P + "MoraleChecked")
class MoraleChecked(EventData):
    unit: str
    roll: int
    target_number: int
    passed: bool
    condition: str


@event_type(P + "DistractionIncurred")
class DistractionIncurred(EventData):
    """1-8: the (-) penalty, +1 on the initiative die of the commanding leader's next move."""

    leader: str
    unit: str
    modifier: int


@event_type(P + "FireHeld")
class FireHeld(EventData):
    exchange: int
    unit: str


@event_type(P + "ChargeDeclared")
class ChargeDeclared(EventData, omit_defaults=True):  # 1.0.0's fields unchanged
    charger: str
    target: str
    caught: bool
    from_front: bool
    attached_leader: str | None
    responses: list[str]  # what the Crusader Response Chart allows the target
    x: float | None = None  # since 2.0.0: where the charger ends its charge (its army's frame)
    y: float | None = None
    fire_before_contact: bool = False  # since 2.0.0: fired at the response, by rate of fire (1-9)
    fire_in_open: bool = True
    fire_modifiers: dict[str, int] = {}


@event_type(P + "TerrainChecked")
class TerrainChecked(EventData):
    """1-10 B: a caught horse archer unit's terrain check."""

    unit: str
    roll: int
    target_number: int
    passed: bool


@event_type(P + "FellBack")
class FellBack(EventData, omit_defaults=True):  # 1.0.0's fields unchanged
    """1-10 A: the horse archers fall back directly away from the charger."""

    unit: str
    charger: str
    how: str | None
    x: float | None = None  # since 2.0.0: where the unit stands after (its army's frame)
    y: float | None = None


@event_type(P + "Evaded")
class Evaded(EventData):
    """The target of a charge evades to (x, y) (core rules: players' statement)."""

    unit: str
    charger: str
    x: float
    y: float


@event_type(P + "ChargeCountered")
class ChargeCountered(EventData):
    """The target counter-charges the charger; they meet (core rules: players' statement)."""

    unit: str
    charger: str


@event_type(P + "CombatJoined")
class CombatJoined(EventData):
    """The charge contacts and the units fight: each rolls its combat dice (``fight``), those in
    ``half_dice`` with half dice (1-10 B)."""

    charger: str
    target: str
    half_dice: list[str]


@event_type(P + "CombatDiceRolled")
class CombatDiceRolled(EventData):
    """A unit's combat dice: the players' statement (``dice_stated``, ``target_number``, the
    ``modifiers`` it includes) and Herald's own steps (``dice_modifiers``: half dice, 1-10), the
    dice rolled, the faces and the hits (dice equal to or under the target number)."""

    unit: str
    opponent: str
    dice_stated: int
    target_number: int
    modifiers: list[Modifier]
    dice_modifiers: list[Modifier]
    dice: int
    faces: list[int]
    hits: int
    rule: str


@event_type(P + "StatedRollMade")
class StatedRollMade(EventData):
    """A roll the core rules call for, as the players stated it in an accepted ruling: its
    purpose, the unit, the dice and target number, the modifiers it includes, the faces and the
    successes (dice equal to or under the target number)."""

    ruling: int
    purpose: str
    unit: str
    dice: int
    target_number: int
    modifiers: list[Modifier]
    faces: list[int]
    successes: int
    rule: str


@event_type(P + "LeaderLost")
class LeaderLost(EventData):
    """A leader killed or captured (a ruling): he no longer rolls initiative, draws command
    cards or gives orders."""

    leader: str
    fate: str


@event_type(P + "ChargeStood")
class ChargeStood(EventData):
    """The target stands and the charge contacts; ``half_dice`` when it fights with half dice."""

    unit: str
    charger: str
    half_dice: bool


@event_type(P + "OrderTested")
class OrderTested(EventData):
    """A unit's order test upon entering combat: the leader's morale bonus added unless the unit
    is Eastern spearmen (1-5)."""

    unit: str
    roll: int
    combat_value: int
    leader_bonus: int
    leader_bonus_refused: bool
    target_number: int
    passed: bool
    condition: str


@event_type(P + "KnightsDismounted")
class KnightsDismounted(EventData):
    unit: str
    troop_type: str
    combat_value: int
    figures_per_cos: int
    figures: int


@event_type(P + "HorseHoldersPlaced")
class HorseHoldersPlaced(EventData):
    unit: str
    knights: str
    x: float
    y: float


@event_type(P + "HorseHoldersLost")
class HorseHoldersLost(EventData):
    unit: str
    contacted_by: str


@event_type(P + "HonourAwarded")
class HonourAwarded(EventData):
    leader: str
    deed: str
    points: int
    rule: str


@event_type(P + "RulingProposed")
class RulingProposed(EventData):
    """A ruling put to the other seats: ``proposal`` is the propose-ruling command's fields."""

    number: int
    proposed_by: str
    awaiting: list[str]
    proposal: dict[str, Any]


@event_type(P + "RulingAccepted")
class RulingAccepted(EventData):
    number: int
    seat: str


@event_type(P + "RulingWithdrawn")
class RulingWithdrawn(EventData):
    number: int
    rejected_by: str


@event_type(P + "RulingRecorded")
class RulingRecorded(EventData):
    """A ruling every seat accepted: the umpire's (``ruled_by`` "umpire") or the players' own."""

    number: int
    topic: str
    rule: str
    ruled_by: str
    decision: str


@event_type(P + "ConditionChanged")
class ConditionChanged(EventData):
    unit: str
    condition: str


@event_type(P + "CasualtiesTaken")
class CasualtiesTaken(EventData):
    unit: str
    figures: int


@event_type(P + "MoveEnded")
class MoveEnded(EventData):
    seat: str
    move: int
    next_seat: str


@event_type(P + "BattleEnded")
class BattleEnded(EventData):
    outcome: Outcome
    honour: dict[str, int]
