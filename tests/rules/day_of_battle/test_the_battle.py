"""Issue 25: the battle recorded whole, by play from the opening. Every die rolled by Herald (the
combat and the core rules' rolls as the players state them), every response to a charge with the
positions after it, 1-8's "either or", one-way volleys out of the open, 1-9's rate of fire at a
charge, 1-10's (-) for falling back, dismounted knights keeping their casualties, lost leaders,
and the end the battle asks for."""

from __future__ import annotations

import msgspec

from domain.rules.day_of_battle import events as ev
from domain.rules.day_of_battle.data import ARMIES
from tests.rules.day_of_battle.helpers import (
    DOB, battle, charge, events, legal, new_game, play, refused, through_leaders,
)

CRUSADERS, TURKS, BYZ = "crusaders", "seljuq-turks", "byzantines"
SPEARMEN, KNIGHTS = f"{TURKS}/spearmen", f"{CRUSADERS}/knights-bohemond"
HORSE_ARCHERS, CROSSBOWS = f"{TURKS}/horse-archers-right", f"{CRUSADERS}/crossbowmen"
SERGEANTS, ASKARI = f"{CRUSADERS}/sergeants", f"{TURKS}/askari"
KATAPHRAKTOI = f"{BYZ}/kataphraktoi"


def of(kind, evs):
    return [e for e in evs if isinstance(e, kind)]


def accepted(game, seat, ruling, faces=None):
    """``seat`` proposes ``ruling``; every other seat accepts it (the last acceptance rolls)."""
    game = play(game, seat, {"type": "propose-ruling", "rule": "core rules", "decision": "as agreed", **ruling})
    others = [s for s in game.state.seats if s != seat]
    for other in others[:-1]:
        game = play(game, other, {"type": "accept-ruling", "number": game.state.ruling.number})
    return events(game, others[-1], {"type": "accept-ruling", "number": game.state.ruling.number}, faces=faces)


# -- every die -----------------------------------------------------------------------------------------------
def test_a_morale_test_the_core_rules_call_for_is_stated_by_the_players_and_rolled_by_herald():
    """Core rules: players' statement (RULES_NOTES.md, "Rolls the core rules call for"): the
    players state the purpose, the unit, the dice and the target number; Herald rolls them once
    every seat accepts, and records the faces and the successes."""
    game = battle()
    roll = {"purpose": "morale", "unit": SPEARMEN, "dice": 1, "target_number": 8, "modifiers": {"flank attacked": -2}}
    assert refused(game, CRUSADERS, {"type": "propose-ruling", "topic": "morale", "rule": "r", "decision": "d",
                                     "rolls": [roll | {"target_number": 21}]}).code == "day-of-battle.bad_target_number"
    evs, game = accepted(game, CRUSADERS, {"topic": "morale", "rolls": [roll]}, faces=[9])
    made = of(ev.StatedRollMade, evs)[0]
    assert (made.purpose, made.unit, made.dice, made.target_number, made.faces, made.successes) == (
        "morale", SPEARMEN, 1, 8, [9], 0)
    assert [(m.reason, m.add) for m in made.modifiers] == [("flank attacked", -2)]


def test_a_combat_after_a_charge_rolls_each_sides_dice_as_stated():
    """The melee (core rules: players' statement): the charger rolls first, then the target."""
    game = battle()
    game = play(game, CRUSADERS, charge(game, KNIGHTS, SPEARMEN))
    evs, game = events(game, TURKS, {"type": "stand"}, faces=[1, 1])
    assert of(ev.CombatJoined, evs)[0].half_dice == []
    assert DOB.to_act(game.state) == [CRUSADERS] and DOB.view(game.state, None)["pending"]["kind"] == "combat"
    assert refused(game, CRUSADERS, {"type": "end-move"}).code == "day-of-battle.combat_pending"
    evs, game = events(game, CRUSADERS, {"type": "fight", "unit": KNIGHTS, "dice": 3, "target_number": 14},
                       faces=[14, 15, 2])
    assert of(ev.CombatDiceRolled, evs)[0].hits == 2
    evs, game = events(game, TURKS, {"type": "fight", "unit": SPEARMEN, "dice": 8, "target_number": 10},
                       faces=[10] * 8)
    assert of(ev.CombatDiceRolled, evs)[0].hits == 8 and game.state.melee is None
    assert DOB.to_act(game.state) == [CRUSADERS]


