"""Seeds chosen blind (issue 29: "Commit first, then take each seat's own seed when it joins
..., so no party — the server included — can choose the dice"): the client seed a game with
blind seeds draws with is derived from the seats' own seeds as docs/record-format.md says
("Seeds chosen blind"), reproduced exactly from tests/domain/blind_seeds_vectors.json, which
were computed with the Python standard library alone."""

import json
from pathlib import Path
from uuid import UUID

import pytest

from domain.dice import STANDARD_DICE
from domain.events import GameCreated, SeatInfo
from domain.rng import SeededRng
from domain.rules.base import RuleViolation
from domain.seating import Seating, blind_client_seed, check_seed, draw_client_seed, offered

VECTORS = json.loads((Path(__file__).parent / "blind_seeds_vectors.json").read_text())
SEED = bytes.fromhex(VECTORS["server_seed_hex"])
GAME = UUID(VECTORS["game_id"])


@pytest.mark.parametrize("case", VECTORS["cases"], ids=lambda c: c["canonical_json"][:30])
def test_the_client_seed_is_the_sha256_of_the_seeds_canonical_json(case):
    assert blind_client_seed(case["seeds"]) == case["client_seed"]


@pytest.mark.parametrize("case", VECTORS["cases"], ids=lambda c: c["canonical_json"][:30])
def test_dice_draw_with_the_combined_client_seed(case):
    rolled = SeededRng(SEED, GAME, case["client_seed"], 0).roll(STANDARD_DICE["d6"], 10, "vector")
    assert rolled.faces == case["d6_draws_0_to_9"]


def _created(client_seed: str = "") -> GameCreated:
    return GameCreated(rules="saladin", rules_version="2.1.0", scenario="arsuf", data_hash="x",
                       seats={"crusaders": SeatInfo("Alice"), "ayyubids": SeatInfo("Bob")},
                       seed_commitment="c", client_seed=client_seed)


def test_a_game_without_blind_seeds_keeps_its_given_client_seed():
    """Old records verify unchanged: the client seed of GameCreated, as before."""
    assert draw_client_seed(_created("table 4"), None) == "table 4"
    assert draw_client_seed(_created("table 4"), Seating(blind=False)) == "table 4"


def test_blind_seeds_leave_no_client_seed_to_the_creator():
    """The commitment comes before every client seed: a client seed given with the creation
    (in the request the server draws its seed in) is refused."""
    with pytest.raises(RuleViolation) as refused:
        offered(_created("chosen first"), [], [], {}, True)
    assert refused.value.code == "bad_seating"


@pytest.mark.parametrize("seed", ["", "a b", "ü", "x" * 129, None])
def test_a_seats_seed_is_short_plain_text(seed):
    with pytest.raises(RuleViolation):
        check_seed(seed)
