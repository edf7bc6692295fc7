"""§9 end of turn (peasants and boats removed, troops to the nearest friendly province, game
order rotates), the documented turn limit, and §1 the victory conditions.

Each position is reached by play from the opening (play.Play): provinces join by event 41
(family ties), cities are founded by event 61, troops and boats are raised and moved."""

import pytest

from domain.rules.base import RuleViolation
from domain.rules.saxon_shore.data import BOARD

from .helpers import DONE, prov, units
from .play import Play, cell, joining


def raids_to_a_draw(play: Play, raids: dict[str, str]) -> Play:
    """Each seat of ``raids`` raids the province named in both combat phases of the turn, each
    raid a draw (raid strength 2 + capacity ... equal): its troops stay there."""
    draw = {"Surrey": [1, 2], "Essex": [1, 1], "Wight": [1, 2]}  # king 2 + die against capacity + die
    for stage in (1, 2):
        for n, (seat, province) in enumerate(raids.items(), start=1):
            dice = {f"raid on {p}": draw[p] for p in raids.values()} if n == len(raids) else None
            play.to("declare", seat, stage=stage)
            play.act(seat, {"type": "declare", "province": province, "action": "raid"}, dice)
    return play


def test_s9_end_of_turn_removes_peasants_and_boats_sends_troops_home_and_rotates_order():
    """§9: "All peasants and boats are removed", "all troops in non-friendly provinces are moved to
    the nearest friendly province", the first player goes last. Played, three players: p1 (Kent)
    raises peasants and boats and its king raids Surrey to a draw; p2's king (Suffolk) raids
    Essex to a draw."""
    play = Play("Kent", "Suffolk", "Wessex").to("raise", "p1")
    play.act("p1", {"type": "raise-peasants", "province": "Kent", "pay": "wheat"})
    play.act("p1", {"type": "raise-boats", "places": [{"province": "Kent", "sea": "The Channel"}], "pay": "iron"})
    play.to("move", "p1").move("p1", [1], ["Surrey"])
    play.to("move", "p2").move("p2", [2], ["Essex"])
    assert units(play.game, kind="peasant") and units(play.game, kind="boat")
    raids_to_a_draw(play, {"p1": "Surrey", "p2": "Essex"})  # the turn ends in the last raid's decision
    returned = {(e.start, e.to) for e in play.log if type(e).__name__ == "TroopsReturned"}
    assert returned == {("Surrey", "Kent"), ("Essex", "Suffolk")}
    play.to("", "p2", turn=2, asked="assassin")  # the second turn's first question
    assert not units(play.game, kind="peasant") and not units(play.game, kind="boat")
    assert units(play.game, kind="king", owner="p1")[0].loc == "Kent"
    assert {u.loc for u in units(play.game, owner="p2")} == {"Suffolk"}
    assert play.state.order == ("p2", "p3", "p1") and play.state.turn == 2


def test_s2_1_nearest_friendly_ties_are_the_players_choice():
    """§2.1: of several nearest friendly provinces, the player chooses. Played: Berkshire joins
    p1's Kent (§11 41); the king raids Surrey to a draw and stays there."""
    play = Play("Kent", "Leinster", events={"p1": [41]}, dice=joining("Berkshire")).to("move", "p1")
    raids_to_a_draw(play.move("p1", [1], ["Surrey"]), {"p1": "Surrey"})
    play.to("", "p1", asked="home")
    assert set(play.state.prompt.options) == {"Kent", "Berkshire"}
    play.choose("p1", "Berkshire")
    assert units(play.game, owner="p1")[0].loc == "Berkshire"


def test_s2_1_with_no_land_route_sea_zones_count_as_provinces():
    """§2.1: with no land route, sea zones count as provinces. Played: Mercia joins p1's Kent
    (§11 41); the king sails to Wight in a boat and raids it to a draw."""
    play = Play("Kent", "Leinster", events={"p1": [41]}, dice=joining("Mercia")).to("raise", "p1")
    play.act("p1", {"type": "raise-boats", "places": [{"province": "Kent", "sea": "The Channel"}], "pay": "iron"})
    boat = play.ids("p1", "boat")[0]
    play.to("move", "p1").move("p1", [boat, 1], ["The Channel", "Wight"])
    raids_to_a_draw(play, {"p1": "Wight"}).to("", "p2", turn=2, asked="assassin")
    assert units(play.game, owner="p1")[0].loc == "Kent"  # Wight - The Channel - Kent