# -- responses and positions ---------------------------------------------------------------------------------
def test_a_charge_records_where_the_charger_ends_and_an_evading_unit_where_it_goes():
    """Positions after every movement; evade is a response the core chart allows (players' statement)."""
    game = battle()
    command = charge(game, KNIGHTS, SPEARMEN)
    assert refused(game, CRUSADERS, {k: v for k, v in command.items() if k not in ("x", "y")}).code == \
        "day-of-battle.say_where"
    evs, game = events(game, CRUSADERS, command)
    knights = game.state.units[KNIGHTS]
    assert (knights.x, knights.y) == (command["x"], command["y"]) == (of(ev.ChargeDeclared, evs)[0].x,
                                                                      of(ev.ChargeDeclared, evs)[0].y)
    assert refused(game, TURKS, {"type": "evade", "x": 999, "y": 1}).code == "day-of-battle.say_where"
    evs, game = events(game, TURKS, {"type": "evade", "x": 40.3, "y": 1})
    assert of(ev.Evaded, evs) and (game.state.units[SPEARMEN].x, game.state.units[SPEARMEN].y) == (40.3, 1)
    assert game.state.charge is None and game.state.melee is None


def test_a_counter_charge_meets_the_charger_in_combat():
    game = battle()
    game = play(game, CRUSADERS, charge(game, SERGEANTS, SPEARMEN))
    evs, game = events(game, TURKS, {"type": "counter-charge", "attached_leader": f"{TURKS}/hasan"}, faces=[1, 1])
    assert of(ev.ChargeCountered, evs) and of(ev.CombatJoined, evs)
    assert of(ev.OrderTested, evs)[1].leader_bonus_refused  # 1-5: Eastern spearmen


# -- 1-8, 1-9 ----------------------------------------------------------------------------------------------------
def test_1_8_either_or_but_not_both():
    """1-8: "It may not perform a maneuver and fire and then perform a fire, this would be a
    replication of the fire command. It must be either or but not both.\""""
    game = battle(TURKS)
    moved = play(game, TURKS, {"type": "move", "unit": SPEARMEN, "x": 40, "y": 8, "fire_at": KNIGHTS,
                               "fire_range_inches": 5})
    fire = {"type": "fire", "unit": SPEARMEN, "target": KNIGHTS, "range_inches": 5}
    no = refused(moved, TURKS, fire)
    assert (no.code, no.rule) == ("day-of-battle.either_or", "1-8")
    assert fire not in legal(moved, TURKS)
    fired = play(game, TURKS, fire)  # the knights have no missile weapon: the volley at once
    assert refused(fired, TURKS, {"type": "move", "unit": SPEARMEN, "x": 40, "y": 8, "fire_at": KNIGHTS,
                                  "fire_range_inches": 5}).code == "day-of-battle.either_or"
    assert refused(fired, TURKS, charge(fired, SPEARMEN, KNIGHTS, fire_before_contact=True)).code == \
        "day-of-battle.either_or"
    play(fired, TURKS, {"type": "move", "unit": SPEARMEN, "x": 40, "y": 8})  # a manoeuvre without the fire


