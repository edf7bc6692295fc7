"""Seats taken at a distance (issue 29), the service side: which seats a new game's creator
holds (and gets tokens for), the invitation link's secret, and the routes that take a seat,
decline one or give a held seat's seed. The rules of it are :mod:`domain.seating`; each write
goes through the games service's committer with the private events it needs (the seat's new
token hash, the player's ``SeatClaimed``) in the same transaction."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING
from uuid import UUID

from analysis.rollout import policies
from api import clock
from api.committer import Decided
from api.errors import Forbidden, Invalid, NotFound
from api.store import GameSecrets, secrets_id
from api.tokens import hash_token, matches, new_token
from api.wire.common import Head
from api.wire.games import CreateGame, MetaResponse
from api.wire.seating import DeclineSeat, GiveSeed, SeatingInfo, SeatTakenResponse, TakeSeat
from domain.errors import SetupRefused
from domain.events import BotSeat, EventData, GameCreated, SeatsOffered
from domain.game import Game, chain, project_game
from domain.rules.base import RuleViolation
from domain.rules.registry import RULE_SYSTEMS
from domain.seating import OPEN_PLAYER, RULE, decline, give_seed, offered, take
from replays.record import to_record_event

if TYPE_CHECKING:
    from api.services.games import Games


class SeatPlan:
    """What a ``POST /games`` body asks of its seats: each seat's player as GameCreated names
    it, and the seats left open, offered or played by a bot."""

    def __init__(self, body: CreateGame):
        self.players: dict[str, str] = {}
        self.open: list[str] = []
        self.invited: list[str] = []
        self.bots: dict[str, BotSeat] = {}
        for seat, info in body.seats.items():
            kinds = [k for k, on in (("invite", info.invite), ("open", info.open), ("bot", info.bot is not None)) if on]
            if len(kinds) > 1 or (kinds and info.player_token is not None):
                raise SetupRefused("bad_seating", f"seat {seat}: one of invite, open, bot or a player_token")
            if info.open or info.bot is not None:
                if info.player is not None:
                    raise SetupRefused("bad_seating", f"seat {seat}: an open or bot seat names no player")
                if info.open:
                    self.open.append(seat)
                    self.players[seat] = OPEN_PLAYER
                else:
                    check_policy(body.rules, info.bot.policy)
                    self.bots[seat] = info.bot
                    self.players[seat] = f"bot ({info.bot.policy})"
                continue
            if info.player is None:
                raise SetupRefused("bad_player", f"seat {seat}: name its player (or make it open or a bot's)")
            self.players[seat] = info.player
            if info.invite:
                self.invited.append(seat)
        self.blind = body.blind_seeds
        self.any = bool(self.open or self.invited or self.bots or self.blind)

    def held(self) -> list[str]:
        """The seats whose tokens the creator gets."""
        away = {*self.open, *self.invited, *self.bots}
        return [s for s in self.players if s not in away]

    def offer(self, created: GameCreated) -> SeatsOffered:
        try:
            return offered(created, self.open, self.invited, self.bots, self.blind)
        except RuleViolation as error:
            raise SetupRefused(error.code, error.message, error.rule) from None


def check_policy(rules: str, policy: str) -> None:
    """A bot's policy must be one the analysis plays for this rule system."""
    system = RULE_SYSTEMS.get(rules)
    offered = policies(system) if system is not None else ()
    if policy not in offered:
        raise SetupRefused("unknown_policy", f"no bot plays {rules} with policy {policy!r} (it plays "
                                             f"{', '.join(offered) if offered else 'none: it offers no rollouts'})",
                           RULE)


def seating_info(game: Game) -> SeatingInfo | None:
    s = game.seating
    if s is None:
        return None
    return SeatingInfo(list(s.open), list(s.invited), dict(s.bots), s.blind, sorted(s.seeds), dict(s.players),
                       list(game.awaited))


