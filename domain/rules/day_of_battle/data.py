"""The components as data: the Army Profiles (``armies.json``, a labelled reconstruction an owner
may replace at creation with the option ``armies``), the charts (``charts.json``: the
supplement's printed charts and the core rules' charts, reconstructed where no public source
states them), the 54-card deck and the twenty-sided die.

Army points (core rules, as a public quick-play guide states them): 1 per leader, banner and
Cos., plus 1 per unit. An army is *Eastern* (1-1.2) when its list requires at least 5 Cos. of
horse archers; the Crusaders never are.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec

from domain.dice import STANDARD_DICE
from domain.rules.base import refused_data

PACKAGE = Path(__file__).parent
SYSTEM = "day-of-battle"
ARMIES_FILE = "armies.json"
CHARTS_FILE = "charts.json"
SCENARIOS_FILE = "scenarios.json"
D20 = STANDARD_DICE["d20"]
TABLE_DEPTH = 48  # inches: "Table depth is always 4'"
EASTERN_HORSE_ARCHERS = 5  # "a minimum of 5Cos. of Horse Archers in their army list"
R_PROFILE = "1-1"  # army profiles and handicaps are read at table set-up
TROOP_TYPES = (
    "knights", "dismounted-knights", "sergeants", "men-at-arms", "heavy-cavalry", "light-cavalry",
    "horse-archers", "spearmen", "swordsmen", "archers", "crossbowmen", "skirmishers", "pilgrims", "artillery",
    "horse-holders",
)  # the supplement names swordsmen among the mixed troops of 1-5 and 1-8
NOTE_SKIRMISH_WEAPONS = 8  # "These type of units are noted on the Army Profile with a Note 8."
# Herald's bounds on a players' Army Profile (not the rulebook's: it sets none; RULES_NOTES.md,
# "Bounds on the players' profiles"): a volley or a fight rolls one die per Cos., so an unbounded
# Cos. would make one command roll without end.
MAX_COS = 60
MAX_FIGURES_PER_COS = 12
MAX_UNITS = 60
MAX_LEADERS = 20


# -- Army Profiles --------------------------------------------------------------------------------
class Dismounted(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Dismounted knights' own statistics on the Crusader Army Profile (1-3)."""

    troop_type: str
    combat_value: int
    figures_per_cos: int