def test_1_8_changing_formation_offers_the_free_fire():
    """1-8: "a free fire as skirmishers either before or after it performs a maneuver (move, change
    formation or charge)"."""
    game = battle(TURKS)
    command = {"type": "change-formation", "unit": SPEARMEN, "formation": "column", "fire_at": KNIGHTS,
               "fire_range_inches": 5, "fire_when": "before"}
    evs, _ = events(game, TURKS, command)
    kinds = [type(e).__name__ for e in evs]
    assert kinds.index("VolleyFired") < kinds.index("FormationChanged")
    assert of(ev.OrderGiven, evs)[0].free_fire


def test_one_way_volleys_out_of_the_open_and_with_modifiers():
    """A defensive fire (and any one-way volley) may be out of the open (no halving for skirmishers
    in the open) and carry the players' modifiers, as an order to fire may."""
    game = battle()
    game = play(game, CRUSADERS, charge(game, KNIGHTS, SPEARMEN))
    evs, _ = events(game, TURKS, {"type": "defensive-fire", "in_open": False, "modifiers": {"uphill": -2}},
                    faces=[20] * 4 + [1, 1])
    v = of(ev.VolleyFired, evs)[0]
    assert [(m.reason, m.add, m.halve) for m in v.modifiers] == [
        ("Skirmish weapons weapon bonus", 1, False), ("uphill", -2, False)]
    assert v.target_number == 10 + 1 - 2 and of(ev.FireDeclared, evs)[0].in_open is False


def test_1_9_a_charge_fire_and_a_defensive_fire_of_rate_3_are_simultaneous():
    """1-9: "In the case of identical rates of fire the fire is simultaneous": the Byzantine
    kataphraktoi (horse bow, rate 3) fire before contact; the Seljuq spearmen (skirmish weapons,
    rate 3) fire in defence; both volleys are the exchange's first, from the state before either."""
    game = battle(BYZ, new_game("byzantines-seljuq-turks"))
    game = play(game, BYZ, charge(game, KATAPHRAKTOI, SPEARMEN, fire_before_contact=True))
    evs, game = events(game, TURKS, {"type": "defensive-fire"}, faces=[1, 1] + [1, 1, 1, 1] + [1, 1])
    volleys = of(ev.VolleyFired, evs)
    assert [(v.firer, v.order, v.rate_of_fire) for v in volleys] == [(KATAPHRAKTOI, 1, 3), (SPEARMEN, 1, 3)]
    assert len({v.exchange for v in volleys}) == 1 and [v.reaction for v in volleys] == [False, True]


# -- 1-10, 1-3 and lost leaders ----------------------------------------------------------------------------------
def test_1_3_dismounted_knights_keep_their_casualties():
    """1-3: knights dismount with their own statistics; the figures lost mounted stay lost (the same
    men on foot, in proportion, rounding down): 9 of 10 mounted figures are 13 of 15 on foot."""
    game = battle()
    _, game = accepted(game, CRUSADERS, {"topic": "casualties", "casualties": [{"unit": KNIGHTS, "figures": 1}]})
    assert game.state.units[KNIGHTS].figures == 9
    evs, game = events(game, CRUSADERS, {"type": "dismount", "unit": KNIGHTS, "horse_holders_x": 18,
                                         "horse_holders_y": 8})
    assert of(ev.KnightsDismounted, evs)[0].figures == 9 * 3 // 2 == 13


def test_a_killed_leader_rolls_no_initiative_draws_no_cards_and_gives_no_orders():
    game = battle()
    evs, game = accepted(game, CRUSADERS, {"topic": "combat-result", "leaders": [
        {"leader": f"{TURKS}/hasan", "fate": "killed"}], "honour": [
        {"leader": f"{CRUSADERS}/bohemond", "deed": "killed-enemy-leader"}]})
    assert of(ev.LeaderLost, evs)[0].fate == "killed"
    game = play(game, CRUSADERS, {"type": "end-move"})
    evs, game = events(game, TURKS, {"type": "begin-move"}, faces=[1])
    assert [e.leader for e in of(ev.InitiativeChecked, evs)] == [f"{TURKS}/kilij-arslan"]
    v = refused(game, TURKS, {"type": "move", "unit": SPEARMEN, "x": 40, "y": 8})
    assert v.code == "day-of-battle.leader_lost"
    assert not [c for c in legal(game, TURKS) if c.get("unit") == SPEARMEN]
    assert DOB.view(game.state, None)["armies"][1]["leaders"][1]["lost"] == "killed"


