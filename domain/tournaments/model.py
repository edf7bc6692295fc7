"""The Tournament aggregate: a frozen state folded from its hash-chained events, and the
pure decisions that validate a director's action and return the events it causes.

Like :mod:`domain.game`: :func:`project_tournament` is the eventsourcing projector;
:func:`decide_*` functions never mutate and read no clock (``now`` comes in).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any
from uuid import UUID

import msgspec

from domain.errors import DomainError, NotNow
from domain.names import RULE as NAME_RULE, name_key, unreadable
from domain.events import Outcome
from domain.rules.base import RuleViolation
from domain.rules.registry import RULE_SYSTEMS
from domain.chain import GENESIS_HASH, EventData
from domain.tournaments.events import (
    FORMATS,
    ByeAssigned,
    ByeFilled,
    ForfeitRecorded,
    PlayerEntered,
    PlayerWithdrawn,
    PointsAdjusted,
    ResultRecorded,
    RoundPaired,
    RulingNoted,
    TablePairing,
    TournamentCreated,
    TournamentRecorded,
    chain,
)
from domain.tournaments.pairing import (
    Entrant,
    PairingImpossible,
    assign_seats,
    berger_round,
    knockout_rounds,
    knockout_slots,
    multi_tables,
    pair_swiss,
    round_robin_rounds,
    table_sizes,
)

MAX_NAME = 100
MAX_ROUNDS = 50  # of a Swiss tournament
MAX_REASON = 500
SWISS_BYE_POINTS = 1.0
KNOCKOUT_BYE_POINTS = 1.0
REST_BYE_POINTS = 0.0  # a round robin's odd player out: everyone rests once


class TournamentInvalid(DomainError):
    """A request the tournament rules refuse as malformed: a stable code and a message."""

    def __init__(self, code: str, message: str):
        super().__init__(code, message)


class TournamentConflict(TournamentInvalid, NotNow):
    """A request that does not fit the tournament's current state (e.g. a round unfinished)."""


class Player(msgspec.Struct, frozen=True):
    name: str
    seed: int
    withdrawn_after: int | None = None
    withdraw_reason: str = ""

    def active_in(self, round_number: int) -> bool:
        return self.withdrawn_after is None or round_number <= self.withdrawn_after


class Tournament(msgspec.Struct, frozen=True):
    """A tournament as its events leave it. Compact and immutable: safe to cache unshared."""

    id: UUID
    version: int
    created_on: datetime
    modified_on: datetime
    created: TournamentCreated
    head: str = GENESIS_HASH
    players: dict[str, Player] = {}
    rounds: tuple[RoundPaired, ...] = ()
    byes: tuple[ByeAssigned, ...] = ()
    bye_games: tuple[ByeFilled, ...] = ()  # byes filled with a game against a bot (issue 29)
    results: dict[str, ResultRecorded] = {}
    forfeits: dict[str, ForfeitRecorded] = {}
    adjustments: tuple[PointsAdjusted, ...] = ()
    rulings: dict[str, tuple[RulingNoted, ...]] = {}

    # -- what follows from the events ----------------------------------------------------------
    @property
    def format(self) -> str:
        return self.created.format

    @property
    def current_round(self) -> int:
        return len(self.rounds)

    def seeded(self) -> list[Player]:
        return sorted(self.players.values(), key=lambda p: (p.seed, p.name))

    def planned_rounds(self) -> int:
        """How many rounds the tournament has: as created for Swiss; as the field needs for a
        round robin or a knockout (known once the first round is paired)."""
        if self.format == "swiss":
            return self.created.rounds
        count = len(self.players)
        if count < 2:
            return 0
        return round_robin_rounds(count) if self.format == "round-robin" else knockout_rounds(count)

    def table_of(self, game: str) -> tuple[int, TablePairing] | None:
        for paired in self.rounds:
            for table in paired.tables:
                if table.game == game:
                    return paired.round, table
        return None

    def unfinished(self, round_number: int) -> list[TablePairing]:
        """Tables of a round with neither a result nor a forfeit."""
        if not 1 <= round_number <= len(self.rounds):
            return []
        return [t for t in self.rounds[round_number - 1].tables
                if t.game not in self.results and t.game not in self.forfeits]

    def status(self) -> str:
        if not self.rounds:
            return "registration"
        if self.current_round >= self.planned_rounds() and not self.unfinished(self.current_round):
            return "complete"
        return "running"


