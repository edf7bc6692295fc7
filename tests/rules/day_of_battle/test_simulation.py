"""Random play from legal commands only, through the real aggregate path, in every scenario: a
battle is reached (orders given) and ends as the listing alone allows, by an agreed drawn battle.
What every rule system is held to (every listed command accepted, somebody can always act, the
record replays byte for byte) is tests/rules/conformance.py's. Bounded: a few hundred commands per
scenario (longer runs belong in bench/)."""

from __future__ import annotations

import random

import pytest

from tests.rules.day_of_battle.helpers import DOB, NOW, SEED, new_game
from tests.rules.playout import Step, any_seat, playout


def fight_first(step: Step) -> dict:
    """The bot's habit: fight first; from the fourth move of the battle, end a move when it may."""
    state = step.state
    if state.phase == "battle" and state.move > 3 and {"type": "end-move"} in step.listed:
        return {"type": "end-move"}
    return step.rnd.choice([c for c in step.listed if c.get("topic") != "end-of-battle"])


def agree_a_draw(step: Step) -> dict:
    """The end, from the listing alone: the mover proposes a drawn battle, every other seat accepts."""
    accept = [c for c in step.listed if c["type"] == "accept-ruling"]
    return accept[0] if accept else next(c for c in step.listed if c.get("topic") == "end-of-battle" and c["end"]["winner"] is None)


@pytest.mark.parametrize("scenario", sorted(DOB.scenarios))
def test_random_legal_play_reaches_the_battle_and_ends_by_an_agreed_draw(scenario):
    rnd = random.Random(scenario)
    fought = playout(DOB, new_game(scenario), rnd, decisions=250, seed=SEED, now=NOW, must_end=False,
                     seat=any_seat, pick=fight_first, until=lambda g: g.state.phase == "battle" and g.state.move > 6)
    game = fought.game
    assert game.state.phase == "battle"
    assert any(r.type == "day-of-battle.OrderGiven" for r in fought.events)
    # then the end, from the listing alone: the mover proposes it, every other seat accepts
    assert len(DOB.to_act(game.state)) == 1
    ended = playout(DOB, game, rnd, decisions=len(game.created.seats), seed=SEED, now=NOW,
                    seat=lambda rules, state, _: rules.to_act(state)[0], pick=agree_a_draw)
    game = ended.game
    assert game.outcome.draw and game.outcome.reason == "a drawn battle"
