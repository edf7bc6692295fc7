"""Armies and domination in territories: squads and the comparison chain, one hand-built example
per step (RULES_NOTES.md, reading 7), and "can still beat" against brute force (reading 8)."""

from __future__ import annotations

import collections
import itertools
import random

from domain.rules.kingdoms_of_crusaders.armies import (
    STRENGTH, can_still_beat, comparison_key, counts_of, squads, strength,
)
from domain.rules.kingdoms_of_crusaders.data import KINDS, shape
from tests.rules.kingdoms_of_crusaders.helpers import cards


def beats(a: list[str], b: list[str]) -> bool:
    return strength(cards(*a)) > strength(cards(*b))


def equal(a: list[str], b: list[str]) -> bool:
    return strength(cards(*a)) == strength(cards(*b))


def test_squads_company_battalion_regiment():
    """Armies and domination: "a Company: two symbols of the same kind (the weakest squad). – a
    Battalion: three … – a Regiment: four … (the most powerful one)"."""
    army = cards("lance+bow+sword", "lance+bow+sword", "lance+bow+helmet", "lance+banner")
    assert squads(counts_of(army)) == {"regiments": ["lance"], "battalions": ["bow"], "companies": ["sword"],
                                       "singles": ["banner", "helmet"]}


def test_an_army_holds_up_to_five_squads():
    """Armies and domination: "Any army may consist of up to five squads"."""
    five = "lance+bow+sword+helmet+banner"
    assert squads(counts_of(cards(five, five, five, five)))["regiments"] == list(reversed(KINDS))


def test_comparison_step_1_more_regiments_wins():
    """"if one player has more regiments than the others he wins that territory": two lance
    regiments beat one banner regiment with a banner battalion besides."""
    assert beats(["lance+bow"] * 4, ["banner+helmet", "banner+helmet", "banner+helmet", "banner"])


def test_comparison_step_2_the_most_powerful_regiment():
    """"If the quantity of regiments is the same a player with the most powerful regiment" wins:
    a helmet regiment beats a sword regiment with more battalions."""
    assert beats(["helmet"] * 4, ["sword+lance+bow"] * 3 + ["sword"])
    # then the next regiment: banner+bow beats banner+lance
    assert beats(["banner+bow"] * 4, ["banner+lance"] * 4)


def test_comparison_step_3_then_more_battalions():
    """"[If the] players have the same quantity of regiments of the same kinds then a player who
    possesses [more battalions wins]": the same lance regiment, two battalions beat one."""
    assert beats(["lance+bow+sword"] * 3 + ["lance"], ["lance+banner"] * 3 + ["lance"])


def test_comparison_step_4_the_most_powerful_battalion():
    """Battalions "the same way": one battalion each, the helmet battalion beats the bow one
    even when the bow army has banner companies."""
    assert beats(["helmet"] * 3 + ["lance"], ["bow+banner", "bow+banner", "bow", "sword"])


def test_comparison_step_5_then_more_companies():
    """"the players compare quantity and qual[ity]" of companies: the same battalion, two
    companies beat one."""
    assert beats(["sword+lance+bow", "sword+lance+bow", "sword", "helmet"],
                 ["sword+banner", "sword+banner", "sword", "helmet"])


def test_comparison_step_6_the_most_powerful_company():
    """Companies by power: a banner company beats a helmet company (no other squad)."""
    assert beats(["banner", "banner", "lance", "bow"], ["helmet", "helmet", "lance", "bow"])


def test_comparison_step_7_the_most_powerful_single_symbol():
    """"If all squads in a territory are the same a player with the most powerful single symbol
    wins": the same sword company; a single banner beats single helmet and bow."""
    assert beats(["sword", "sword", "banner", "lance"], ["sword", "sword", "helmet+bow", "lance"])
    # the strongest singles equal: the next single decides; one more single beats none
    assert beats(["sword", "sword", "banner+bow", "lance"], ["sword", "sword", "banner", "lance"])


def test_comparison_step_8_all_symbols_equal_is_left_to_who_completed_first():
    """"If all single symbols are the same the winner is a player who was the first to place" the
    fourth card: the cards alone do not separate two such armies (test_turns checks the order)."""
    assert equal(["lance+bow", "sword", "helmet", "banner"], ["lance", "bow+sword", "helmet", "banner"])


def test_the_chain_is_strictly_monotone_in_every_count():
    """The soundness of the "can still beat" bound (reading 8): adding a symbol never weakens."""
    for counts in itertools.product(range(5), repeat=5):
        for k in range(5):
            if counts[k] < 4:
                more = list(counts)
                more[k] += 1
                assert comparison_key(more) > comparison_key(counts)


def _brute(placed: list[int], pool: list[int], target: int) -> bool:
    need = 4 - len(placed)
    return any(strength(placed + list(pick)) > target for pick in itertools.combinations(pool, need))


def test_can_still_beat_matches_brute_force():
    """Armies and domination: "no other player can gather a better army there", computed exactly
    from the unseen cards: the search agrees with trying every choice of cards."""
    r = random.Random(12)
    for doubles in (False, True):  # cards with each kind at most once; then cards with a kind twice or more
        for _ in range(400):
            pool = [_card(r, doubles) for _ in range(r.randrange(0, 12))]
            placed = [_card(r, doubles) for _ in range(r.randrange(0, 4))]
            target = strength([_card(r, doubles) for _ in range(4)])
            unseen = collections.Counter(pool)
            assert can_still_beat(placed, unseen, target) == _brute(placed, pool, target), (placed, pool, target)


def _card(r: random.Random, doubles: bool) -> int:
    """A random card's shape: one to five distinct kinds, or (``doubles``) up to three of a kind."""
    most = 3 if doubles else 1
    while True:
        counts = [r.randrange(0, most + 1) if r.random() < 0.4 else 0 for _ in range(5)]
        if any(counts):
            return shape([k for k, c in zip(KINDS, counts) for _ in range(c)])


def test_can_still_beat_needs_enough_cards():
    """An army that cannot be completed from the unseen cards cannot beat anything."""
    unseen = {shape(list(KINDS)): 1}
    assert not can_still_beat([], unseen, min(STRENGTH))
    assert can_still_beat(cards("lance", "lance", "lance"), unseen, strength(cards("bow", "bow", "bow", "lance")))
