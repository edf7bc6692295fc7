"""Issue 29, "A bot seat": "Respect hidden information: the bot sees only its own seat's view".
A bot's choice (analysis/bot.py) in a hidden-hand game, The Kingdoms of Crusaders, is the same
whatever cards the other seat really holds, as long as what the bot's seat sees is the same:
every card it may not see is dealt again (analysis/hidden.py) before its policy or its rollouts
look at the position. And it is deterministic: the same position and key give the same choice."""

from __future__ import annotations

import random

import msgspec
import pytest
from msgspec.structs import replace

from analysis.bot import BUDGET, choose
from analysis.rollout import RolloutRng, policy_for
from domain.rules.registry import RULE_SYSTEMS

RULES = RULE_SYSTEMS["kingdoms-of-crusaders"]


def a_position_with_hands(seed: int = 3):
    """Play random-legal moves until p1 is to act and p2 holds cards."""
    rnd = random.Random(seed)
    rng = RolloutRng(rnd)
    state = RULES.setup("standard", ("p1", "p2"), {})
    policy = policy_for(RULES, "random")
    for _ in range(200):
        to_act = RULES.to_act(state)
        if to_act == ["p1"] and state.hands["p2"] and state.hands["p1"] and len(RULES.legal_commands(state, "p1")) > 1:
            return state, rng.next_draw
        seat = to_act[0]
        state = RULES.play(state, seat, policy(RULES, state, seat, RULES.legal_commands(state, seat), rnd), rng)[1]
    raise AssertionError("no such position")


def with_other_cards_for_p2(state):
    """The same position as p1 sees it, p2 holding other cards from those p1 cannot see."""
    out = {c for h in state.hands.values() for c in h} | {c for p in state.seats for x in state.sectors[p] for c in x}
    unseen = [c for c in state.deck if c not in out]
    hand = state.hands["p2"]
    assert len(unseen) >= len(hand)
    return replace(state, hands={**state.hands, "p2": tuple(unseen[:len(hand)])})


@pytest.mark.parametrize("rollouts", [0, 2])
def test_the_bot_chooses_alike_whatever_the_other_hand_holds(rollouts):
    state, next_draw = a_position_with_hands()
    other = with_other_cards_for_p2(state)
    assert other.hands["p2"] != state.hands["p2"]
    assert RULES.view(other, "p1") == RULES.view(state, "p1")  # p1 cannot tell them apart
    key = "game|7|p1"
    first = choose(RULES, state, "p1", next_draw, "heuristic", rollouts, key)
    assert choose(RULES, other, "p1", next_draw, "heuristic", rollouts, key) == first
    assert choose(RULES, state, "p1", next_draw, "heuristic", rollouts, key) == first  # deterministic
    assert first.command in msgspec.to_builtins(RULES.legal_commands(state, "p1"))
    assert first.rollouts * first.candidates <= BUDGET
