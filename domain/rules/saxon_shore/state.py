"""The state of Saxon Shore (frozen msgspec Structs) and the questions rules ask of it.

State is compact (it is cached and folded often): provinces and players keyed by name,
units keyed by id. The turn's control flow (the job queue and the one open prompt) is state
the record carries since 2.2.0 (events.PlayerAsked); before, it was derived (older.py).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import msgspec

from domain.events import Outcome
from domain.rules.saxon_shore.data import RESOURCES
from domain.rules.saxon_shore.events import Job

VERSION = "2.2.0"  # the rule system's version (engine.SaxonShore.version)
# Versions whose records leave the turn's control out (PromptOpened, not PlayerAsked): their fold
# runs each decision again to find it (older.py).
CONTROL_DERIVED = ("2.1.0", "2.0.0")

Res = tuple[int, int, int, int, int]  # wheat, wool, iron, gold, slaves
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


class Prompt(msgspec.Struct, frozen=True, omit_defaults=True):
    """The one decision the game waits for: ``phase`` prompts take phase commands,
    every other kind takes ``choose`` with one of ``options``. ``prov``, ``n`` and ``args`` are
    the engine's context for the answer (recorded since 2.2.0 as PlayerAsked's ``province``,
    ``number`` and ``about``; a phase's as its ``phase`` and ``stage``)."""

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
    won: Outcome | None = None  # a §1 victory, read off the board by evolve whenever it may change
    ended: Outcome | None = None  # the turn limit (a house rule)
    board: Any = None  # the map this game is played on (data.Board): ours, or the owner's given at creation
    pending: Pending | None = None  # a decision being folded under 2.1.0 or 2.0.0 (older.py): never shown
    version: str = VERSION  # the rule system's version that records the game (engine.SaxonShore.at_version)


class Pending(msgspec.Struct, frozen=True):
    """A decision being folded: the state it was taken in, who took it, the command (as
    recorded) and the faces of the dice rolled for it so far. When its prompt opens, the fold of
    a 2.1.0 or 2.0.0 record runs the decision again on these dice to derive the turn's job queue
    (older.py)."""

    before: SaxonState
    seat: str
    command: Any
    faces: tuple[int, ...] = ()


ECONOMY_PHASES = ("trade", "market", "improve", "raise", "convert")


def turn_steps(order: Iterable[str]) -> tuple[Job, ...]:
    """§2.2, "The order of gameplay": the steps of a turn for the players in ``order``, as
    TurnBegan starts them (turn.begin_turn queues them; the fold assigns them, evolve.apply)."""
    order = tuple(order)
    jobs = [Job("king", s) for s in order] + [Job("desert", s) for s in order] + [Job("event", s) for s in order]
    jobs += [Job("province_roll"), Job("production"), Job("city_trades")]
    jobs.append(Job("trade_round"))
    for phase in ECONOMY_PHASES[1:]:
        jobs += [Job("phase", s, args=(phase,)) for s in order]
    jobs.append(Job("ravage_recovery"))
    for stage in (1, 2):
        jobs.append(Job("movement_start", n=stage))
        jobs += [Job("phase", s, n=stage, args=("move",)) for s in order]
        jobs.append(Job("combat_start", n=stage))
        jobs += [Job("phase", s, n=stage, args=("declare",)) for s in order]
        jobs += [Job("raids", n=stage), Job("invasions", n=stage)]
    jobs.append(Job("end_turn"))
    return tuple(jobs)


MORALE = {-1: "low", 0: "normal", 1: "high"}
MORALE_LEVEL = {word: level for level, word in MORALE.items()}
REGULAR_KINDS = ("regular", "knight", "berserker", "monk")
TROOP_KINDS = ("king", *REGULAR_KINDS, "mercenary", "peasant")


# -- queries ------------------------------------------------------------------------------------
def capacity(state: SaxonState, prov: str) -> int:
    """§2.1 carrying capacity: population -1 per ravage, +1 road, +1 city, +1 monastery."""
    if prov not in state.provinces:
        return 0
    p = state.provinces[prov]
    return max(0, state.board.population[prov] - p.ravage + p.road + p.city + p.monastery)


def alive(state: SaxonState) -> tuple[str, ...]:
    return tuple(s for s in state.order if state.players[s].alive)


def owned(state: SaxonState, seat: str) -> list[str]:
    """The seat's provinces, in map order."""
    provinces = state.provinces
    return [name for name in state.board.provinces if provinces[name].owner == seat]


