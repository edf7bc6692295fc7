"""Player ratings per rule system and scenario, from every finished game whose players are
vouched for: OpenSkill's Plackett-Luce model (it rates two-player games and multi-player
tables alike). A read model in the store's database, caught up from the notification log in
order, so the same history always gives the same ratings; rebuildable from zero.

Vouched for (issues 11 and 30): a game every seat of which its registered player claimed with
their own player token (``SeatClaimed`` events, :mod:`domain.players`), casual or paired at a
table of a rated tournament alike. A claim gives the seat a token only its player holds, so
the result is what the rated players themselves played: neither a game's creator nor a
tournament's director (who registered the names and was handed the seat tokens) can play a
rated seat. Anyone may create a game naming anyone; only vouched games move ratings. Never
rated: a study game (its seed chosen by its creator), a fork, a game with fewer than two
distinct players, a game abandoned by every seat (no winner, no draw), a game of a tournament
created unrated.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from uuid import UUID

import msgspec
from openskill.models import PlackettLuce

from domain.events import GameCreated, Outcome
from domain.game import Recorded
from domain.players import SeatClaimed
from domain.tournaments.standings import order_of
from projections.sql import Database, Session, TrackedProjection

NAME = "ratings/4"  # 2: only vouched games count (issue 11); 3: tournament games too (issue 30); 4: history (29)
MODEL = PlackettLuce()

SCHEMA = [
    """CREATE TABLE IF NOT EXISTS herald_ratings (
        rules TEXT NOT NULL,
        scenario TEXT NOT NULL,
        player TEXT NOT NULL,
        mu DOUBLE PRECISION NOT NULL,
        sigma DOUBLE PRECISION NOT NULL,
        games INTEGER NOT NULL,
        last_game TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        PRIMARY KEY (rules, scenario, player)
    )""",
    "CREATE INDEX IF NOT EXISTS herald_ratings_player ON herald_ratings (player)",
    """CREATE TABLE IF NOT EXISTS herald_rating_history (
        player TEXT NOT NULL,
        game_id TEXT NOT NULL,
        rules TEXT NOT NULL,
        scenario TEXT NOT NULL,
        seat TEXT NOT NULL,
        mu_before DOUBLE PRECISION NOT NULL,
        sigma_before DOUBLE PRECISION NOT NULL,
        mu DOUBLE PRECISION NOT NULL,
        sigma DOUBLE PRECISION NOT NULL,
        rated_at TEXT NOT NULL,
        PRIMARY KEY (player, game_id)
    )""",
    "CREATE INDEX IF NOT EXISTS herald_rating_history_game ON herald_rating_history (game_id)",
    """CREATE TABLE IF NOT EXISTS herald_vouched_seats (
        game_id TEXT NOT NULL,
        seat TEXT NOT NULL,
        player TEXT NOT NULL,
        PRIMARY KEY (game_id, seat)
    )""",
    """CREATE TABLE IF NOT EXISTS herald_rated_games (
        game_id TEXT PRIMARY KEY,
        rules TEXT NOT NULL,
        scenario TEXT NOT NULL,
        rated_at TEXT NOT NULL
    )""",
]


DISPLAY_BASE, DISPLAY_SCALE = 1500, 30


def display(mu: float, sigma: float) -> int:
    """The rating people read (issue 29): ``round(1500 + 30 × ordinal)``, ordinal = mu − 3·sigma.
    A newcomer (mu 25, sigma 25/3: ordinal 0) reads 1500; 30 points a unit of mu puts a
    400-point gap near Elo's 10 to 1 odds between players whose sigma has settled (Plackett-Luce
    gives two players the odds e^(Δmu/c), c = √(2·beta²) ≈ 5.9 at beta 25/6: 400/30 ≈ 13.3
    units of mu, odds e^(13.3/5.9) ≈ 9.6). It sorts as the leaderboard does, and rises as the
    ratings grow sure of a player; rounding half to even, as Python's ``round``."""
    return round(DISPLAY_BASE + DISPLAY_SCALE * (mu - 3 * sigma))


class RatingChange(msgspec.Struct, frozen=True):
    """What one rated game did to one player's rating: before, after and the change, on the
    display scale (``display``), with OpenSkill's figures after it."""

    game: str
    rules: str
    scenario: str
    player: str
    seat: str
    before: int
    after: int
    change: int
    mu: float
    sigma: float
    rated_at: str


