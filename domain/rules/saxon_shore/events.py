"""The rule events of Saxon Shore: what happened, in the rulebook's words, with structured fields
and the section each applies (``section``: "7", "8.1", "11 51" for random event 51). They are
facts, never state patches: ``evolve`` works out what each one changes. Since 2.2.0 the turn's
place in the order of play (the steps still to run, the phase) is state the record carries, in
:class:`PlayerAsked`, and ``evolve`` assigns it; records of 2.1.0 and 2.0.0 left it out (their
``PromptOpened``) and are folded by running their decisions again (older.py). Counters are named by id, with their kind (and
owner, where the event does not say whose they are), so a line of the record reads on its own."""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.events import EventData, Outcome, event_type

Morale = Literal["low", "normal", "high"]
Religion = Literal["christian", "pagan"]


class Counter(msgspec.Struct, frozen=True, omit_defaults=True):
    """A counter on the map: its id, its kind (king, regular, knight, berserker, monk, mercenary,
    peasant, boat) and, where the event does not say, whose it is (None: neutral)."""

    unit: int
    kind: str
    owner: str | None = None


class BoatPlaced(msgspec.Struct, frozen=True):
    unit: int
    province: str
    sea: str


class BoxMove(msgspec.Struct, frozen=True):
    """A king's move on the battle matrix (§8.2, §12.3): a troop of ``kind`` from ``box``, ``step``
    boxes up (1 or 2) or down (-1)."""

    kind: str
    box: int
    step: int


# -- set-up and the turn (§10, §2.2, §9) -----------------------------------------------------------
@event_type("saxon-shore.StartingProvincePicked")
class StartingProvincePicked(EventData):
    """§10: a castle, a normal king and one gold; Christian when starting in Ireland."""

    seat: str
    province: str
    king: int
    religion: Religion
    section: str = "10"


@event_type("saxon-shore.TurnBegan")
class TurnBegan(EventData):
    """§2.2, §9.3: a new turn in this game order; last turn's cards (forced march, chainmail),
    storms and once-a-turn marks lapse."""

    turn: int
    order: list[str]
    section: str = "2.2"


class Job(msgspec.Struct, frozen=True, omit_defaults=True):
    """A step of the turn still to run (§2.2, the order of gameplay): ``kind`` the step
    ("king", "event", "phase", "battle_round", ...), whose (``seat``), where (``province``), its
    ``number`` (the movement round, the hits to take...) and what it is ``about`` (the phase, the
    side...), as PlayerAsked names a question's."""

    kind: str
    seat: str | None = None
    prov: str | None = msgspec.field(default=None, name="province")
    n: int = msgspec.field(default=0, name="number")
    args: tuple[str, ...] = msgspec.field(default=(), name="about")


@event_type("saxon-shore.PromptOpened")
class PromptOpened(EventData):
    """The game waits for ``seat``: a question of ``kind`` answered by ``choose`` with one of
    ``options``, or (``kind`` "phase") the seat's part of ``phase`` (its own commands; listed by
    legal-commands). The answer is the next DecisionTaken."""

    seat: str
    kind: str
    options: list[str] = []
    province: str | None = None
    phase: str | None = None
    stage: int = 0
    section: str = ""


@event_type("saxon-shore.PlayerAsked")
class PlayerAsked(PromptOpened, omit_defaults=True):
    """The question PromptOpened says (2.2.0 on), and where the turn stands, so that the fold
    assigns it without running the decision again: ``number`` and ``about`` the question's own
    details (the hits to take and the side, the king's quality, the offer's seat and tokens...;
    a phase's are its ``phase`` and ``stage``); the steps of the order of gameplay (§2.2) still to
    run are ``steps_next``, then the steps queued before (by the question before, or the whole
    turn's as TurnBegan starts them) after their first ``steps_done``; ``turn_phase`` and ``turn_stage``, when they changed, the part of the turn and
    which of the two movement and combat rounds (§2.2 step 7) it is in. Fields at their
    defaults are left out of the record."""

    number: int = 0
    about: list[str] = []
    steps_done: int = 0
    steps_next: list[Job] = []
    turn_phase: str | None = None
    turn_stage: int | None = None