class UnitProfile(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A unit on an Army Profile: troop type, Cos. (stands), combat value, weapon and notes."""

    id: str
    name: str
    troop_type: str
    cos: int
    figures_per_cos: int
    combat_value: int
    leader: str  # the leader who commands it
    weapon: str | None = None
    notes: tuple[int, ...] = ()
    skirmish: bool = False  # skirmish troops (deploy anywhere in the zone, fire with full dice)
    eastern_spearmen: bool = False  # 1-5 and 1-6
    mounted: bool = False
    dismounted: Dismounted | None = None
    extra_cost: int = 0  # "Some army unit profile charts have additional costs listed."


class LeaderProfile(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A leader: a fixed social rank (a scenario may name it) or None to draw it (1-4)."""

    id: str
    name: str
    social_rank: int | None = None
    banner: bool = True


class ArmyProfile(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    id: str
    name: str
    western: bool  # the Crusaders: Western Europe's army
    handicap: int
    minimum_horse_archer_cos: int
    leaders: tuple[LeaderProfile, ...]
    units: tuple[UnitProfile, ...]

    @property
    def eastern(self) -> bool:
        """1-1.2: "An army that requires at minimum of 5Cos. of Horse Archers in their army list"."""
        return not self.western and self.minimum_horse_archer_cos >= EASTERN_HORSE_ARCHERS


class Weapon(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A line of the Missile Weapons chart (1-9): rate of fire, weapon bonus, ranges in inches."""

    id: str
    name: str
    rate_of_fire: int
    bonus: int
    effective: int
    ineffective: int
    reconstructed: bool = False


class ArmyFile(msgspec.Struct, frozen=True, forbid_unknown_fields=True, rename={"header": "_header"}):
    """``armies.json``'s shape: the Army Profiles, and (an owner's file) the weapons of its own chart,
    which replace the chart's of the same id and add to it."""

    armies: tuple[ArmyProfile, ...]
    header: str = ""
    weapons: tuple[Weapon, ...] = ()


class Armies(msgspec.Struct, frozen=True):
    """The armies a battle is fought with: a profile per seat and the weapons chart they use."""

    profiles: dict[str, ArmyProfile]
    weapons: dict[str, Weapon]


def army_points(army: ArmyProfile) -> int:
    """Leaders, banners and Cos. 1 each, 1 per unit, plus any listed extra cost (handicap apart)."""
    return (len(army.leaders) + sum(1 for l in army.leaders if l.banner)
            + sum(u.cos + 1 + u.extra_cost for u in army.units))


def army_problems(raw: Any, where: str = "army", weapons: frozenset[str] | None = None) -> list[str]:
    """Every way ``raw`` is not an Army Profile the rules can use (empty: usable)."""
    try:
        army = msgspec.convert(raw, ArmyProfile)
    except msgspec.ValidationError as error:
        return [f"{where}: {error}"]
    problems: list[str] = []
    leaders = [l.id for l in army.leaders]
    units = [u.id for u in army.units]
    if not leaders:
        problems.append(f"{where}: an army needs at least one leader")
    if len(leaders) > MAX_LEADERS or len(units) > MAX_UNITS:
        problems.append(f"{where}: at most {MAX_LEADERS} leaders and {MAX_UNITS} units (Herald's bound)")
    for kind, ids in (("leader", leaders), ("unit", units)):
        twice = sorted({i for i in ids if ids.count(i) > 1})
        if twice:
            problems.append(f"{where}: {kind} ids used twice: {', '.join(twice)}")
    for leader in army.leaders:
        if not leader.banner:
            problems.append(f"{where}: leader {leader.id} has no banner (each leader must have a banner)")
        if leader.social_rank is not None and not 0 <= leader.social_rank <= 5:
            problems.append(f"{where}: leader {leader.id}: social rank 0 to 5, not {leader.social_rank}")
    weapons = weapons if weapons is not None else frozenset(WEAPONS)
    for u in army.units:
        at = f"{where}: unit {u.id}"
        if u.troop_type not in TROOP_TYPES or u.troop_type == "horse-holders":
            problems.append(f"{at}: unknown troop type {u.troop_type!r}")
        if u.cos < 1 or u.figures_per_cos < 1:
            problems.append(f"{at}: at least 1 Cos. of at least 1 figure")
        per_cos = (u.figures_per_cos, *([u.dismounted.figures_per_cos] if u.dismounted else []))
        if u.cos > MAX_COS or max(per_cos) > MAX_FIGURES_PER_COS:
            problems.append(f"{at}: at most {MAX_COS} Cos. of at most {MAX_FIGURES_PER_COS} figures "
                            "(Herald's bound: one die is rolled per Cos.)")
        if not 1 <= u.combat_value <= 20:
            problems.append(f"{at}: a combat value from 1 to 20 (it is rolled against on a d20), not {u.combat_value}")
        if u.leader not in leaders:
            problems.append(f"{at}: commanded by {u.leader!r}, who is not a leader of this army")
        if u.weapon is not None and u.weapon not in weapons:
            problems.append(f"{at}: unknown weapon {u.weapon!r}; the chart has {', '.join(sorted(weapons))}")
        if NOTE_SKIRMISH_WEAPONS in u.notes and u.weapon is None:
            problems.append(f"{at}: Note 8 gives integral skirmish weapons (or the weapon listed): name it")
        if u.eastern_spearmen and u.figures_per_cos != 3:
            problems.append(f"{at}: Eastern spearmen are always based 3 figures per Cos. (1-5)")
        if u.eastern_spearmen and u.troop_type != "spearmen":
            problems.append(f"{at}: only spearmen can be Eastern spearmen (1-5)")
        if u.mounted != (u.dismounted is not None) and u.troop_type == "knights":
            problems.append(f"{at}: mounted knights carry their dismounted statistics (1-3)")
        if u.dismounted is not None and u.troop_type != "knights":
            problems.append(f"{at}: only knights dismount (1-3)")
    horse_archers = sum(u.cos for u in army.units if u.troop_type == "horse-archers")
    if horse_archers < army.minimum_horse_archer_cos:
        problems.append(f"{where}: the list requires {army.minimum_horse_archer_cos} Cos. of horse archers; "
                        f"the army has {horse_archers}")
    if army.western and army.minimum_horse_archer_cos >= EASTERN_HORSE_ARCHERS:
        problems.append(f"{where}: a Western army is never an Eastern one (1-1.2)")
    if army.handicap < 0:
        problems.append(f"{where}: a handicap adds army points; it is never negative")
    return problems


def _schema() -> dict[str, Any]:
    (by_seat, as_file), defs = msgspec.json.schema_components([dict[str, ArmyProfile], ArmyFile])
    return {"anyOf": [by_seat, as_file], "$defs": defs}


ARMY_SCHEMA: dict[str, Any] = _schema()  # seat → profile, or armies.json's own shape


def is_army_file(raw: Any) -> bool:
    """The option in ``armies.json``'s own shape (``{"armies": [profiles], "weapons": [...]}``)."""
    return isinstance(raw, dict) and isinstance(raw.get("armies"), list)


def weapon_problems(raw: Any) -> list[str]:
    """Every way an owner's weapons chart is not one the rules can use."""
    if not isinstance(raw, list):
        return ["weapons: a list of weapons (id, name, rate_of_fire, bonus, effective, ineffective)"]
    problems = []
    ids = []
    for i, item in enumerate(raw):
        where = f"weapons[{i}]"
        try:
            w = msgspec.convert(item, Weapon)
        except msgspec.ValidationError as error:
            problems.append(f"{where}: {error}")
            continue
        ids.append(w.id)
        if not 0 <= w.rate_of_fire <= 10 or not -10 <= w.bonus <= 10:
            problems.append(f"{where} ({w.id}): a rate of fire from 0 to 10 and a bonus from -10 to +10")
        if w.effective < 1 or (w.ineffective and w.ineffective < w.effective) or w.ineffective < 0:
            problems.append(f"{where} ({w.id}): an effective range of at least 1\" and an ineffective range of "
                            "0 (none) or at least the effective range")
    twice = sorted({i for i in ids if ids.count(i) > 1})
    if twice:
        problems.append(f"weapons: ids used twice: {', '.join(twice)}")
    return problems


def armies_problems(raw: Any, seats: dict[str, str] | None = None) -> list[str]:
    """Every problem of the option ``armies``, each with its path: one Army Profile per seat
    keyed by seat, or ``armies.json``'s own shape, whose profiles serve the seats whose army
    (``seats``: seat → army id) they are, with the weapons chart of its own, if any."""
    if is_army_file(raw):
        problems = weapon_problems(raw.get("weapons", []))
        extra = {w.get("id") for w in raw.get("weapons", []) if isinstance(w, dict)} if not problems else set()
        known = frozenset(WEAPONS) | {x for x in extra if isinstance(x, str)}
        rest = sorted(set(raw) - {"armies", "weapons", "_header"})
        if rest:
            problems.append(f"armies: unknown fields {', '.join(rest)} (armies.json has _header, armies, weapons)")
        if "_header" in raw and not isinstance(raw["_header"], str):
            problems.append("armies._header: a string")
        ids = [a.get("id") if isinstance(a, dict) else None for a in raw["armies"]]
        for i, army in enumerate(raw["armies"]):
            problems += army_problems(army, f"armies[{i}]" + (f" ({ids[i]})" if isinstance(ids[i], str) else ""), known)
        if seats is not None:
            missing = sorted({a for a in seats.values() if a not in ids})
            if missing:
                problems.append(f"armies: no profile for the army {', '.join(missing)} (the scenario's seats "
                                f"{', '.join(f'{s}: {a}' for s, a in seats.items())})")
        return problems
    if not isinstance(raw, dict):
        return ["armies: an object with one Army Profile per seat, or armies.json's own shape"]
    problems = []
    if seats is not None and set(raw) != set(seats):
        problems.append(f"armies: one profile for each seat ({', '.join(seats)}), not for {', '.join(sorted(raw)) or 'none'}")
    for seat, army in sorted(raw.items()):
        problems += army_problems(army, f"armies.{seat}")
    return problems


def validate_armies(raw: Any, seats: dict[str, str]) -> Armies:
    """The armies of the option ``armies`` for ``seats`` (seat → army id), or every problem."""
    problems = armies_problems(raw, seats)
    if problems:
        raise refused_data(f"{SYSTEM}.bad_army_profile", "army profiles", problems, R_PROFILE)
    if is_army_file(raw):
        owned = msgspec.convert(raw, ArmyFile)
        by_id = {a.id: a for a in owned.armies}
        return Armies({seat: by_id[army] for seat, army in seats.items()},
                      WEAPONS | {w.id: w for w in owned.weapons})
    return Armies({seat: msgspec.convert(raw[seat], ArmyProfile) for seat in seats}, WEAPONS)


# -- charts -----------------------------------------------------------------------------------------
class RankLine(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    cards: tuple[str, ...]
    title: str
    social_rank: int


class WesternRanks(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    reconstructed: bool
    draw_again: tuple[str, ...]
    table: tuple[RankLine, ...]
    fixed_titles: dict[str, str]


class MotivationLine(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    values: tuple[int, ...]
    motivation: str
    reconstructed: bool = False


class Command(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    reconstructed: bool
    cards_on_initiative_pass: str
    cards_on_initiative_fail: int
    distraction: int


class OrderCosts(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    reconstructed: bool
    manoeuvre: int
    fire: int


class DamageLevel(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    hits: int
    damage: str
    figures: int
    disorder: bool
    morale_check: bool


class Damage(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    reconstructed: bool
    levels: tuple[DamageLevel, ...]


class Honour(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    reconstructed: bool
    deeds: dict[str, int]


class Charts(msgspec.Struct, frozen=True, forbid_unknown_fields=True, rename={"header": "_header"}):
    header: str
    card_values: dict[str, int]
    die: str
    eastern_ranks: tuple[RankLine, ...]
    western_ranks: WesternRanks
    eastern_fixed_titles: dict[str, str]
    motivation: tuple[MotivationLine, ...]
    skills: dict[str, int]
    command: Command
    order_costs: OrderCosts
    weapons: tuple[Weapon, ...]
    damage: Damage
    honour: Honour


CHARTS = msgspec.json.decode((PACKAGE / CHARTS_FILE).read_bytes(), type=Charts)
WEAPONS = {w.id: w for w in CHARTS.weapons}  # the chart's (an owner's armies file may add its own)
ARMIES = {a.id: a for a in msgspec.json.decode((PACKAGE / ARMIES_FILE).read_bytes(), type=ArmyFile).armies}


# -- the deck ---------------------------------------------------------------------------------------
SUITS = ("S", "H", "D", "C")
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
DECK = tuple(f"{r}{s}" for s in SUITS for r in RANKS) + ("JK1", "JK2")  # the 54-card deck, unshuffled
DECK_NAME = "deck"


def rank_of(card: str) -> str:
    """``"10H"`` → ``"10"``, ``"JK2"`` → ``"JK"``."""
    return "JK" if card.startswith("JK") else card[:-1]


def card_value(card: str) -> int:
    """Ace 1, 2-10 as marked, Jack, Queen, King 5, Joker 1 (core rules)."""
    r = rank_of(card)
    return CHARTS.card_values.get(r) or int(r)


def card_name(card: str) -> str:
    names = {"A": "Ace", "J": "Jack", "Q": "Queen", "K": "King"}
    if card.startswith("JK"):
        return "Joker"
    suit = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}[card[-1]]
    return f"{names.get(rank_of(card), rank_of(card))} of {suit}"


# -- scenarios --------------------------------------------------------------------------------------
class SeatArmy(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    seat: str
    army: str
    edge: str  # "south" or "north": the army's rear table edge


class ScenarioData(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    id: str
    title: str
    seats: tuple[SeatArmy, ...]


class ScenarioFile(msgspec.Struct, frozen=True, forbid_unknown_fields=True, rename={"header": "_header"}):
    header: str
    scenarios: tuple[ScenarioData, ...]


SCENARIOS = {s.id: s for s in msgspec.json.decode((PACKAGE / SCENARIOS_FILE).read_bytes(),
                                                  type=ScenarioFile).scenarios}


def _profile_names() -> dict[str, str]:
    """``"crusaders/knights-bohemond"`` → ``"Mounted knights of Bohemond"``: every leader and unit
    of the scenarios' armies by its name on the Army Profile (``armies.json``), keyed as the
    record refers to it (seat/id). An owner's own profiles (option ``armies``) are not in here."""
    names: dict[str, str] = {}
    for scenario in SCENARIOS.values():
        for place in scenario.seats:
            army = ARMIES[place.army]
            for profile in (*army.leaders, *army.units):
                names[f"{place.seat}/{profile.id}"] = profile.name
    return names


PROFILE_NAMES = _profile_names()