# -- the listing ---------------------------------------------------------------------------------------------------
def test_a_leader_without_command_points_is_offered_no_order_he_cannot_pay():
    """legal-commands never lists what it refuses: Hasan's 14 command points pay two manoeuvres
    (5 each) and then only fire orders (3)."""
    game = battle(TURKS)
    hasan = f"{TURKS}/hasan"
    assert game.state.leaders[hasan].command_points == 14
    hasans = {u.id for u in game.state.units.values() if u.leader == hasan}
    for x in (41, 42):
        game = play(game, TURKS, {"type": "move", "unit": SPEARMEN, "x": x, "y": 8})
    listed = {c["type"] for c in legal(game, TURKS) if c.get("unit") in hasans}
    assert listed == {"fire"}
    chosen = {k: v for d in DOB.legal_choices(game.state, TURKS) for k, v in [(d["type"], d.get("unit"))]}
    assert not hasans & set(chosen["move"]) and hasans & set(chosen["fire"])


def test_every_kind_of_order_is_listed():
    """Fire out of the open, flank charges, attached leaders, fire before contact, free fire with a
    move, square and wedge: each listed (and so accepted)."""
    game = battle(TURKS)
    listed = legal(game, TURKS)
    assert any(c["type"] == "fire" and not c["in_open"] for c in listed)
    assert any(c["type"] == "charge" and not c["from_front"] for c in listed)
    assert any(c["type"] == "charge" and c["attached_leader"] for c in listed)
    assert any(c["type"] == "charge" and c["fire_before_contact"] for c in listed)
    assert {c["fire_when"] for c in listed if c["type"] == "move" and c["fire_at"]} == {"before", "after"}
    assert {c["formation"] for c in listed if c["type"] == "change-formation" and c["unit"] == ASKARI} == {
        "column", "square", "wedge"}
    assert not any(c["type"] == "change-formation" and c["unit"] == SPEARMEN and c["formation"] == "square"
                   for c in listed)  # 1-6
    game = play(game, TURKS, charge(game, HORSE_ARCHERS, KNIGHTS))
    assert {c["type"] for c in legal(game, CRUSADERS)} == {"stand", "counter-charge", "evade", "fall-back"}


def test_a_routed_army_asks_for_the_end_of_the_battle():
    """Once an army is destroyed or routed the battle asks for its end: the view says so and the
    listing offers first the end naming the side still standing the winner."""
    game = battle()
    turks = [u.id for u in game.state.units.values() if u.seat == TURKS]
    _, game = accepted(game, CRUSADERS, {"topic": "morale", "conditions": [
        {"unit": u, "condition": "routed"} for u in turks]})
    assert DOB.view(game.state, None)["end_asked"] == "Seljuq Turks destroyed or routed"
    first = legal(game, CRUSADERS)[0]
    assert (first["type"], first["end"]["winner"]) == ("propose-ruling", CRUSADERS)
    game = play(game, CRUSADERS, first)
    game = play(game, TURKS, {"type": "accept-ruling", "number": game.state.ruling.number})
    assert game.ended and game.outcome.winner == CRUSADERS


# -- readings a mutation would break (issue 25 point 11) ----------------------------------------------------
def seljuqs(**changes):
    """The Seljuq Army Profile of armies.json as the players' own, changed."""
    profiles = {seat: msgspec.to_builtins(ARMIES[seat]) for seat in (CRUSADERS, TURKS)}
    turks = profiles[TURKS]
    for key, value in changes.items():
        if key == "spearmen_cos":
            turks["units"] = [u | {"cos": value} if u["id"] == "spearmen" else u for u in turks["units"]]
        else:
            turks[key] = value
    return {"armies": profiles}