@event_type("saxon-shore.GameDecided")
class GameDecided(EventData):
    """A house-rule turn limit ended the game: ``rulebook_victory`` is False, so a tournament
    can tell such a result from a §1 victory."""

    outcome: Outcome
    house_rule: str = "turn limit"
    rulebook_victory: bool = False


@event_type("saxon-shore.PlayerEliminated")
class PlayerEliminated(EventData):
    """A kingdom with no province left is out of the game; its counters leave the map (§1)."""

    seat: str
    units: list[Counter] = []
    section: str = "1"


# -- kings and counters ----------------------------------------------------------------------------
@event_type("saxon-shore.KingDied")
class KingDied(EventData):
    """§3.1 (a 5 or 6), §11 44 (the sword in the stone) or §11 52 (``by`` an assassin)."""

    seat: str
    unit: int
    province: str
    section: str
    by: str | None = None


@event_type("saxon-shore.KingCrowned")
class KingCrowned(EventData):
    """§3.1: a new king of ``quality`` (-1 to +2) in a friendly province; §11 44: Arthur, +2."""

    seat: str
    unit: int
    province: str
    quality: int
    section: str


@event_type("saxon-shore.UnitsPlaced")
class UnitsPlaced(EventData):
    """Counters placed by the rules, not bought: set-up mercenaries (§10), the random province
    improvement (§3.4), knights or berserkers (§11 11), a free boat (§11 42), Saxon relatives
    (§11 43). ``owner`` None: neutral."""

    kind: str
    province: str
    units: list[int]
    section: str
    owner: str | None = None
    coast: str | None = None


@event_type("saxon-shore.UnitsDeserted")
class UnitsDeserted(EventData):
    """Counters that desert: mercenaries (§3.2, §11 53), regulars muttering (§11 63), regulars and
    mercenaries in neutral provinces (§11 26), at family ties (§11 41), warrior monks (§12.1)."""

    units: list[Counter]
    section: str


@event_type("saxon-shore.UnitsEliminated")
class UnitsEliminated(EventData):
    """Counters eliminated: by plague (§11 23, 24), or with no friendly province to go to (§8.1, §9.2)."""

    units: list[Counter]
    section: str
    province: str | None = None


@event_type("saxon-shore.PeasantsAndBoatsRemoved")
class PeasantsAndBoatsRemoved(EventData):
    """§9.1: all peasants and boats are removed from the map."""

    units: list[int]
    section: str = "9.1"


@event_type("saxon-shore.TroopsReturned")
class TroopsReturned(EventData):
    """Troops moved to the nearest friendly province: at the end of the turn (§9.2), after a
    repulsed raid (§8.1), a king whose province left the kingdom (§11 26, §11 41)."""

    seat: str
    units: list[Counter]
    start: str
    to: str
    section: str


# -- random events (§3, §11) -----------------------------------------------------------------------
@event_type("saxon-shore.EventDrawn")
class EventDrawn(EventData):
    """§3.3, §11: the random event ``seat`` drew, by its two-dice ``number`` and ``name``. Bumper
    year (33), forced march (54), chainmail armour (55) and heresy (56) are held from here."""

    seat: str
    number: int
    name: str
    section: str = "11"


@event_type("saxon-shore.PathGained")
class PathGained(EventData):
    """§11 12-15: a mountain path, woodland trail (forest) or marsh way."""

    seat: str
    path: Literal["mountain", "forest", "marsh"]
    section: str = "11 12"


@event_type("saxon-shore.FamineStruck")
class FamineStruck(EventData):
    """§11 25: the province is ravaged and its city trade fails this turn."""

    province: str
    section: str = "11 25"


@event_type("saxon-shore.FamineAverted")
class FamineAverted(EventData):
    """§11 25: the owner spends a grain (one wheat) for the province."""

    seat: str
    province: str
    section: str = "11 25"


@event_type("saxon-shore.OutsidersRaid")
class OutsidersRaid(EventData):
    """§11 32 wildmen from a wild province, §11 34 vikings from a sea zone: ``count`` of them and a
    chief come to raid ``province``."""

    who: Literal["wildmen", "vikings"]
    count: int
    origin: str
    province: str
    strength: int
    section: str


@event_type("saxon-shore.StormsAtSea")
class StormsAtSea(EventData):
    """§11 51: boats moving from or into ``sea`` this turn roll against sinking."""

    sea: str
    section: str = "11 51"


