"""Driving Kingdoms of Crusaders games through the real aggregate path (domain.game)."""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any
from uuid import UUID

import msgspec

from domain.events import CardsShuffled, GameCreated, SeatInfo
from domain.game import Game, create_game, project_game, take_decision
from domain.rng import SeededRng
from domain.rules.base import RuleViolation
from domain.rules.kingdoms_of_crusaders.data import SEATS, shape
from domain.rules.kingdoms_of_crusaders.state import KingdomsOfCrusadersState
from domain.rules.registry import RULE_SYSTEMS

KOC = RULE_SYSTEMS["kingdoms-of-crusaders"]
NOW = datetime(2026, 1, 1, tzinfo=timezone.utc)
SEED = bytes(range(32))


def new_game(players: int, game_id: int = 1, options: dict[str, Any] | None = None,
             version: str | None = None, seed_commitment: str = "0" * 64) -> Game:
    """A new game, recorded under this server's version or an earlier one it replays."""
    rules = KOC.at_version(version or KOC.version)
    created = GameCreated(
        rules=KOC.id,
        rules_version=rules.version,
        scenario="standard",
        data_hash=rules.data_hash("standard", options),
        seats={s: SeatInfo(player=s.upper()) for s in SEATS[:players]},
        seed_commitment=seed_commitment,
        options=options or {},
    )
    return project_game(None, create_game(UUID(int=game_id), created, NOW))


def play(game: Game, seat: str, command: dict[str, Any], seed: bytes = SEED) -> Game:
    rng = SeededRng(seed, game.id, "", game.next_draw)
    return project_game(game, take_decision(game, seat, command, rng, NOW, seed))


def refused(game: Game, seat: str, command: dict[str, Any]) -> RuleViolation:
    try:
        take_decision(game, seat, command, SeededRng(SEED, game.id, "", game.next_draw), NOW, None)
    except RuleViolation as violation:
        return violation
    raise AssertionError(f"{command} was accepted")


def cards(*specs: str) -> list[int]:
    """Card shapes from short specs: ``"lance+bow"``, ``"banner"``, ``"sword+sword"``."""
    return [shape(spec.split("+")) for spec in specs]


class DealtInOrder(SeededRng):
    """The seeded rng, but every shuffle leaves the deck in its printed order (A01 on top), so a
    prepared position knows which cards the next draws bring."""

    def order(self, shuffle: CardsShuffled) -> list[int]:
        return list(range(shuffle.size))


def prepared(players: int, options: dict[str, Any] | None = None) -> Game:
    """A game after ``prepare``, dealt from the unshuffled deck."""
    game = new_game(players, options=options)
    rng = DealtInOrder(SEED, game.id, "", game.next_draw)
    return project_game(game, take_decision(game, "p1", {"type": "prepare"}, rng, NOW, None))


def played(players: int, plans: dict[str, list[tuple[str, int]]], options: dict[str, Any] | None = None,
           version: str | None = None, filler: str = "lance",
           hands: dict[str, list[str]] | None = None) -> tuple[list, Game]:
    """A game played from the opening: p1 moves first and each seat, in its turns, places the cards
    of its plan (``(spec, sector)``) in order. The deck is scripted (tests/rules/scripted.py) so that
    each seat is dealt, then draws, the cards of its plan in that order, then the cards ``hands``
    names for it (kept in hand), then ``filler`` cards. Play stops when the game ends or a seat to
    act has played its whole plan; the events of the last placement and the game."""
    from domain.rules.kingdoms_of_crusaders.data import HAND
    from domain.rules.kingdoms_of_crusaders.rules import DECK
    from tests.rules.scripted import Script

    game = new_game(players, options=options, version=version)
    s: KingdomsOfCrusadersState = game.state
    seats = s.seats
    given = {seat: 0 for seat in seats}

    def next_spec(seat: str) -> str:
        i, given[seat] = given[seat], given[seat] + 1
        specs = [spec for spec, _ in plans.get(seat, [])] + list((hands or {}).get(seat, []))
        return specs[i] if i < len(specs) else filler

    wanted = [next_spec(seat) for seat in seats for _ in range(HAND)]  # the deal, p1 first
    turns = sum(len(p) for p in plans.values()) + sum(len(h) for h in (hands or {}).values()) + 1
    wanted += [next_spec(seats[t % len(seats)]) for t in range(turns)]
    free = list(range(len(s.deck)))
    top = []
    for spec in wanted:
        m = shape(spec.split("+"))
        i = next(i for i in free if s.cards[s.deck[i]] == m)  # StopIteration: the deck has too few
        free.remove(i)
        top.append(i)
    script = Script(decks={DECK: top}, faces={f"first-player-{players}": ["p1"]})
    game = project_game(game, take_decision(game, "p1", {"type": "prepare"}, script.rng(game), NOW, None))
    done = {seat: 0 for seat in seats}
    events: list = []
    while game.outcome is None:
        seat = KOC.to_act(game.state)[0]
        if done[seat] == len(plans.get(seat, [])):
            break
        spec, sector = plans[seat][done[seat]]
        done[seat] += 1
        command = {"type": "place", "card": hand_card(game, seat, spec), "sector": sector}
        records = take_decision(game, seat, command, script.rng(game), NOW, None)
        events, game = [r.typed() for r in records], project_game(game, records)
    return events, game