class Seats:
    """Taking, declining and seeding seats of the games of one games service."""

    def __init__(self, games: Games):
        self.games = games

    def _write(self, game_id: UUID, produce: Callable[[Game, object], tuple[list[EventData], list[object]]],
               answer: Callable[[Game, list], object]) -> object:
        """Record the seating event ``produce`` makes (with the private events it makes
        beside it) through the committer; answer from the game it leaves."""

        def decide(game: Game) -> Decided:
            now = clock.now()
            public, private = produce(game, now)
            events = chain(game.id, game.version + 1, game.head, public, now)
            after = project_game(game, events)
            return Decided([*events, *private], after, lambda: answer(after, events))

        games = self.games
        games.game(game_id)
        games._warm(game_id)
        try:
            return games.committer.run(game_id, decide)
        finally:
            games.secrets.game(game_id, fresh=True)  # a new seat token acts at once

    def take(self, game_id: UUID, seat: str, body: TakeSeat, token: str | None) -> SeatTakenResponse:
        """A registered player takes an open seat (with the invitation link's secret) or the
        one offered to them, with their player token: the seat gets a token only they hold."""
        games = self.games
        game = games.game(game_id)
        games.players.claim_identity(body.player, token, what="take the seat")  # who asks, first
        if seat not in game.created.seats:
            raise NotFound(f"this game has no seat {seat!r}", code="unknown_seat")
        if game.seating is not None and seat in game.seating.open:
            secret = games.secrets.game(game_id).invitation
            if not body.invitation:
                raise Invalid("an open seat is taken with the invitation link's secret: send \"invitation\"",
                              code="invitation_required")
            if not secret or not matches(secret, body.invitation):
                raise Forbidden("that is not this game's invitation", code="wrong_invitation")
        seat_token = new_token()

        def produce(game: Game, now) -> tuple[list[EventData], list[object]]:
            taken = take(game.created, game.seating, seat, body.player, body.seed)
            claim = games.players.claim(body.player, token, game_id, seat, now)
            vault = games.secrets.game(game_id, fresh=True)
            return [taken], [claim, GameSecrets(secrets_id(game_id), vault.originator_version + 1, now, game_id,
                                                vault.seed, {seat: hash_token(seat_token)})]

        return self._write(game_id, produce, lambda after, events: SeatTakenResponse(
            str(game_id), seat, body.player, seat_token, after.version, Head(after.version, after.head)))

    def decline(self, game_id: UUID, seat: str, body: DeclineSeat, token: str | None) -> MetaResponse:
        """The invited player declines, with their player token: the seat is open from then on."""
        games = self.games
        games.game(game_id)
        games.players.claim_identity(body.player, token, what="decline the seat")  # who asks, first

        def produce(game: Game, now) -> tuple[list[EventData], list[object]]:
            return [decline(game.created, game.seating, seat, body.player)], []

        return self._write(game_id, produce, self._meta)

    def give_seed(self, game_id: UUID, seat: str, body: GiveSeed, token: str | None) -> MetaResponse:
        """A seat held since creation gives its own seed (blind seeds), with its seat token."""
        games = self.games
        games.game(game_id)
        games.secrets.authorize_seat(game_id, seat, token)
        return self._write(game_id, lambda game, now: ([give_seed(game.created, game.seating, seat, body.seed)], []),
                           self._meta)

    @staticmethod
    def _meta(after: Game, events: list) -> MetaResponse:
        return MetaResponse(after.version, [to_record_event(e) for e in events], Head(after.version, after.head))


def invitation_secret(plan: SeatPlan) -> tuple[str | None, str]:
    """The invitation link's secret (shown once to the creator) and its hash, when a seat is open."""
    if not plan.open:
        return None, ""
    secret = new_token()
    return secret, hash_token(secret)


def check_invited(plan: SeatPlan, registered: Callable[[str], bool]) -> None:
    for seat in plan.invited:
        if not registered(plan.players[seat]):
            raise NotFound(f"seat {seat}: no registered player {plan.players[seat]!r} to invite "
                           "(POST /players registers a name)", code="unknown_player")