def test_1_8_half_dice_round_down():
    """1-8: "When it fires it's skirmish weapons it rolls with half dice, rounding down": 7 Cos. roll 3."""
    game = battle(game=new_game(options=seljuqs(spearmen_cos=7)))
    game = play(game, CRUSADERS, charge(game, KNIGHTS, SPEARMEN))
    evs, _ = events(game, TURKS, {"type": "defensive-fire"}, faces=[20, 20, 20, 1, 1])
    v = of(ev.VolleyFired, evs)[0]
    assert (game.state.units[SPEARMEN].cos, v.dice, v.half_dice) == (7, 3, True)


def test_1_1_2_an_army_requiring_exactly_5_cos_of_horse_archers_is_eastern():
    """1-1.2: "Eastern Armies: An army that requires at minimum of 5Cos. of Horse Archers in their army
    list." — 5 is Eastern (the Crusaders facing it deploy 6" to 15" in), 4 is not."""
    for minimum, kind in ((5, "eastern"), (4, "other")):
        game = new_game(options=seljuqs(minimum_horse_archer_cos=minimum))
        assert DOB.view(game.state, None)["armies"][1]["kind"] == kind
        game = through_leaders(game)
        deploy = {"type": "deploy", "unit": KNIGHTS, "x": 30, "y": 3}
        if kind == "eastern":
            assert refused(game, CRUSADERS, deploy).rule == "1-1.2"
        else:
            play(game, CRUSADERS, deploy)


def test_1_9_fire_at_ineffective_range_is_halved():
    """1-9's chart gives each weapon an effective and an ineffective range; at the ineffective range
    the combat value is halved (reconstruction, RULES_NOTES.md): Seljuq foot archers (composite bow,
    combat value 9) at 15" need (9 + 2) // 2 = 5 or less; at 10" 11."""
    game = battle(TURKS)
    archers = f"{TURKS}/foot-archers"
    for rng, band, number in ((15, "ineffective", 5), (10, "effective", 11)):
        fired = play(game, TURKS, {"type": "fire", "unit": archers, "target": CROSSBOWS, "range_inches": rng})
        evs, _ = events(fired, CRUSADERS, {"type": "hold-fire"})
        v = of(ev.VolleyFired, evs)[0]
        assert (v.range_band, v.target_number) == (band, number)
        assert (("ineffective range", True) in [(m.reason, m.halve) for m in v.modifiers]) == (band == "ineffective")


def test_a_charge_fire_is_not_fired_at_a_unit_that_is_not_contacted():
    """RULES_NOTES.md, "Fire at a charge": 1-8's "fire their weapons before they contact the enemy";
    a target that falls back is not contacted, so the fire before contact is not fired."""
    game = battle(TURKS)
    game = play(game, TURKS, charge(game, SPEARMEN, SERGEANTS, fire_before_contact=True))
    evs, game = events(game, CRUSADERS, {"type": "fall-back", "x": 30, "y": 2})
    assert not of(ev.VolleyFired, evs) and (game.state.units[SERGEANTS].x, game.state.units[SERGEANTS].y) == (30, 2)


def test_a_free_fire_out_of_the_open_with_a_modifier():
    game = battle(TURKS)
    evs, _ = events(game, TURKS, {"type": "move", "unit": SPEARMEN, "x": 40, "y": 8, "fire_at": KNIGHTS,
                                  "fire_range_inches": 5, "fire_in_open": False, "fire_modifiers": {"smoke": -1}})
    v = of(ev.VolleyFired, evs)[0]
    assert [(m.reason, m.add, m.halve) for m in v.modifiers] == [("Skirmish weapons weapon bonus", 1, False),
                                                                  ("smoke", -1, False)]
    assert v.target_number == 10 and v.dice == 4