@event_type("saxon-shore.LostAtSea")
class LostAtSea(EventData):
    """§11 51: boats sunk by the storm, with the troops in them."""

    seat: str
    units: list[Counter]
    seas: list[str]
    section: str = "11 51"


@event_type("saxon-shore.ResourceSwapped")
class ResourceSwapped(EventData):
    """§11 35 traders: one resource token swapped for another."""

    seat: str
    gave: str
    took: str
    section: str = "11 35"


@event_type("saxon-shore.FamilyOfferMade")
class FamilyOfferMade(EventData):
    """§11 41: the owner of the province offers resources so that ``to`` declines it."""

    seat: str
    to: str
    province: str
    tokens: dict[str, int]
    section: str = "11 41"


@event_type("saxon-shore.FamilyTiesDeclined")
class FamilyTiesDeclined(EventData):
    """§11 41: ``seat`` accepts ``owner``'s resources and declines the province."""

    seat: str
    owner: str
    province: str
    tokens: dict[str, int]
    section: str = "11 41"


@event_type("saxon-shore.CityRepaired")
class CityRepaired(EventData):
    """§11 31: the owner spends two resources in repairs; the city stands."""

    seat: str
    province: str
    paid: list[str]
    section: str = "11 31"


# -- provinces -------------------------------------------------------------------------------------
@event_type("saxon-shore.MoraleChanged")
class MoraleChanged(EventData):
    """§2.1: morale of ``province`` is now ``morale`` (it was ``was``). ``seat`` and ``paid``: a
    player bought it (§4.5, once per province per turn)."""

    province: str
    morale: Morale
    was: Morale
    section: str
    seat: str | None = None
    paid: list[str] = []


@event_type("saxon-shore.ImprovementBuilt")
class ImprovementBuilt(EventData):
    """A road, wall, city or monastery: paid for (§4.5), or by the rules (§3.4, §11 45, 46, 61)."""

    province: str
    improvement: Literal["road", "wall", "city", "monastery"]
    section: str
    seat: str | None = None
    paid: list[str] = []


@event_type("saxon-shore.ImprovementDestroyed")
class ImprovementDestroyed(EventData):
    """An improvement destroyed: by raiders or conquerors ``by`` (§8.1, §8.2, §12.2) who take
    ``spoils``, or by fire, earthquake or the hammer of God (§11 31, 62, 65)."""

    province: str
    improvement: Literal["road", "wall", "city", "monastery"]
    section: str
    by: str | None = None
    spoils: dict[str, int] = {}


@event_type("saxon-shore.ProvinceRavaged")
class ProvinceRavaged(EventData):
    """A ravage marker placed: by raiders or conquerors ``by`` with their ``spoils`` (§8.1), or by
    plague (§11 23, 24) or the hammer of God (§11 65)."""

    province: str
    section: str
    by: str | None = None
    spoils: dict[str, int] = {}


@event_type("saxon-shore.RavageRemoved")
class RavageRemoved(EventData):
    """One ravage marker removed: population recovery (§6, a 4-6), or paid for (§4.5)."""

    province: str
    section: str
    seat: str | None = None
    paid: list[str] = []


@event_type("saxon-shore.ProvinceConquered")
class ProvinceConquered(EventData):
    """§8.2: the victor's castle is placed; morale low, or high when a Christian takes a monastery
    province from a Pagan."""

    seat: str
    province: str
    former: str | None
    morale: Morale
    section: str = "8.2"


@event_type("saxon-shore.ProvinceBecameNeutral")
class ProvinceBecameNeutral(EventData):
    """The province secedes (§11 26) or falls to rebels (§11 64)."""

    province: str
    former: str
    section: str


@event_type("saxon-shore.ProvinceJoined")
class ProvinceJoined(EventData):
    """§11 41 family ties: the province joins ``seat``'s kingdom."""

    seat: str
    province: str
    former: str | None
    section: str = "11 41"


# -- resources (§4) --------------------------------------------------------------------------------
@event_type("saxon-shore.ResourcesProduced")
class ResourcesProduced(EventData):
    """§4.1: a token for each producing province the seat owns (two for Kent)."""

    seat: str
    gained: dict[str, int]
    section: str = "4.1"


