"""Tournaments and players over REST: the ``/tournaments…`` and ``/players…`` routes and the
application service behind them (issue 6).

The service loads a tournament, runs one decision of :mod:`domain.tournaments.model`, saves
its events and returns plain data. Games are created through :class:`api.service.Herald`
like any other game, tied to their round and table; their results reach the tournament
only through the results process (:mod:`projections.standings`) reading ``GameEnded``.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterator
from datetime import datetime, timezone
from typing import Annotated, Any
from uuid import NAMESPACE_URL, UUID, uuid4, uuid5

import msgspec
from eventsourcing.persistence import IntegrityError
from eventsourcing.utils import get_topic
from fastapi import APIRouter, Header, Path, Query, Request
from fastapi.responses import Response, StreamingResponse
from starlette.concurrency import run_in_threadpool

from api.errors import Conflict, Forbidden, HeraldError, Invalid, NotFound, Unauthorized
from api.http import MAX_INT, bearer, doc, read_body, respond
from api.service import CreateGame, Herald, SeatRequest, documented
from api.tokens import hash_token, matches, new_token
from domain.events import GameCreated, Outcome, TournamentRef
from domain.game import Recorded
from domain.players import SeatClaimed
from domain.rules.registry import RULE_SYSTEMS
from domain.tournaments.events import FORMATS, RulingNoted, TournamentCreated, TournamentRecorded
from domain.tournaments.model import (
    MAX_NAME,
    Tournament,
    TournamentConflict,
    TournamentInvalid,
    decide_adjust,
    decide_create,
    decide_forfeit,
    decide_register,
    decide_result,
    decide_ruling,
    decide_withdraw,
    plan_round,
    project_tournament,
    record_round,
)
from domain.tournaments.standings import (
    CrossRow,
    Standing,
    crosstable,
    crosstable_csv,
    standings,
    standings_csv,
)
from projections.ratings import CASUAL, TOURNAMENT, UNRATED, Rating, Ratings
from projections.sql import Database
from projections.standings import TournamentResults, TournamentRow
from replays.archive import TournamentArchive, build_archive, to_archive_event
from replays.record import Record, RecordEvent

MAX_BODY = 64 * 1024


# -- the private stream: director and player token hashes --------------------------------------
class TournamentKeys(msgspec.Struct, frozen=True):
    """One change to a tournament's private stream. Never served, never exported: token
    hashes only. Seat tokens of its games are derived from the server's key when a player
    asks (``my_games``); versions before issue 11 kept them here in clear (still read)."""

    originator_id: UUID
    originator_version: int
    timestamp: datetime
    tournament: UUID
    director: str = ""
    players: dict[str, str] = {}                 # player -> sha256 of their player token
    seat_tokens: dict[str, dict[str, str]] = {}  # game -> seat -> token (written by earlier versions only)


class Keys(msgspec.Struct, frozen=True):
    version: int = 0
    director: str = ""
    players: dict[str, str] = {}
    seat_tokens: dict[str, dict[str, str]] = {}


def keys_id(tournament_id: UUID) -> UUID:
    return uuid5(NAMESPACE_URL, f"herald:tournament-keys:{tournament_id}")


def _now() -> datetime:
    return datetime.now(timezone.utc)


# -- bodies ------------------------------------------------------------------------------------
class CreateTournament(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """POST /tournaments. ``rounds`` for Swiss only (round robin and knockout have as many
    as the field needs). ``table_size`` above 2 pairs multi-player tables by score, each of
    ``min_table`` to ``table_size`` players (``min_table`` defaults to ``table_size − 1``)."""

    name: Annotated[str, documented(minLength=1, maxLength=MAX_NAME)]
    rules: Annotated[str, documented(enum=sorted(RULE_SYSTEMS))]
    format: Annotated[str, documented(enum=sorted(FORMATS))]
    scenarios: list[str] = []
    rounds: int = 0
    table_size: int = 2
    min_table: int | None = None
    rated: bool = True
    director: str = ""
    options: dict[str, Any] = {}


class TournamentCreatedResponse(msgspec.Struct, frozen=True):
    id: str
    version: int
    director_token: str
    head: dict[str, Any]


class RegisterPlayer(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """POST /tournaments/{id}/players (director)."""

    name: str
    seed: int | None = None


class PlayerRegisteredResponse(msgspec.Struct, frozen=True):
    player: str
    seed: int
    player_token: str
    version: int


class Withdraw(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    reason: str


class Forfeit(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """POST /tournaments/{id}/forfeits (director): the forfeiting players of one game."""

    game: str
    forfeited: list[str]
    reason: str


class Adjust(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """POST /tournaments/{id}/adjustments (director): points added or taken, with a reason."""

    player: str
    points: float
    reason: str
    round: int | None = None


class Head(msgspec.Struct, frozen=True):
    version: int
    hash: str


class PlayerInfo(msgspec.Struct, frozen=True):
    name: str
    seed: int
    withdrawn_after: int | None
    withdraw_reason: str


class TableInfo(msgspec.Struct, frozen=True):
    table: int
    game: str
    scenario: str
    seats: dict[str, str]
    status: str  # "playing", "ended", "forfeit"
    outcome: Outcome | None = None
    result_hash: str | None = None
    result_version: int | None = None
    forfeited: list[str] = []
    reason: str = ""
    rulings: list[RulingNoted] = []  # umpires' rulings in this game, linked to its record


class ByeInfo(msgspec.Struct, frozen=True):
    player: str
    points: float
    reason: str


class RoundInfo(msgspec.Struct, frozen=True):
    round: int
    method: str
    tables: list[TableInfo]
    byes: list[ByeInfo]


class TournamentSummary(msgspec.Struct, frozen=True):
    id: str
    name: str
    rules: str
    scenarios: list[str]
    format: str
    rounds: int
    table_size: int
    min_table: int
    rated: bool
    director: str
    options: dict[str, Any]
    status: str
    current_round: int
    head: Head
    players: list[PlayerInfo]
    paired: list[RoundInfo]


class PairedTable(msgspec.Struct, frozen=True):
    table: int
    game: str
    scenario: str
    seats: dict[str, str]
    seat_tokens: dict[str, str]


class RoundPairedResponse(msgspec.Struct, frozen=True):
    round: int
    method: str
    tables: list[PairedTable]
    byes: list[ByeInfo]
    head: Head


class MyGame(msgspec.Struct, frozen=True):
    round: int
    table: int
    game: str
    scenario: str
    seat: str
    seat_token: str
    status: str


class MyGames(msgspec.Struct, frozen=True):
    player: str
    games: list[MyGame]


class StandingsBody(msgspec.Struct, frozen=True):
    tournament: str
    status: str
    round: int
    head: Head
    standings: list[Standing]


class CrosstableBody(msgspec.Struct, frozen=True):
    tournament: str
    round: int
    head: Head
    rows: list[CrossRow]


class TournamentEventsPage(msgspec.Struct, frozen=True):
    events: list[RecordEvent]
    next: int | None


class TournamentsPage(msgspec.Struct, frozen=True):
    tournaments: list[TournamentRow]
    next: int | None


class PlayerProfile(msgspec.Struct, frozen=True):
    name: str
    ratings: list[Rating]


class Leaderboard(msgspec.Struct, frozen=True):
    rules: str
    scenario: str
    ratings: list[Rating]


# -- the service ---------------------------------------------------------------------------------
class Tournaments:
    """Every tournament operation, over the Herald's event store."""

    def __init__(self, herald: Herald):
        self.herald = herald
        self.store = herald.store
        db = Database.of(self.store.recorder)
        topics = [get_topic(Recorded), get_topic(TournamentRecorded)]
        self.results = TournamentResults(db, lambda start, limit: self._log(start, limit, topics), self._on_game_event)
        rated = [get_topic(Recorded), get_topic(SeatClaimed)]
        self.ratings = Ratings(db, lambda start, limit: self._log(start, limit, rated), self._game_info)
        self._locks = [threading.RLock() for _ in range(32)]
        self._cache: OrderedDict[UUID, Tournament] = OrderedDict()
        self._cache_lock = threading.Lock()
        herald.umpire_hooks.append(self.directs_game)  # a director rules on disputes in its games
        herald.seat_hooks.append(self.seats_of_player)  # a player token reads as its seats

    def directs_game(self, game_id: UUID, token: str) -> bool:
        """Whether ``token`` is the director's of the tournament ``game_id`` was paired in."""
        created = self._created(game_id)
        if created is None or created.tournament is None:
            return False
        try:
            expected = self.keys(UUID(created.tournament.id)).director
        except (ValueError, HeraldError):
            return False
        return matches(expected, token)

    def seats_of_player(self, game_id: UUID, token: str) -> frozenset[str]:
        """The seats of ``game_id`` held by the tournament player whose token this is (none
        for any other token): a player token reads its own hands like the seat's token."""
        created = self._created(game_id)
        if created is None or created.tournament is None:
            return frozenset()
        try:
            player = self.player_of(UUID(created.tournament.id), token)
        except (ValueError, HeraldError):
            return frozenset()
        return frozenset(seat for seat, info in created.seats.items() if info.player == player)

    # -- internals --------------------------------------------------------------------------------
    def _log(self, start: int, limit: int, topics: list[str]) -> list[tuple[int, Any]]:
        batch = self.store.recorder.select_notifications(start=start, limit=limit, topics=topics)
        return [(n.id, self.store.mapper.to_domain_event(n)) for n in batch]

    def _lock(self, tournament_id: UUID) -> threading.RLock:
        return self._locks[tournament_id.int % len(self._locks)]

    def _save(self, *events: Any) -> None:
        try:
            self.store.save(*events)
        except IntegrityError:
            raise Conflict("another change was recorded first; reload and retry", code="stale_version") from None

    def tournament(self, tournament_id: UUID) -> Tournament:
        """The current tournament: cached, fast-forwarded from the store."""
        with self._cache_lock:
            cached = self._cache.get(tournament_id)
        newer = list(self.store.events.get(tournament_id, gt=cached.version if cached else None))
        if any(not isinstance(e, TournamentRecorded) for e in newer):
            raise NotFound(f"no tournament {tournament_id}")
        try:
            found = project_tournament(cached, newer)
        except ValueError:
            raise NotFound(f"no tournament {tournament_id}") from None
        if found is None:
            raise NotFound(f"no tournament {tournament_id}")
        with self._cache_lock:
            self._cache[tournament_id] = found
            self._cache.move_to_end(tournament_id)
            while len(self._cache) > 256:
                self._cache.popitem(last=False)
        return found

    def keys(self, tournament_id: UUID) -> Keys:
        keys = Keys()
        for change in self.store.events.get(keys_id(tournament_id)):
            keys = Keys(change.originator_version, change.director or keys.director,
                        {**keys.players, **change.players}, {**keys.seat_tokens, **change.seat_tokens})
        return keys

    def _key_change(self, tournament_id: UUID, keys: Keys, **change: Any) -> TournamentKeys:
        return TournamentKeys(keys_id(tournament_id), keys.version + 1, _now(), tournament_id, **change)

    def authorize_director(self, tournament_id: UUID, token: str | None) -> None:
        """The director's token, or the admin token from configuration."""
        self.tournament(tournament_id)  # 404 first
        if not token:
            raise Unauthorized("send the director's token as 'Authorization: Bearer <token>'")
        if self.herald.is_admin(token):
            return
        expected = self.keys(tournament_id).director
        if not matches(expected, token):
            raise Forbidden("only the tournament's director (or an admin) may do this", code="not_director")

    def player_of(self, tournament_id: UUID, token: str | None) -> str:
        if not token:
            raise Unauthorized("send your player token as 'Authorization: Bearer <token>'")
        found = None
        for player, expected in sorted(self.keys(tournament_id).players.items()):
            if matches(expected, token):
                found = player
        if found is not None:
            return found
        raise Forbidden("that token is not a player token of this tournament", code="wrong_token")

    def _decide(self, tournament_id: UUID, decide, *args: Any) -> Tournament:
        with self._lock(tournament_id):
            t = self.tournament(tournament_id)
            try:
                events = decide(t, *args, _now())
            except TournamentConflict as error:
                raise Conflict(error.message, code=error.code) from None
            except TournamentInvalid as error:
                raise Invalid(error.message, code=error.code) from None
            if events:
                self._save(*events)
            return self.tournament(tournament_id)

    # -- the results process and the ratings' view of a game ---------------------------------------
    def _created(self, game_id: UUID) -> GameCreated | None:
        first = next(iter(self.store.events.get(game_id, limit=1)), None)
        if not isinstance(first, Recorded) or first.type != "GameCreated":
            return None
        created = first.typed()
        return created if isinstance(created, GameCreated) else None

    def _on_game_event(self, event: Recorded) -> None:
        """The results process: a GameEnded becomes the table's result, an umpire's
        DisputeRuled a note in the tournament's history, each linked by version and hash."""
        created = self._created(event.originator_id)
        ref = created.tournament if created else None
        if ref is None:
            return
        try:
            tournament_id = UUID(ref.id)
            self.tournament(tournament_id)
        except (ValueError, NotFound):
            return
        game = str(event.originator_id)
        if event.type == "DisputeRuled":
            decide, args = decide_ruling, (game, event.data, event.version, event.hash)
        else:
            outcome = msgspec.convert(event.data["outcome"], Outcome)
            decide, args = decide_result, (game, outcome, event.version, event.hash)
        for attempt in range(3):  # another process may record the same first: reload, it is then a no-op
            try:
                self._decide(tournament_id, decide, *args)
                return
            except Conflict:
                if attempt == 2:
                    raise

    def _game_info(self, game_id: UUID) -> tuple[GameCreated, str] | None:
        """A game's creation and who vouches for its players (projections.ratings): the
        tournament that paired it at a table, else its players' claims (a casual game)."""
        created = self._created(game_id)
        if created is None:
            return None
        if created.study or created.fork is not None:
            return created, UNRATED
        if created.tournament is not None:
            try:
                t = self.tournament(UUID(created.tournament.id))
            except (ValueError, NotFound):
                t = None
            if t is not None and t.table_of(str(game_id)) is not None:  # paired there, not merely naming it
                return created, TOURNAMENT if t.created.rated else UNRATED
        return created, CASUAL

    def catch_up(self) -> None:
        self.results.catch_up()

    # -- commands ---------------------------------------------------------------------------------
    def create(self, body: CreateTournament) -> TournamentCreatedResponse:
        from domain.rules.registry import RULE_SYSTEMS

        rules = RULE_SYSTEMS.get(body.rules)
        scenarios = body.scenarios or ([next(iter(rules.scenarios))] if rules else [])
        created = TournamentCreated(
            name=body.name.strip(), rules=body.rules, scenarios=scenarios, format=body.format, rounds=body.rounds,
            table_size=body.table_size,
            min_table=body.min_table if body.min_table is not None else max(2, body.table_size - 1),
            rated=body.rated, director=body.director.strip()[:100], options=body.options,
        )
        tournament_id = uuid4()
        try:
            events = decide_create(tournament_id, created, _now())
        except TournamentInvalid as error:
            raise Invalid(error.message, code=error.code) from None
        token = new_token()
        vault = TournamentKeys(keys_id(tournament_id), 1, events[0].timestamp, tournament_id,
                               director=hash_token(token))
        self._save(*events, vault)
        return TournamentCreatedResponse(str(tournament_id), 1, token, {"version": 1, "hash": events[-1].hash})

    def register(self, tournament_id: UUID, body: RegisterPlayer, token: str | None) -> PlayerRegisteredResponse:
        self.authorize_director(tournament_id, token)
        with self._lock(tournament_id):
            t = self.tournament(tournament_id)
            try:
                events = decide_register(t, body.name, body.seed, _now())
            except TournamentConflict as error:
                raise Conflict(error.message, code=error.code) from None
            except TournamentInvalid as error:
                raise Invalid(error.message, code=error.code) from None
            player_token = new_token()
            name = events[0].data["player"]
            vault = self._key_change(tournament_id, self.keys(tournament_id), players={name: hash_token(player_token)})
            self._save(*events, vault)
        return PlayerRegisteredResponse(name, events[0].data["seed"], player_token, events[-1].version)

    def withdraw(self, tournament_id: UUID, player: str, body: Withdraw, token: str | None) -> TournamentSummary:
        self.authorize_director(tournament_id, token)
        return self._summary(self._decide(tournament_id, decide_withdraw, player, body.reason))

    def forfeit(self, tournament_id: UUID, body: Forfeit, token: str | None) -> TournamentSummary:
        self.authorize_director(tournament_id, token)
        self.catch_up()
        return self._summary(self._decide(tournament_id, decide_forfeit, body.game, body.forfeited, body.reason))

    def adjust(self, tournament_id: UUID, body: Adjust, token: str | None) -> TournamentSummary:
        self.authorize_director(tournament_id, token)
        return self._summary(self._decide(tournament_id, decide_adjust, body.player, body.points, body.reason,
                                          body.round))

    def pair(self, tournament_id: UUID, token: str | None) -> RoundPairedResponse:
        """Pair the next round: plan it (pure), create each table's game, record the round."""
        self.authorize_director(tournament_id, token)
        self.catch_up()
        with self._lock(tournament_id):
            t = self.tournament(tournament_id)
            try:
                plan = plan_round(t)
            except TournamentConflict as error:
                raise Conflict(error.message, code=error.code) from None
            games: dict[int, str] = {}
            tokens: dict[str, dict[str, str]] = {}
            for table in plan.tables:
                made = self.herald.create(CreateGame(
                    rules=t.created.rules, scenario=table.scenario,
                    seats={seat: SeatRequest(player) for seat, player in table.seats.items()},
                    options=t.created.options,
                    tournament=TournamentRef(str(tournament_id), plan.round, table.table),
                ), seat_token=self.herald.derived_seat_token)
                games[table.table] = made.id
                tokens[made.id] = made.seat_tokens
            try:
                events = record_round(t, plan, games, _now())
            except TournamentConflict as error:
                raise Conflict(error.message, code=error.code) from None
            self._save(*events)
            t = self.tournament(tournament_id)
        paired = t.rounds[plan.round - 1]
        return RoundPairedResponse(
            round=plan.round, method=plan.method,
            tables=[PairedTable(x.table, x.game, x.scenario, x.seats, tokens[x.game]) for x in paired.tables],
            byes=[ByeInfo(b.player, b.points, b.reason) for b in plan.byes],
            head=Head(t.version, t.head),
        )

    # -- reads ---------------------------------------------------------------------------------------
    def summary(self, tournament_id: UUID) -> TournamentSummary:
        self.catch_up()
        return self._summary(self.tournament(tournament_id))

    def _summary(self, t: Tournament) -> TournamentSummary:
        c = t.created
        return TournamentSummary(
            id=str(t.id), name=c.name, rules=c.rules, scenarios=c.scenarios, format=c.format,
            rounds=t.planned_rounds(), table_size=c.table_size, min_table=c.min_table, rated=c.rated,
            director=c.director, options=c.options, status=t.status(), current_round=t.current_round,
            head=Head(t.version, t.head),
            players=[PlayerInfo(p.name, p.seed, p.withdrawn_after, p.withdraw_reason) for p in t.seeded()],
            paired=[_round_info(t, n) for n in range(1, t.current_round + 1)],
        )

    def round(self, tournament_id: UUID, number: int) -> RoundInfo:
        self.catch_up()
        t = self.tournament(tournament_id)
        if not 1 <= number <= t.current_round:
            raise NotFound(f"round {number} has not been paired; rounds paired: {t.current_round}",
                           code="no_such_round")
        return _round_info(t, number)

    def my_games(self, tournament_id: UUID, token: str | None) -> MyGames:
        self.tournament(tournament_id)
        player = self.player_of(tournament_id, token)
        self.catch_up()
        t = self.tournament(tournament_id)
        keys = self.keys(tournament_id)
        games = []
        for paired in t.rounds:
            for x in paired.tables:
                for seat, who in x.seats.items():
                    if who == player:
                        status = ("forfeit" if x.game in t.forfeits else "ended" if x.game in t.results
                                  else "playing")
                        token = (keys.seat_tokens.get(x.game, {}).get(seat)  # kept by earlier versions
                                 or self.herald.derived_seat_token(UUID(x.game), seat))
                        games.append(MyGame(paired.round, x.table, x.game, x.scenario, seat, token, status))
        return MyGames(player, games)

    def standings(self, tournament_id: UUID) -> StandingsBody:
        self.catch_up()
        t = self.tournament(tournament_id)
        return StandingsBody(str(t.id), t.status(), t.current_round, Head(t.version, t.head), standings(t))

    def crosstable(self, tournament_id: UUID) -> CrosstableBody:
        self.catch_up()
        t = self.tournament(tournament_id)
        return CrosstableBody(str(t.id), t.current_round, Head(t.version, t.head), crosstable(t))

    def events(self, tournament_id: UUID, after: int = 0, limit: int = 100) -> TournamentEventsPage:
        self.catch_up()
        t = self.tournament(tournament_id)
        stream = list(self.store.events.get(tournament_id, gt=after or None, limit=limit))
        last = stream[-1].version if stream else after
        return TournamentEventsPage([to_archive_event(e) for e in stream], last if last < t.version else None)

    def game_ids(self, tournament_id: UUID) -> list[str]:
        self.catch_up()
        t = self.tournament(tournament_id)
        return [x.game for paired in t.rounds for x in paired.tables]

    def records(self, tournament_id: UUID) -> Iterator[Record]:
        for game in self.game_ids(tournament_id):
            yield self.herald.record(UUID(game))

    def archive(self, tournament_id: UUID) -> TournamentArchive:
        self.catch_up()
        t = self.tournament(tournament_id)
        stream = list(self.store.events.get(tournament_id, lte=t.version))
        return build_archive(stream, list(self.records(tournament_id)))

    def player(self, name: str) -> PlayerProfile:
        self.catch_up()
        return PlayerProfile(name, self.ratings.of_player(name))

    def leaderboard(self, rules: str, scenario: str, limit: int) -> Leaderboard:
        self.catch_up()
        return Leaderboard(rules, scenario, self.ratings.leaderboard(rules, scenario, limit))


