"""Seeded random-legal games of 2 to 5 players through the aggregate path, with no turn limit:
every one ends by a §1 victory. Invariants are checked after every event: no unit in a wild
province, regulars never above provinces owned after raising, resources never negative,
random illegal commands refused with the game unchanged; and a replay of the decisions, with the
seed and with only the recorded dice, reproduces the record exactly. Listed commands accepted and
the record decided again byte for byte, as for every rule system: tests/rules/conformance.py."""

from __future__ import annotations

import random
from uuid import UUID

import pytest

from domain.game import project_game
from domain.rng import RecordedRng, SeededRng
from domain.rules.base import RuleViolation
from domain.rules.saxon_shore.data import BOARD
from domain.rules.saxon_shore.state import REGULAR_KINDS, owned
from tests.rules.playout import Step, one_seat, playout

from .bots import choose_command
from .helpers import NOW, SEED, S, decision, new_game

OPTIONS = {"warrior_monks": True, "city_defences": True, "feeble_rulers": True}


def illegal_commands(state, seat: str, rnd: random.Random) -> list[tuple[str, dict]]:
    """Commands the rules must refuse now."""
    other = next(s for s in state.seats if s != seat)
    not_mine = next(p for p in BOARD.provinces if state.provinces[p].owner != seat)
    out = [
        (other, {"type": "done"}),
        (seat, {"type": "choose", "option": "no such option"}),
        (seat, {"type": "move", "units": [10_000], "path": ["Kent"]}),
        (seat, {"type": "improve", "province": not_mine, "improvement": "road", "pay": ["wheat", "wheat"]}),
        (seat, {"type": "offer", "to": seat, "give": {"wheat": 1}, "take": {}}),
        (seat, {"type": "declare", "province": "The Weald", "action": "raid"}),
        (seat, {"type": "no_such_command"}),
    ]
    mine = [u for u in state.units.values() if u.owner == seat and u.kind != "boat" and u.loc in BOARD.index]
    if mine:
        u = rnd.choice(mine)
        out.append((seat, {"type": "move", "units": [u.id], "path": [rnd.choice(BOARD.wild)]}))
    return out


def check_invariants(state, last_command: dict | None, seat: str) -> None:
    """After every event, beyond the declared invariants (no count below zero, every counter at a
    place on the map): no unit in a wild province; the raiser's regulars, after raising, never
    above the provinces it owns (§4.6.2)."""
    for u in state.units.values():
        assert u.loc not in BOARD.wild, f"unit {u} in a wild province"
    if last_command and last_command["type"] == "raise-regular":  # the raiser, after raising (§4.6.2)
        regulars = sum(1 for u in state.units.values() if u.owner == seat and u.kind in REGULAR_KINDS)
        assert regulars <= len(owned(state, seat))


def play(players: int, seed: int, aggressive: bool, check_every: int = 7, max_decisions: int = 20_000,
         options: dict | None = None):
    """One seeded game by the bots (bots.py) through the shared loop (tests/rules/playout.py):
    every ``check_every`` decisions, illegal commands refused with the game unchanged; the game
    folded event by event is the game the decision leaves. Returns (game, decisions)."""
    used: dict[tuple, int] = {}

    def refuses(step: Step) -> None:
        if step.number % check_every == 0:
            game = step.game
            for who, command in illegal_commands(game.state, step.seat, step.rnd):
                before = game
                with pytest.raises(RuleViolation):
                    decision(game, who, command, SeededRng(SEED, game.id, "", game.next_draw))
                assert game is before and game.state == before.state

    def folded(step: Step, game) -> None:
        after = project_game(step.game, step.events)
        assert game.head == after.head and game.state == after.state

    played = playout(S, new_game(players, options or OPTIONS, game_id=UUID(int=seed * 10 + players)),
                     random.Random(seed), decisions=max_decisions, seed=SEED, now=NOW, seat=one_seat,
                     before=refuses, after_decision=folded,
                     pick=lambda step: choose_command(step.rnd, step.state, step.seat, step.listed, aggressive, used),
                     after_event=lambda step, game: check_invariants(game.state, step.command, step.seat))
    return played.game, played.decisions


VICTORIES = {"eliminated all other players", "built four cities", "controls eight resource provinces",
             "controls ten provinces"}


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("seed", [1, 2])
def test_random_games_with_no_turn_limit_end_by_a_s1_victory(players, seed):
    """§1: "A player can win by fulfilling one of several victory conditions" — and a game ends
    no other way: seeded expansionist random games, no turn limit, each to a §1 victory."""
    game, decisions = play(players, seed, aggressive=True, check_every=15)
    assert game.outcome.reason in VICTORIES and game.outcome.winner in game.state.seats
    assert len(decisions) > 50


@pytest.mark.parametrize("players", [2, 5])
def test_uniform_random_games_under_a_house_rule_turn_limit(players):
    """Uniformly random legal play (which rarely wins) under a group's house-rule turn limit."""
    game, _ = play(players, 4, aggressive=False, check_every=9, options={**OPTIONS, "turn_limit": 5})
    assert game.outcome.reason in VICTORIES or game.outcome.reason.startswith("turn limit (house rule, 5 turns)")


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_many_more_random_games_per_player_count(players):
    """§9, §10: 6 more seeded games per player count, invariants after every event, legality
    sampled every 50 decisions, each ending by a §1 victory."""
    for seed in range(10, 16):
        game, _ = play(players, seed, aggressive=True, check_every=50)
        assert game.outcome.reason in VICTORIES


def test_replaying_the_decisions_reproduces_every_event():
    """DESIGN.md "Verifiable randomness": replay with the seed, and with only the recorded dice."""
    game, decisions = play(3, 5, True, check_every=10**9)
    again = new_game(3, OPTIONS, game_id=game.id)
    blind = new_game(3, OPTIONS, game_id=game.id)
    for seat, command in decisions:
        recorded, again = decision(again, seat, command, SeededRng(SEED, again.id, "", again.next_draw))
        dice = [r.typed() for r in recorded]
        _, blind = decision(blind, seat, command, RecordedRng(dice, blind.next_draw))
        assert blind.head == again.head
    assert again.head == game.head and again.state == game.state
