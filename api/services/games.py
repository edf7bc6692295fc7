"""The games service: load a game, run one command through the domain, save, return plain
data (:mod:`api.wire.games`). Seats' commands go through the group committer
(:mod:`api.committer`); audit commands (annotations, disputes, rulings, inspections,
abandonment) through the same committer; reads fold from the store and its read models."""

from __future__ import annotations

import asyncio
import secrets as token_source
import threading
from collections import OrderedDict
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any
from uuid import UUID, uuid4

import msgspec
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from eventsourcing.application import AggregateNotFoundError
from eventsourcing.persistence import IntegrityError

from api import clock
from api.committer import Committer, Decided
from api.errors import Conflict, Forbidden, Invalid, NotFound, Unauthorized
from api.services.clocks import clock_reading
from api.services.players import PlayerRegistry, check_seat_names
from api.services.secrets import Secrets
from api.services.seating import SeatPlan, check_invited, invitation_secret, seating_info
from api.store import GameSecrets, HeraldStore, NotAGame, secrets_id
from api.tokens import hash_token, new_token
from api.wire.common import Head
from api.wire.games import (
    MAX_KEY,
    AbandonRequest,
    AdjudicationRequest,
    AnnotationRequest,
    CommandRequest,
    CommandResponse,
    CreateGame,
    DisputeRequest,
    EventsPage,
    ForkRequest,
    GameCreatedResponse,
    GameSummary,
    Inspection,
    InspectionRequest,
    LegalCommands,
    MetaResponse,
    ReleaseRequest,
    RulingRequest,
    SeatRequest,
    StateAt,
    TimelinePage,
)
from api.wire.players import SeatClaim
from domain.audit import (
    UMPIRE,
    agree_to_abandon,
    adjudicate,
    agree_to_release,
    annotate,
    flag_fall,
    inspect,
    lapsed_freezes,
    raise_dispute,
    reshuffle_after_void,
    rule_dispute,
)
from domain.events import EventData, ForkRef
from domain.game import (
    Game,
    IncompatibleRecord,
    Recorded,
    chain,
    game_rng,
    project_game,
    resolve_decision,
    retry_fingerprint,
)
from domain.creation import (
    check_fork,
    check_fork_play,
    check_sealed_fork,
    copy_into,
    first_events,
    fork_seats,
    game_created,
    rest_of_block,
)
from domain.rng import SeededRng
from domain.rules.base import RuleViolation
from domain.rules.words import Names
from projections.board import Boards, FoldAway
from projections.board_store import StoredBoards
from projections.dice import DiceStats
from projections.index import GameIndex, GameRow, decode_batch
from projections.sql import Database
from projections.timeline import narrate, player_names
from replays.record import (
    EVERYONE,
    SPECTATOR,
    Reader,
    Record,
    RecordEvent,
    build_record,
    from_record_event,
    to_record_event,
)
from replays.signature import sign
from replays.verify import verify


SEEN_GAMES = 4096  # games whose highest stored version a process remembers (past positions)
EVERY_SEAT = "*"  # the chair of a reader once the seed is revealed: every seat's cards shown (no seat id is "*")


def seen_by(game: Game, viewer: str | None, revealed: bool) -> Any:
    """The view of ``game`` for ``viewer`` (a seat, None: a spectator); once the seed is
    revealed, every reader's is the same, with every hand, objective and card shown."""
    return game.rules.open_view(game.state) if revealed else game.rules.view(game.state, viewer)


