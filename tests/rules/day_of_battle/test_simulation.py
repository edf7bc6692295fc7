"""Random play from legal commands only, through the real aggregate path, in every scenario: a
battle is reached (orders given) and ends as the listing alone allows, by an agreed drawn battle.
What every rule system is held to (every listed command accepted, somebody can always act, the
record replays byte for byte) is tests/rules/conformance.py's. Bounded: a few hundred commands per
scenario (longer runs belong in bench/)."""

from __future__ import annotations

import random

import pytest

from domain.game import project_game, take_decision
from domain.rng import SeededRng
from tests.rules.day_of_battle.helpers import DOB, NOW, SEED, legal, new_game


@pytest.mark.parametrize("scenario", sorted(DOB.scenarios))
def test_random_legal_play_reaches_the_battle_and_ends_by_an_agreed_draw(scenario):
    rnd = random.Random(scenario)
    game = new_game(scenario)
    records = []
    for _ in range(250):
        seat = rnd.choice(DOB.to_act(game.state))
        listed = legal(game, seat)
        fighting = [c for c in listed if c.get("topic") != "end-of-battle"]  # the bot's habit: fight first
        if game.state.phase == "battle" and game.state.move > 3 and {"type": "end-move"} in listed:
            command = {"type": "end-move"}
        else:
            command = rnd.choice(fighting)
        new = take_decision(game, seat, command, SeededRng(SEED, game.id, "", game.next_draw), NOW, SEED)
        records += new
        game = project_game(game, new)
        if game.state.phase == "battle" and game.state.move > 6:
            break
    assert game.state.phase == "battle"
    assert any(r.type == "day-of-battle.OrderGiven" for r in records)
    # then the end, from the listing alone: the mover proposes it, every other seat accepts
    [seat] = DOB.to_act(game.state)
    command = next(c for c in legal(game, seat) if c.get("topic") == "end-of-battle" and c["end"]["winner"] is None)
    while not game.ended:
        new = take_decision(game, seat, command, SeededRng(SEED, game.id, "", game.next_draw), NOW, SEED)
        records += new
        game = project_game(game, new)
        if not game.ended:
            seat = DOB.to_act(game.state)[0]
            command = next(c for c in legal(game, seat) if c["type"] == "accept-ruling")
    assert game.outcome.draw and game.outcome.reason == "a drawn battle"
