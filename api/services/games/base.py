"""What every concern of the games service shares: the event store and the committer it writes
through, the read models, loading a game, who a token speaks for, and the writes time makes
by itself (a freeze that lapses, a flag that falls), which any request may find due."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any
from uuid import UUID

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from eventsourcing.application import AggregateNotFoundError

from api import clock
from api.lru import Lru
from api.committer import Committer
from api.errors import NotFound
from api.services.players import PlayerRegistry
from api.services.secrets import Secrets
from api.store import HeraldStore, NotAGame
from domain.audit import flag_fall, lapsed_freezes
from domain.game import Game, Recorded, chain, project_game
from projections.board import Boards
from projections.board_store import StoredBoards
from projections.dice import DiceStats
from projections.index import GameIndex, decode_batch
from projections.sql import Database
from replays.record import Reader

SEEN_GAMES = 4096  # games whose highest stored version a process remembers (past positions)
EVERY_SEAT = "*"  # the chair of a reader once the seed is revealed: every seat's cards shown (no seat id is "*")


def seen_by(game: Game, viewer: str | None, revealed: bool) -> Any:
    """The view of ``game`` for ``viewer`` (a seat, None: a spectator); once the seed is
    revealed, every reader's is the same, with every hand, objective and card shown."""
    return game.rules.open_view(game.state) if revealed else game.rules.view(game.state, viewer)


def load_game(store: HeraldStore, game_id: UUID, cached: bool = False) -> Game:
    """The game: with ``cached``, as this process last saw it when it holds it (no read of the
    store), else brought up to date from the store; NotFound when no game has that id."""
    if cached:
        held = store.cached(game_id)
        if held is not None:
            return held
    try:
        return store.game(game_id)
    except (AggregateNotFoundError, NotAGame):
        raise NotFound(f"no game {game_id}") from None


class GamesBase:
    """The state and the helpers the commands, the audit and the reads of games share."""

    def __init__(self, store: HeraldStore, committer: Committer, secrets: Secrets, players: PlayerRegistry,
                 signing_key: Ed25519PrivateKey, freeze_lapse_seconds: int = 3600):
        self.store = store
        self.committer = committer  # every write goes through it (api/committer.py)
        self.secrets = secrets
        self.players = players
        self.index = GameIndex(Database.of(store.recorder), self._notifications)
        self.dice = DiceStats(Database.of(store.recorder), self._notifications)
        self.signing_key = signing_key
        self.freeze_lapse_seconds = freeze_lapse_seconds  # a freeze with no umpire lapses (0: never)
        self._seen: OrderedDict[UUID, int] = OrderedDict()  # a game's highest version known stored (_latest)
        self._seen_lock = threading.Lock()
        self._revealed: Lru[UUID, bool] = Lru(SEEN_GAMES)  # games whose seed is known public (it stays)
        # past boards: checkpoints in memory, backed by the database's (projections/board_store.py)
        self.boards = Boards(lambda g, after, upto: self.store.stream(g, after, upto),
                             stored=StoredBoards(Database.of(store.recorder)))
        self.umpire_hooks: list[Callable[[UUID, str], bool]] = []  # e.g. a tournament's director
        self.paired_hooks: list[Callable[[UUID], bool]] = []  # whether a tournament paired the game
        self.seat_hooks: list[Callable[[UUID, str], frozenset[str]]] = []  # e.g. a tournament player's seats
        self.bot_hooks: list[Callable[[UUID], None]] = []  # told when a game read has a bot seat to act

    # -- loading ------------------------------------------------------------------------------
    def _notifications(self, start: int, limit: int) -> list[tuple[int, Recorded | None]]:
        batch = self.store.recorder.select_notifications(start=start, limit=limit)
        return decode_batch(batch, self.store.mapper.to_domain_event)

    def game(self, game_id: UUID) -> Game:
        return load_game(self.store, game_id)

    def _cached(self, game_id: UUID) -> Game | None:
        """The game as this process last saw it, if it holds it (no read of the store)."""
        return self.store.cached(game_id)

    def _is_warm(self, game_id: UUID) -> bool:
        """Whether deciding on ``game_id`` needs no read from the store."""
        return self.secrets.cached(game_id) and self._cached(game_id) is not None

    def _warm(self, game_id: UUID) -> None:
        """Load what deciding on ``game_id`` reads, so the decision itself reads nothing."""
        self.secrets.game(game_id)
        self.game(game_id)

    def at_version(self, game_id: UUID, version: int) -> Game:
        """The game at ``version``: the cached game when it is there (no fold), else folded from
        the board checkpoint below it."""
        cached = self._cached(game_id)
        return cached if cached is not None and cached.version == version else self.boards.at(game_id, version)

    # -- who a token speaks for ---------------------------------------------------------------
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

    def has_umpire(self, game: Game) -> bool:
        """Whether someone may rule on this game's disputes: the admin (configured) or the
        director of the tournament that paired it (a game merely naming a tournament, even one
        that does not exist, has none: its freezes lapse)."""
        return bool(self.secrets.admin_token) or any(paired(game.id) for paired in self.paired_hooks)

    def is_umpire(self, game_id: UUID, token: str | None) -> bool:
        """The admin token, or any umpire hook (a tournament's director) that accepts it."""
        return self.secrets.is_admin(token) or any(hook(game_id, token) for hook in self.umpire_hooks if token)

    # -- what time writes: freezes that lapse, flags that fall ---------------------------------
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

    def _to_act(self, game: Game) -> list[str]:
        """Who may act now, as the next command would find it: a freeze that has lapsed (no
        umpire) no longer holds play, though its FreezeLapsed is recorded only by that command."""
        now = clock.now()
        if game.frozen:
            game, _ = self._lapse(game, now)
        if game.clocks is not None and flag_fall(game, now, None):
            return []  # a flag has fallen: the next request records it
        return game.to_act()

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