@event_type("saxon-shore.ResourcesGained")
class ResourcesGained(EventData):
    """Tokens gained: from a city trade (§4.2), spoils of a raid (§8.1), a bumper year (§11 33),
    a gold horde (§11 36)."""

    seat: str
    gained: dict[str, int]
    section: str


@event_type("saxon-shore.CityTradeRolled")
class CityTradeRolled(EventData):
    """§4.2: the traded resource is lost; the die (``roll``) with its modifiers makes ``total``."""

    seat: str
    province: str
    resource: str
    roll: int
    total: int
    section: str = "4.2"


@event_type("saxon-shore.CityTradeFailed")
class CityTradeFailed(EventData):
    """A city trade with no roll: famine (§11 25; the resource is lost), the city is gone or its
    trader is out of the game (§4.2)."""

    seat: str
    province: str
    resource: str
    reason: Literal["famine", "no city", "eliminated"]
    section: str


@event_type("saxon-shore.TradeOffered")
class TradeOffered(EventData):
    """§4.3: ``seat`` offers ``to`` the tokens ``give`` for the tokens ``take``."""

    seat: str
    to: str
    give: dict[str, int]
    take: dict[str, int]
    section: str = "4.3"


@event_type("saxon-shore.TradeAccepted")
class TradeAccepted(EventData):
    """§4.3: ``seat`` accepts ``offerer``'s offer; the tokens change hands."""

    seat: str
    offerer: str
    give: dict[str, int]
    take: dict[str, int]
    section: str = "4.3"


@event_type("saxon-shore.TradeDeclined")
class TradeDeclined(EventData):
    seat: str
    offerer: str
    section: str = "4.3"


@event_type("saxon-shore.TradingRoundEnded")
class TradingRoundEnded(EventData):
    """§4.3: a round of trading saw offers, so another round follows."""

    section: str = "4.3"


@event_type("saxon-shore.ResourcePlacedForTrade")
class ResourcePlacedForTrade(EventData):
    """§4.4: one resource placed in a city for trade."""

    seat: str
    province: str
    resource: str
    section: str = "4.4"


# -- raising troops (§4.6, §12.1) ------------------------------------------------------------------
@event_type("saxon-shore.MercenaryHired")
class MercenaryHired(EventData):
    seat: str
    unit: int
    province: str
    paid: str
    section: str = "4.6.1"


@event_type("saxon-shore.TroopsRaised")
class TroopsRaised(EventData):
    """A regular (§4.6.2), peasants to the province's carrying capacity (§4.6.3) or a warrior
    monk (§12.1) raised in a province the seat owns."""

    seat: str
    kind: Literal["regular", "peasant", "monk"]
    province: str
    units: list[int]
    paid: list[str]
    section: str


@event_type("saxon-shore.BoatsRaised")
class BoatsRaised(EventData):
    """§4.6.4: one resource for two boats in one province or one in each of two."""

    seat: str
    boats: list[BoatPlaced]
    paid: str
    section: str = "4.6.4"


@event_type("saxon-shore.PeasantReplacedByBoat")
class PeasantReplacedByBoat(EventData):
    """§4.6.4: a peasant counter removed and replaced with a boat counter."""

    seat: str
    peasant: int
    boat: int
    province: str
    sea: str
    section: str = "4.6.4"


# -- conversion (§5) -------------------------------------------------------------------------------
@event_type("saxon-shore.Converted")
class Converted(EventData):
    """§5: the seat converts; morale follows as MoraleChanged events."""

    seat: str
    religion: Religion
    section: str = "5"


# -- movement (§7) ---------------------------------------------------------------------------------
@event_type("saxon-shore.MovementBegan")
class MovementBegan(EventData):
    """§2.2 steps 5 and 7, §7: movement ``stage`` 1 or 2; each unit has two movement points."""

    stage: int
    section: str = "7"


@event_type("saxon-shore.UnitsMoved")
class UnitsMoved(EventData):
    """§7: ``seat``'s units moved together from ``start`` along ``path`` for ``points`` movement
    points; ``halted`` when they entered a non-friendly province and must stop; ``coast`` the
    sea zone the boats lie on at the end; ``paths_used`` the paths spent (§11 12)."""

    seat: str
    units: list[Counter]
    start: str
    path: list[str]
    points: int
    halted: bool = False
    coast: str | None = None
    paths_used: list[str] = []
    section: str = "7"