# -- folding -----------------------------------------------------------------------------------
def apply(t: Tournament | None, event: TournamentRecorded) -> Tournament:
    data = event.typed()
    if t is None:
        if not isinstance(data, TournamentCreated):
            raise ValueError(f"a tournament starts with TournamentCreated, not {event.type}")
        return Tournament(event.originator_id, event.version, event.timestamp, event.timestamp, data, event.hash)
    changes: dict[str, Any] = {"version": event.version, "modified_on": event.timestamp, "head": event.hash}
    match data:
        case PlayerEntered(player=name, seed=seed):
            changes["players"] = {**t.players, name: Player(name, seed)}
        case PlayerWithdrawn(player=name, reason=reason, after_round=after):
            changes["players"] = {**t.players, name: msgspec.structs.replace(
                t.players[name], withdrawn_after=after, withdraw_reason=reason)}
        case RoundPaired():
            changes["rounds"] = t.rounds + (data,)
        case ByeAssigned():
            changes["byes"] = t.byes + (data,)
        case ByeFilled():
            changes["bye_games"] = t.bye_games + (data,)
        case ResultRecorded(game=game):
            changes["results"] = {**t.results, game: data}
        case ForfeitRecorded(game=game):
            changes["forfeits"] = {**t.forfeits, game: data}
        case PointsAdjusted():
            changes["adjustments"] = t.adjustments + (data,)
        case RulingNoted(game=game):
            changes["rulings"] = {**t.rulings, game: t.rulings.get(game, ()) + (data,)}
    return msgspec.structs.replace(t, **changes)


def project_tournament(t: Tournament | None, events: Iterable[TournamentRecorded]) -> Tournament | None:
    """The eventsourcing projector: fold stored events from ``t`` (or from nothing)."""
    for event in events:
        t = apply(t, event)
    return t


def _record(t: Tournament, events: list[EventData], now: datetime) -> list[TournamentRecorded]:
    return chain(t.id, t.version + 1, t.head, events, now)


def _text(value: str, what: str, limit: int, code: str) -> str:
    value = value.strip()
    if not value or len(value) > limit:
        raise TournamentInvalid(code, f"{what}: 1 to {limit} characters")
    return value


# -- decisions -----------------------------------------------------------------------------------
def decide_create(tournament_id: UUID, created: TournamentCreated, now: datetime) -> list[TournamentRecorded]:
    """Check a new tournament against the rule system and its format; its first event."""
    _text(created.name, "name", MAX_NAME, "bad_name")
    rules = RULE_SYSTEMS.get(created.rules)
    if rules is None:
        raise TournamentInvalid("unknown_rules", f"unknown rule system {created.rules!r}; known: "
                                f"{', '.join(sorted(RULE_SYSTEMS))}")
    if created.format not in FORMATS:
        raise TournamentInvalid("unknown_format", f"format is one of {', '.join(FORMATS)}, not {created.format!r}")
    if not created.scenarios:
        raise TournamentInvalid("no_scenario", f"{rules.id} has {len(rules.scenarios)} scenarios: name at least one "
                                f"in \"scenarios\" ({', '.join(rules.scenarios)})")
    for scenario_id in created.scenarios:
        if scenario_id not in rules.scenarios:
            raise TournamentInvalid("unknown_scenario", f"{rules.id} has no scenario {scenario_id!r}; "
                                    f"it has {', '.join(rules.scenarios)}")
        scenario = rules.scenarios[scenario_id]
        if not scenario.min_players <= created.min_table <= created.table_size <= scenario.max_players:
            raise TournamentInvalid("bad_table_size", f"{rules.id} {scenario_id} seats {scenario.min_players} to "
                                    f"{scenario.max_players}; tables of {created.min_table} to "
                                    f"{created.table_size} do not fit")
        if len(scenario.seats) < created.table_size:
            raise TournamentInvalid("bad_table_size", f"{scenario_id} names only {len(scenario.seats)} seats")
        try:
            rules.setup(scenario_id, scenario.seats[:created.table_size], created.options)
        except RuleViolation as error:
            raise TournamentInvalid("bad_option", f"{scenario_id}: {error.message}") from None
    if created.table_size > 2 and created.format != "swiss":
        raise TournamentInvalid("bad_format", "multi-player tables are paired by score (format swiss) only")
    if created.format == "swiss" and not 1 <= created.rounds <= MAX_ROUNDS:
        raise TournamentInvalid("bad_rounds", f"a Swiss tournament has 1 to {MAX_ROUNDS} rounds")
    if created.format != "swiss" and created.rounds:
        raise TournamentInvalid("bad_rounds", f"a {created.format} has as many rounds as its field needs; "
                                "leave rounds out")
    return chain(tournament_id, 1, GENESIS_HASH, [created], now)


