"""Registered players (issue 11, point 7): ``POST /players`` registers a name once and returns
its secret token (shown once, stored hashed); a casual game is rated only when every seat's
player vouched for it with that token, at creation (``seats.{seat}.player_token``) or by
claiming the seat before play starts (``POST /games/{id}/seats/{seat}/claim``).

The registry and the claims are events of each name's private stream
(:mod:`domain.players`); the ratings read model (:mod:`projections.ratings`) reads them
from the notification log.

Names are compared as a person reads them (:mod:`domain.names`, :mod:`api.skeleton`): a name
holding an invisible or direction-changing character is refused, and a name is taken when
another with the same :func:`~api.skeleton.confusable_key` is (``Zoë``, its NFD spelling,
``ＺＯË``, ``Аlice`` with a Cyrillic А beside ``Alice``). A name registered since issue 30 has
the stream of that key, so two processes cannot register confusable names at once; one
registered before has the stream of its :func:`~domain.names.name_key` or of its exact
spelling, found by that spelling or, for a variant, through :meth:`PlayerRegistry._legacy`."""

from __future__ import annotations

import threading
from collections.abc import Mapping
from datetime import datetime
from uuid import UUID

from eventsourcing.utils import get_topic

from api import clock
from api.committer import Committer
from api.errors import Conflict, Forbidden, Invalid, NotFound, Unauthorized
from api.store import HeraldStore
from api.tokens import hash_token, matches, new_token
from api.wire.games import SeatRequest
from api.wire.players import NameRegistered
from api.skeleton import confusable_key
from domain.names import RULE, name_key, recorded_name, unreadable
from domain.players import PlayerRegistered, SeatClaimed, player_stream_id

MAX_NAME = 100
_PAGE = 1000


def check_name(name: str, what: str = "a player name") -> None:
    """Refuse (422 ``bad_player``) a name holding a character a reader cannot see."""
    hidden = unreadable(name)
    if hidden is not None:
        raise Invalid(f"{what} may not hold invisible or direction-changing characters; it holds {hidden}",
                      code="bad_player", rule=RULE)


def check_seat_names(seats: Mapping[str, SeatRequest]) -> None:
    """The seats' player names of a game asked for at the door (``POST /games``, a fork's renamed
    seats), checked as new names: the service's own ``create`` checks none, so a game recorded
    before (a tournament's pairing of players registered before) is created as it was."""
    for seat, info in seats.items():
        if info.player is not None:
            check_name(info.player, what=f"seat {seat}: a player name")


class PlayerRegistry:
    """Registered names and the seats their players vouched for, over the event store."""

    def __init__(self, store: HeraldStore, committer: Committer):
        self.store = store
        self.committer = committer  # a registration is written through it, like every write
        self._legacy_streams: dict[str, UUID] | None = None
        self._legacy_lock = threading.Lock()

    def register(self, name: str) -> NameRegistered:
        name = recorded_name(name)
        if not name or len(name) > MAX_NAME:
            raise Invalid(f"a player name of 1 to {MAX_NAME} characters", code="bad_player")
        check_name(name)
        key = confusable_key(name)
        taken = Conflict(f"the name {name!r} is registered already, or one that reads like it", code="name_taken")
        if key in self._legacy():
            raise taken
        token = new_token()
        self.committer.write(PlayerRegistered(player_stream_id(key), 1, clock.now(), name, hash_token(token)),
                             taken=taken)
        return NameRegistered(name, token)

    def claim(self, name: str, token: str | None, game_id: UUID, seat: str, now: datetime) -> SeatClaimed:
        """The event vouching that ``name`` sits in ``seat``, if ``token`` is that name's."""
        stream = self.claim_identity(name, token, what="vouch for the seat")
        return SeatClaimed(stream[0].originator_id, stream[-1].originator_version + 1, now, name, str(game_id), seat)

    def registered(self, name: str) -> bool:
        """Whether ``name`` reads as a registered player's name."""
        stream = self._stream(name)
        return bool(stream) and isinstance(stream[0], PlayerRegistered)

    def claim_identity(self, name: str, token: str | None, what: str) -> list:
        """``name``'s private stream, if ``token`` is that registered name's player token."""
        if not token:
            raise Unauthorized(f"send {name!r}'s player token to {what}")
        stream = self._stream(name)
        if not stream or not isinstance(stream[0], PlayerRegistered):
            raise NotFound(f"no registered player {name!r} (POST /players registers a name)",
                           code="unknown_player")
        if not matches(stream[0].token_hash, token):
            raise Forbidden(f"that is not {name!r}'s player token", code="wrong_token")
        return stream

    def _stream(self, name: str) -> list:
        """The private stream of the registered name ``name`` reads as: the stream of its exact
        spelling (every name registered before keys), of its name key (names registered before
        skeletons), of its confusable key, else a variant of a name registered before."""
        key = confusable_key(name)
        for stream_id in (player_stream_id(name.strip()), player_stream_id(name_key(name)), player_stream_id(key),
                          self._legacy().get(key)):
            if stream_id is not None:
                stream = list(self.store.events.get(stream_id))
                if stream:
                    return stream
        return []

    def _legacy(self) -> dict[str, UUID]:
        """Names registered before names were keyed by their confusable key, whose stream is
        not that key's: key -> stream (the first registered wins). Read once from the log, on
        first need: no name is registered that way since."""
        with self._legacy_lock:
            if self._legacy_streams is None:
                found: dict[str, UUID] = {}
                topics = [get_topic(PlayerRegistered)]
                start = 1
                while batch := self.store.recorder.select_notifications(start=start, limit=_PAGE, topics=topics):
                    for notification in batch:
                        event = self.store.mapper.to_domain_event(notification)
                        key = confusable_key(event.name)
                        if event.originator_id != player_stream_id(key):
                            found.setdefault(key, event.originator_id)
                    start = batch[-1].id + 1
                self._legacy_streams = found
            return self._legacy_streams
