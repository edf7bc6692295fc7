"""Registered players (issue 11, point 7): ``POST /players`` registers a name once and returns
its secret token (shown once, stored hashed); a casual game is rated only when every seat's
player vouched for it with that token, at creation (``seats.{seat}.player_token``) or by
claiming the seat before play starts (``POST /games/{id}/seats/{seat}/claim``).

The registry and the claims are events of each name's private stream
(:mod:`domain.players`); the ratings read model (:mod:`projections.ratings`) reads them
from the notification log."""

from __future__ import annotations

from datetime import datetime
from uuid import UUID

from eventsourcing.persistence import IntegrityError

from api import clock
from api.errors import Conflict, Forbidden, Invalid, NotFound, Unauthorized
from api.store import HeraldStore
from api.tokens import hash_token, matches, new_token
from api.wire.players import NameRegistered
from domain.players import PlayerRegistered, SeatClaimed, player_stream_id

MAX_NAME = 100


class PlayerRegistry:
    """Registered names and the seats their players vouched for, over the event store."""

    def __init__(self, store: HeraldStore):
        self.store = store

    def register(self, name: str) -> NameRegistered:
        name = name.strip()
        if not name or len(name) > MAX_NAME:
            raise Invalid(f"a player name of 1 to {MAX_NAME} characters", code="bad_player")
        token = new_token()
        try:
            self.store.append(PlayerRegistered(player_stream_id(name), 1, clock.now(), name, hash_token(token)))
        except IntegrityError:
            raise Conflict(f"the name {name!r} is registered already", code="name_taken") from None
        return NameRegistered(name, token)

    def claim(self, name: str, token: str | None, game_id: UUID, seat: str, now: datetime) -> SeatClaimed:
        """The event vouching that ``name`` sits in ``seat``, if ``token`` is that name's."""
        if not token:
            raise Unauthorized(f"send {name!r}'s player token to vouch for the seat")
        stream = list(self.store.events.get(player_stream_id(name)))
        if not stream or not isinstance(stream[0], PlayerRegistered):
            raise NotFound(f"no registered player {name!r} (POST /players registers a name)",
                           code="unknown_player")
        if not matches(stream[0].token_hash, token):
            raise Forbidden(f"that is not {name!r}'s player token", code="wrong_token")
        return SeatClaimed(player_stream_id(name), stream[-1].originator_version + 1, now, name, str(game_id), seat)