def decide_register(t: Tournament, name: str, seed: int | None, now: datetime) -> list[TournamentRecorded]:
    name = _text(name, "player name", MAX_NAME, "bad_player")
    if t.rounds:
        raise TournamentConflict("registration_closed", "players register before the first round is paired")
    hidden = unreadable(name)
    if hidden is not None:
        raise TournamentInvalid("bad_player", f"player name: {NAME_RULE}; it holds {hidden}")
    key = name_key(name)
    same = next((p for p in t.players if name_key(p) == key), None)
    if same is not None:
        raise TournamentConflict("already_registered", f"{name} is already registered"
                                 + ("" if same == name else f" (as {same})"))
    seed = len(t.players) + 1 if seed is None else seed
    if seed < 1 or any(p.seed == seed for p in t.players.values()):
        raise TournamentInvalid("bad_seed", f"seed {seed} is taken or not positive")
    return _record(t, [PlayerEntered(player=name, seed=seed)], now)


def decide_withdraw(t: Tournament, name: str, reason: str, now: datetime) -> list[TournamentRecorded]:
    player = _player(t, name)
    if player.withdrawn_after is not None:
        raise TournamentConflict("already_withdrawn", f"{name} withdrew after round {player.withdrawn_after}")
    reason = _text(reason, "reason", MAX_REASON, "bad_reason")
    return _record(t, [PlayerWithdrawn(player=name, reason=reason, after_round=t.current_round)], now)


def decide_result(t: Tournament, game: str, outcome: Outcome, version: int, hash_: str,
                  now: datetime, reason: str = "GameEnded") -> list[TournamentRecorded]:
    """A linked game's end, as the results process saw it in the event stream. Nothing when
    the game is not this tournament's or the same end is already recorded."""
    found = t.table_of(game)
    if found is None:
        return []
    known = t.results.get(game)
    if known is not None and known.hash == hash_:
        return []
    round_number, table = found
    upheld = [r for r in t.rulings.get(game, ()) if r.ruling == "upheld"]
    if upheld:
        reason += "; after " + "; ".join(
            f"dispute {r.dispute} upheld ({r.reason})" + (f", play voided from version {r.void_from}"
                                                          if r.void_from else "") for r in upheld)
    return _record(t, [ResultRecorded(round=round_number, table=table.table, game=game, outcome=outcome,
                                      version=version, hash=hash_, reason=reason)], now)