def _round_info(t: Tournament, number: int) -> RoundInfo:
    paired = t.rounds[number - 1]
    tables = []
    for x in paired.tables:
        forfeit, result = t.forfeits.get(x.game), t.results.get(x.game)
        rulings = list(t.rulings.get(x.game, ()))
        if forfeit is not None:
            tables.append(TableInfo(x.table, x.game, x.scenario, x.seats, "forfeit",
                                    result.outcome if result else None, result.hash if result else None,
                                    result.version if result else None, forfeit.forfeited, forfeit.reason, rulings))
        elif result is not None:
            tables.append(TableInfo(x.table, x.game, x.scenario, x.seats, "ended", result.outcome, result.hash,
                                    result.version, reason=result.reason, rulings=rulings))
        else:
            tables.append(TableInfo(x.table, x.game, x.scenario, x.seats, "playing", rulings=rulings))
    byes = [ByeInfo(b.player, b.points, b.reason) for b in t.byes if b.round == number]
    return RoundInfo(number, paired.method, tables, byes)


# -- routes ----------------------------------------------------------------------------------------
TournamentId = Annotated[UUID, Path(description="The tournament's UUID")]
_service_lock = threading.Lock()


def service(request: Request) -> Tournaments:
    """The tournaments service of this app, made on first use over the app's Herald."""
    return attach(request.app.state)