class Rating(msgspec.Struct, frozen=True):
    """A player's rating in one rule system and scenario. ``ordinal`` = mu − 3·sigma, the
    conservative figure leaderboards sort by; ``display`` the same on the scale people read
    (:func:`display`)."""

    rules: str
    scenario: str
    player: str
    mu: float
    sigma: float
    ordinal: float
    games: int
    last_game: str
    updated_at: str
    display: int = DISPLAY_BASE


# A game's creation and whether it may be rated: RATED (rated when every seat is claimed) or
# UNRATED; None when it is not a game.
RATED, UNRATED = "rated", "unrated"
GameInfo = Callable[[UUID], tuple[GameCreated, str] | None]


class Ratings(TrackedProjection):
    """The ratings projection over a store's notification log."""

    name = NAME
    tables = ("herald_ratings", "herald_rated_games", "herald_vouched_seats", "herald_rating_history")
    schema = tuple(SCHEMA)

    def __init__(self, db: Database, read_notifications: Callable[[int, int], list[tuple[int, Any]]],
                 game_info: GameInfo):
        self._info = game_info
        super().__init__(db, read_notifications)

    def prepare(self, batch: list[tuple[int, Any]]) -> dict[UUID, tuple[GameCreated, str] | None]:
        """Each ended game's creation and who vouches for it, read before the transaction."""
        return {e.originator_id: self._info(e.originator_id) for _, e in batch
                if isinstance(e, Recorded) and e.type == "GameEnded"}

    def apply(self, session: Session, seq: int, event: Any, prepared: dict | None = None) -> None:
        if isinstance(event, SeatClaimed):
            session.execute("INSERT INTO herald_vouched_seats (game_id, seat, player) VALUES (%(g)s, %(s)s, %(p)s) "
                            "ON CONFLICT (game_id, seat) DO NOTHING",
                            {"g": event.game, "s": event.seat, "p": event.player})
        elif isinstance(event, Recorded) and event.type == "GameEnded":
            info = (prepared or {}).get(event.originator_id)
            if info is None or info[1] == UNRATED:
                return
            if _vouched(session, str(event.originator_id), info[0]):
                _rate(session, event, info[0])

    def of_player(self, player: str) -> list[Rating]:
        self.catch_up()
        with self._db.transaction() as s:
            rows = s.rows("SELECT * FROM herald_ratings WHERE player = %(p)s ORDER BY rules, scenario", {"p": player})
        return [_rating(r) for r in rows]

    def leaderboard(self, rules: str, scenario: str, limit: int = 50) -> list[Rating]:
        self.catch_up()
        with self._db.transaction() as s:
            rows = s.rows("SELECT * FROM herald_ratings WHERE rules = %(r)s AND scenario = %(s)s "
                          "ORDER BY mu - 3 * sigma DESC, player LIMIT %(limit)s",
                          {"r": rules, "s": scenario, "limit": limit})
        return [_rating(r) for r in rows]


    def history(self, player: str, rules: str, limit: int = 500) -> list[RatingChange]:
        """``player``'s rated games in ``rules`` (every scenario), oldest first."""
        self.catch_up()
        with self._db.read() as s:
            rows = s.rows("SELECT * FROM herald_rating_history WHERE player = %(p)s AND rules = %(r)s "
                          "ORDER BY rated_at, game_id LIMIT %(n)s", {"p": player, "r": rules, "n": limit})
        return [_change(r) for r in rows]

    def of_game(self, game_id: str) -> list[RatingChange]:
        """What a rated game did to each of its players' ratings (none: it was not rated)."""
        self.catch_up()
        with self._db.read() as s:
            rows = s.rows("SELECT * FROM herald_rating_history WHERE game_id = %(g)s ORDER BY seat", {"g": game_id})
        return [_change(r) for r in rows]


def _change(r: dict[str, Any]) -> RatingChange:
    before, after = display(float(r["mu_before"]), float(r["sigma_before"])), display(float(r["mu"]), float(r["sigma"]))
    return RatingChange(r["game_id"], r["rules"], r["scenario"], r["player"], r["seat"], before, after,
                        after - before, float(r["mu"]), float(r["sigma"]), r["rated_at"])


