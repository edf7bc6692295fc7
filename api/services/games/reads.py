"""Games' reads: a game's summary, a seat's legal commands, the history (events, timeline,
portable record) as a reader may read it, and the board now or at any past version (past
boards folded from the checkpoint below them, never the whole game)."""

from __future__ import annotations

from uuid import UUID

import msgspec

from api import clock
from api.errors import Forbidden, NotFound, Unauthorized
from api.services.clocks import clock_reading
from api.services.games.base import EVERY_SEAT, SEEN_GAMES, GamesBase, load_game, seen_by
from api.services.seating import seating_info
from api.wire.common import Head
from api.wire.games import EventsPage, GameSummary, LegalCommands, StateAt, TimelinePage
from domain.game import Game, Recorded
from domain.rules.words import Names
from projections.board import FoldAway
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


class Reads(GamesBase):
    """What a game answers to a reader; nothing here writes."""

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
        self._revealed.put(game_id, True)

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
        game = self.boards.at(game_id, version, away) if build else self.boards.quick(game_id, version)
        return None if game is None else self._state(game, seat)

    def current(self, game_id: UUID, away: FoldAway) -> Game:
        """The game as it stands, not folded here from its start: the aggregate when this
        process holds it current, else the board at its head (projections/board.py: its
        missing checkpoints built by ``away``, in a worker process; the play log left out)."""
        head = self.head(game_id)
        cached = self._cached(game_id)
        if cached is not None and cached.version == head:
            return cached
        return self.boards.at(game_id, head, away)

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
        current = load_game(self.store, game_id, cached=True) if version is not None else None
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