def attach(state: Any) -> Tournaments:
    """The tournaments service of an app's state (made once per Herald)."""
    herald = state.herald
    found = getattr(state, "tournaments", None)
    if found is None or found.herald is not herald:
        with _service_lock:
            found = getattr(state, "tournaments", None)
            if found is None or found.herald is not herald:
                found = Tournaments(herald)
                state.tournaments = found
    return found


def _csv(text: str, filename: str) -> Response:
    return Response(text, media_type="text/csv; charset=utf-8",
                    headers={"Content-Disposition": f'attachment; filename="{filename}"'})


Auth = Annotated[str | None, Header(description="Bearer director token (or the admin token)")]
Format = Annotated[str, Query(pattern="^(json|csv)$", description="json (default) or csv")]

router = APIRouter(tags=["tournaments"])


@router.post("/tournaments", **doc(body=CreateTournament, response=TournamentCreatedResponse, status=201,
                                   errors=(400, 413, 422)))
async def create_tournament(request: Request) -> Response:
    """Open a tournament. The director token is shown once: keep it."""
    body = await read_body(request, CreateTournament, MAX_BODY)
    created = await run_in_threadpool(service(request).create, body)
    return respond(created, 201, {"Location": f"/tournaments/{created.id}"})


@router.get("/tournaments", **doc(response=TournamentsPage, errors=(422,)))
def list_tournaments(
    request: Request,
    rules: str | None = None,
    after: Annotated[int | None, Query(ge=0, le=MAX_INT, description="the `next` cursor of the previous page")] = None,
    limit: Annotated[int, Query(ge=1, le=500)] = 50,
) -> Response:
    """Every tournament, newest first."""
    rows, cursor = service(request).results.list(rules=rules, after=after, limit=limit)
    return respond(TournamentsPage(rows, cursor))


