"""The bodies of the tournament routes: ``/tournaments…`` and the ratings under ``/players…``."""

from __future__ import annotations

from typing import Annotated, Any

import msgspec

from api.wire.common import Head, documented
from domain.events import Outcome, TimeControl
from domain.rules.registry import RULE_SYSTEMS
from domain.tournaments.events import FORMATS, RulingNoted
from domain.tournaments.model import MAX_NAME, MAX_ROUNDS
from domain.tournaments.standings import CrossRow, Standing
from projections.ratings import Rating
from projections.standings import TournamentRow
from replays.record import RecordEvent

# the fewest and most players any scenario seats: the bounds of every table
MIN_SEATS, MAX_SEATS = (f(s.min_players if f is min else s.max_players for r in RULE_SYSTEMS.values()
                          for s in r.scenarios.values()) for f in (min, max))


class CreateTournament(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """POST /tournaments. ``rounds`` for Swiss only (round robin and knockout have as many
    as the field needs). ``table_size`` above 2 pairs multi-player tables by score, each of
    ``min_table`` to ``table_size`` players (``min_table`` defaults to ``table_size − 1``).
    ``rated``: its games may move ratings (each once every seat's registered player claimed
    it); a rated tournament names a registered player as ``director``, and is created with
    that player's token (``Authorization: Bearer <player token>``)."""

    name: Annotated[str, documented(minLength=1, maxLength=MAX_NAME, examples=["The Outremer Open"])]
    # the example a rule system of one scenario, which a tournament plays unnamed
    rules: Annotated[str, documented(enum=sorted(RULE_SYSTEMS), examples=["kingdoms-of-crusaders"])]
    format: Annotated[str, documented(enum=sorted(FORMATS))]
    scenarios: list[str] = []
    rounds: Annotated[int, documented(minimum=0, maximum=MAX_ROUNDS)] = 0
    table_size: Annotated[int, documented(minimum=MIN_SEATS, maximum=MAX_SEATS)] = 2
    min_table: Annotated[int, documented(minimum=MIN_SEATS, maximum=MAX_SEATS)] | None = None
    rated: bool = False
    director: str = ""
    options: dict[str, Any] = {}
    clock: TimeControl | None = None  # every game's clock (issue 29)


class TournamentCreatedResponse(msgspec.Struct, frozen=True):
    id: str
    version: int
    director_token: str
    head: Head


class RegisterPlayer(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """POST /tournaments/{id}/players (director)."""

    name: Annotated[str, documented(minLength=1, maxLength=MAX_NAME)]
    seed: int | None = None


class PlayerRegisteredResponse(msgspec.Struct, frozen=True):
    player: str
    seed: int
    player_token: str
    version: int


class Withdraw(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    reason: str


class Forfeit(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """POST /tournaments/{id}/forfeits (director): the forfeiting players of one game."""

    game: str
    forfeited: Annotated[list[str], documented(examples=[["Guy de Lusignan"]])]
    reason: str


class Adjust(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """POST /tournaments/{id}/adjustments (director): points added or taken, with a reason."""

    player: str
    points: float
    reason: str
    round: int | None = None


class PlayerInfo(msgspec.Struct, frozen=True):
    name: str
    seed: int
    withdrawn_after: int | None
    withdraw_reason: str


class TableInfo(msgspec.Struct, frozen=True):
    table: int
    game: str
    scenario: str
    seats: dict[str, str]
    status: str  # "playing", "ended", "forfeit"
    outcome: Outcome | None = None
    result_hash: str | None = None
    result_version: int | None = None
    forfeited: list[str] = []
    reason: str = ""
    rulings: list[RulingNoted] = []  # umpires' rulings in this game, linked to its record


class ByeInfo(msgspec.Struct, frozen=True):
    """A bye and its points; ``game``: the game against the server's bot that fills it, if the
    director paired the round with ``bye_bot`` (practice: outside the standings)."""

    player: str
    points: float
    reason: str
    game: str | None = None


class RoundInfo(msgspec.Struct, frozen=True):
    round: int
    method: str
    tables: list[TableInfo]
    byes: list[ByeInfo]


class TournamentSummary(msgspec.Struct, frozen=True):
    id: str
    name: str
    rules: str
    scenarios: list[str]
    format: str
    rounds: int
    table_size: int
    min_table: int
    rated: bool
    director: str
    options: dict[str, Any]
    status: str
    current_round: int
    head: Head
    players: list[PlayerInfo]
    paired: list[RoundInfo]


class PairedTable(msgspec.Struct, frozen=True):
    table: int
    game: str
    scenario: str
    seats: dict[str, str]
    seat_tokens: dict[str, str]


class RoundPairedResponse(msgspec.Struct, frozen=True):
    round: int
    method: str
    tables: list[PairedTable]
    byes: list[ByeInfo]
    head: Head


class MyGame(msgspec.Struct, frozen=True):
    round: int
    table: int
    game: str
    scenario: str
    seat: str
    seat_token: str
    status: str


class MyGames(msgspec.Struct, frozen=True):
    player: str
    games: list[MyGame]


class StandingsBody(msgspec.Struct, frozen=True):
    tournament: str
    status: str
    round: int
    head: Head
    standings: list[Standing]


class CrosstableBody(msgspec.Struct, frozen=True):
    tournament: str
    round: int
    head: Head
    rows: list[CrossRow]


class TournamentEventsPage(msgspec.Struct, frozen=True):
    events: list[RecordEvent]
    next: int | None


class TournamentsPage(msgspec.Struct, frozen=True):
    tournaments: list[TournamentRow]
    next: int | None


class PlayerProfile(msgspec.Struct, frozen=True):
    name: str
    ratings: list[Rating]


class Leaderboard(msgspec.Struct, frozen=True):
    rules: str
    scenario: str
    ratings: list[Rating]

