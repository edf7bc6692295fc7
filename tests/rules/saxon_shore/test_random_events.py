"""§3.1 king death and the new king, §3.2 mercenary desertion, §3.4 the random province
improvement roll (and §12.3 feeble rulers).

Each position is reached by play from the opening (play.Play): the turn's own rolls are forced
where the test names them; mercenaries come from the set-up (§10) and the §3.4 roll."""

import pytest

from .helpers import prov, units
from .play import Play, cell, joining

ROLL = "random province improvement"


def kings(dice, options=None) -> Play:
    """The first turn's king step, p1's rolls showing ``dice``: death, quality, roll again."""
    names = ["does the king die?", "quality of the new king", "new king: roll again"]
    return Play("Kent", "Leinster", options=options, dice={n: [d] for n, d in zip(names, dice)})


@pytest.mark.parametrize("dice,quality", [([5, 3], 0), ([6, 4], 0), ([5, 5], 1), ([6, 6, 4], 1), ([6, 6, 5], 2),
                                          ([5, 6, 6], 2), ([5, 1], 0)])
def test_s3_1_king_dies_on_5_or_6_and_new_king_quality_table(dice, quality):
    play = kings(dice)
    assert not any(play.script.faces.values())
    crowned = units(play.game, kind="king", owner="p1")
    assert len(crowned) == 1 and crowned[0].id != 1 and crowned[0].quality == quality and crowned[0].loc == "Kent"


@pytest.mark.parametrize("face", [1, 2, 3, 4])
def test_s3_1_king_survives_on_1_to_4(face):
    assert units(kings([face]).game, kind="king", owner="p1")[0].id == 1


def test_s12_3_feeble_rulers_a_1_makes_a_minus_one_king():
    assert units(kings([6, 1], {"feeble_rulers": True}).game, kind="king", owner="p1")[0].quality == -1


def test_s3_1_new_king_placed_in_a_friendly_province_of_choice():
    """Played: Wessex joins p1's Kent (§11 41); p1's king dies in the second turn (p2 rolls first)."""
    play = Play("Kent", "Leinster", events={"p1": [41]},
                dice={**joining("Wessex"), "does the king die?": [1, 1, 1, 5], "quality of the new king": [2]})
    play.to("", "p1", turn=2, asked="king_place")
    assert set(play.state.prompt.options) == {"Kent", "Wessex"}
    play.choose("p1", "Wessex")
    assert units(play.game, kind="king", owner="p1")[0].loc == "Wessex"


def test_s3_1_a_kingdom_without_a_king_crowns_one():
    """RULES_NOTES.md (§3.1): a kingdom with no king crowns one. Played: p2 draws event 52 and
    has p1's king assassinated in the first turn; the second turn's king step rolls only the
    quality."""
    play = Play("Kent", "Leinster").choose("p1", "none").choose("p2", "p1")
    assert not units(play.game, kind="king", owner="p1")
    play.force({"quality of the new king": [5]}).to("", "p2", turn=2, asked="assassin")
    assert not play.script.faces["quality of the new king"]
    assert units(play.game, kind="king", owner="p1")[0].quality == 1


def test_s3_2_each_mercenary_deserts_on_5_or_6():
    """Played, three players: the three set-up mercenaries and the first §3.4 roll's stand in
    p1's Kent; p1 hires three; the second turn's desertion roll."""
    play = Play("Kent", "Leinster", "Dyfed", dice={"set-up mercenary": cell("Kent") * 3, ROLL: cell("Kent")})
    play.to("raise", "p1")
    hired = play.ids(None, "mercenary", "Kent")[:3]
    for unit, pay in zip(hired, ("wheat", "iron", "gold")):
        play.act("p1", {"type": "hire", "unit": unit, "pay": pay})
    [neutral] = play.ids(None, "mercenary", "Kent")
    play.force({"mercenary desertion": [5, 4, 6]}).to("", "p2", turn=2, asked="assassin")
    assert not play.script.faces["mercenary desertion"]
    assert [u.id for u in units(play.game, "Kent", kind="mercenary")] == [hired[1], neutral]


def test_s3_4_owned_province_gets_a_mercenary_for_hire():
    play = Play("Kent", "Leinster", dice={ROLL: cell("Kent")})
    merc = units(play.to("trade", "p1").game, "Kent", kind="mercenary")
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
    play = Play("Kent", "Leinster", dice={ROLL: [1, 1], "improvement in neutral Strathclyde": [face]})
    assert check(play.to("trade", "p1").game)


def test_s3_4_a_result_that_cannot_apply_has_no_effect():
    """Played: the roll falls on neutral Strathclyde in two turns: a wall then a wall again; high
    morale then higher morale."""
    play = Play("Kent", "Leinster", dice={ROLL: [1, 1, 1, 1], "improvement in neutral Strathclyde": [5, 5]})
    before = prov(play.to("trade", "p1").game, "Strathclyde")
    assert before.wall
    assert prov(play.to("trade", "p1", turn=2).game, "Strathclyde") == before
    play = Play("Kent", "Leinster", dice={ROLL: [1, 1, 1, 1], "improvement in neutral Strathclyde": [3, 3]})
    assert prov(play.to("trade", "p1").game, "Strathclyde").morale == 1
    assert prov(play.to("trade", "p1", turn=2).game, "Strathclyde").morale == 1
    assert not play.script.faces["improvement in neutral Strathclyde"]