@router.get("/tournaments/{tournament_id}", **doc(response=TournamentSummary, errors=(404,)))
def get_tournament(request: Request, tournament_id: TournamentId) -> Response:
    """One tournament: players, rounds paired, each table's game and result."""
    return respond(service(request).summary(tournament_id))


@router.post("/tournaments/{tournament_id}/players",
             **doc(body=RegisterPlayer, response=PlayerRegisteredResponse, status=201,
                   errors=(401, 403, 404, 409, 422)))
async def register_player(request: Request, tournament_id: TournamentId, authorization: Auth = None) -> Response:
    """Register a player (director). The player token is shown once: hand it to the player."""
    body = await read_body(request, RegisterPlayer, MAX_BODY)
    made = await run_in_threadpool(service(request).register, tournament_id, body, bearer(authorization))
    return respond(made, 201)


@router.post("/tournaments/{tournament_id}/players/{player}/withdraw",
             **doc(body=Withdraw, response=TournamentSummary, errors=(401, 403, 404, 409, 422)))
async def withdraw_player(request: Request, tournament_id: TournamentId, player: str,
                          authorization: Auth = None) -> Response:
    """Withdraw a player from the rounds not yet paired (director), with a reason."""
    body = await read_body(request, Withdraw, MAX_BODY)
    return respond(await run_in_threadpool(service(request).withdraw, tournament_id, player, body,
                                           bearer(authorization)))


