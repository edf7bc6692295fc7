"""Issue 19 made the Saladin engine faster for rollouts (precomputed card tables, one fold per
event type, the Activation phase's legal commands checked once per position for what they
share). Nothing a record holds may change: the fast :func:`rules.legal` lists exactly what the
definition (every candidate :func:`rules.check` accepts) lists, in the same order, and seeded
games end on the chain heads they ended on before the change."""

from __future__ import annotations

import hashlib
import random

import msgspec
import pytest

from domain.rules.saladin.rules import legal, legal_by_check
from tests.rules.saladin.helpers import SALADIN, new_game, play_seeded

OPTIONS = ({}, {"true_cross": "automatic", "taqui_al_din": "reaction"})


@pytest.mark.parametrize("scenario", ["arsuf", "hattin"])
@pytest.mark.parametrize("options", OPTIONS)
def test_fast_legal_is_the_checked_list_at_every_step(scenario, options):
    """Both seats, every position of four seeded random games: the same commands, same order."""
    for n in range(4):
        r = random.Random(f"fast-legal-{scenario}-{n}")
        g = new_game(scenario, game_id=300 + n, options=options)
        while g.outcome is None:
            for seat in ("crusaders", "ayyubids"):
                assert legal(g.state, seat) == legal_by_check(g.state, seat)
            options_now = SALADIN.legal_commands(g.state, g.state.active)
            g = play_seeded(g, g.state.active, msgspec.to_builtins(r.choice(options_now)))


# sha256 over the chain heads of 3 seeded random-legal games per scenario and option set, as
# the engine before issue 19 recorded them (tests/rules/saladin/helpers.play_seeded; random.Random(n) picks),
# under version 2.0.0; and as 2.1.0 (issue 26: True Cross immediate by default, melee only on a
# status change, no twelfth Order to a side that boxed its last) records them.
HEADS = {"2.0.0": "35280ce1002ea310a5b84b8cffc7665035e13fa1cdd67dac47afe4e0f550d913",
         "2.1.0": "b6d26efd5072fb5d1745c897f4c1c287e4501671dff2edbff94b815775787b39"}


def heads_digest(version: str) -> str:
    digest = hashlib.sha256()
    for scenario in ("arsuf", "hattin"):
        for options in OPTIONS:
            for n in range(3):
                r = random.Random(n)
                g = new_game(scenario, game_id=n + 1, options=options, version=version)
                while g.outcome is None:
                    command = r.choice(SALADIN.legal_commands(g.state, g.state.active))
                    g = play_seeded(g, g.state.active, msgspec.to_builtins(command))
                digest.update(g.head.encode())
    return digest.hexdigest()


@pytest.mark.parametrize("version", sorted(HEADS))
def test_seeded_games_keep_their_chain_heads(version):
    """A 2.0.0 record is still played (and so verified) as 2.0.0 played it (RULES_NOTES.md,
    Versions): the same games end on the same chain heads as before issue 26."""
    assert heads_digest(version) == HEADS[version]
