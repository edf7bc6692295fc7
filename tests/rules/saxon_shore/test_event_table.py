"""§11 the random event table: every result from 11 to 66, each forced with chosen dice.

Every number is drawn in play from the opening (``test_s11_every_number_drawn_in_play_from_the_opening``),
and the events whose effect shows on any position are checked there (``drawn_in_play``). The others
are checked on a hand-built base position, where the effect on named provinces and units is known
in advance (a position play reaches only by a long search): p1 (Pagan) owns Kent (king, two
mercenaries, a regular) and Thanet; p2 (Christian) owns Leinster (king) and Ulster (a regular)."""

import pytest

from domain.rules.base import RuleViolation
from domain.rules.saxon_shore.events import EventDrawn
from domain.rules.saxon_shore.state import Job

from .helpers import DONE, act, legal, played_until, position, prov, res, then, units
from .play import Play

BASE_UNITS = [("king", "p1", "Kent"), ("mercenary", "p1", "Kent"), ("mercenary", "p1", "Kent"),
              ("regular", "p1", "Kent"), ("king", "p2", "Leinster"), ("regular", "p2", "Ulster")]


def base(seat="p1", provinces=None, owners=None, extra_units=(), **kw):
    own = {"Kent": "p1", "Thanet": "p1", "Leinster": "p2", "Ulster": "p2", **(owners or {})}
    return position(owners=own, units=BASE_UNITS + list(extra_units), christian=("p2",), provinces=provinces,
                    res=kw.pop("res", {"p1": {"wheat": 2, "gold": 1}, "p2": {"gold": 2, "wool": 1}}),
                    **then(Job("event", seat)), **kw)


def draw(game, *dice):
    return act(game, "p1", DONE, dice=list(dice))


def choose(game, seat, option, dice=()):
    return act(game, seat, {"type": "choose", "option": option}, dice=list(dice))


def test_s11_11_pagan_gains_berserkers_christian_gains_mounted_knights():
    game = draw(base(), 1, 1)
    assert game.state.prompt.kind == "place_unit" and set(game.state.prompt.options) == {"Kent", "Thanet"}
    game = choose(game, "p1", "Thanet")
    assert [u.kind for u in units(game, "Thanet", "p1")] == ["berserker"]
    game = draw(base("p2"), 1, 1)
    game = choose(game, "p2", "Ulster")
    assert "knight" in [u.kind for u in units(game, "Ulster", "p2")]