@router.post("/tournaments/{tournament_id}/rounds",
             **doc(response=RoundPairedResponse, status=201, errors=(401, 403, 404, 409)))
def pair_round(request: Request, tournament_id: TournamentId, authorization: Auth = None) -> Response:
    """Pair the next round (director): creates each table's game and returns its seat tokens
    (each player can also fetch their own from ``/tournaments/{id}/my-games``)."""
    return respond(service(request).pair(tournament_id, bearer(authorization)), 201)


@router.get("/tournaments/{tournament_id}/rounds/{number}", **doc(response=RoundInfo, errors=(404, 422)))
def get_round(request: Request, tournament_id: TournamentId,
              number: Annotated[int, Path(ge=1, le=MAX_INT)]) -> Response:
    """One round: tables, games, results (each with its game's GameEnded hash), byes."""
    return respond(service(request).round(tournament_id, number))


@router.get("/tournaments/{tournament_id}/my-games", **doc(response=MyGames, errors=(401, 403, 404)))
def my_games(request: Request, tournament_id: TournamentId,
             authorization: Annotated[str | None, Header(description="Bearer player token")] = None) -> Response:
    """A player's games in this tournament, with the seat token of each (Bearer player token)."""
    return respond(service(request).my_games(tournament_id, bearer(authorization)))