@event_type("saxon-shore.ForcedMarchMade")
class ForcedMarchMade(EventData):
    """§11 54: the units at ``location`` gain one movement point."""

    seat: str
    location: str
    units: list[int]
    section: str = "11 54"


# -- combat (§8, §11 64, §12.2, §12.3) ---------------------------------------------------------------
@event_type("saxon-shore.RaidDeclared")
class RaidDeclared(EventData):
    seat: str
    province: str
    section: str = "8"


@event_type("saxon-shore.InvasionDeclared")
class InvasionDeclared(EventData):
    """§8: an invasion costs one resource of any kind."""

    seat: str
    province: str
    paid: str
    section: str = "8"


@event_type("saxon-shore.RaidFought")
class RaidFought(EventData):
    """§8.1 (and §11 32, 34): raid strength plus a die each; ``raider`` a seat, or None for
    wildmen or vikings. ``result``: who won, or a draw."""

    province: str
    raider: str | None
    defender: str | None
    attack: int
    defence: int
    result: Literal["attacker", "defender", "draw"]
    section: str = "8.1"


@event_type("saxon-shore.RaidersRepulsed")
class RaidersRepulsed(EventData):
    """§8.1 defender wins: a die per raiding troop; ``eliminated`` die, mercenaries ``freed``
    revert to neutrality; the rest return to the nearest friendly province."""

    seat: str
    province: str
    eliminated: list[Counter] = []
    freed: list[Counter] = []
    section: str = "8.1"


@event_type("saxon-shore.BattleBegan")
class BattleBegan(EventData):
    """A battle on the battle matrix (§8.2): an invasion (``mode`` "invasion"), invaders fighting
    each other first ("invaders"), or rebels (§11 64, "rebels"). ``militia``: the owner's militia
    (the carrying capacity) at ``militia_strength`` (morale: 1 low, 2 normal, 3 high)."""

    province: str
    mode: Literal["invasion", "invaders", "rebels"]
    attacker: str
    defender: str | None
    militia: int = 0
    militia_strength: int = 2
    rebels: int = 0
    section: str = "8.2"


@event_type("saxon-shore.KingMovedTroops")
class KingMovedTroops(EventData):
    """§8.2: a +1 or +2 king moves troops up the matrix; §12.3: a -1 king moves one down.
    ``side``: "attacker" or "defender"; ``moves`` empty: the king lets them stand."""

    seat: str
    province: str
    side: Literal["attacker", "defender"]
    moves: list[BoxMove]
    section: str = "8.2"


@event_type("saxon-shore.BattleRoundFought")
class BattleRoundFought(EventData):
    """§8.2: each die at or under its troop's box is a hit (the boxes, one per die, as rolled)."""

    province: str
    round: int
    attacker_boxes: list[int]
    defender_boxes: list[int]
    attacker_hits: int
    defender_hits: int
    section: str = "8.2"


@event_type("saxon-shore.CasualtyRemoved")
class CasualtyRemoved(EventData):
    """§8.2: one troop removed for a hit: a counter (``unit``), or a militia or rebel."""

    province: str
    side: Literal["attacker", "defender"]
    kind: str
    owner: str | None = None
    unit: int | None = None
    section: str = "8.2"


@event_type("saxon-shore.RetreatedIntoCity")
class RetreatedIntoCity(EventData):
    """§12.2: after a round, the defender retreats into the city."""

    seat: str
    province: str
    section: str = "12.2"


@event_type("saxon-shore.CityAssaulted")
class CityAssaulted(EventData):
    """§12.2: the attacker assaults the city, every troop two boxes weaker."""

    seat: str
    province: str
    section: str = "12.2"


@event_type("saxon-shore.CityLeftUnassaulted")
class CityLeftUnassaulted(EventData):
    """§12.2: the attacker destroys an improvement or ravages instead; nobody conquers."""

    seat: str
    province: str
    section: str = "12.2"


@event_type("saxon-shore.BattleEnded")
class BattleEnded(EventData):
    """The battle for ``province`` is over: ``won_by`` the attacker, the defender (also when
    neither side has troops left, §8.2), or nobody (invaders who destroyed each other);
    ``winner`` the seat that won, if any (None: the neutral militia, or the rebels)."""

    province: str
    won_by: Literal["attacker", "defender", "nobody"]
    winner: str | None = None
    section: str = "8.2"
