"""§1 the map (a documented reconstruction) and §10 game set-up, through the aggregate."""

import json

import pytest

from domain.rules.base import RuleViolation
from domain.rules.saxon_shore.data import BOARD, problems
from domain.rules.saxon_shore.data import PACKAGE as BOARD_DIR

from .helpers import DONE, S, act, legal, new_game, prov, res, units
from .play import Play


def test_s1_map_has_36_provinces_7_wild_3_seas_13_resource_provinces():
    assert len(BOARD.provinces) == 36 and len(BOARD.wild) == 7 and len(BOARD.seas) == 3
    assert set(BOARD.wild) == {"The Weald", "The Fens", "Powys", "The Pennines", "Cheviot", "Caledonia", "Connaught"}
    assert len(BOARD.resource_provinces) == 13
    assert sum(1 for p in BOARD.provinces if len(BOARD.produces[p]) == 1) == 12


def test_s1_kent_population_three_and_two_resources_wheat_and_iron():
    assert BOARD.population["Kent"] == 3
    assert BOARD.produces["Kent"] == ("wheat", "iron")


def test_s4_6_4_devon_has_a_north_and_a_south_coast():
    assert len(BOARD.coasts["Devon"]) == 2


def test_s3_4_random_province_table_as_printed():
    assert BOARD.table_province(1, 1) == "Strathclyde"
    assert BOARD.table_province(2, 6) == "Kent"
    assert BOARD.table_province(6, 4) == "Cornwall"
    assert BOARD.column(1) == ("Strathclyde", "Godowin", "Rheged", "Ulster", "Leinster", "Munster")


def test_s2_1_every_population_rating_is_1_to_3_and_slaves_are_never_produced():
    assert all(1 <= BOARD.population[p] <= 3 for p in BOARD.provinces)
    assert not any("slaves" in BOARD.produces[p] for p in BOARD.provinces)


def test_map_data_is_pinned_in_the_record():
    scenario = S.scenarios["standard"]
    assert scenario.data_file == "map.json" and scenario.min_players == 2 and scenario.max_players == 5
    assert scenario.seats == ("p1", "p2", "p3", "p4", "p5")
    assert len(S.data_hash("standard")) == 64


def test_s10_players_pick_provinces_in_game_order_with_castle_king_and_gold():
    game = new_game(3)
    assert game.to_act() == ["p1"]
    assert len(legal(game, "p1")) == 36
    game = act(game, "p1", {"type": "choose", "option": "Kent"})
    assert game.to_act() == ["p2"]
    assert {"type": "choose", "option": "Kent"} not in legal(game, "p2")
    game = act(game, "p2", {"type": "choose", "option": "Leinster"})
    # the last pick places one mercenary per player by the random province table, then turn 1 starts
    game = act(game, "p3", {"type": "choose", "option": "Wessex"}, dice=[1, 1, 2, 6, 6, 6], filler=3)
    state = game.state
    assert prov(game, "Kent").owner == "p1" and prov(game, "Leinster").owner == "p2"
    assert [u.kind for u in units(game, "Kent", "p1")] == ["king"]
    assert units(game, "Kent", "p1")[0].quality == 0
    assert res(game, "p1")["gold"] >= 1
    assert state.players["p2"].christian and not state.players["p1"].christian and not state.players["p3"].christian
    mercs = units(game, kind="mercenary", owner=None)
    assert [m.loc for m in mercs][:3] == ["Strathclyde", "Kent", "Wessex"]
    assert state.turn == 1


@pytest.mark.parametrize("start", ["Ulster", "Leinster", "Munster"])
def test_s10_starting_in_ireland_makes_a_christian(start):
    game = new_game(2)
    game = act(game, "p1", {"type": "choose", "option": start})
    game = act(game, "p2", {"type": "choose", "option": "Kent"})
    assert game.state.players["p1"].christian and not game.state.players["p2"].christian


def test_s10_seats_and_options_are_validated():
    with pytest.raises(RuleViolation):
        S.setup("standard", ("p1",), {})
    with pytest.raises(RuleViolation):
        S.setup("standard", ("p1", "p2", "p3", "p4", "p5", "p6"), {})
    with pytest.raises(RuleViolation):
        S.setup("standard", ("p1", "p2"), {"no_such_option": 1})
    state = S.setup("standard", ("p1", "p2"), {"warrior_monks": True, "turn_limit": 12})
    assert state.options.warrior_monks and state.options.turn_limit == 12


def test_only_the_prompted_seat_acts():
    game = new_game(2)
    with pytest.raises(RuleViolation) as error:
        act(game, "p2", {"type": "choose", "option": "Kent"})
    assert error.value.code == "not_your_turn"
    with pytest.raises(RuleViolation) as error:
        act(game, "p1", DONE)
    assert error.value.code == "saxon-shore.choose_expected"
    with pytest.raises(RuleViolation) as error:
        act(game, "p1", {"type": "choose", "option": "The Weald"})
    assert error.value.code == "saxon-shore.not_an_option"