@router.post("/tournaments/{tournament_id}/forfeits",
             **doc(body=Forfeit, response=TournamentSummary, errors=(401, 403, 404, 409, 422)))
async def record_forfeit(request: Request, tournament_id: TournamentId, authorization: Auth = None) -> Response:
    """Record a forfeit (director), with a reason: the forfeiting players score 0 at that table."""
    body = await read_body(request, Forfeit, MAX_BODY)
    return respond(await run_in_threadpool(service(request).forfeit, tournament_id, body, bearer(authorization)))


@router.post("/tournaments/{tournament_id}/adjustments",
             **doc(body=Adjust, response=TournamentSummary, errors=(401, 403, 404, 409, 422)))
async def adjust_points(request: Request, tournament_id: TournamentId, authorization: Auth = None) -> Response:
    """Adjust a player's points (director), with a reason that stays in the history."""
    body = await read_body(request, Adjust, MAX_BODY)
    return respond(await run_in_threadpool(service(request).adjust, tournament_id, body, bearer(authorization)))


@router.get("/tournaments/{tournament_id}/standings", **doc(response=StandingsBody, errors=(404, 422),
                                                             also={"text/csv": {"schema": {"type": "string"}}}))
def get_standings(request: Request, tournament_id: TournamentId, format: Format = "json") -> Response:
    """Standings with tie-breaks (Buchholz, Sonneborn-Berger, head-to-head, rule-system margin);
    ``format=csv`` for a spreadsheet."""
    body = service(request).standings(tournament_id)
    if format == "csv":
        return _csv(standings_csv(body.standings), f"standings-{tournament_id}.csv")
    return respond(body)


