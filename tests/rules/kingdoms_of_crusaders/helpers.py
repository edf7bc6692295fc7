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
from domain.rules.kingdoms_of_crusaders.state import KocState, Marker
from domain.rules.registry import RULE_SYSTEMS

KOC = RULE_SYSTEMS["kingdoms-of-crusaders"]
NOW = datetime(2026, 1, 1, tzinfo=timezone.utc)
SEED = bytes(range(32))


class FastRng(SeededRng):
    """The seeded rng, remembering each shuffle's order (the real one recomputes it from the
    seed on every draw; the result is the same)."""

    def __init__(self, *args):
        super().__init__(*args)
        self._orders: dict[tuple[int, ...], list[int]] = {}

    def order(self, shuffle: CardsShuffled) -> list[int]:
        key = tuple(shuffle.draws)
        if key not in self._orders:
            self._orders[key] = super().order(shuffle)
        return self._orders[key]


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


def position(game: Game, armies: dict[str, dict[int, list[str]]], hands: dict[str, list[str]] | None = None,
             pool: list[str] | None = None, current: str = "p1", completed: dict[int, list[str]] | None = None,
             markers: list[tuple[int, int, str]] = ()) -> Game:
    """A prepared position: ``armies[seat][sector]`` lists card specs placed there, ``hands`` the
    specs each seat holds; cards are taken from the bottom of the unshuffled deck, so the next
    draws (from the top) never bring them again. ``pool`` (specs) fixes the cards not yet seen
    besides the hands exactly; by default every card not placed is unseen. Armies of four are
    completed in seat order unless ``completed`` says otherwise."""
    state: KocState = game.state
    used: set[str] = set()
    cards_by_id = dict(state.cards)

    def take(spec: str) -> str:
        """A card of that spec from the bottom of the deck; once the deck has none left, a made-up
        card (``X1``…) outside the deck, as hand-built examples may need more copies than it holds."""
        m = shape(spec.split("+"))
        cid = next((c for c in reversed(state.deck) if state.cards[c] == m and c not in used), None)
        if cid is None:
            cid = f"X{len(cards_by_id) - len(state.deck) + 1}"
            cards_by_id[cid] = m
        used.add(cid)
        return cid

    sectors = {s: [[] for _ in range(5)] for s in state.seats}
    for seat, by_sector in armies.items():
        for sector, specs in by_sector.items():
            sectors[seat][sector - 1] = [take(spec) for spec in specs]
    held = {s: tuple(take(spec) for spec in (hands or {}).get(s, [])) for s in state.seats}
    if pool is None:
        unseen = dict(state.unseen)
        for ids in sectors.values():
            for sector in ids:
                for cid in sector:
                    if cid in state.cards:
                        unseen[state.cards[cid]] -= 1
    else:
        unseen = {}
        for cid in (c for h in held.values() for c in h):
            unseen[cards_by_id[cid]] = unseen.get(cards_by_id[cid], 0) + 1
        for spec in pool:
            unseen[shape(spec.split("+"))] = unseen.get(shape(spec.split("+")), 0) + 1
    done = [list((completed or {}).get(n + 1, [])) for n in range(5)]
    for seat in state.seats:
        for n in range(5):
            if len(sectors[seat][n]) == 4 and seat not in done[n]:
                done[n].append(seat)
    new = msgspec.structs.replace(
        state, cards=cards_by_id, unseen=unseen, hands=held, current=current, completed=tuple(tuple(d) for d in done),
        sectors={s: tuple(tuple(x) for x in v) for s, v in sectors.items()},
        markers=tuple(Marker(n, t, s) for n, t, s in markers),
    )
    return msgspec.structs.replace(game, state=new)


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


