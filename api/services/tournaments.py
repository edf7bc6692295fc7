"""The tournaments service (issue 6): load a tournament, run one decision of
:mod:`domain.tournaments.model`, save its events through the games service's one write path,
return plain data (:mod:`api.wire.tournaments`).

A tournament's games are created through :class:`api.services.games.Games` like any other
game, tied to their round and table; their results reach the tournament only through the
results process (:mod:`projections.standings`) reading ``GameEnded``."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any
from uuid import UUID, uuid4

import msgspec
from eventsourcing.utils import get_topic

from api import clock
from api.lru import Lru
from api.errors import Conflict, Forbidden, HeraldError, Invalid, NotFound, Unauthorized
from api.services.games import Games
from api.services.results import ResultsFollower
from api.services.secrets import Secrets, TournamentKeys, keys_id
from api.store import HeraldStore
from api.tokens import hash_token, new_token
from api.wire.common import Head
from api.services.seating import check_policy
from api.wire.games import CreateGame, SeatRequest
from api.wire.tournaments import (
    Adjust,
    ByeInfo,
    CreateTournament,
    CrosstableBody,
    Forfeit,
    Leaderboard,
    MyGame,
    MyGames,
    PairedTable,
    PlayerInfo,
    PlayerProfile,
    PlayerRegisteredResponse,
    RegisterPlayer,
    RoundInfo,
    RoundPairedResponse,
    StandingsBody,
    TableInfo,
    TournamentCreatedResponse,
    TournamentEventsPage,
    TournamentSummary,
    Withdraw,
)
from domain.clocks import ClockRefused, check_time_control
from domain.events import BotSeat, GameCreated, Outcome, SeatInfo, TournamentRef
from domain.game import Recorded
from domain.players import SeatClaimed
from domain.rules.base import RuleViolation
from domain.rules.registry import RULE_SYSTEMS
from domain.tournaments.events import ByeFilled, TournamentCreated, TournamentRecorded
from domain.tournaments.model import (
    Tournament,
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
from domain.tournaments.standings import crosstable, standings
from projections.ratings import RATED, UNRATED, Ratings
from projections.sql import Database
from projections.standings import RECORDED_WORK, TournamentResults, TournamentRow
from replays.archive import TournamentArchive, build_archive, to_archive_event
from replays.record import Record


_RECORDED = get_topic(Recorded)
CREATED_KEPT = 4096  # games whose GameCreated a process keeps (a seat's reads ask it each time)


class Tournaments:
    """Every tournament operation, over the Herald's event store."""

    def __init__(self, store: HeraldStore, games: Games, secrets: Secrets):
        self.store = store
        self.games = games
        self.secrets = secrets
        db = Database.of(self.store.recorder)
        topics = [get_topic(Recorded), get_topic(TournamentRecorded)]
        self.results = TournamentResults(db, lambda start, limit: self._log(start, limit, topics, RECORDED_WORK),
                                         self._on_game_event)
        rated = [get_topic(Recorded), get_topic(SeatClaimed)]
        self.ratings = Ratings(db, lambda start, limit: self._log(start, limit, rated), self._game_info)
        self.follower = ResultsFollower(self.results.catch_up, lambda: self.store.recorder.max_notification_id() or 0)
        self._locks = [threading.RLock() for _ in range(32)]
        self._cache: Lru[UUID, Tournament] = Lru(256)
        self._created_of: Lru[UUID, GameCreated] = Lru(CREATED_KEPT)  # games' GameCreated (_created)

    def directs_game(self, game_id: UUID, token: str) -> bool:
        """Whether ``token`` is the director's of the tournament ``game_id`` was paired in."""
        created = self._created(game_id)
        if not self.pairs_game(game_id):
            return False
        return self.secrets.director_of(UUID(created.tournament.id), token)

    def pairs_game(self, game_id: UUID) -> bool:
        """Whether the tournament ``game_id`` names exists and paired it at a table (a game
        merely naming one, as games recorded before issue 30 could, has no director)."""
        created = self._created(game_id)
        if created is None or created.tournament is None:
            return False
        try:
            return self.tournament(UUID(created.tournament.id)).table_of(str(game_id)) is not None
        except (ValueError, HeraldError):
            return False

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
    def _log(self, start: int, limit: int, topics: list[str],
             game_events: frozenset[str] | None = None) -> list[tuple[int, Any]]:
        """Notifications of ``topics`` from ``start``, decoded; with ``game_events``, a game
        event of any other type is read as None (only its type is decoded: the results
        process reads every game event and acts on a few)."""
        batch = self.store.recorder.select_notifications(start=start, limit=limit, topics=topics)
        mapper = self.store.mapper
        if game_events is None:
            return [(n.id, mapper.to_domain_event(n)) for n in batch]
        return [(n.id, None if n.topic == _RECORDED and mapper.event_type(n) not in game_events
                 else mapper.to_domain_event(n)) for n in batch]

    def _lock(self, tournament_id: UUID) -> threading.RLock:
        return self._locks[tournament_id.int % len(self._locks)]

    def tournament(self, tournament_id: UUID) -> Tournament:
        """The current tournament: cached, fast-forwarded from the store."""
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
        self._cache.put(tournament_id, found)
        return found

    def authorize_director(self, tournament_id: UUID, token: str | None) -> None:
        """The director's token, or the admin token from configuration."""
        self.tournament(tournament_id)  # 404 first
        if not token:
            raise Unauthorized("send the director's token as 'Authorization: Bearer <token>'")
        if self.secrets.is_admin(token):
            return
        if not self.secrets.director_of(tournament_id, token):
            raise Forbidden("only the tournament's director (or an admin) may do this", code="not_director")

    def player_of(self, tournament_id: UUID, token: str | None) -> str:
        if not token:
            raise Unauthorized("send your player token as 'Authorization: Bearer <token>'")
        found = self.secrets.player_of(tournament_id, token)
        if found is not None:
            return found
        raise Forbidden("that token is not a player token of this tournament", code="wrong_token")

    def _decide(self, tournament_id: UUID, decide, *args: Any) -> Tournament:
        with self._lock(tournament_id):
            t = self.tournament(tournament_id)
            events = decide(t, *args, clock.now())
            if events:
                self.games.committer.write(*events)
            return self.tournament(tournament_id)

    # -- the results process and the ratings' view of a game ---------------------------------------
    def _created(self, game_id: UUID) -> GameCreated | None:
        """A game's GameCreated (kept: it never changes), None when not a game (not kept:
        a game may yet be stored under that id)."""
        found = self._created_of.get(game_id)
        if found is not None:
            return found
        first = next(iter(self.store.events.get(game_id, limit=1)), None)
        if not isinstance(first, Recorded) or first.type != "GameCreated":
            return None
        created = first.typed()
        if not isinstance(created, GameCreated):
            return None
        self._created_of.put(game_id, created)
        return created

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
        """A game's creation and whether it may be rated (projections.ratings; its players'
        claims decide): not a study or a fork, nor a table of a tournament created unrated."""
        created = self._created(game_id)
        if created is None:
            return None
        created = self._seated(game_id, created)
        if created.study or created.fork is not None:
            return created, UNRATED
        if created.tournament is not None:
            try:
                t = self.tournament(UUID(created.tournament.id))
            except (ValueError, NotFound):
                t = None
            if t is not None and t.table_of(str(game_id)) is not None:  # paired there, not merely naming it
                return created, RATED if t.created.rated else UNRATED
        return created, RATED

    def _seated(self, game_id: UUID, created: GameCreated) -> GameCreated:
        """``created`` with each seat taken at a distance named by who took it (an open seat's
        player, or whoever took a declined one: issue 29's SeatTaken), read from the events that
        can hold them (they all come before the first decision)."""
        head = self.store.events.get(game_id, gt=1, limit=1 + 3 * len(created.seats))
        taken = {e.data["seat"]: e.data["player"] for e in head if isinstance(e, Recorded) and e.type == "SeatTaken"}
        if not taken:
            return created
        return msgspec.structs.replace(created, seats={**created.seats, **{s: SeatInfo(p) for s, p in taken.items()}})

    def written(self, _games: object, events: tuple[Any, ...]) -> None:
        """A write of this process (a written hook of the games service): the results process
        catches up now when the write holds work for it (a game's end, a ruling, a
        tournament's event). Any other write only moves its tracking position, which its poll
        does within a second: a catch-up per group commit cost a write transaction and a read
        of every new event, and on SQLite held the one writer's lock the commit waits for."""
        if any(self.results.acts_on(event) for event in events):
            self.follower.nudge()

    def catch_up(self) -> None:
        """Run the results process now: a write that plans from the results (pairing the next
        round, a forfeit) brings them in first itself."""
        self.results.catch_up()

    def settled(self) -> None:
        """Before a read: the results process has caught up with what is written by now (it
        runs in the background; the read never runs it)."""
        self.follower.settle()

    # -- commands ---------------------------------------------------------------------------------
    def create(self, body: CreateTournament, token: str | None = None) -> TournamentCreatedResponse:
        if body.rated:  # someone registered answers for the names a rated tournament registers
            if not body.director.strip():
                raise Invalid("a rated tournament names its director, a registered player", code="director_unregistered")
            self.games.players.claim_identity(body.director.strip(), token, what="direct a rated tournament")
        rules = RULE_SYSTEMS.get(body.rules)
        # the one scenario of a rule system that has one; where it has more, the creator names them
        scenarios = body.scenarios or ([next(iter(rules.scenarios))] if rules and len(rules.scenarios) == 1 else [])
        created = TournamentCreated(
            name=body.name.strip(), rules=body.rules, scenarios=scenarios, format=body.format, rounds=body.rounds,
            table_size=body.table_size,
            min_table=body.min_table if body.min_table is not None else max(2, body.table_size - 1),
            rated=body.rated, director=body.director.strip()[:100], options=body.options, clock=body.clock,
        )
        if body.clock is not None:
            try:
                check_time_control(body.clock)
            except ClockRefused as error:
                raise RuleViolation(error.code, error.message) from None
        tournament_id = uuid4()
        events = decide_create(tournament_id, created, clock.now())
        token = new_token()
        vault = TournamentKeys(keys_id(tournament_id), 1, events[0].timestamp, tournament_id,
                               director=hash_token(token))
        self.games.committer.write(*events, vault)
        return TournamentCreatedResponse(str(tournament_id), 1, token, Head(1, events[-1].hash))

    def register(self, tournament_id: UUID, body: RegisterPlayer, token: str | None) -> PlayerRegisteredResponse:
        self.authorize_director(tournament_id, token)
        with self._lock(tournament_id):
            t = self.tournament(tournament_id)
            events = decide_register(t, body.name, body.seed, clock.now())
            player_token = new_token()
            name = events[0].data["player"]
            vault = self.secrets.tournament_change(tournament_id, self.secrets.tournament(tournament_id), players={name: hash_token(player_token)})
            self.games.committer.write(*events, vault)
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

    def pair(self, tournament_id: UUID, token: str | None, bye_bot: str | None = None) -> RoundPairedResponse:
        """Pair the next round: plan it (pure), create each table's game, record the round.
        ``bye_bot``: fill each bye with a game against the server's bot playing that policy."""
        self.authorize_director(tournament_id, token)
        self.catch_up()
        if bye_bot is not None:
            check_policy(self.tournament(tournament_id).created.rules, bye_bot)
        with self._lock(tournament_id):
            t = self.tournament(tournament_id)
            plan = plan_round(t)
            games: dict[int, str] = {}
            tokens: dict[str, dict[str, str]] = {}
            for table in plan.tables:
                made = self.games.create(CreateGame(
                    rules=t.created.rules, scenario=table.scenario,
                    seats={seat: SeatRequest(player) for seat, player in table.seats.items()},
                    options=t.created.options,
                    tournament=TournamentRef(str(tournament_id), plan.round, table.table),
                    clock=t.created.clock,
                ), seat_token=self.secrets.derived_seat_token)
                games[table.table] = made.id
                tokens[made.id] = made.seat_tokens
            filled = [self._bye_game(t, plan.round, bye.player, bye_bot) for bye in plan.byes] if bye_bot else []
            events = record_round(t, plan, games, clock.now(), filled)
            self.games.committer.write(*events)
            t = self.tournament(tournament_id)
        paired = t.rounds[plan.round - 1]
        return RoundPairedResponse(
            round=plan.round, method=plan.method,
            tables=[PairedTable(x.table, x.game, x.scenario, x.seats, tokens[x.game]) for x in paired.tables],
            byes=[ByeInfo(b.player, b.points, b.reason, next((f.game for f in filled if f.player == b.player), None))
                  for b in plan.byes],
            head=Head(t.version, t.head),
        )

    def _bye_game(self, t: Tournament, round_: int, player: str, policy: str) -> ByeFilled:
        """A game for a player with a bye: they hold the scenario's first seat, the server's bot
        the others its fewest players need. Not a table of the tournament (no TournamentRef):
        its result moves neither standings nor ratings."""
        rules = RULE_SYSTEMS[t.created.rules]
        scenario = rules.scenario(t.created.scenarios[0] if t.created.scenarios else next(iter(rules.scenarios)))
        seats = list(scenario.seats)[:max(2, scenario.min_players)]
        made = self.games.create(CreateGame(
            rules=t.created.rules, scenario=scenario.id, options=t.created.options,
            seats={seat: SeatRequest(player) if i == 0 else SeatRequest(bot=BotSeat(policy))
                   for i, seat in enumerate(seats)},
        ), seat_token=self.secrets.derived_seat_token)
        return ByeFilled(round=round_, player=player, game=made.id, scenario=scenario.id, seat=seats[0], policy=policy)

    # -- reads ---------------------------------------------------------------------------------------
    def summary(self, tournament_id: UUID) -> TournamentSummary:
        self.settled()
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
        self.settled()
        t = self.tournament(tournament_id)
        if not 1 <= number <= t.current_round:
            raise NotFound(f"round {number} has not been paired; rounds paired: {t.current_round}",
                           code="no_such_round")
        return _round_info(t, number)

    def my_games(self, tournament_id: UUID, token: str | None) -> MyGames:
        self.tournament(tournament_id)
        player = self.player_of(tournament_id, token)
        self.settled()
        t = self.tournament(tournament_id)
        keys = self.secrets.tournament(tournament_id)
        games = []
        for paired in t.rounds:
            for x in paired.tables:
                for seat, who in x.seats.items():
                    if who == player:
                        status = ("forfeit" if x.game in t.forfeits else "ended" if x.game in t.results
                                  else "playing")
                        token = (keys.seat_tokens.get(x.game, {}).get(seat)  # kept by earlier versions
                                 or self.secrets.derived_seat_token(UUID(x.game), seat))
                        games.append(MyGame(paired.round, x.table, x.game, x.scenario, seat, token, status))
        for filled in t.bye_games:  # table 0: a bye filled with a game against a bot
            if filled.player == player:
                games.append(MyGame(filled.round, 0, filled.game, filled.scenario, filled.seat,
                                    self.secrets.derived_seat_token(UUID(filled.game), filled.seat), "bye game"))
        return MyGames(player, games)

    def standings(self, tournament_id: UUID) -> StandingsBody:
        self.settled()
        t = self.tournament(tournament_id)
        return StandingsBody(str(t.id), t.status(), t.current_round, Head(t.version, t.head), standings(t))

    def crosstable(self, tournament_id: UUID) -> CrosstableBody:
        self.settled()
        t = self.tournament(tournament_id)
        return CrosstableBody(str(t.id), t.current_round, Head(t.version, t.head), crosstable(t))

    def events(self, tournament_id: UUID, after: int = 0, limit: int = 100) -> TournamentEventsPage:
        self.settled()
        t = self.tournament(tournament_id)
        stream = list(self.store.events.get(tournament_id, gt=after or None, limit=limit))
        last = stream[-1].version if stream else after
        return TournamentEventsPage([to_archive_event(e) for e in stream], last if last < t.version else None)

    def game_ids(self, tournament_id: UUID) -> list[str]:
        self.settled()
        t = self.tournament(tournament_id)
        return [x.game for paired in t.rounds for x in paired.tables]

    def records(self, tournament_id: UUID) -> Iterator[Record]:
        for game in self.game_ids(tournament_id):
            yield self.games.record(UUID(game))

    def archive(self, tournament_id: UUID) -> TournamentArchive:
        self.settled()
        t = self.tournament(tournament_id)
        stream = list(self.store.events.get(tournament_id, lte=t.version))
        return build_archive(stream, list(self.records(tournament_id)))

    def list(self, rules: str | None, after: int | None, limit: int) -> tuple[list[TournamentRow], int | None]:
        """A page of tournaments, newest first, and the cursor of the next page."""
        self.settled()
        return self.results.list(rules=rules, after=after, limit=limit)

    def player(self, name: str) -> PlayerProfile:
        self.settled()
        return PlayerProfile(name, self.ratings.of_player(name))

    def leaderboard(self, rules: str, scenario: str, limit: int) -> Leaderboard:
        self.settled()
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
    filled = {(f.round, f.player): f.game for f in t.bye_games}
    byes = [ByeInfo(b.player, b.points, b.reason, filled.get((b.round, b.player))) for b in t.byes if b.round == number]
    return RoundInfo(number, paired.method, tables, byes)


