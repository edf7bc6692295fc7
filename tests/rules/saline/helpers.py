"""Driving Saline games through the real aggregate path (domain.game)."""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any
from uuid import UUID

import msgspec

from domain.events import CardsShuffled, DiceRolled, GameCreated, SeatInfo
from domain.game import Game, create_game, project_game, take_decision
from domain.rng import SeededRng
from domain.rules.base import RuleViolation
from domain.rules.registry import RULE_SYSTEMS
from domain.rules.saline.data import SEATS

SALINE = RULE_SYSTEMS["saline"]
NOW = datetime(2026, 1, 1, tzinfo=timezone.utc)
SEED = bytes(range(32))


class Scripted(SeededRng):
    """The seeded rng with every deck left in its printed order and chosen dice faces: a position
    whose draws and weather a test knows. ``weather``: faces for the météo dice, two per roll;
    ``first``: the first player."""

    def __init__(self, game: Game, weather: list[str] | None = None, first: str = "p1"):
        super().__init__(SEED, game.id, "", game.next_draw)
        self.weather = list(weather or [])
        self.first = first

    def order(self, shuffle: CardsShuffled) -> list[int]:
        return DEALS.get((shuffle.deck, tuple(shuffle.draws)), list(range(shuffle.size)))

    def roll(self, kind, count, purpose, seat=None) -> DiceRolled:
        rolled = super().roll(kind, count, purpose, seat)
        if kind.id.startswith("saline-first-player"):
            return msgspec.structs.replace(rolled, faces=[self.first])
        if self.weather:
            faces, self.weather = self.weather[:count], self.weather[count:]
            return msgspec.structs.replace(rolled, faces=faces)
        return msgspec.structs.replace(rolled, faces=["sun"] * count)


class Dealt(Scripted):
    """The scripted rng with the event deck's first cards chosen: ``events`` (ids) come off the top
    first, in that order, then the rest in the printed order (the order every later draw finds too:
    the printed order, less the cards already drawn)."""

    def __init__(self, game: Game, events=(), objectives=(), oeillets=(), **kw):
        super().__init__(game, **kw)
        self.events = list(events)
        self.objectives = list(objectives)  # the public ones, then each seat's secret one
        self.oeillets = list(oeillets)  # the first revealed on the market

    def order(self, shuffle: CardsShuffled) -> list[int]:
        chosen = {"events": self.events, "objectives": self.objectives, "oeillets": self.oeillets}.get(shuffle.deck)
        if not chosen or shuffle.deck == "events" and shuffle.size != 49:  # not a reshuffle of the discards
            return super().order(shuffle)
        given = 32 - shuffle.size if shuffle.deck == "oeillets" else 0  # the greens O01… given at set-up
        first = [int(c[1:]) - 1 - given for c in chosen]
        order = first + [i for i in range(shuffle.size) if i not in first]
        DEALS[(shuffle.deck, tuple(shuffle.draws))] = order  # every later draw of this game finds it
        return order


# The scripted order of a shuffle dealt by Dealt, by its deck and draws: the rng of each later command
# (a fresh Scripted) reads the deck in the same order. The latest deal of a shuffle wins.
DEALS: dict[tuple[str, tuple[int, ...]], list[int]] = {}


def new_game(players: int, game_id: int = 1, options: dict[str, Any] | None = None) -> Game:
    DEALS.clear()  # a new game: no deal of an earlier one
    created = GameCreated(
        rules=SALINE.id,
        rules_version=SALINE.version,
        scenario="standard",
        data_hash=SALINE.data_hash("standard", options),
        seats={s: SeatInfo(player=s.upper()) for s in SEATS[:players]},
        seed_commitment="0" * 64,
        options=options or {},
    )
    return project_game(None, create_game(UUID(int=game_id), created, NOW))


def act(game: Game, seat: str, command: dict[str, Any], rng=None, window: bool = False) -> tuple[list, Game]:
    """``seat`` sends ``command``; the typed events and the game after. Unless ``window``, every
    seat of an out-of-turn window the command opens then passes (a test of something else: the
    events of the passes, and of the action resolving, are returned too); ``window``: it stays open."""
    rng = rng or Scripted(game)
    records = take_decision(game, seat, command, rng, NOW, None)
    events, game = [r.typed() for r in records], project_game(game, records)
    while not window and game.state.window is not None and game.state.pending is None and game.state.window.waiting:
        records = take_decision(game, game.state.window.waiting[0], {"type": "pass"}, Scripted(game), NOW, None)
        events, game = events + [r.typed() for r in records], project_game(game, records)
    return events, game