class Games:
    """Every game operation, over one event store held for the life of the process."""

    def __init__(self, store: HeraldStore, secrets: Secrets, players: PlayerRegistry,
                 signing_key: Ed25519PrivateKey, freeze_lapse_seconds: int = 3600):
        self.store = store
        self.secrets = secrets
        self.players = players
        self.index = GameIndex(Database.of(store.recorder), self._notifications)
        self.dice = DiceStats(Database.of(store.recorder), self._notifications)
        self.signing_key = signing_key
        self.freeze_lapse_seconds = freeze_lapse_seconds  # a freeze with no umpire lapses (0: never)
        self._seen: OrderedDict[UUID, int] = OrderedDict()  # a game's highest version known stored (_latest)
        self._seen_lock = threading.Lock()
        self._revealed: OrderedDict[UUID, bool] = OrderedDict()  # games whose seed is known public (it stays)
        # past boards: checkpoints in memory, backed by the database's (projections/board_store.py)
        self.boards = Boards(lambda g, after, upto: self.store.stream(g, after, upto),
                             stored=StoredBoards(Database.of(store.recorder)))
        # PostgreSQL: batches are written by a writer thread while the loop decides the next
        # (DECISIONS.md, "Storage and speed"); SQLite's local fsync stays on the loop
        self.committer = Committer(self._load_for_write, self._append, self._cache_put,
                                   write_beside=self.store.networked)
        self.umpire_hooks: list[Callable[[UUID, str], bool]] = []  # e.g. a tournament's director
        self.paired_hooks: list[Callable[[UUID], bool]] = []  # whether a tournament paired the game
        self.seat_hooks: list[Callable[[UUID, str], frozenset[str]]] = []  # e.g. a tournament player's seats
        # told each write: the games it moved and its events
        self.written_hooks: list[Callable[[set[UUID], tuple[Any, ...]], None]] = []
        self.bot_hooks: list[Callable[[UUID], None]] = []  # told when a game read has a bot seat to act

    # -- internals ----------------------------------------------------------------------------
    def _notifications(self, start: int, limit: int) -> list[tuple[int, Recorded | None]]:
        batch = self.store.recorder.select_notifications(start=start, limit=limit)
        return decode_batch(batch, self.store.mapper.to_domain_event)

    def game(self, game_id: UUID) -> Game:
        try:
            return self.store.game(game_id)
        except (AggregateNotFoundError, NotAGame):
            raise NotFound(f"no game {game_id}") from None
        except IncompatibleRecord as error:
            raise Conflict(f"game {game_id} cannot be loaded: {error}", code="incompatible_record") from None

    def _append(self, *events: Any) -> None:
        """Write events in one transaction, then tell the written hooks (live streams)."""
        self.store.append(*events)
        if self.written_hooks:
            games = {event.originator_id for event in events if isinstance(event, Recorded)}
            for hook in self.written_hooks:
                hook(games, events)

    def save(self, *events: Any) -> None:
        """Write events outside the committer (a game's creation, a claim, a tournament's
        changes): one transaction, the written hooks told, a taken version a 409."""
        try:
            self._append(*events)
        except IntegrityError:
            raise Conflict("another change was recorded first; reload and retry", code="stale_version") from None

    def reader(self, game_id: UUID, token: str | None, game: Game | None = None) -> Reader:
        """Who a token reads as: its seat (a seat token, or a tournament player's token for
        the seats they were paired in), or nobody; everyone reads everything once the seed is
        revealed. An umpire reads as nobody here: only a recorded inspection shows them more."""
        game = game or self.game(game_id)
        return Reader(frozenset(self._seats(game_id, token)), everything=game.revealed)  # its seats still choose its view

    def _seats(self, game_id: UUID, token: str | None) -> set[str]:
        """The seats ``token`` speaks for in this game: its seat token's, a tournament player's."""
        seats = set()
        seat = self.secrets.seat_of(game_id, token)
        if seat is not None:
            seats.add(seat)
        if token:
            for hook in self.seat_hooks:
                seats |= hook(game_id, token)
        return seats

    def create(self, body: CreateGame, *, fork: ForkRef | None = None, study: bool | None = None,
               copy: list[Recorded] = (), seat_token: Callable[[UUID, str], str] | None = None
               ) -> GameCreatedResponse:
        """Create a game. A fork also names its parent and copies the parent's events up to
        the fork's version (re-chained under the new id, with their original times).
        ``seat_token`` derives each seat's token (a tournament's games) instead of drawing it."""
        plan = SeatPlan(body)
        check_invited(plan, self.players.registered)
        created, seed = game_created(
            body.rules, body.scenario, plan.players,
            token_source.token_bytes(32) if body.seed is None else body.seed,
            client_seed=body.client_seed, options=body.options,
            study=body.seed is not None if study is None else study, tournament=body.tournament, fork=fork,
            clock=body.clock)
        game_id = uuid4()
        now = clock.now()
        events = copy_into(game_id, first_events(game_id, created, now), copy, seed)
        if plan.any:  # seats taken at a distance (api/services/seating.py)
            events += chain(game_id, events[-1].version + 1, events[-1].hash, [plan.offer(created)], now)
        tokens = {seat: seat_token(game_id, seat) if seat_token else new_token() for seat in plan.held()}
        invitation, invitation_hash = invitation_secret(plan)
        vault = GameSecrets(secrets_id(game_id), 1, now, game_id, seed.hex(),
                            {s: hash_token(t) for s, t in tokens.items()}, invitation_hash)
        claims = [self.players.claim(created.seats[s].player, i.player_token, game_id, s, now)
                  for s, i in body.seats.items() if i.player_token is not None]
        self.save(*events, vault, *claims)
        return GameCreatedResponse(str(game_id), events[-1].version, created.seed_commitment, tokens,
                                   Head(events[-1].version, events[-1].hash), invitation)

    def command(self, game_id: UUID, body: CommandRequest, token: str | None,
                idempotency_key: str | None = None) -> tuple[CommandResponse, bool]:
        """Record a seat's command and wait for it. Returns the response and whether it is a
        replayed retry of an earlier one with the same Idempotency-Key."""
        decide = self._command_decider(game_id, body, token, idempotency_key)
        self._warm(game_id)
        return self.committer.run(game_id, decide)

    async def command_async(self, game_id: UUID, body: CommandRequest, token: str | None,
                            idempotency_key: str | None = None) -> tuple[CommandResponse, bool]:
        """:meth:`command` from the event loop: decided on the loop (a game that is not
        cached is folded off it first), answered once the batch it joined is written."""
        decide = self._command_decider(game_id, body, token, idempotency_key)
        if not self._is_warm(game_id):
            await asyncio.to_thread(self._warm, game_id)
        return await self.committer.submit_async(game_id, decide)

    def _command_decider(self, game_id: UUID, body: CommandRequest, token: str | None,
                         idempotency_key: str | None) -> Callable[[Game], Decided]:
        if idempotency_key is not None and not 1 <= len(idempotency_key) <= MAX_KEY:
            raise Invalid(f"Idempotency-Key is 1 to {MAX_KEY} characters", code="bad_idempotency_key")

        def decide(game: Game) -> Decided:
            secrets = self.secrets.game(game_id, fresh=not game.played)  # a claim replaces a seat's token
            self.secrets.authorize_seat(game_id, body.seat, token)
            if idempotency_key is not None:
                used = game.key_use(idempotency_key, body.seat)
                if used is not None:
                    if used.fingerprint != retry_fingerprint(game, body.seat, body.command):
                        raise Invalid("this Idempotency-Key was used for a different command",
                                      code="idempotency_key_reused")
                    return Decided([], None, lambda: (self._replayed(game_id, used.version, body.seat), True))
            if body.expected_version is not None and body.expected_version != game.version:
                raise Conflict(f"expected version {body.expected_version}, but the game is at {game.version}",
                               code="stale_version", version=game.version)
            seed = bytes.fromhex(secrets.seed)
            now = clock.now()
            lapsed: list[Recorded] = []
            if game.frozen:
                game, lapsed = self._lapse(game, now)
            game, fell = self._flag_fall(game, now)
            if fell:  # the decision came too late: the fall is recorded, the decision refused
                late = RuleViolation("clock.flag_fallen", self._fallen_detail(game, fell[0].version))
                return Decided(lapsed + fell, game, lambda: _raise(late))
            rng = game_rng(game, seed)
            try:
                decision = resolve_decision(game, body.seat, body.command, rng, now, seed, idempotency_key)
            except RuleViolation as error:
                if error.code == "game_frozen":  # say how the freeze lifts
                    raise RuleViolation(error.code, self._frozen_detail(game), error.rule) from None
                raise
            after, events = decision.game, lapsed + decision.events
            return Decided(events, after, lambda: (self._response(after, events, body.seat), False))

        return decide

    def has_umpire(self, game: Game) -> bool:
        """Whether someone may rule on this game's disputes: the admin (configured) or the
        director of the tournament that paired it (a game merely naming a tournament, even one
        that does not exist, has none: its freezes lapse)."""
        return bool(self.secrets.admin_token) or any(paired(game.id) for paired in self.paired_hooks)

    def _lapse(self, game: Game, now: datetime) -> tuple[Game, list[Recorded]]:
        """With no umpire, the freezes open longer than the configured time lapse now: each
        a FreezeLapsed recorded ahead of the command that found it (issue 11)."""
        if self.has_umpire(game):
            return game, []
        events: list[Recorded] = []
        for lapse in lapsed_freezes(game, now, self.freeze_lapse_seconds):
            block = chain(game.id, game.version + 1, game.head, [lapse], now)
            game = project_game(game, block)
            events += block
        return game, events

    def _flag_fall(self, game: Game, now: datetime) -> tuple[Game, list[Recorded]]:
        """A clocked game whose flag has fallen by ``now``: the FlagFell block (and the end it
        brings), recorded ahead of whatever request found it (issue 29)."""
        if game.clocks is None or game.ended:
            return game, []
        typed = flag_fall(game, now, self.secrets.game(game.id).seed)
        if not typed:
            return game, []
        block = chain(game.id, game.version + 1, game.head, typed, now)
        return project_game(game, block), block

    def touch(self, game_id: UUID) -> int:
        """Record a flag that has fallen in ``game_id`` (the sweep's call): the version the game
        is at after it, and nothing written when no flag has fallen."""
        def decide(game: Game) -> Decided:
            after, fell = self._flag_fall(game, clock.now())
            return Decided(fell, after if fell else None, lambda: after.version)

        self._warm(game_id)
        return self.committer.run(game_id, decide)

    @staticmethod
    def _fallen_detail(game: Game, version: int) -> str:
        seat = game.clocks.flagged if game.clocks is not None else None
        ended = f"; the game ended: {game.outcome.reason}" if game.outcome is not None else \
            "; an umpire adjudicates the result (POST /games/{id}/adjudication)"
        return f"{seat}'s time ran out before this request (FlagFell at version {version}){ended}"

    def _frozen_detail(self, game: Game) -> str:
        frozen = [d for d in game.disputes if d.freeze]
        if self.has_umpire(game):
            return (f"play is frozen by dispute {', '.join(str(d.id) for d in frozen)}: "
                    "an umpire must rule first")
        lapse = self.freeze_lapse_seconds
        until = ""
        if lapse > 0:
            last = max(d.raised_at for d in frozen if d.raised_at is not None)
            until = f"; with no umpire it lapses at {(last + timedelta(seconds=lapse)).isoformat(timespec='seconds')}"
        return (f"play is frozen by dispute {', '.join(str(d.id) for d in frozen)}{until}, or sooner when the seat "
                "that raised it or every other seat agrees (POST /games/{id}/disputes/{dispute}/release)")

    def _is_warm(self, game_id: UUID) -> bool:
        """Whether deciding on ``game_id`` needs no read from the store."""
        cache = self.store.repository.cache
        if cache is None or not self.secrets.cached(game_id):
            return False
        try:
            cache.get(game_id)
        except KeyError:
            return False
        return True

    def _warm(self, game_id: UUID) -> None:
        """Load what deciding on ``game_id`` reads, so the decision itself reads nothing."""
        self.secrets.game(game_id)
        self.game(game_id)

    def _load_for_write(self, game_id: UUID, fresh: bool) -> Game:
        cached = None if fresh else self._cached(game_id)
        return self.game(game_id) if cached is None else cached

    def _cached(self, game_id: UUID) -> Game | None:
        """The game as this process last saw it, if it holds it (no read of the store)."""
        cache = self.store.repository.cache
        try:
            return cache.get(game_id) if cache is not None else None
        except KeyError:
            return None

    def at_version(self, game_id: UUID, version: int) -> Game:
        """The game at ``version``: the cached game when it is there (no fold), else folded from
        the board checkpoint below it."""
        cached = self._cached(game_id)
        return cached if cached is not None and cached.version == version else self.boards.at(game_id, version)

    def _cache_put(self, game_id: UUID, game: Game) -> None:
        if self.store.repository.cache is not None:
            self.store.repository.cache.put(game_id, game)

    def _response(self, game: Game, events: list[Recorded], seat: str) -> CommandResponse:
        reader = Reader(frozenset({seat}), everything=game.revealed)
        seed = self.secrets.server_seed(game.id) if any(e.readers for e in events) else None
        return CommandResponse(
            version=game.version,
            events=[to_record_event(e, reader, seed) for e in events],
            head=Head(game.version, game.head),
            view=seen_by(game, seat, game.revealed),
        )

    def _replayed(self, game_id: UUID, first: int, seat: str) -> CommandResponse:
        """The response a keyed command first got: its block of events and the view after it."""
        stream = self.store.stream(game_id, first - 1)
        events = [stream[0], *rest_of_block(stream[1:])]
        return self._response(self.boards.at(game_id, events[-1].version), events, seat)

    # -- audit and study: annotations, disputes, rulings, abandonment, forks -----------------
    def _submit_meta(self, game_id: UUID, produce: Callable[[Game], list[EventData]],
                     then: Callable[[Game], list[EventData]] | None = None) -> MetaResponse:
        """Run an audit command through the writer, like a seat's command; ``then``: the events
        the command's own leave to record in its block, from the game they leave (a void's
        reshuffles)."""

        def decide(game: Game) -> Decided:
            now = clock.now()
            game, fell = self._flag_fall(game, now)
            events = chain(game.id, game.version + 1, game.head, produce(game), now)
            after = project_game(game, events)
            more = then(after) if then is not None else []
            if more:
                extra = chain(game.id, after.version + 1, after.head, more, now)
                events, after = events + extra, project_game(after, extra)
            events = fell + events
            return Decided(events, after, lambda: MetaResponse(
                after.version, [to_record_event(e) for e in events], Head(after.version, after.head)))

        self._warm(game_id)
        return self.committer.run(game_id, decide)

    def _actor(self, game_id: UUID, token: str | None) -> str:
        """Who a token speaks for: ``umpire`` (the admin or an umpire hook) or a seat."""
        if self.is_umpire(game_id, token):
            return UMPIRE
        seat = self.secrets.seat_of(game_id, token)
        if seat is None:
            if not token:
                raise Unauthorized("send a seat's or the umpire's token as 'Authorization: Bearer <token>'")
            raise Forbidden("that token belongs to no seat of this game and is not an umpire's", code="wrong_token")
        return seat

    def is_umpire(self, game_id: UUID, token: str | None) -> bool:
        """The admin token, or any umpire hook (a tournament's director) that accepts it."""
        return self.secrets.is_admin(token) or any(hook(game_id, token) for hook in self.umpire_hooks if token)

    def annotate(self, game_id: UUID, body: AnnotationRequest, token: str | None) -> MetaResponse:
        self.game(game_id)
        by = self._actor(game_id, token)
        return self._submit_meta(game_id, lambda g: annotate(
            g, by, g.version if body.at_version is None else body.at_version, body.text, body.target, body.arrow))

    def raise_dispute(self, game_id: UUID, body: DisputeRequest, token: str | None) -> MetaResponse:
        self.game(game_id)
        self.secrets.authorize_seat(game_id, body.seat, token)
        return self._submit_meta(game_id, lambda g: raise_dispute(g, body.seat, body.about_version, body.reason,
                                                                  body.freeze))

    def rule(self, game_id: UUID, body: RulingRequest, token: str | None) -> MetaResponse:
        self.game(game_id)
        if not token:  # the route needs a token (its security scheme): none is a 401, as on every such route
            raise Unauthorized("send the admin token or the tournament director's as 'Authorization: Bearer <token>'")
        if not self.is_umpire(game_id, token):
            raise Forbidden("only an umpire (the admin token or the tournament director) rules on disputes",
                            code="not_umpire")
        seed = self.secrets.game(game_id).seed
        return self._submit_meta(game_id, lambda g: rule_dispute(
            g, body.dispute, body.ruling, body.reason, UMPIRE, body.void_from, body.reveal_seed, seed),
            then=lambda after: reshuffle_after_void(after, game_rng(after, bytes.fromhex(seed))))

    def release(self, game_id: UUID, dispute: int, body: ReleaseRequest, token: str | None) -> MetaResponse:
        """A seat agrees that play frozen by ``dispute`` may go on (games with no umpire)."""
        game = self.game(game_id)
        self.secrets.authorize_seat(game_id, body.seat, token)
        if self.has_umpire(game):
            raise Conflict("this game has an umpire: the freeze lifts when the umpire rules on the dispute",
                           code="umpire_rules")
        return self._submit_meta(game_id, lambda g: agree_to_release(g, dispute, body.seat))

    def abandon(self, game_id: UUID, body: AbandonRequest, token: str | None) -> MetaResponse:
        self.game(game_id)
        self.secrets.authorize_seat(game_id, body.seat, token)
        seed = self.secrets.game(game_id).seed
        return self._submit_meta(game_id, lambda g: agree_to_abandon(g, body.seat, seed))

    def adjudicate(self, game_id: UUID, body: AdjudicationRequest, token: str | None) -> MetaResponse:
        """An umpire's result for a game stopped by a flag's fall (the clock's ``on_time``
        "adjudicate", or a game whose rule system names no outcome for it)."""
        self.game(game_id)
        by = self._umpire_name(game_id, token, "adjudicates")
        seed = self.secrets.game(game_id).seed
        return self._submit_meta(game_id, lambda g: adjudicate(g, by, body.outcome, seed))

    def _umpire_name(self, game_id: UUID, token: str | None, does: str) -> str:
        if self.secrets.is_admin(token):
            return "admin"
        if self.is_umpire(game_id, token):
            return "director"
        if not token:
            raise Unauthorized("send the admin token or the tournament director's as 'Authorization: Bearer <token>'")
        raise Forbidden(f"only an umpire (the admin token or the tournament director) {does}", code="not_umpire")

    def inspect(self, game_id: UUID, body: InspectionRequest, token: str | None) -> Inspection:
        """The umpire's inspection: recorded first (who looked, at which version, why), then
        answered with the full rule state at that version, every secret included."""
        self.game(game_id)
        if self.secrets.is_admin(token):
            by = "admin"
        elif self.is_umpire(game_id, token):
            by = "director"
        elif not token:
            raise Unauthorized("send the admin token or the tournament director's as 'Authorization: Bearer <token>'")
        else:
            raise Forbidden("only an umpire (the admin token or the tournament director) inspects a game",
                            code="not_umpire")
        recorded = self._submit_meta(game_id, lambda g: inspect(g, by, body.at_version or g.version, body.reason))
        at = recorded.events[0].data["at_version"]
        game = self.boards.at(game_id, at)
        return Inspection(recorded.version, at, msgspec.to_builtins(game.state), game.rules.view(game.state, None),
                          recorded.events, recorded.head)

    # -- registered players: who vouched for which seat (ratings) ------------------------------
    def claim_seat(self, game_id: UUID, seat: str, token: str | None) -> SeatClaim:
        """A registered player vouches, with their token, that they sit in ``seat``: only
        before play starts, so nobody vouches for a game once they see how it goes."""
        game = self.game(game_id)
        info = game.created.seats.get(seat)
        if info is None:
            raise NotFound(f"this game has no seat {seat!r}", code="unknown_seat")
        if game.played:
            raise Conflict("play has started: seats are claimed before the first command", code="play_started")
        if game.seating is not None and seat in (*game.seating.open, *game.seating.invited, *game.seating.bots):
            raise Conflict(f"seat {seat} is not held by the game's creator: an open or offered seat is taken with "
                           f"POST /games/{game_id}/seats/{seat}/take; a bot's is nobody's", code="seat_taken")
        seat_token = new_token()
        for attempt in range(3):  # another seat's claim may take the private stream's next version first
            now = clock.now()
            claim = self.players.claim(info.player, token, game_id, seat, now)
            secrets = self.secrets.game(game_id, fresh=True)
            try:
                self.save(claim, GameSecrets(secrets_id(game_id), secrets.originator_version + 1, now, game_id,
                                             secrets.seed, {seat: hash_token(seat_token)}))
                break
            except Conflict:
                if attempt == 2:
                    raise
        self.secrets.game(game_id, fresh=True)
        return SeatClaim(str(game_id), seat, info.player, seat_token)

    def fork(self, game_id: UUID, body: ForkRequest, token: str | None = None) -> GameCreatedResponse:
        """A new game from ``version`` of this one (or from the end of the command that
        version belongs to), for study. The original is untouched. Before the parent's seed
        is revealed, a fork whose copied play holds sealed events is the umpire's alone (its
        seat tokens would read every seat's secrets), and it starts with fresh dice (same dice
        would show the future)."""
        parent = self.game(game_id)
        check_fork(parent.version, body.version, body.dice, body.forced)
        secrets = self.secrets.game(game_id)
        public = parent.created.study or parent.seed is not None
        prefix = self.store.stream(game_id, 1, body.version)
        prefix += rest_of_block(self.store.stream(game_id, body.version))
        version = prefix[-1].version if prefix else body.version
        if check_fork_play(prefix, body.dice, public):
            if not self.is_umpire(game_id, token):
                raise Forbidden("the play up to that version holds sealed events: before the seed is revealed only "
                                "an umpire may fork it (the fork's seat tokens read every seat's secrets)",
                                code="hidden_information")
            check_sealed_fork(body.dice)
            by = "admin" if self.secrets.is_admin(token) else "director"  # the look is recorded like an inspection
            self._submit_meta(game_id, lambda g: inspect(g, by, version, "fork for study"))
        fork_seats(parent.created.seats, body.seats)
        if any(i.invite or i.open or i.bot is not None or i.player is None for i in body.seats.values()):
            raise Invalid("a fork keeps its parent's seats: it may only rename their players", code="bad_seating")
        check_seat_names(body.seats)  # the renamed seats: the parent's names stand as recorded
        seats = {s: SeatRequest(i.player) for s, i in parent.created.seats.items()} | body.seats
        head = (prefix or self.store.stream(game_id, 0, 1))[-1].hash
        fork = ForkRef(str(game_id), version, body.dice, head=head, forced=list(body.forced))
        seed_hex = secrets.seed if body.dice == "same" else None
        return self.create(CreateGame(
            rules=parent.created.rules, scenario=parent.created.scenario, seats=seats,
            seed=seed_hex, client_seed=parent.created.client_seed, options=parent.created.options,
        ), fork=fork, study=body.dice != "fresh", copy=prefix)

    def forks(self, game_id: UUID) -> list[GameRow]:
        self.game(game_id)
        return self.index.forks(str(game_id))

    # -- reads -------------------------------------------------------------------------------------
    def summary(self, game_id: UUID, token: str | None = None) -> GameSummary:
        game = self.game(game_id)
        viewer = self.reader(game_id, token, game).seat
        created = game.created
        seed = game.seed or (self.secrets.game(game_id).seed if created.study else None)
        if game.seating is not None and set(game.seating.bots) & set(game.to_act()):
            for hook in self.bot_hooks:  # a bot move due when its server stopped: made now
                hook(game.id)
        return GameSummary(
            id=str(game.id), rules=created.rules, rules_version=created.rules_version, scenario=created.scenario,
            status="ended" if game.ended else "active", version=game.version, to_act=self._to_act(game),
            seats=created.seats, view=seen_by(game, viewer, game.revealed),
            outcome=game.outcome, seed=seed, seed_commitment=created.seed_commitment,
            head=Head(game.version, game.head), created_at=game.created_on.isoformat(timespec="microseconds"),
            study=created.study, tournament=created.tournament, fork=created.fork,
            window=None if game.ended else game.rules.window(game.state),
            seating=seating_info(game),
            clock=clock_reading(game, clock.now()),
        )

    def legal_commands(self, game_id: UUID, seat: str, token: str | None = None) -> LegalCommands:
        """A seat's legal commands; in a game with secrets (before its reveal) only to that
        seat, with its token: the commands name the cards in its hand."""
        game = self.game(game_id)
        if seat not in game.created.seats:
            raise NotFound(f"this game has no seat {seat!r}", code="unknown_seat")
        if game.rules.has_secrets and not game.revealed and seat not in self.reader(game_id, token, game).seats:
            if not token:
                raise Unauthorized(f"{game.rules.id} keeps secrets: send {seat}'s token as "
                                   "'Authorization: Bearer <token>' to list its commands")
            raise Forbidden(f"in a game with secrets only {seat} may list its own commands", code="wrong_token")
        to_act = self._to_act(game)
        acting = seat in to_act
        commands = game.rules.legal_commands(game.state, seat) if acting else []
        choices = game.rules.legal_choices(game.state, seat) if acting else []
        listed = msgspec.to_builtins(commands)
        players = {s: info.player for s, info in game.created.seats.items()}
        return LegalCommands(game.rules.id, game.version, seat, listed,
                             game.rules.listing_complete(game.state, seat) if acting else True,
                             msgspec.to_builtins(choices), [game.rules.label(game.state, seat, c, players) for c in listed],
                             game.rules.prompt(game.state, seat, players) if acting else None,
                             to_act, None if acting else self._waiting(game, seat, to_act, players))

    def _waiting(self, game: Game, seat: str, to_act: list[str], players: dict[str, str]) -> str:
        """Why ``seat`` has nothing to send now, in words: the end, a freeze, or who is to act
        and what the game asks them (the prompts every seat's view already tells)."""
        who = players.get(seat) or seat
        if game.ended:
            return f"the game has ended: {who} has nothing to send"
        if game.awaited:
            return f"no decision until every seat is taken and every seed given; awaited: {', '.join(game.awaited)}"
        if not to_act and game.frozen:
            dispute = next(d for d in game.disputes if d.freeze)
            return (f"play is frozen by dispute {dispute.id} (about version {dispute.about_version}) until it "
                    "is ruled on or released")
        asked = [game.rules.prompt(game.state, s, players) or f"{players.get(s) or s} is to act" for s in to_act]
        names = ", ".join(f"{players.get(s) or s} ({s})" for s in to_act)
        return f"{who} is not to act now; waiting for {names}: " + " / ".join(asked)

    def check(self, game_id: UUID, body: CommandRequest, token: str | None) -> None:
        """Raise what recording ``body`` now would raise (a RuleViolation, a Conflict...), else return:
        the command is decided against a copy of the game with dice from a throwaway seed, so
        nothing is recorded and no draw of the game is used or revealed."""
        game = self.game(game_id)
        self.secrets.authorize_seat(game_id, body.seat, token)
        if body.expected_version is not None and body.expected_version != game.version:
            raise Conflict(f"expected version {body.expected_version}, but the game is at {game.version}",
                           code="stale_version", version=game.version)
        now = clock.now()
        if game.frozen:
            game, _ = self._lapse(game, now)
        game, fell = self._flag_fall(game, now)
        if fell:
            raise RuleViolation("clock.flag_fallen", self._fallen_detail(game, fell[0].version))
        try:
            resolve_decision(game, body.seat, body.command, SeededRng(bytes(32), game.id, "check", game.next_draw),
                             now, None)
        except RuleViolation as error:
            if error.code == "game_frozen":  # say how the freeze lifts
                raise RuleViolation(error.code, self._frozen_detail(game), error.rule) from None
            raise

    def _to_act(self, game: Game) -> list[str]:
        """Who may act now, as the next command would find it: a freeze that has lapsed (no
        umpire) no longer holds play, though its FreezeLapsed is recorded only by that command."""
        now = clock.now()
        if game.frozen:
            game, _ = self._lapse(game, now)
        if game.clocks is not None and flag_fall(game, now, None):
            return []  # a flag has fallen: the next request records it
        return game.to_act()

    def events(self, game_id: UUID, after: int = 0, limit: int = 100, reader: Reader = SPECTATOR) -> EventsPage:
        """A page of the history, each event as ``reader`` may see it."""
        game = self.game(game_id)
        stream = self.store.stream(game_id, after, limit=limit)
        last = stream[-1].version if stream else after
        if game.revealed:
            reader = EVERYONE
        seed = self.secrets.server_seed(game_id) if any(e.readers and reader.reads(e) for e in stream) else None
        return EventsPage([to_record_event(e, reader, seed) for e in stream], last if last < game.version else None)

    def state_at(self, game_id: UUID, version: int | None, token: str | None = None) -> StateAt:
        if version is not None:
            return self.past_state(game_id, version, self.chair(game_id, token))
        current, version = self._current_at(game_id, version)
        return self._state(current, EVERY_SEAT if current.revealed else self.reader(game_id, token, current).seat)

    def seat(self, game_id: UUID, token: str | None) -> str | None:
        """The seat whose view ``token`` reads (None: a spectator's, and any token that speaks
        for no seat of the game), the game not loaded."""
        return Reader(frozenset(self._seats(game_id, token))).seat if token else None

    def chair(self, game_id: UUID, token: str | None) -> str | None:
        """Whose view of a past position ``token`` reads: every seat's (:data:`EVERY_SEAT`) once
        the seed is revealed, else its seat's (None: a spectator's)."""
        return EVERY_SEAT if self.revealed(game_id) else self.seat(game_id, token)

    def known_revealed(self, game_id: UUID) -> bool:
        """Whether this process knows the game's seed is public (it stays public), without a
        read: a past position is then everyone's."""
        if game_id in self._revealed:
            return True
        cached = self._cached(game_id)
        if cached is not None and cached.revealed:
            self._remember_revealed(game_id)
            return True
        return False

    def _remember_revealed(self, game_id: UUID) -> None:
        with self._seen_lock:
            self._revealed[game_id] = True
            while len(self._revealed) > SEEN_GAMES:
                self._revealed.popitem(last=False)

    def revealed(self, game_id: UUID) -> bool:
        """Whether the game's seed is public: known here, or the index has the game ended (an
        end reveals the seed; a study game's seed is public from the start, and its past
        positions show everything by themselves)."""
        if self.known_revealed(game_id):
            return True
        if self.index.ended(str(game_id)):
            self._remember_revealed(game_id)
            return True
        return False

    def past_state(self, game_id: UUID, version: int, seat: str | None, build: bool = True,
                   away: FoldAway | None = None) -> StateAt | None:
        """The board at ``version`` as ``seat`` (None: a spectator) sees it. The game is not
        loaded whole: a server just started answers a past position after folding from the
        checkpoint below it (projections/board.py), not the whole game besides. With
        ``build`` false, None when that checkpoint is not built yet (nothing long is done);
        ``away`` builds the missing checkpoints (api/budgets.py: in a worker process)."""
        latest = self._latest(game_id, version)
        if not 1 <= version <= latest:
            raise NotFound(f"game {game_id} has versions 1 to {latest}, not {version}", code="no_such_version")
        try:
            game = self.boards.at(game_id, version, away) if build else self.boards.quick(game_id, version)
        except IncompatibleRecord as error:
            raise Conflict(f"game {game_id} cannot be loaded: {error}", code="incompatible_record") from None
        return None if game is None else self._state(game, seat)

    def current(self, game_id: UUID, away: FoldAway) -> Game:
        """The game as it stands, not folded here from its start: the aggregate when this
        process holds it current, else the board at its head (projections/board.py: its
        missing checkpoints built by ``away``, in a worker process; the play log left out)."""
        head = self.head(game_id)
        cached = self._cached(game_id)
        if cached is not None and cached.version == head:
            return cached
        try:
            return self.boards.at(game_id, head, away)
        except IncompatibleRecord as error:
            raise Conflict(f"game {game_id} cannot be loaded: {error}", code="incompatible_record") from None

    def head(self, game_id: UUID) -> int:
        """The game's latest version stored: one row read, nothing folded (NotFound when not a game)."""
        last = self.store.last(game_id)
        if not isinstance(last, Recorded):
            raise NotFound(f"no game {game_id}")
        return last.version

    def _latest(self, game_id: UUID, version: int) -> int:
        """The game's latest version as far as ``version`` needs to know: the highest this
        process has seen stored (a version once recorded stays), the cached game's, else the
        last event stored (NotFound when not a game)."""
        with self._seen_lock:
            seen = self._seen.get(game_id, 0)
        if seen >= version:
            return seen
        cached = self._cached(game_id)
        if cached is not None and cached.version >= version:
            return cached.version
        head = self.head(game_id)
        with self._seen_lock:
            self._seen[game_id] = max(head, self._seen.get(game_id, 0))
            self._seen.move_to_end(game_id)
            while len(self._seen) > SEEN_GAMES:
                self._seen.popitem(last=False)
        return head

    def _current_at(self, game_id: UUID, version: int | None) -> tuple[Game, int]:
        """The game as it stands now, and the version asked for (the latest when None), which it
        has reached."""
        # a version the cached game has passed is in the store for good: no read of the store
        # to bring the game up to date (one round trip a request); a later one, or none, is asked
        current = self._load_for_write(game_id, False) if version is not None else None
        if current is None or current.version < version:
            current = self.game(game_id)
        version = current.version if version is None else version
        if not 1 <= version <= current.version:
            raise NotFound(f"game {game_id} has versions 1 to {current.version}, not {version}", code="no_such_version")
        return current, version

    @staticmethod
    def _state(game: Game, viewer: str | None, names: Names | None = None) -> StateAt:
        """The board of ``game`` as ``viewer`` (a seat, or None: a spectator) sees it
        (``names``: its players' names, when already known); once the seed is revealed, the
        view and the text board alike show every hand, objective and card."""
        revealed = viewer == EVERY_SEAT or game.revealed
        text = game.rules.render_text(game.state, player_names(game.created.seats) if names is None else names,
                                      everything=revealed)
        return StateAt(game.version, game.to_act(), seen_by(game, viewer, revealed), text)

    def events_of_type(self, game_id: UUID, types: tuple[str, ...]) -> list[RecordEvent]:
        self.game(game_id)
        return [to_record_event(e) for e in self.store.stream(game_id) if e.type in types]

    def timeline(self, game_id: UUID, after: int = 0, limit: int = 100, reader: Reader = SPECTATOR) -> TimelinePage:
        """One line per event, told from what ``reader`` may read: a sealed event is told as
        sealed, never by its content."""
        page = self.events(game_id, after, limit, reader)
        game = self.game(game_id)
        names = player_names(game.created.seats)
        entries = [narrate(game.rules, from_record_event(game_id, e), names) for e in page.events]
        return TimelinePage(entries, page.next)

    def record(self, game_id: UUID, reader: Reader = SPECTATOR) -> Record:
        """The portable record as ``reader`` may read it (whole once the seed is revealed),
        signed over its chain head with this server's key."""
        game = self.game(game_id)
        stream = self.store.stream(game_id)
        public = self.secrets.game(game_id).seed if game.created.study else None
        seed = self.secrets.server_seed(game_id) if any(e.readers and reader.reads(e) for e in stream) else None
        record = build_record(stream, public, reader, seed)
        head = stream[-1]
        return msgspec.structs.replace(record, signature=sign(self.signing_key, str(game_id), head.version, head.hash))

    def check_importer(self, token: str | None) -> None:
        """Importing a record stores a game: the admin token only (401 without one, 403 with another)."""
        if not token:
            raise Unauthorized("importing a record takes the admin token: 'Authorization: Bearer <token>'")
        if not self.secrets.is_admin(token):
            raise Forbidden("only the admin token imports records", code="not_admin")

    def import_record(self, record: Record, token: str | None = None, *, by_operator: bool = False) -> UUID:
        """Store a verified record as a game of this server (its seed must be revealed), and
        its board checkpoints (written in the background: ``boards.stored.flush()`` waits): by
        the operator (the CLI, on the database itself) or, over HTTP, with the admin token."""
        if not by_operator:
            self.check_importer(token)
        every = self.boards.every
        checkpoints: list[Game] = []  # from the verifier's own fold: the game is not folded twice
        verdict = verify(record, witness=lambda g: checkpoints.append(g) if g.version % every == 0 else None)
        if not verdict.ok:
            raise Invalid("the record does not verify: " + "; ".join(
                f"v{p.version}: {p.what}" for p in verdict.problems[:5]), code="record_invalid")
        if record.seed is None:
            raise Invalid("only records whose seed is revealed can be imported", code="seed_not_revealed")
        game_id = UUID(record.header.game)
        if game_id.version in (3, 5):  # a name's: Herald's private streams (players, seeds, tournament keys)
            raise Invalid(f"{game_id} is a name-based UUID (version {game_id.version}), the kind Herald's private "
                          "streams have; a game's id is random", code="game_id_reserved")
        try:
            self.store.game(game_id)
        except AggregateNotFoundError:
            pass
        except NotAGame:
            raise Conflict(f"{game_id} is already taken here", code="game_exists") from None
        else:
            raise Conflict(f"game {game_id} already exists here", code="game_exists")
        events = [from_record_event(game_id, e) for e in record.events]
        vault = GameSecrets(secrets_id(game_id), 1, events[0].timestamp, game_id, record.seed, {})
        self.save(*events, vault)
        self.boards.keep(game_id, checkpoints)  # its first reader folds no more than a block
        return game_id


def _raise(error: Exception) -> Any:
    raise error