def race(players: int, won: list[tuple[int, str]],
         fillers: dict[str, tuple[str, tuple[int, ...]]] | None = None) -> dict[str, list[tuple[str, int]]]:
    """Plans for :func:`played` that win the territories in the order ``won`` (territory, seat): the
    seat of the territory next in turn completes four banners there (no army can beat a regiment of
    banners completed first); a seat whose territory comes later builds three banners there ahead;
    otherwise it places a filler, ``fillers[seat]``: a kind and the territories it goes to (the
    fewest of its cards first; by default lances where it wins nothing)."""
    seats = SEATS[:players]
    banners = {s: {t: 0 for t, _ in won} for s in seats}
    placed = {s: {t: 0 for t in range(1, 6)} for s in seats}
    plans: dict[str, list[tuple[str, int]]] = {s: [] for s in seats}
    k, turn = 0, 0
    while k < len(won):
        seat = seats[turn % players]
        turn += 1
        target, winner = won[k]
        ahead = next((t for t, s in won[k + 1:] if s == seat and banners[seat][t] < 3), None)
        if seat == winner or ahead is not None:
            t = target if seat == winner else ahead
            banners[seat][t] += 1
            card = ("banner", t)
            if seat == winner and banners[seat][t] == 4:
                k += 1
        else:
            kind, where = (fillers or {}).get(seat) or ("lance", tuple(t for t in range(1, 6)
                                                                       if (t, seat) not in won))
            t = min((t for t in where if placed[seat][t] < 4), key=lambda t: (placed[seat][t], t))
            card = (kind, t)
        placed[seat][card[1]] += 1
        plans[seat].append(card)
    return plans


def owner_deck(counts: dict[str, int]) -> dict[str, Any]:
    """An owner's deck (option ``deck``): so many cards of each spec (``"lance+banner"``)."""
    specs = [spec for spec, n in counts.items() for _ in range(n)]
    return {"cards": [{"number": n, "symbols": spec.split("+")} for n, spec in enumerate(specs, 1)]}


def hand_card(game: Game, seat: str, spec: str) -> str:
    """The id of a card of that spec in the seat's hand."""
    m = shape(spec.split("+"))
    return next(c for c in game.state.hands[seat] if game.state.cards[c] == m)


def place(game: Game, seat: str, spec: str, sector: int) -> tuple[list, Game]:
    """``seat`` places a card of ``spec`` from its hand; the events and the game after."""
    command = {"type": "place", "card": hand_card(game, seat, spec), "sector": sector}
    records = take_decision(game, seat, command, DealtInOrder(SEED, game.id, "", game.next_draw), NOW, None)
    return [r.typed() for r in records], project_game(game, records)


def legal(game: Game, seat: str) -> list[dict[str, Any]]:
    return [msgspec.to_builtins(c) for c in KOC.legal_commands(game.state, seat)]


