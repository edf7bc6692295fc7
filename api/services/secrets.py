"""Secrets and tokens: the private streams (a game's seed and seat-token hashes, a
tournament's director and player token hashes) and the question every route asks first —
whom does this bearer token speak for?

Nothing here is ever served or exported. Tokens are kept as hashes (:mod:`api.tokens`);
a tournament game's seat tokens are derived from the server's key and never stored."""

from __future__ import annotations

from datetime import datetime
from uuid import NAMESPACE_URL, UUID, uuid5

import msgspec
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from eventsourcing.utils import register_topic

from api import clock
from api.lru import Lru
from api.errors import Forbidden, NotFound, Unauthorized
from api.signing import derived_key
from api.store import GameSecrets, HeraldStore
from api.tokens import derived_token, matches, same_secret

CACHED_GAMES = 4096


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


register_topic("api.tournaments:TournamentKeys", TournamentKeys)  # where records before issue 18 name it


class TournamentKeyring(msgspec.Struct, frozen=True):
    """A tournament's private stream folded: the token hashes as they stand now."""

    version: int = 0
    director: str = ""
    players: dict[str, str] = {}
    seat_tokens: dict[str, dict[str, str]] = {}


def keys_id(tournament_id: UUID) -> UUID:
    """The id of a tournament's private stream."""
    return uuid5(NAMESPACE_URL, f"herald:tournament-keys:{tournament_id}")


class Secrets:
    """Every private stream of one store, and the tokens checked against them."""

    def __init__(self, store: HeraldStore, key: Ed25519PrivateKey, admin_token: str | None = None):
        self.store = store
        self.admin_token = admin_token
        self._token_key = derived_key(key, "seat tokens")
        self._games: Lru[UUID, GameSecrets] = Lru(CACHED_GAMES)

    # -- games ------------------------------------------------------------------------------------
    def game(self, game_id: UUID, *, fresh: bool = False) -> GameSecrets:
        """A game's private stream (cached: it changes only when a seat is claimed, before play
        starts; ``fresh`` reads it again, as a command does until play has started, so a
        token another process replaced stops acting here too)."""
        found = None if fresh else self._games.get(game_id)
        if found is not None:
            return found
        found = self.store.secrets(game_id)
        if found is None:
            raise NotFound(f"no game {game_id}")
        self._games.put(game_id, found)
        return found

    def cached(self, game_id: UUID) -> bool:
        """Whether a game's secrets are at hand without a read."""
        return game_id in self._games

    def server_seed(self, game_id: UUID) -> bytes:
        """The game's seed, for its dice and the salts of its sealed events. Never served."""
        return bytes.fromhex(self.game(game_id).seed)

    def authorize_seat(self, game_id: UUID, seat: str, token: str | None) -> None:
        """A seat's token acts only for that seat."""
        if not token:
            raise Unauthorized("send the seat's token as 'Authorization: Bearer <token>'")
        expected = self.game(game_id).token_hashes.get(seat)
        if expected is None:
            raise NotFound(f"this game has no seat {seat!r}", code="unknown_seat")
        if not matches(expected, token):
            raise Forbidden(f"that token does not act for seat {seat!r}", code="wrong_token")

    def seat_of(self, game_id: UUID, token: str | None) -> str | None:
        """The seat a token belongs to, if any (for redacted views)."""
        if not token:
            return None
        found = None
        for seat, expected in sorted(self.game(game_id).token_hashes.items()):
            if matches(expected, token):
                found = seat  # no early return: the time taken does not say which seat matched
        return found

    def derived_seat_token(self, game_id: UUID, seat: str) -> str:
        """A seat token made from the server's key (tournament games): never stored, made
        again when its player asks for it."""
        return derived_token(self._token_key, "seat", str(game_id), seat)

    def is_admin(self, token: str | None) -> bool:
        """Whether ``token`` is the admin token of this server's configuration."""
        return same_secret(self.admin_token, token)

    # -- tournaments ------------------------------------------------------------------------------
    def tournament(self, tournament_id: UUID) -> TournamentKeyring:
        """A tournament's token hashes as they stand now."""
        keys = TournamentKeyring()
        for change in self.store.events.get(keys_id(tournament_id)):
            keys = TournamentKeyring(change.originator_version, change.director or keys.director,
                                     {**keys.players, **change.players}, {**keys.seat_tokens, **change.seat_tokens})
        return keys

    def tournament_change(self, tournament_id: UUID, keys: TournamentKeyring, **change: object) -> TournamentKeys:
        """The next change of a tournament's private stream (saved with the events it goes with)."""
        return TournamentKeys(keys_id(tournament_id), keys.version + 1, clock.now(), tournament_id, **change)

    def director_of(self, tournament_id: UUID, token: str | None) -> bool:
        """Whether ``token`` is the tournament director's."""
        return matches(self.tournament(tournament_id).director, token)

    def player_of(self, tournament_id: UUID, token: str | None) -> str | None:
        """The tournament player whose token this is, if any (constant time over players)."""
        found = None
        for player, expected in sorted(self.tournament(tournament_id).players.items()):
            if matches(expected, token):
                found = player
        return found