def units_at(state: SaxonState, loc: str, owner: Any = ..., kinds: Iterable[str] | None = None) -> list[Unit]:
    kinds = tuple(kinds) if kinds is not None else None
    return [u for _, u in sorted(state.units.items())
            if u.loc == loc and (owner is ... or u.owner == owner) and (kinds is None or u.kind in kinds)]


def units_of(state: SaxonState, seat: str, kinds: Iterable[str] | None = None) -> list[Unit]:
    kinds = tuple(kinds) if kinds is not None else None
    return [u for _, u in sorted(state.units.items()) if u.owner == seat and (kinds is None or u.kind in kinds)]


def king_of(state: SaxonState, seat: str) -> Unit | None:
    return next((u for u in units_of(state, seat, ("king",))), None)


def is_christian_province(state: SaxonState, prov: str) -> bool:
    """A province's religion is its owner's; a neutral province is Christian when it has a
    monastery (RULES_NOTES.md)."""
    owner = state.provinces[prov].owner
    return state.players[owner].christian if owner else state.provinces[prov].monastery


def res_count(player: Player, name: str) -> int:
    return player.res[RESOURCES.index(name)]


def res_add(res: Res, changes: dict[str, int]) -> Res:
    out = list(res)
    for name, n in changes.items():
        out[RESOURCES.index(name)] += n
    return tuple(out)  # type: ignore[return-value]


def can_pay(player: Player, pay: Iterable[str]) -> bool:
    need: dict[str, int] = {}
    for name in pay:
        if name not in RESOURCES:
            return False
        need[name] = need.get(name, 0) + 1
    return all(res_count(player, n) >= k for n, k in need.items())


def held(player: Player) -> list[str]:
    """The kinds of resource a player holds at least one of."""
    return [n for n, k in zip(RESOURCES, player.res) if k > 0]


def encode_tokens(tokens: dict[str, int]) -> str:
    """``{"wheat": 1, "gold": 2}`` → ``wheat=1,gold=2`` (resource order, zero counts dropped)."""
    return ",".join(f"{k}={v}" for k, v in sorted(tokens.items(), key=lambda kv: RESOURCES.index(kv[0])) if v)


def decode_tokens(text: str) -> dict[str, int] | None:
    """The inverse of :func:`encode_tokens`; None when ``text`` is not such a list."""
    out: dict[str, int] = {}
    for part in text.split(","):
        name, eq, count = part.partition("=")
        if not eq or name not in RESOURCES or name in out or not (count.isascii() and count.isdigit() and len(count) <= 9) or int(count) < 1:
            return None
        out[name] = int(count)
    return out


def nearest_friendly(state: SaxonState, seat: str, start: str, free_of_enemies: bool = False) -> list[str]:
    """§2.1: the nearest friendly province(s): across normal borders, else counting sea zones."""
    def ok(p: str) -> bool:
        if state.provinces[p].owner != seat:
            return False
        if free_of_enemies:
            return not any(u.owner not in (None, seat) and u.kind != "boat" for u in units_at(state, p))
        return True
    for by_sea in (False, True):
        dist = state.board.distances(start, by_sea=by_sea)
        found = [p for p in state.board.provinces if p in dist and ok(p)]
        if found:
            best = min(dist[p] for p in found)
            return [p for p in found if dist[p] == best]
    return []


def victory(state: SaxonState) -> Outcome | None:
    """§1: eliminate all others, four cities, eight resource provinces, or ten provinces."""
    if state.turn == 0:
        return None
    living = alive(state)
    if len(living) == 1 and len(state.order) > 1:
        return Outcome(winner=living[0], reason="eliminated all other players", ranking=list(living))
    if not living:
        return Outcome(draw=True, reason="every kingdom fell")
    provinces: dict[str, int] = {}
    cities: dict[str, int] = {}
    producing: dict[str, int] = {}
    for name, p in state.provinces.items():
        if p.owner is not None:
            provinces[p.owner] = provinces.get(p.owner, 0) + 1
            cities[p.owner] = cities.get(p.owner, 0) + p.city
            producing[p.owner] = producing.get(p.owner, 0) + bool(state.board.produces[name])
    for seat in living:
        if cities.get(seat, 0) >= 4:
            return Outcome(winner=seat, reason="built four cities", scores=scores(state))
        if producing.get(seat, 0) >= 8:
            return Outcome(winner=seat, reason="controls eight resource provinces", scores=scores(state))
        if provinces.get(seat, 0) >= 10:
            return Outcome(winner=seat, reason="controls ten provinces", scores=scores(state))
    return None


def scores(state: SaxonState) -> dict[str, float]:
    return {s: float(len(owned(state, s))) for s in state.seats}