@router.get("/tournaments/{tournament_id}/crosstable", **doc(response=CrosstableBody, errors=(404, 422),
                                                             also={"text/csv": {"schema": {"type": "string"}}}))
def get_crosstable(request: Request, tournament_id: TournamentId, format: Format = "json") -> Response:
    """The crosstable: each player's every round, opponent ranks, seat, points, game and hash."""
    body = service(request).crosstable(tournament_id)
    if format == "csv":
        return _csv(crosstable_csv(body.rows), f"crosstable-{tournament_id}.csv")
    return respond(body)


@router.get("/tournaments/{tournament_id}/events", **doc(response=TournamentEventsPage, errors=(404, 422)))
def tournament_events(
    request: Request,
    tournament_id: TournamentId,
    after: Annotated[int, Query(ge=0, le=MAX_INT)] = 0,
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
) -> Response:
    """The tournament's history, oldest first, hash-chained: every pairing, bye, result,
    forfeit and adjustment with its reason."""
    return respond(service(request).events(tournament_id, after, limit))


@router.get("/tournaments/{tournament_id}/games", responses={200: {"content": {"application/x-ndjson": {}}},
                                                               404: {"description": "Problem"}})
def tournament_games(request: Request, tournament_id: TournamentId) -> StreamingResponse:
    """Every game of the tournament as NDJSON: one portable record per line."""
    tournaments = service(request)
    ids = tournaments.game_ids(tournament_id)  # 404 before the stream starts

    def lines() -> Iterator[bytes]:
        for game in ids:
            yield msgspec.json.encode(tournaments.herald.record(UUID(game))) + b"\n"

    return StreamingResponse(lines(), media_type="application/x-ndjson")


@router.get("/tournaments/{tournament_id}/archive", **doc(response=TournamentArchive, errors=(404,)))
def tournament_archive(request: Request, tournament_id: TournamentId) -> Response:
    """The whole tournament in one document: its hash-chained history, every game's portable
    record and the standings; ``herald replay verify ARCHIVE`` checks it offline."""
    archive = service(request).archive(tournament_id)
    return Response(msgspec.json.encode(archive), media_type="application/json",
                    headers={"Content-Disposition": f'attachment; filename="tournament-{tournament_id}.json"'})


@router.get("/players", **doc(response=Leaderboard, errors=(422,)))
def leaderboard(request: Request, rules: str, scenario: str,
                limit: Annotated[int, Query(ge=1, le=500)] = 50) -> Response:
    """Ratings in one rule system and scenario, best first (by mu − 3·sigma)."""
    return respond(service(request).leaderboard(rules, scenario, limit))


@router.get("/players/{name}", **doc(response=PlayerProfile))
def get_player(request: Request, name: str) -> Response:
    """A player's ratings (OpenSkill Plackett-Luce), one per rule system and scenario played."""
    return respond(service(request).player(name))

