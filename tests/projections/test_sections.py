"""The outline's turn and phase (``RuleSystem.section``): each rule system declares them (its
``section_fields``, or its own ``section``), and what it declares is what its spectator's view
says (its top-level ``turn``, ``round`` or ``day``, and ``phase``), at every step of seeded random
games: the move list groups play as a spectator sees it."""

from __future__ import annotations

import random
from datetime import datetime, timezone
from uuid import UUID

import msgspec
import pytest

from domain.events import GameCreated, SeatInfo
from domain.game import create_game, project_game, take_decision
from domain.randomness import commitment
from domain.rng import SeededRng
from domain.rules.registry import RULE_SYSTEMS

SEED = bytes(range(32))
NOW = datetime(2026, 12, 1, tzinfo=timezone.utc)


def steps(rules_id: str, scenario: str, seats: list[str], decisions: int, seed: int):
    """Every game state of a seeded random game played from the listed commands."""
    rules = RULE_SYSTEMS[rules_id]
    created = GameCreated(rules=rules_id, rules_version=rules.version, scenario=scenario,
                          data_hash=rules.data_hash(scenario), seats={s: SeatInfo(player=s.upper()) for s in seats},
                          seed_commitment=commitment(SEED))
    game = project_game(None, create_game(UUID(int=seed), created, NOW))
    rnd = random.Random(seed)
    yield game
    for _ in range(decisions):
        if game.ended or not game.to_act():
            return
        seat = rnd.choice(game.to_act())
        commands = [msgspec.to_builtins(c) for c in rules.legal_commands(game.state, seat)]
        if not commands:
            return
        result = take_decision(game, seat, rnd.choice(commands), SeededRng(SEED, game.id, "", game.next_draw), NOW, SEED)
        events = result.events if hasattr(result, "events") else result
        game = result.game if hasattr(result, "game") else project_game(game, events)
        yield game


def seen(view: dict) -> tuple[int | None, str | None]:
    """The turn (or round, or day) and the phase a spectator's view shows at its top level."""
    turn = next((view[k] for k in ("turn", "round", "day") if type(view.get(k)) is int), None)
    phase = view.get("phase")
    return turn, phase if isinstance(phase, str) else None


@pytest.mark.parametrize("rules_id", sorted(RULE_SYSTEMS))
def test_section_is_what_the_spectators_view_says(rules_id):
    rules = RULE_SYSTEMS[rules_id]
    scenario = next(iter(rules.scenarios))
    seats = list(rules.scenario(scenario).seats)[:2]
    for game in steps(rules_id, scenario, seats, 300, 3):
        assert rules.section(game.state) == seen(msgspec.to_builtins(rules.view(game.state, None))), game.version