def decide_ruling(t: Tournament, game: str, ruled: dict[str, Any], version: int, hash_: str,
                  now: datetime) -> list[TournamentRecorded]:
    """An umpire's ruling in a linked game, as the results process saw its DisputeRuled
    event. Nothing when the game is not this tournament's or the ruling is already noted."""
    found = t.table_of(game)
    if found is None or any(r.hash == hash_ for r in t.rulings.get(game, ())):
        return []
    round_number, table = found
    return _record(t, [RulingNoted(round=round_number, table=table.table, game=game, dispute=ruled["dispute"],
                                   ruling=ruled["ruling"], reason=ruled["reason"], version=version, hash=hash_,
                                   void_from=ruled.get("void_from"))], now)


def decide_forfeit(t: Tournament, game: str, forfeited: list[str], reason: str,
                   now: datetime) -> list[TournamentRecorded]:
    found = t.table_of(game)
    if found is None:
        raise TournamentInvalid("unknown_game", f"game {game} is not paired in this tournament")
    round_number, table = found
    players = set(table.seats.values())
    if not forfeited or not set(forfeited) <= players or len(set(forfeited)) != len(forfeited):
        raise TournamentInvalid("bad_forfeit", f"name the forfeiting players among {', '.join(sorted(players))}")
    reason = _text(reason, "reason", MAX_REASON, "bad_reason")
    return _record(t, [ForfeitRecorded(round=round_number, table=table.table, game=game,
                                       forfeited=sorted(forfeited), reason=reason)], now)


def decide_adjust(t: Tournament, name: str, points: float, reason: str, round_number: int | None,
                  now: datetime) -> list[TournamentRecorded]:
    _player(t, name)
    if not -100 <= points <= 100 or points == 0 or round(points * 2) != points * 2:
        raise TournamentInvalid("bad_points", "adjust by a non-zero multiple of ½ between -100 and 100")
    if round_number is not None and not 1 <= round_number <= t.current_round:
        raise TournamentInvalid("bad_round", f"round {round_number} has not been paired")
    reason = _text(reason, "reason", MAX_REASON, "bad_reason")
    return _record(t, [PointsAdjusted(player=name, points=points, reason=reason, round=round_number)], now)


def _player(t: Tournament, name: str) -> Player:
    try:
        return t.players[name]
    except KeyError:
        raise TournamentInvalid("unknown_player", f"{name!r} is not registered in this tournament") from None


# -- pairing a round -----------------------------------------------------------------------------
class PlannedTable(msgspec.Struct, frozen=True):
    table: int
    scenario: str
    seats: dict[str, str]  # seat -> player


class PlannedBye(msgspec.Struct, frozen=True):
    player: str
    points: float
    reason: str


class RoundPlan(msgspec.Struct, frozen=True):
    round: int
    tables: list[PlannedTable]
    byes: list[PlannedBye]
    method: str


def plan_round(t: Tournament) -> RoundPlan:
    """The next round's tables and byes, from the format and the results so far (pure)."""
    number = t.current_round + 1
    if t.current_round and t.unfinished(t.current_round):
        waiting = ", ".join(f"table {x.table}" for x in t.unfinished(t.current_round))
        raise TournamentConflict("round_unfinished", f"round {t.current_round} is not finished: {waiting}")
    if len([p for p in t.players.values() if p.withdrawn_after is None]) < 2:
        raise TournamentConflict("too_few_players", "at least two players still in the tournament are needed")
    if t.rounds and number > t.planned_rounds():
        raise TournamentConflict("tournament_complete", f"all {t.planned_rounds()} rounds have been played")
    if not t.rounds and t.format != "swiss" and len(t.players) < 2:
        raise TournamentConflict("too_few_players", "at least two players are needed")
    scenario = t.created.scenarios[(number - 1) % len(t.created.scenarios)]
    seats = RULE_SYSTEMS[t.created.rules].scenarios[scenario].seats
    try:
        if t.format == "round-robin":
            return _plan_round_robin(t, number, scenario, seats)
        if t.format == "knockout":
            return _plan_knockout(t, number, scenario, seats)
        if t.created.table_size > 2:
            return _plan_multi(t, number, scenario, seats)
        return _plan_swiss(t, number, scenario, seats)
    except PairingImpossible as error:
        raise TournamentConflict("pairing_impossible", str(error)) from None


