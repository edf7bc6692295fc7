"""Games' writes of play: creating a game (a new one, a tournament's, an imported record), a
seat's command (recorded, replayed for a retried key, or checked without recording), a fallen
flag recorded by the clock sweep, a registered player's claim of a seat. Each is written
through the committer."""

from __future__ import annotations

import asyncio
import secrets as token_source
from collections.abc import Callable
from typing import Any
from uuid import UUID, uuid4

from eventsourcing.application import AggregateNotFoundError

from api import clock
from api.committer import Decided
from api.errors import Conflict, Forbidden, Invalid, NotFound, Unauthorized
from api.services.games.base import GamesBase, seen_by
from api.services.seating import SeatPlan, check_invited, invitation_secret
from api.store import GameSecrets, NotAGame, secrets_id
from api.tokens import hash_token, new_token
from api.wire.common import Head
from api.wire.games import MAX_KEY, CommandRequest, CommandResponse, CreateGame, GameCreatedResponse
from api.wire.players import SeatClaim
from domain.creation import copy_into, first_events, game_created, rest_of_block
from domain.events import ForkRef
from domain.game import Game, Recorded, chain, game_rng, resolve_decision, retry_fingerprint
from domain.rng import SeededRng
from domain.rules.base import RuleViolation
from replays.record import Reader, Record, from_record_event, to_record_event
from replays.verify import verify


class Commands(GamesBase):
    """Creating games and recording seats' commands."""

    def create(self, body: CreateGame, *, fork: ForkRef | None = None, study: bool | None = None,
               copy: list[Recorded] = (), seat_token: Callable[[UUID, str], str] | None = None,
               rules_version: str | None = None) -> GameCreatedResponse:
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
            clock=body.clock, rules_version=rules_version)
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
        self.committer.write(*events, vault, *claims)
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

    def touch(self, game_id: UUID) -> int:
        """Record a flag that has fallen in ``game_id`` (the sweep's call): the version the game
        is at after it, and nothing written when no flag has fallen."""
        def decide(game: Game) -> Decided:
            after, fell = self._flag_fall(game, clock.now())
            return Decided(fell, after if fell else None, lambda: after.version)

        self._warm(game_id)
        return self.committer.run(game_id, decide)

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
                self.committer.write(claim, GameSecrets(secrets_id(game_id), secrets.originator_version + 1, now,
                                                        game_id, secrets.seed, {seat: hash_token(seat_token)}))
                break
            except Conflict:
                if attempt == 2:
                    raise
        self.secrets.game(game_id, fresh=True)
        return SeatClaim(str(game_id), seat, info.player, seat_token)

    # -- a verified record stored as a game of this server ------------------------------------
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
        self.committer.write(*events, vault)
        self.boards.keep(game_id, checkpoints)  # its first reader folds no more than a block
        return game_id


def _raise(error: Exception) -> Any:
    raise error
