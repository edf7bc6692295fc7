"""Games' audit and study: annotations, disputes and their rulings (a void and its
reshuffles), a seat's agreement to release a freeze or abandon the game, an umpire's
adjudication and inspection, and forks — each recorded through the committer like a seat's
command, ahead of which any flag that has fallen is recorded."""

from __future__ import annotations

from collections.abc import Callable
from uuid import UUID

import msgspec

from api import clock
from api.committer import Decided
from api.errors import Conflict, Forbidden, Invalid, Unauthorized
from api.services.games.commands import Commands
from api.services.players import check_seat_names
from api.wire.common import Head
from api.wire.games import (
    AbandonRequest,
    AdjudicationRequest,
    AnnotationRequest,
    CreateGame,
    DisputeRequest,
    ForkRequest,
    GameCreatedResponse,
    Inspection,
    InspectionRequest,
    MetaResponse,
    ReleaseRequest,
    RulingRequest,
    SeatRequest,
)
from domain.audit import (
    UMPIRE,
    adjudicate,
    agree_to_abandon,
    agree_to_release,
    annotate,
    inspect,
    raise_dispute,
    reshuffle_after_void,
    rule_dispute,
)
from domain.creation import check_fork, check_fork_play, check_sealed_fork, fork_seats, rest_of_block
from domain.events import EventData, ForkRef
from domain.game import Game, chain, game_rng, project_game
from projections.index import GameRow
from replays.record import to_record_event


class AuditAndForks(Commands):
    """The audit commands and forks (a fork creates a game: :class:`Commands`)."""

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
        ), fork=fork, study=body.dice != "fresh", copy=prefix, rules_version=parent.created.rules_version)

    def forks(self, game_id: UUID) -> list[GameRow]:
        self.game(game_id)
        return self.index.forks(str(game_id))