def entrants(t: Tournament) -> list[Entrant]:
    """Every player with points, opponents, byes and sides so far, in pairing order:
    points (highest first), then seed."""
    from domain.tournaments.standings import points_by_player

    points = points_by_player(t)
    opponents: dict[str, set[str]] = {p: set() for p in t.players}
    sides: dict[str, list[int]] = {p: [] for p in t.players}
    byes = {p: 0 for p in t.players}
    for paired in t.rounds:
        for table in paired.tables:
            order = list(table.seats)
            for seat, player in table.seats.items():
                opponents[player] |= {q for q in table.seats.values() if q != player}
                sides[player].append(order.index(seat) if len(order) == 2 else -1)
    for bye in t.byes:
        byes[bye.player] += 1
    out = [Entrant(p.name, points.get(p.name, 0.0), p.seed, frozenset(opponents[p.name]), byes[p.name],
                   tuple(sides[p.name])) for p in t.players.values()]
    return sorted(out, key=lambda e: (-e.points, e.seed, e.name))


def _active(t: Tournament, number: int) -> set[str]:
    return {p.name for p in t.players.values() if p.active_in(number)}


def _plan_swiss(t: Tournament, number: int, scenario: str, seats: tuple[str, ...]) -> RoundPlan:
    active = _active(t, number)
    ranked = [e for e in entrants(t) if e.name in active]
    pairing = pair_swiss(ranked)
    tables = [PlannedTable(i, scenario, {seats[0]: a, seats[1]: b}) for i, (a, b) in enumerate(pairing.pairs, start=1)]
    byes = ([PlannedBye(pairing.bye, SWISS_BYE_POINTS, "odd number of players: the lowest-placed player "
                        "without a bye")] if pairing.bye else [])
    return RoundPlan(number, tables, byes, "swiss: no rematch, score groups, sides within one, alternation, "
                     "Dutch order; networkx maximum-weight matching")


def _plan_multi(t: Tournament, number: int, scenario: str, seats: tuple[str, ...]) -> RoundPlan:
    active = _active(t, number)
    ranked = [e for e in entrants(t) if e.name in active]
    byes: list[PlannedBye] = []
    size, smallest = t.created.table_size, t.created.min_table
    sizes = table_sizes(len(ranked), size, smallest, size)
    while not sizes and ranked:
        candidates = [e for e in reversed(ranked) if e.byes == 0] or list(reversed(ranked))
        byes.append(PlannedBye(candidates[0].name, SWISS_BYE_POINTS,
                               f"{len(ranked)} players cannot fill tables of {smallest} to {size}"))
        ranked = [e for e in ranked if e.name != candidates[0].name]
        sizes = table_sizes(len(ranked), size, smallest, size)
    used: dict[str, dict[str, int]] = {}
    for paired in t.rounds:
        for table in paired.tables:
            for seat, player in table.seats.items():
                used.setdefault(player, {}).setdefault(seat, 0)
                used[player][seat] += 1
    tables = [PlannedTable(i, scenario, assign_seats(group, seats, used))
              for i, group in enumerate(multi_tables(ranked, sizes), start=1)]
    return RoundPlan(number, tables, byes, f"tables of {smallest} to {size} by score; seats by least use "
                     "(networkx maximum-weight matching)")


def _plan_round_robin(t: Tournament, number: int, scenario: str, seats: tuple[str, ...]) -> RoundPlan:
    seeded = t.seeded()
    tables, byes = [], []
    for first, second in berger_round(len(seeded), number):
        a = seeded[first - 1] if first <= len(seeded) else None
        b = seeded[second - 1] if second <= len(seeded) else None
        if a is None or b is None:
            resting = a or b
            if resting is not None and resting.active_in(number):
                byes.append(PlannedBye(resting.name, REST_BYE_POINTS, "odd number of players: rests this round "
                                       "(Berger tables)"))
            continue
        if not (a.active_in(number) and b.active_in(number)):
            stays = a if a.active_in(number) else b if b.active_in(number) else None
            if stays is not None:
                byes.append(PlannedBye(stays.name, SWISS_BYE_POINTS, "the opponent withdrew"))
            continue
        tables.append(PlannedTable(len(tables) + 1, scenario, {seats[0]: a.name, seats[1]: b.name}))
    return RoundPlan(number, tables, byes, f"round robin: Berger tables, round {number} of {t.planned_rounds()}")


