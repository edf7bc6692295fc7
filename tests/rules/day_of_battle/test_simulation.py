"""Random play from legal commands only, through the real aggregate path: every listed command is
accepted, somebody can always act, and the record replays to the same state. Bounded: a few
hundred commands per scenario (longer runs belong in bench/)."""

from __future__ import annotations

import random

import pytest

from domain.game import project_game, take_decision
from domain.rng import SeededRng
from tests.rules.day_of_battle.helpers import DOB, NOW, SEED, legal, new_game


@pytest.mark.parametrize("scenario", sorted(DOB.scenarios))
def test_random_legal_play_never_sticks_and_every_listed_command_is_accepted(scenario):
    rnd = random.Random(scenario)
    game = new_game(scenario)
    records = []
    for _ in range(250):
        to_act = DOB.to_act(game.state)
        assert to_act, f"nobody can act at v{game.version}"
        seat = rnd.choice(to_act)
        listed = legal(game, seat)
        assert listed, f"{seat} is to act with nothing listed at v{game.version} ({game.state.phase})"
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
    again = project_game(new_game(scenario), records)
    assert again.state == game.state
