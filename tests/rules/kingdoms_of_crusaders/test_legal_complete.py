"""Issue 26 point 15: the rule system claims ``legal_complete`` (so ``/legal-commands`` answers
``complete: true``) because ``legal_commands`` lists every command ``decide`` accepts. Along
seeded games played from the opening, every command that could be sent — prepare, and every card
in play placed in every sector 0 to 6, by every seat — is accepted exactly when it is listed."""

from __future__ import annotations

import random

import msgspec
import pytest

from domain.rng import SeededRng
from domain.rules.base import RuleViolation
from domain.rules.kingdoms_of_crusaders.commands import Place, Prepare
from tests.rules.kingdoms_of_crusaders.helpers import KOC, SEED, new_game, play


def every_command(state) -> list:
    return [Prepare()] + [Place(card=c, sector=n) for c in sorted(state.cards) for n in range(0, 7)]


@pytest.mark.parametrize("players", [2, 3])
def test_every_accepted_command_is_listed(players):
    assert KOC.legal_complete
    game = new_game(players, game_id=40 + players)
    pick = random.Random(players)
    steps = 0
    while game.outcome is None:
        if steps % 5 == 0:
            for seat in game.state.seats:
                listed = KOC.legal_commands(game.state, seat)
                for command in every_command(game.state):
                    try:
                        KOC.decide(game.state, seat, command, SeededRng(SEED, game.id, "", game.next_draw))
                        accepted = True
                    except RuleViolation:
                        accepted = False
                    assert accepted == (command in listed), (seat, command)
        [seat] = KOC.to_act(game.state)
        game = play(game, seat, msgspec.to_builtins(pick.choice(KOC.legal_commands(game.state, seat))))
        steps += 1
