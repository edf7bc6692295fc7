"""The one place Herald is wired: the event store, the server's key, the application
services and the read models, for the web app (:mod:`api.app`) and the CLI alike
(``herald export``, ``herald import``, ``herald projections rebuild``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from api.committer import Committer
from api.config import data_dir
from api.services.games import Games, load_game
from api.services.bots import Bots
from api.services.players import PlayerRegistry
from api.services.seating import Seats
from api.services.secrets import Secrets
from api.services.tournaments import Tournaments
from api.services.turns import YourTurn
from api.signing import derived_key, signing_key
from api.store import HeraldStore, store_env
from replays.signature import public_hex


class Herald:
    """One process's Herald: the store it holds for its whole life, the services over it, and
    the read models they keep (each catches up from the event log and rebuilds from zero)."""

    def __init__(self, env: dict[str, str] | None = None, admin_token: str | None = None,
                 signing_key_path: Path | None = None, freeze_lapse_seconds: int = 3600,
                 clock_sweep_seconds: float = 5.0, webhook_retry_seconds: float = 5.0,
                 webhook_poll_seconds: float = 1.0, webhook_private: bool = False):
        settings = store_env(env)
        self.store = HeraldStore(env=settings)
        self.signing_key = signing_key(signing_key_path or data_dir(settings, env) / "signing-key.pem")
        self.public_key = public_hex(self.signing_key.public_key())
        self.secrets = Secrets(self.store, self.signing_key, admin_token)
        # the one write path: every event is appended by it, and every write tells its hooks.
        # PostgreSQL: batches are written by a writer thread while the loop decides the next
        # (DECISIONS.md, "Storage and speed"); SQLite's local fsync stays on the loop
        self.committer = Committer(lambda game_id, fresh: load_game(self.store, game_id, cached=not fresh),
                                   self.store.append, self.store.cache_put, write_beside=self.store.networked)
        self.players = PlayerRegistry(self.store, self.committer)
        self.games = Games(self.store, self.committer, self.secrets, self.players, self.signing_key,
                           freeze_lapse_seconds)
        self.seats = Seats(self.games)
        self.bots = Bots(self.games)
        self.tournaments = Tournaments(self.store, self.games, self.secrets)
        self.games.umpire_hooks.append(self.tournaments.directs_game)  # a director rules on its games' disputes
        self.games.paired_hooks.append(self.tournaments.pairs_game)  # ... of the games it paired
        self.games.seat_hooks.append(self.tournaments.seats_of_player)  # a player token reads as its seats
        self.committer.written_hooks.append(self.tournaments.written)  # results catch up after a write with work
        # your-move notices, their webhooks, and the clock sweep (issue 29)
        self.your_turn = YourTurn(self.games, self.players, derived_key(self.signing_key, "webhooks"),
                                  clock_sweep_seconds, webhook_retry_seconds, webhook_poll_seconds,
                                  webhook_private)
        self.read_models: list[tuple[str, Any]] = [
            ("game index", self.games.index),
            ("dice statistics", self.games.dice),
            ("tournament results", self.tournaments.results),
            ("ratings", self.tournaments.ratings),
            ("turns", self.your_turn.turns),
            ("board checkpoints", self.games.boards.stored),  # forgotten; rebuilt as games are read
        ]

    def close(self) -> None:
        self.bots.close()
        self.committer.close()
        if self.games.boards.stored is not None:
            self.games.boards.stored.close()  # the board checkpoints handed over, written first
        self.store.close()