@pytest.mark.parametrize("number", [12, 13, 14, 15])
def test_s11_12_to_15_a_path_of_choice(number):
    game = draw(base(), number // 10, number % 10)
    assert set(game.state.prompt.options) == {"mountain", "forest", "marsh"}
    game = choose(game, "p1", "marsh")
    assert game.state.players["p1"].paths == (0, 0, 1)


def test_s11_16_missionaries_raise_christian_and_lower_pagan_morale_in_a_column():
    game = draw(base(), 1, 6, 1)  # column 1: Strathclyde, Godowin, Rheged, Ulster, Leinster, Munster
    assert prov(game, "Ulster").morale == 1 and prov(game, "Leinster").morale == 1
    assert prov(game, "Strathclyde").morale == -1 and prov(game, "Kent").morale == 0


def test_s11_21_good_omens_raise_morale_in_a_column():
    game = draw(base(), 2, 1, 6)
    assert all(prov(game, p).morale == 1 for p in ("Thanet", "Kent", "Surrey", "Sussex", "Wight", "Wessex"))
    assert prov(game, "Leinster").morale == 0


def test_s11_22_dragons_lower_morale_in_a_column():
    game = draw(base(provinces={"Kent": {"morale": 1}}), 2, 2, 6)
    assert prov(game, "Kent").morale == 0 and prov(game, "Wessex").morale == -1


def test_s11_23_plague_ravages_lowers_morale_and_kills_units_on_5_or_6():
    # province 2,6 = Kent; Kent and its normal-border neighbours Thanet and Surrey (The Weald is wild)
    game = draw(base(), 2, 3, 2, 6, 5, 1, 6, 4)  # Kent's four units roll 5 1 6 4
    for p in ("Kent", "Thanet", "Surrey"):
        assert prov(game, p).ravage == 1 and prov(game, p).morale == -1
    assert prov(game, "Sussex").ravage == 0  # forest border
    assert [u.id for u in units(game, "Kent")] == [2, 4]


def test_s11_24_epidemic_plagues_a_column_and_its_neighbours():
    game = draw(base(), 2, 4, 4)  # column 4: Hereford Gwent Hwicce Somerset Devon Cornwall
    assert prov(game, "Hereford").ravage == 1 and prov(game, "Wrekin").ravage == 1
    assert prov(game, "Wessex").ravage == 1 and prov(game, "Kent").ravage == 0
    assert prov(game, "Gwynedd").ravage == 0


def test_s11_25_famine_ravages_a_column_and_marks_city_trade():
    """§11 25 "All provinces named are ravaged, and city trade automatically fails, unless the
    owner can spend a grain." Column 6: Thanet and Kent (p1, two wheat), then neutral ones."""
    game = draw(base(), 2, 5, 6)
    assert game.state.prompt.kind == "famine" and game.state.prompt.prov == "Thanet"
    game = choose(game, "p1", "spend_grain")  # Thanet spared
    assert game.state.prompt.prov == "Kent"
    game = choose(game, "p1", "suffer")
    assert prov(game, "Thanet").ravage == 0 and not prov(game, "Thanet").famine
    assert prov(game, "Kent").ravage == 1 and prov(game, "Kent").famine
    assert prov(game, "Surrey").ravage == 1 and prov(game, "Surrey").famine  # neutral: nobody to spend
    assert res(game, "p1")["wheat"] == 1


def test_s11_26_rebellion_first_player_province_in_the_column_secedes():
    game = draw(base(), 2, 6, 6)  # column 6 starts with Thanet (p1)
    prompt = game.state.prompt
    assert prompt.kind == "rebellion" and prompt.seat == "p1" and prompt.prov == "Thanet"
    game = choose(game, "p1", "let_go")
    assert prov(game, "Thanet").owner is None and prov(game, "Kent").owner == "p1"


def test_s11_26_rebellion_the_player_may_rule_the_rebel_province_instead():
    game = draw(base(), 2, 6, 6)
    game = choose(game, "p1", "lead_rebels")
    assert prov(game, "Thanet").owner == "p1" and prov(game, "Kent").owner is None
    # regulars and mercenaries in the provinces gone neutral desert; the king moves to Thanet
    assert [u.kind for u in units(game, owner="p1")] == ["king"]
    assert units(game, kind="king", owner="p1")[0].loc == "Thanet"


def test_s11_26_rebellion_never_leaves_a_player_without_provinces():
    game = draw(base(owners={"Thanet": None}), 2, 6, 6)
    assert prov(game, "Kent").owner == "p1" and game.state.prompt.kind == "phase"


def test_s11_31_fire_destroys_the_first_city_unless_two_resources_are_spent():
    game = draw(base(provinces={"Kent": {"city": True}}), 3, 1, 6)
    assert game.state.prompt.kind == "fire" and "wheat+wheat" in game.state.prompt.options
    burnt = choose(game, "p1", "let_burn")
    assert not prov(burnt, "Kent").city
    saved = choose(game, "p1", "wheat+gold")
    assert prov(saved, "Kent").city and res(saved, "p1")["wheat"] == 1 and res(saved, "p1")["gold"] == 0


def test_s11_31_fire_in_a_neutral_city_burns_it():
    game = draw(base(provinces={"Surrey": {"city": True}}), 3, 1, 6)
    assert not prov(game, "Surrey").city


def test_s11_32_wildmen_raid_a_random_adjacent_province():
    # The Weald (1), three wildmen and a chief (5), adjacent number 1 = Kent; raid 5+6 against 2+2+2+2+3+1
    game = draw(base(), 3, 2, 1, 3, 1, 6, 1)
    assert prov(game, "Kent").ravage == 0  # Kent's defence 12+1 beats 11
    game = draw(base(extra_units=[]), 3, 2, 1, 6, 3, 6, 1)  # The Weald, 6 wildmen, Surrey: 8+6 vs 1+1
    assert prov(game, "Surrey").ravage == 1


def drawn_in_play(number: int):
    """The first random event of a game played from the opening (helpers.played_until: the
    expansionist bot, seeded dice), its two dice forced to ``number``: the event, the game after the
    decision that drew it and the game before."""
    events, after, before = played_until(lambda events, game: any(isinstance(e, EventDrawn) for e in events),
                                         faces={"random event (§11)": [number // 10, number % 10]})
    return next(e for e in events if isinstance(e, EventDrawn)), after, before


def test_s11_33_bumper_year_one_resource_doubled_at_production():
    """§11 33, reached by play from the opening: the player who draws it holds a bumper year."""
    event, game, before = drawn_in_play(33)
    assert event.number == 33 and not before.state.players[event.seat].bumper
    assert game.state.players[event.seat].bumper


def test_s11_34_vikings_raid_from_a_sea_zone():
    # The Channel (5), 2 vikings and a chief (6), adjacent 3 = Wight: 6+4 vs capacity 1 + 1
    game = draw(base(provinces={"Wight": {"wall": True}}), 3, 4, 5, 2, 3, 4, 1)
    assert not prov(game, "Wight").wall  # walls are destroyed before a ravage marker


def test_s11_35_traders_swap_one_token():
    game = draw(base(), 3, 5)
    assert "gold>iron" in game.state.prompt.options and "keep" in game.state.prompt.options
    game = choose(game, "p1", "gold>iron")
    assert res(game, "p1")["gold"] == 0 and res(game, "p1")["iron"] == 1


def test_s11_36_gold_horde():
    """§11 36, reached by play from the opening: one gold more for the player who draws it."""
    event, game, before = drawn_in_play(36)
    assert res(game, event.seat)["gold"] == res(before, event.seat)["gold"] + 1


def test_s11_41_family_ties_a_neutral_province_joins():
    game = draw(base(), 4, 1, 6, 6)  # Wessex
    assert prov(game, "Wessex").owner == "p1"


def test_s11_41_family_ties_the_owner_may_pay_to_keep_the_province():
    game = draw(base(), 4, 1, 4, 1)  # Ulster, p2's
    assert game.state.prompt.kind == "family_offer" and game.state.prompt.seat == "p2"
    game = choose(game, "p2", "wool=1,gold=1")
    assert game.state.prompt.kind == "family_accept" and game.state.prompt.seat == "p1"
    kept = choose(game, "p1", "accept")
    assert prov(kept, "Ulster").owner == "p2" and res(kept, "p1")["gold"] == 2 and res(kept, "p2")["wool"] == 0
    joined = choose(game, "p1", "refuse")
    assert prov(joined, "Ulster").owner == "p1"
    assert not units(joined, "Ulster", "p2")  # p2's regular deserts


def test_s11_41_family_ties_the_king_goes_to_the_nearest_friendly_province():
    game = draw(base(extra_units=[("king", "p2", "Ulster")]), 4, 1, 4, 1)
    game = choose(game, "p2", "none")
    assert prov(game, "Ulster").owner == "p1"
    assert {u.loc for u in units(game, kind="king", owner="p2")} == {"Leinster"}


def test_s11_42_a_free_boat_in_a_friendly_province():
    game = draw(base(), 4, 2)
    assert set(game.state.prompt.options) == {"Kent@The Channel", "Thanet@North Sea"}
    game = choose(game, "p1", "Thanet@North Sea")
    boat = units(game, kind="boat")[0]
    assert boat.loc == "Thanet" and boat.coast == "North Sea" and boat.owner == "p1"


def test_s11_43_saxon_relatives_place_a_regular_rerolling_5_and_6():
    game = draw(base(owners={"Sussex": "p2"}), 4, 3, 6, 5, 2)
    assert [u.owner for u in units(game, "Sussex", kind="regular")] == ["p2"]
    game = draw(base(), 4, 3, 1)
    assert [u.owner for u in units(game, "Wessex", kind="regular")] == [None]


def test_s11_44_the_sword_in_the_stone_arthur_is_a_plus_two_king():
    game = draw(base(), 4, 4)
    king = units(game, kind="king", owner="p1")
    assert len(king) == 1 and king[0].quality == 2 and king[0].id != 1 and king[0].loc == "Kent"


def test_s11_45_roman_ruin_any_improvement_in_a_province_of_choice():
    game = draw(base(), 4, 5)
    # "gain any improvement": p1 is Pagan, and a monastery is an improvement too
    assert "Kent:city" in game.state.prompt.options and "Kent:monastery" in game.state.prompt.options
    game = choose(game, "p1", "Kent:city")
    assert prov(game, "Kent").city


def test_s11_46_saint_founds_a_monastery():
    pagan = draw(base(), 4, 6, 2, 6)
    assert prov(pagan, "Kent").monastery and prov(pagan, "Kent").morale == -1
    christian = draw(base(), 4, 6, 5, 1)
    assert prov(christian, "Leinster").monastery and prov(christian, "Leinster").morale == 1
    neutral = draw(base(), 4, 6, 6, 6)
    assert prov(neutral, "Wessex").monastery and prov(neutral, "Wessex").morale == 0


def test_s11_51_storms_in_a_sea_zone_this_turn():
    game = draw(base(), 5, 1, 5)
    assert game.state.storms == ("The Channel",)


def test_s11_52_assassin_kills_another_king():
    game = draw(base(), 5, 2)
    assert game.state.prompt.options == ("none", "p2")
    game = choose(game, "p1", "p2")
    assert not units(game, kind="king", owner="p2")


def test_s11_53_bad_debts_all_your_mercenaries_desert():
    game = draw(base(), 5, 3)
    assert not units(game, kind="mercenary", owner="p1")


@pytest.mark.parametrize("number,flag", [(54, "forced_march"), (55, "chainmail"), (56, "heresy")])
def test_s11_54_55_56_forced_march_chainmail_heresy_are_held_for_the_turn(number, flag):
    """§11 54-56, reached by play from the opening: held by the player who draws it for the turn."""
    event, game, before = drawn_in_play(number)
    assert not getattr(before.state.players[event.seat], flag) and getattr(game.state.players[event.seat], flag)


def test_s11_56_heresy_forces_conversion():
    """§11 56: the drawer must convert this turn. Played: p1 (Kent) draws 56 in the second turn
    (p2 goes first then, and converts or not before p1 is asked)."""
    play = Play("Kent", "Leinster", events={"p1": [11, 56]}).to("convert", "p1", turn=2, answers={"place_unit": "Kent"})
    assert legal(play.game, "p1") == [{"type": "convert"}]
    with pytest.raises(RuleViolation) as error:
        play.done("p1")
    assert error.value.code == "saxon-shore.heresy"
    play.act("p1", {"type": "convert"})
    assert play.state.players["p1"].christian and not play.state.players["p1"].heresy


def test_s11_61_city_founded_in_a_neutral_land():
    game = draw(base(), 6, 1, 6, 6)
    assert prov(game, "Wessex").city
    game = draw(base(), 6, 1, 2, 6)  # Kent is not neutral: no city
    assert not prov(game, "Kent").city


def test_s11_62_earthquake_destroys_walls_in_a_column():
    game = draw(base(provinces={"Kent": {"wall": True}, "Wessex": {"wall": True}, "Leinster": {"wall": True}}),
                6, 2, 6)
    assert not prov(game, "Kent").wall and not prov(game, "Wessex").wall and prov(game, "Leinster").wall


def test_s11_63_muttering_in_the_ranks_regulars_desert_on_4_to_6():
    """§11 63 "Roll a die for each regular. On a roll of 4, 5, or 6 they desert." — each regular
    on the map (Kent p1, Ulster p2, Thanet p1, a neutral one in Surrey), not only the drawer's."""
    game = draw(base(extra_units=[("regular", "p1", "Thanet"), ("regular", None, "Surrey")]), 6, 3, 4, 3, 3, 6)
    assert [u.loc for u in units(game, kind="regular")] == ["Ulster", "Thanet"]


def test_s11_64_widespread_rebellion_rebels_fight_for_each_named_player_province():
    # column 6: Thanet (p1, militia 1) then Kent. One rebel hits (1 <= 2), the militia misses (6):
    # Thanet goes neutral; Kent would leave p1 with no province: disregarded.
    game = draw(base(), 6, 4, 6, 1, 1, 6)
    assert prov(game, "Thanet").owner is None and prov(game, "Kent").owner == "p1"


def test_s11_64_widespread_rebellion_defeated_by_the_militia():
    game = draw(base(owners={"Surrey": "p1"}), 6, 4, 6, 1, 6, 1, 1, 6, *([1] * 7), 1, 6, 1)
    assert all(prov(game, p).owner == "p1" for p in ("Thanet", "Kent", "Surrey"))
    assert len(units(game, "Kent", "p1")) == 4


def test_s11_65_the_hammer_of_god():
    game = draw(base(provinces={"Leinster": {"wall": True}}), 6, 5)
    assert "destroy:Leinster:wall" in game.state.prompt.options and "none" in game.state.prompt.options
    assert not prov(choose(game, "p1", "destroy:Leinster:wall"), "Leinster").wall
    assert prov(choose(game, "p1", "ravage:Surrey"), "Surrey").ravage == 1


def test_s11_66_the_end_times_all_christian_areas_low_morale():
    game = draw(base(provinces={"Leinster": {"morale": 1}, "Wessex": {"monastery": True}}), 6, 6)
    assert prov(game, "Leinster").morale == -1 and prov(game, "Ulster").morale == -1
    assert prov(game, "Wessex").morale == -1 and prov(game, "Kent").morale == 0


def test_s11_every_number_is_implemented():
    from domain.rules.saxon_shore.random_events import EVENTS
    assert sorted(EVENTS) == [10 * a + b for a in range(1, 7) for b in range(1, 7)]


@pytest.mark.parametrize("number", [10 * a + b for a in range(1, 7) for b in range(1, 7)])
def test_s11_every_number_drawn_in_play_from_the_opening(number):
    """§11: "roll two dice … the first die is the tens, the second the units". Each number reached by
    play from the opening (helpers.played_until: the expansionist bot, seeded dice, the first random
    event forced to ``number``), then played on to the next turn's event: whatever the event asks
    is listed and accepted."""
    first: list = []  # the first event drawn, and the turn it was drawn in

    def past_the_first_event(events, game):
        if not first:
            first.extend((e, game.state.turn) for e in events if isinstance(e, EventDrawn))
        return bool(first) and (game.ended or game.state.turn > first[0][1])

    played_until(past_the_first_event, faces={"random event (§11)": [number // 10, number % 10]})
    assert first[0][0].number == number