def knockout_winner(t: Tournament, table: TablePairing) -> str:
    """Who advances from a finished knockout table: most points from the game (or forfeit),
    then the larger rule-system score, then the better seed."""
    from domain.tournaments.standings import table_points

    points = table_points(t, table)
    result = t.results.get(table.game)
    scores = result.outcome.scores if result is not None else {}
    by_player = {player: scores.get(seat, 0.0) for seat, player in table.seats.items()}
    return min(table.seats.values(), key=lambda p: (-points.get(p, 0.0), -by_player[p], t.players[p].seed))


def _plan_knockout(t: Tournament, number: int, scenario: str, seats: tuple[str, ...]) -> RoundPlan:
    slots: list[str | None] = knockout_slots([p.name for p in t.seeded()])
    for past in t.rounds[: number - 1]:
        slots = [_advances(t, past, slots[i], slots[i + 1]) for i in range(0, len(slots), 2)]
    firsts = _first_seats(t)
    tables, byes = [], []
    for i in range(0, len(slots), 2):
        a, b = slots[i], slots[i + 1]
        a = a if a is not None and t.players[a].active_in(number) else None
        b = b if b is not None and t.players[b].active_in(number) else None
        if a is None or b is None:
            if a or b:
                reason = "no opponent in the bracket" if number == 1 else "the opponent withdrew"
                byes.append(PlannedBye(a or b, KNOCKOUT_BYE_POINTS, f"{reason}: advances"))
            continue
        if (firsts[b], t.players[b].seed) < (firsts[a], t.players[a].seed):
            a, b = b, a
        tables.append(PlannedTable(len(tables) + 1, scenario, {seats[0]: a, seats[1]: b}))
    return RoundPlan(number, tables, byes, f"single elimination: seeded bracket, round {number} of "
                     f"{t.planned_rounds()}")


def _first_seats(t: Tournament) -> dict[str, int]:
    firsts = {p: 0 for p in t.players}
    for paired in t.rounds:
        for table in paired.tables:
            firsts[next(iter(table.seats.values()))] += 1
    return firsts


def _advances(t: Tournament, paired: RoundPaired, a: str | None, b: str | None) -> str | None:
    for table in paired.tables:
        if {a, b} == set(table.seats.values()):
            return knockout_winner(t, table)
    for bye in t.byes:
        if bye.round == paired.round and bye.player in (a, b):
            return bye.player
    return None


def paired_events(plan: RoundPlan, games: dict[int, str]) -> list[EventData]:
    """The events of a planned round once its games exist (``games``: table -> game id)."""
    events: list[EventData] = [RoundPaired(
        round=plan.round,
        tables=[TablePairing(table=x.table, game=games[x.table], scenario=x.scenario, seats=x.seats)
                for x in plan.tables],
        method=plan.method,
    )]
    events += [ByeAssigned(round=plan.round, player=b.player, points=b.points, reason=b.reason) for b in plan.byes]
    return events


def record_round(t: Tournament, plan: RoundPlan, games: dict[int, str], now: datetime,
                 filled: Iterable[ByeFilled] = ()) -> list[TournamentRecorded]:
    """The round's events; ``filled``: its byes filled with a game against a bot."""
    if plan.round != t.current_round + 1:
        raise TournamentConflict("stale_round", f"round {plan.round} was planned, but the tournament is at "
                                 f"round {t.current_round}")
    return _record(t, paired_events(plan, games) + list(filled), now)