def refused(game: Game, seat: str, command: dict[str, Any]) -> RuleViolation:
    try:
        take_decision(game, seat, command, Scripted(game), NOW, None)
    except RuleViolation as violation:
        return violation
    raise AssertionError(f"{command} was accepted")


def started(players: int = 3, weather: list[str] | None = None, positions: dict[str, str] | None = None,
            first: str = "p1", options: dict[str, Any] | None = None,
            hands: dict[str, list[str]] | None = None, then: list[str] = (), objectives: list[str] = (),
            oeillets: list[str] = ()) -> Game:
    """A game set up from the printed order of every deck, greens placed (N by default), in the
    first day phase; ``weather`` gives the first mornings' météo faces; ``hands``: the two event
    cards dealt to each seat, ``then`` the next cards of the deck (its order scripted so:
    :class:`Dealt`; every later draw finds the same order); ``objectives``: the objectives dealt
    first (the face-up ones, then each seat's secret one); ``oeillets``: the first œillets on the market."""
    game = new_game(players, options=options)
    order = [c for seat in sorted(hands or {}) for c in hands[seat]] + list(then)
    _, game = act(game, "p1", {"type": "prepare"}, Dealt(game, order, objectives, oeillets, first=first))
    if hands:
        assert {s: list(h) for s, h in game.state.hands.items()} == hands, "two cards for every seat"
    for seat in _order(game):
        _, game = act(game, seat, {"type": "place", "position": (positions or {}).get(seat, "N")},
                      Scripted(game, weather=weather, first=first))
    return game


def _order(game: Game) -> list[str]:
    seats = list(game.state.seats)
    i = seats.index(game.state.first)
    return seats[i:] + seats[:i]


def end_day(game: Game, weather: list[str] | None = None, actions: dict[str, dict[str, Any]] | Any = None,
            keep: bool = False) -> tuple[list, Game]:
    """Play the rest of the day and the night: each seat that has not acted takes its action
    (``actions``: by seat, or a function of the game and the seat; doing nothing by default) and ends
    its turn; at night each draws and
    discards down to the hand limit (the card just drawn when ``keep``, else the oldest). The next
    morning rolls ``weather``. The events and the game."""
    out = []
    for _ in range(len(game.state.seats)):
        seat = game.state.current
        if not game.state.acted:
            chosen = actions(game, seat) if callable(actions) else (actions or {}).get(seat, {"type": "nothing"})
            events, game = act(game, seat, chosen)
            out += events
        events, game = act(game, seat, {"type": "end"})
        out += events
    for _ in range(len(game.state.seats)):
        seat = game.state.current
        events, game = act(game, seat, {"type": "draw"}, Scripted(game, weather=weather))
        out += events
        while game.state.discarding:
            d = game.state.discarding[0]
            card = game.state.hands[d][-1 if keep else 0]
            events, game = act(game, d, {"type": "discard", "card": card}, Scripted(game, weather=weather))
            out += events
    return out, game


def buying(game: Game, seat: str, positions: list[str], liards: int = 0, keep: bool = False,
           others: dict[str, dict[str, Any]] | None = None) -> Game:
    """By play, from a day's start: ``seat`` buys the œillet on the market's first space (the cheapest)
    for each of ``positions`` in turn, one a day, and does nothing (1 liard) on a day it cannot pay;
    then does nothing until it has ``liards``. The others take ``others`` (nothing by default). The
    game at the start of the next day (``keep``: as :func:`end_day`)."""
    left = list(positions)
    while left or game.state.liards[seat] < liards:
        actions = dict(others or {})
        if left and game.state.liards[seat] >= game.state.cat.prices[0]:
            actions[seat] = {"type": "buy", "space": 1, "position": left.pop(0)}
        _, game = end_day(game, actions=actions, keep=keep)
        assert game.outcome is None
    return game


def with_state(game: Game, **changes) -> Game:
    """The game with its state changed: a hand-built position, only where play cannot reach the
    position (each test that uses it says why)."""
    return msgspec.structs.replace(game, state=msgspec.structs.replace(game.state, **changes))


def legal(game: Game, seat: str) -> list[dict[str, Any]]:
    return [SALINE.recorded_command(c) for c in SALINE.legal_commands(game.state, seat)]


def types(events) -> list[str]:
    return [type(e).__name__ for e in events]