def _rating(r: dict[str, Any]) -> Rating:
    mu, sigma = float(r["mu"]), float(r["sigma"])
    return Rating(r["rules"], r["scenario"], r["player"], mu, sigma, mu - 3 * sigma, int(r["games"]),
                  r["last_game"], r["updated_at"], display(mu, sigma))


def ranks(created: GameCreated, outcome: Outcome) -> dict[str, int]:
    """Each seat's rank for OpenSkill (1 best; equal ranks are ties)."""
    places = order_of({s: i.player for s, i in created.seats.items()}, outcome)
    return {seat: place + 1 for seat, place in places.items()}


def _vouched(s: Session, game: str, created: GameCreated) -> bool:
    """Whether every seat of the game was claimed by the player it names (with their own
    player token, which also gave them the seat's only token)."""
    rows = s.rows("SELECT seat, player FROM herald_vouched_seats WHERE game_id = %(g)s", {"g": game})
    claimed = {r["seat"]: r["player"] for r in rows}
    return all(claimed.get(seat) == info.player for seat, info in created.seats.items())


def _rate(s: Session, event: Recorded, created: GameCreated) -> None:
    game = str(event.originator_id)
    if s.rows("SELECT game_id FROM herald_rated_games WHERE game_id = %(g)s", {"g": game}):
        return  # rated once: a later GameEnded of the same game does not count twice
    players = [info.player for info in created.seats.values()]
    if len(set(players)) != len(players) or len(players) < 2:
        return
    outcome = msgspec.convert(event.data["outcome"], Outcome)
    if not outcome.draw and outcome.winner is None and not outcome.ranking:
        return  # abandoned by every seat: nobody won, nobody drew; not rated
    by_seat = ranks(created, outcome)
    seats = list(created.seats)
    current = []
    for seat in seats:
        rows = s.rows("SELECT mu, sigma, games FROM herald_ratings WHERE rules = %(r)s AND scenario = %(s)s "
                      "AND player = %(p)s", {"r": created.rules, "s": created.scenario,
                                             "p": created.seats[seat].player})
        current.append((MODEL.rating(mu=float(rows[0]["mu"]), sigma=float(rows[0]["sigma"])), int(rows[0]["games"]))
                       if rows else (MODEL.rating(), 0))
    rated = MODEL.rate([[r] for r, _ in current], ranks=[by_seat[seat] for seat in seats])
    at = event.timestamp.isoformat(timespec="microseconds")
    for seat, (team, (was, games)) in zip(seats, zip(rated, current)):
        s.execute(
            "INSERT INTO herald_rating_history (player, game_id, rules, scenario, seat, mu_before, sigma_before, mu, "
            "sigma, rated_at) VALUES (%(p)s, %(g)s, %(r)s, %(s)s, %(seat)s, %(mu0)s, %(sigma0)s, %(mu)s, %(sigma)s, "
            "%(at)s) ON CONFLICT (player, game_id) DO NOTHING",
            {"p": created.seats[seat].player, "g": game, "r": created.rules, "s": created.scenario, "seat": seat,
             "mu0": float(was.mu), "sigma0": float(was.sigma), "mu": float(team[0].mu),
             "sigma": float(team[0].sigma), "at": at})
        s.execute(
            "INSERT INTO herald_ratings (rules, scenario, player, mu, sigma, games, last_game, updated_at) "
            "VALUES (%(r)s, %(s)s, %(p)s, %(mu)s, %(sigma)s, %(games)s, %(g)s, %(at)s) "
            "ON CONFLICT (rules, scenario, player) DO UPDATE SET mu = %(mu)s, sigma = %(sigma)s, "
            "games = %(games)s, last_game = %(g)s, updated_at = %(at)s",
            {"r": created.rules, "s": created.scenario, "p": created.seats[seat].player, "mu": float(team[0].mu),
             "sigma": float(team[0].sigma), "games": games + 1, "g": game, "at": at},
        )
    s.execute("INSERT INTO herald_rated_games (game_id, rules, scenario, rated_at) VALUES (%(g)s, %(r)s, %(s)s, "
              "%(at)s)", {"g": game, "r": created.rules, "s": created.scenario, "at": at})
