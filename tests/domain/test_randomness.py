"""DESIGN.md, "Verifiable randomness": the shared test vectors, reproduced exactly."""

import json
from pathlib import Path
from uuid import UUID

import pytest

from domain.dice import STANDARD_DICE
from domain.randomness import Draws, commitment, shuffled, uniform
from domain.rng import SeededRng

VECTORS = json.loads((Path(__file__).parent / "randomness_vectors.json").read_text())
SEED = bytes.fromhex(VECTORS["server_seed_hex"])
GAME = UUID(VECTORS["game_id"])
CASES = VECTORS["cases"]


def test_commitment_is_sha256_of_the_seed():
    assert commitment(SEED) == VECTORS["commitment_sha256_hex"]


@pytest.mark.parametrize("case", CASES, ids=lambda c: repr(c["client_seed"]))
def test_d6_draws(case):
    rng = SeededRng(SEED, GAME, case["client_seed"], 0)
    rolled = rng.roll(STANDARD_DICE["d6"], 20, "vector")
    assert rolled.faces == case["d6_draws_0_to_19"]
    assert rolled.draws == list(range(20))


@pytest.mark.parametrize("case", CASES, ids=lambda c: repr(c["client_seed"]))
def test_saladin_combat_die_draws(case):
    rng = SeededRng(SEED, GAME, case["client_seed"], 0)
    assert rng.roll(STANDARD_DICE["saladin-combat"], 20, "vector").faces == case["saladin_combat_draws_0_to_19"]


@pytest.mark.parametrize("case", CASES, ids=lambda c: repr(c["client_seed"]))
def test_uniform_large_modulus(case):
    got = [uniform(SEED, GAME, case["client_seed"], n, 1_000_003) for n in range(5)]
    assert got == case["uniform_1000003_draws_0_to_4"]


@pytest.mark.parametrize("case", CASES, ids=lambda c: repr(c["client_seed"]))
def test_shuffle_starting_at_draw_20(case):
    rng = SeededRng(SEED, GAME, case["client_seed"], 20)
    event = rng.shuffle("vector", 10)
    assert event.draws == list(range(20, 29))
    assert rng.next_draw == case["next_draw_after_shuffle"]
    order = [i + 1 for i in rng.order(event)]
    assert order == case["shuffle_1_to_10_starting_at_draw_20"]


def test_shuffle_helper_matches_design_algorithm():
    draws = Draws(SEED, GAME, "", 20)
    values = [draws.uniform(i + 1)[1] for i in range(9, 0, -1)]
    assert shuffled(range(1, 11), values) == CASES[0]["shuffle_1_to_10_starting_at_draw_20"]


def test_game_id_is_lowercased():
    upper = UUID(str(GAME).upper())
    assert uniform(SEED, upper, "", 0, 6) == uniform(SEED, GAME, "", 0, 6)