# -- issue 15, point 9: every map rule live, every fact the text states kept ------------------------
def test_s7_boats_cannot_end_their_movement_in_a_wild_province_and_the_rule_is_live():
    """§7 "Boat units cannot end their movement in a wild province." Four wild provinces touch
    the sea (the Weald the Channel, the Fens the North Sea, Connaught the Irish Sea, Caledonia
    both), so a boat may pass one along the coast but never stop there."""
    assert {w for w in BOARD.wild if BOARD.shore(w)} == {"The Weald", "The Fens", "Connaught", "Caledonia"}
    play = Play("Kent", "Leinster").to("raise", "p1")  # played: p1 raises boats in Kent
    play.act("p1", {"type": "raise-boats", "places": [{"province": "Kent", "sea": "The Channel"}], "pay": "gold"})
    boat = play.ids("p1", "boat")[0]
    play.to("move", "p1")
    with pytest.raises(RuleViolation) as error:
        play.move("p1", [boat], ["The Weald"])
    assert error.value.code == "saxon-shore.wild_province"
    assert {"type": "move", "units": [boat], "path": ["The Weald"]} not in legal(play.game, "p1")
    play.move("p1", [boat], ["The Weald", "Sussex"])
    assert play.state.units[boat].loc == "Sussex"


def test_every_province_of_britain_is_reached_by_land_and_the_islands_by_sea():
    """Gwynedd and Orkney are no longer cut off by land; Wight and Ireland are islands, so the
    §2.1 rule "If there is no land route, then the shortest route, counting sea zones as
    provinces, is used" stays live."""
    by_land = BOARD.distances("Kent", by_sea=False)
    islands = {"Wight", "Ulster", "Leinster", "Munster"}
    assert {p for p in BOARD.provinces if p not in by_land} == islands
    assert "Gwynedd" in by_land and "Orkney" in by_land
    assert all(p in BOARD.distances("Kent", by_sea=True) for p in islands)


def test_every_map_rule_has_something_to_act_on():
    """§7 borders "marked with Forests, Marshes, or Mountains"; two paths of a kind pass the wild
    province of that terrain (§11 12); Devon's two coasts (§4.6.4); boats along a shared coastline."""
    kinds = {BOARD.border[pair] for pair in BOARD.border if not ({*pair} & set(BOARD.wild))}
    assert kinds == {"normal", "forest", "marsh", "mountain"}
    assert {BOARD.wild_terrain[w] for w in BOARD.wild} == {"forest", "marsh", "mountain"}
    assert BOARD.shore("Devon") == ("Irish Sea", "The Channel")
    assert BOARD.share_coastline("Kent", "Sussex") and BOARD.share_coastline("Somerset", "Devon")
    assert not BOARD.share_coastline("Wessex", "Somerset")  # neighbours on different seas


def test_the_map_file_keeps_every_fact_the_rulebook_states():
    """A map (ours or an owner's) is checked against the rulebook: the random province table
    (§3.4), 36 provinces of population 1-3, 13 resource provinces with 14 tokens and Kent's
    wheat and iron (§1), the seven wild provinces (§7) and the wildmen die (§11 32), three sea
    zones, Devon's two coasts (§4.6.4); every problem is listed."""
    raw = json.loads((BOARD_DIR / "map.json").read_text())
    assert problems(raw) == []
    raw["provinces"]["Kent"]["resources"] = ["wheat"]
    raw["provinces"]["Devon"]["coasts"] = ["Irish Sea"]
    raw["wild_provinces"]["Powys"]["population"] = 1
    found = problems(raw)
    assert len(found) == 5 and any("Kent" in f for f in found) and any("Devon has" in f for f in found)
    assert "The Channel: random adjacent 'Devon' is not a province adjacent to it" in found
    assert any("Powys" in f for f in found) and any("thirteen" in f for f in found)


def test_an_owners_printed_map_is_given_at_creation_checked_and_hashed_into_game_created(client):
    """The owner's map (options.map, map.json's form) replaces the reconstruction for that game:
    checked against the rulebook (a bad one is a 422 listing every problem, nothing recorded),
    its SHA-256 is GameCreated.data_hash, and the game plays on it."""
    raw = json.loads((BOARD_DIR / "map.json").read_text())
    raw["provinces"]["Surrey"]["population"] = 3  # the owner's map differs from ours here
    seats = {"p1": {"player": "Aelle"}, "p2": {"player": "Cerdic"}}
    created = client.post("/games", json={"rules": "saxon-shore", "scenario": "standard", "seats": seats,
                                          "options": {"map": raw}})
    assert created.status_code == 201, created.text
    game_id = created.json()["id"]
    first = client.get(f"/games/{game_id}/events").json()["events"][0]
    assert first["data"]["data_hash"] == S.data_hash("standard", {"map": raw}) != S.data_hash("standard")
    assert client.get(f"/games/{game_id}").json()["view"]["provinces"]["Surrey"]["population"] == 3
    bad = dict(raw, provinces={**raw["provinces"], "Kent": {"population": 1, "coasts": []}})
    refused = client.post("/games", json={"rules": "saxon-shore", "scenario": "standard", "seats": seats,
                                          "options": {"map": bad}})
    assert refused.status_code == 422
    assert "Kent has population 3" in refused.text and "Devon" not in refused.text
    assert "The Channel: random adjacent 'Kent'" in refused.text  # every problem listed


def test_a_record_made_under_an_older_version_is_named_as_such():
    """Version 2.0.0 records what happened in the rulebook's words: a 1.0.0 record is not replayed
    as if it were one; the verifier says which version made it (a real 1.1.0 record:
    test_versions.py)."""
    from domain.events import GameCreated
    from domain.game import IncompatibleRecord, rule_system_for

    old = GameCreated(rules=S.id, rules_version="1.0.0", scenario="standard", data_hash=S.data_hash("standard"),
                      seats={}, seed_commitment="0" * 64)
    with pytest.raises(IncompatibleRecord) as error:
        rule_system_for(old)
    assert "saxon-shore 1.0.0" in str(error.value) and S.version == "2.2.0"