def test_turn_limit_ends_the_game_with_the_most_provinces_winning():
    """RULES_NOTES.md: a house-rule turn limit ends the game; the most provinces wins. Played:
    Surrey joins p1's Kent (§11 41); five turns pass."""
    play = Play("Kent", "Essex", options={"turn_limit": 5}, events={"p1": [41]}, dice=joining("Surrey")).finish()
    assert play.state.turn == 5
    assert play.game.outcome.winner == "p1" and "turn limit" in play.game.outcome.reason
    assert play.game.outcome.scores["p1"] == 2.0 and play.game.to_act() == []
    with pytest.raises(RuleViolation) as error:
        play.act("p2", DONE)
    assert error.value.code == "game_over"


def test_turn_limit_tie_is_a_draw():
    assert Play("Kent", "Essex", options={"turn_limit": 5}).finish().game.outcome.draw


def test_s1_victory_by_four_cities():
    """§1: a player who builds four cities wins. Played: event 61 founds cities in neutral
    Surrey, Essex and Wessex (drawn by both players), which join p1's Kent by family ties; p1
    buys wool from p2 (Hwicce) and builds a city in Kent."""
    founded = [p for province in ("Surrey", "Essex", "Wessex") for p in cell(province)]
    play = Play("Kent", "Hwicce", events={"p1": [61, 41, 41, 41], "p2": [61, 61]},
                dice={"city founded: random province table": founded, **joining("Surrey", "Essex", "Wessex")})
    play.to("trade", "p1", turn=4)
    assert [prov(play.game, p).owner for p in ("Surrey", "Essex", "Wessex")] == ["p1"] * 3
    assert all(prov(play.game, p).city for p in ("Surrey", "Essex", "Wessex"))
    play.act("p1", {"type": "offer", "to": "p2", "give": {"wheat": 1}, "take": {"wool": 1}}).choose("p2", "accept")
    play.to("improve", "p1")
    play.act("p1", {"type": "improve", "province": "Kent", "improvement": "city", "pay": ["wheat", "iron", "wool", "gold"]})
    assert play.game.outcome.winner == "p1" and play.game.outcome.reason == "built four cities"


def test_s1_victory_by_eight_resource_provinces():
    """§1: controlling eight resource provinces wins. Played: six resource provinces join p1's
    Kent by family ties, one a turn; the seventh event brings Wessex."""
    six = [p for p in BOARD.resource_provinces if p not in ("Kent", "Wessex", "Leinster")][:6]
    play = Play("Kent", "Leinster", events={"p1": [41] * 7}, dice=joining(*six, "Wessex"))
    play.to("trade", "p1", turn=6)
    assert len([p for p in BOARD.resource_provinces if prov(play.game, p).owner == "p1"]) == 7
    assert not play.game.outcome
    play.finish()
    assert play.state.turn == 7 and prov(play.game, "Wessex").owner == "p1"
    assert play.game.outcome.winner == "p1" and play.game.outcome.reason == "controls eight resource provinces"


def test_s1_victory_by_ten_provinces():
    """§1: controlling ten provinces wins. Played: p1 starts in Surrey (no resource); nine
    provinces without resources join by family ties, one a turn."""
    nine = [p for p in BOARD.provinces if not BOARD.produces[p] and p != "Surrey"][:9]
    play = Play("Surrey", "Leinster", events={"p1": [41] * 9}, dice=joining(*nine)).to("trade", "p1", turn=8)
    assert len([p for p in BOARD.provinces if prov(play.game, p).owner == "p1"]) == 9 and not play.game.outcome
    play.finish()
    assert play.state.turn == 9 and prov(play.game, nine[-1]).owner == "p1"
    assert play.game.outcome.winner == "p1" and play.game.outcome.reason == "controls ten provinces"


def test_s9_troops_left_at_sea_go_to_the_nearest_friendly_province_when_boats_are_removed():
    """§9: troops at sea when the boats are removed go to the nearest friendly province. Played:
    Thanet joins p1's Kent (§11 41); boats raised in Thanet carry the king into the North Sea."""
    play = Play("Kent", "Leinster", events={"p1": [41]}, dice=joining("Thanet")).to("raise", "p1")
    play.act("p1", {"type": "raise-boats", "places": [{"province": "Thanet", "sea": "North Sea"}], "pay": "iron"})
    boat = play.ids("p1", "boat")[0]
    play.to("move", "p1").move("p1", [1], ["Thanet"]).move("p1", [boat, 1], ["North Sea"])
    assert play.state.units[1].loc == "North Sea"
    play.to("", "p2", turn=2, asked="assassin")
    assert [u.loc for u in units(play.game, owner="p1")] == ["Thanet"]
