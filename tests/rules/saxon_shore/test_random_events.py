"""§3.1 king death and the new king, §3.2 mercenary desertion, §3.4 the random province
improvement roll (and §12.3 feeble rulers)."""

import pytest

from domain.rules.saxon_shore.state import Job

from .helpers import DONE, act, position, prov, then, units


def king_game(options=None, owners=None):
    return position(owners=owners or {"Kent": "p1"}, units=[("king", "p1", "Kent")], options=options,
                    **then(Job("king", "p1")))



@pytest.mark.parametrize("dice,quality", [([5, 3], 0), ([6, 4], 0), ([5, 5], 1), ([6, 6, 4], 1), ([6, 6, 5], 2),
                                          ([5, 6, 6], 2), ([5, 1], 0)])
def test_s3_1_king_dies_on_5_or_6_and_new_king_quality_table(dice, quality):
    game = act(king_game(), "p1", DONE, dice=dice)
    kings = units(game, kind="king", owner="p1")
    assert len(kings) == 1 and kings[0].id != 1 and kings[0].quality == quality and kings[0].loc == "Kent"


@pytest.mark.parametrize("face", [1, 2, 3, 4])
def test_s3_1_king_survives_on_1_to_4(face):
    game = act(king_game(), "p1", DONE, dice=[face])
    assert units(game, kind="king")[0].id == 1


def test_s12_3_feeble_rulers_a_1_makes_a_minus_one_king():
    game = act(king_game({"feeble_rulers": True}), "p1", DONE, dice=[6, 1])
    assert units(game, kind="king")[0].quality == -1


def test_s3_1_new_king_placed_in_a_friendly_province_of_choice():
    game = act(king_game(owners={"Kent": "p1", "Wessex": "p1"}), "p1", DONE, dice=[5, 2])
    assert game.state.prompt.kind == "king_place" and set(game.state.prompt.options) == {"Kent", "Wessex"}
    game = act(game, "p1", {"type": "choose", "option": "Wessex"}, dice=[])
    assert units(game, kind="king")[0].loc == "Wessex"


def test_s3_1_a_kingdom_without_a_king_crowns_one():
    game = position(owners={"Kent": "p1"}, **then(Job("king", "p1")))
    game = act(game, "p1", DONE, dice=[5])  # only the quality roll
    assert units(game, kind="king")[0].quality == 1


def test_s3_2_each_mercenary_deserts_on_5_or_6():
    game = position(owners={"Kent": "p1"}, units=[("mercenary", "p1", "Kent")] * 3 + [("mercenary", None, "Kent")],
                    **then(Job("desert", "p1")))
    game = act(game, "p1", DONE, dice=[5, 4, 6])
    assert [u.id for u in units(game, kind="mercenary")] == [2, 4]


def test_s3_4_owned_province_gets_a_mercenary_for_hire():
    game = position(owners={"Kent": "p1"}, **then(Job("province_roll")))
    game = act(game, "p1", DONE, dice=[2, 6])
    merc = units(game, "Kent", kind="mercenary")
    assert len(merc) == 1 and merc[0].owner is None


@pytest.mark.parametrize("face,check", [
    (1, lambda g: units(g, "Strathclyde", None, "mercenary")),
    (2, lambda g: units(g, "Strathclyde", None, "regular")),
    (3, lambda g: prov(g, "Strathclyde").morale == 1),
    (4, lambda g: prov(g, "Strathclyde").road),
    (5, lambda g: prov(g, "Strathclyde").wall),
    (6, lambda g: prov(g, "Strathclyde").monastery and prov(g, "Strathclyde").morale == 1),
])
def test_s3_4_neutral_province_improvement_table(face, check):
    game = position(**then(Job("province_roll")))
    game = act(game, "p1", DONE, dice=[1, 1, face])
    assert check(game)


def test_s3_4_a_result_that_cannot_apply_has_no_effect():
    game = position(provinces={"Strathclyde": {"wall": True, "morale": 1}}, **then(Job("province_roll")))
    before = game.state.provinces
    game = act(game, "p1", DONE, dice=[1, 1, 5])
    assert game.state.provinces == before
    game = position(provinces={"Strathclyde": {"morale": 1}}, **then(Job("province_roll")))
    game = act(game, "p1", DONE, dice=[1, 1, 3])
    assert prov(game, "Strathclyde").morale == 1
