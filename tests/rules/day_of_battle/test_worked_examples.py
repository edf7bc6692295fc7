"""The supplement's examples and rules, section by section (1-2 to 1-10)."""

from __future__ import annotations

import json

from domain.events import CardsShuffled, GameEnded
from domain.rules.day_of_battle import events as ev
from domain.rules.day_of_battle.data import DECK, PACKAGE
from domain.rules.day_of_battle.rules import rank_from
from domain.game import project_game, take_decision
from tests.rules.day_of_battle.helpers import (
    CS, DOB, NOW, SEED, Loaded, battle, charge, deployed, events, legal, new_game, play, refused,
)

CRUSADERS, TURKS = "crusaders", "seljuq-turks"
SPEARMEN, KNIGHTS = f"{TURKS}/spearmen", f"{CRUSADERS}/knights-bohemond"
HORSE_ARCHERS, CROSSBOWS = f"{TURKS}/horse-archers-right", f"{CRUSADERS}/crossbowmen"


def of(kind, evs):
    return [e for e in evs if isinstance(e, kind)]


# -- 1-8 ------------------------------------------------------------------------------------------------
def test_1_8_seljuq_spearmen_charged_from_the_front_fire_4_dice_needing_5_or_less():
    """1-8: "The unit is 8 Cos. Strong. If it was charged from it's front it would get a defensive fire
    with 4 dice (half dice). Lets say their combat value was 10. The skirmish weapon adds a +1 for its
    weapon bonus for a total combat value of 11. Since skirmish fire is always halved against any in the
    open the spearmen are rolling 4 dice for 5 or less.\""""
    game = battle()
    spear = game.state.units[SPEARMEN]
    assert (spear.cos, spear.combat_value, spear.note8) == (8, 10, True)
    game = play(game, CRUSADERS, charge(game, KNIGHTS, SPEARMEN))
    assert {c["type"] for c in legal(game, TURKS)} == {"defensive-fire", "stand", "counter-charge", "evade", "fall-back"}
    evs, game = events(game, TURKS, {"type": "defensive-fire"}, faces=[1, 5, 6, 20])
    volley_ = of(ev.VolleyFired, evs)[0]
    assert (volley_.dice, volley_.target_number, volley_.half_dice, volley_.hits) == (4, 5, True, 2)
    assert [(m.reason, m.add, m.halve) for m in volley_.modifiers] == [
        ("Skirmish weapons weapon bonus", 1, False), ("firing at or as skirmishers in the open", 0, True)]
    # "Skirmishers that fire in reaction to a charge incur the (-) penalty"
    assert of(ev.DistractionIncurred, evs)[0].leader == f"{TURKS}/hasan"
    assert game.state.leaders[f"{TURKS}/hasan"].distraction == 1


def test_1_8_the_spearmen_charging_fire_before_contact_again_4_dice_for_5_or_less():
    """1-8: "Since they have skirmish weapons they are allowed to fire their weapons before they contact
    the enemy, no matter how far they had to move to contact. Again they would roll 4 dice for a 5 or less.\""""
    game = battle(TURKS)
    evs, game = events(game, TURKS, charge(game, SPEARMEN, KNIGHTS, fire_before_contact=True))
    declared = of(ev.ChargeDeclared, evs)[0]
    assert declared.fire_before_contact and not of(ev.VolleyFired, evs)  # fired at contact (1-9's order)
    assert declared.responses == ["stand", "counter-charge", "evade", "fall-back"]
    evs, game = events(game, CRUSADERS, {"type": "stand"})
    v = of(ev.VolleyFired, evs)[0]
    assert (v.firer, v.dice, v.target_number, v.reaction) == (SPEARMEN, 4, 5, False)


def owned(scenario, change):
    """armies.json as the players' own option, with ``change(profiles by army id)`` applied."""
    data = json.loads((PACKAGE / "armies.json").read_bytes())
    change({a["id"]: a for a in data["armies"]})
    return new_game(scenario, options={"armies": data})


def unit_of(army, uid):
    return next(u for u in army["units"] if u["id"] == uid)


def test_1_8_with_composite_bows_the_range_is_20_inches_and_the_bonus_2():
    """1-8: "If the spearmen had been allowed to use composite bows they would have had a longer range.
    The range would have been 20" for composite bow rather than 5" for skirmish weapons. And they
    would have had a weapon bonus of +2 instead of a +1." By play: the skirmish weapons reach 5", the
    players' profile giving the spearmen composite bows reaches 20" with +2 (still 4 half dice)."""
    game = battle(TURKS)
    assert refused(game, TURKS, {"type": "fire", "unit": SPEARMEN, "target": KNIGHTS, "range_inches": 6}).code == \
        "day-of-battle.out_of_range"
    bows = owned(CS, lambda armies: unit_of(armies["seljuq-turks"], "spearmen").update(weapon="composite-bow"))
    game = battle(TURKS, bows)
    evs, _ = events(game, TURKS, {"type": "fire", "unit": SPEARMEN, "target": KNIGHTS, "range_inches": 20})
    v = of(ev.VolleyFired, evs)[0]
    assert (v.weapon, v.modifiers[0].add, v.dice, v.range_band) == ("composite-bow", 2, 4, "ineffective")


def test_1_8_a_note_8_unit_fires_freely_before_or_after_a_manoeuvre():
    """1-8: "These allow it a free fire as skirmishers either before or after it performs a maneuver.\""""
    game = battle(TURKS)
    evs, game = events(game, TURKS, {"type": "move", "unit": SPEARMEN, "x": 30, "y": 20, "fire_at": KNIGHTS,
                                     "fire_range_inches": 5, "fire_when": "before"})
    kinds = [type(e).__name__ for e in evs]
    assert kinds.index("VolleyFired") < kinds.index("UnitMoved")
    assert refused(game, TURKS, {"type": "move", "unit": f"{TURKS}/horse-archers-left", "x": 9, "y": 9,
                                 "fire_at": KNIGHTS, "fire_range_inches": 5}).rule == "1-8"


# -- 1-9 ------------------------------------------------------------------------------------------------
def test_1_9_weapon_bonus_first_then_halved_for_firing_at_or_as_skirmishers_in_the_open():
    """1-9: "a composite bow armed unit with a combat value of 12 fires on a skirmish unit with a combat
    value of 6. The composite bow unit adds +2 weapon bonus for a modified combat value of 14. The
    skirmisher adds +1 weapon bonus for a modified combat value of 7. ... In this example both units
    would be halved for firing at or being skirmishers in the open." By play: the Byzantine toxotai
    (composite bows, combat value 12 on the players' profile) fire on the Seljuq javelinmen
    (skirmishers, combat value 6) at 5", who return fire; "identical rates of fire" (3 and 3): the
    fire is simultaneous, both volleys the exchange's first."""
    game = owned("byzantines-seljuq-turks",
                 lambda armies: unit_of(armies["byzantines"], "toxotai").update(combat_value=12))
    game = battle("byzantines", game)
    toxotai, javelins = "byzantines/toxotai", f"{TURKS}/javelinmen"
    game = play(game, "byzantines", {"type": "fire", "unit": toxotai, "target": javelins, "range_inches": 5})
    evs, _ = events(game, TURKS, {"type": "return-fire"})
    bows, skirmishers = of(ev.VolleyFired, evs)
    assert (bows.firer, bows.combat_value, [m.add for m in bows.modifiers], bows.target_number) == (
        toxotai, 12, [2, 0], 14 // 2)
    assert bows.modifiers[1].reason == "firing at or as skirmishers in the open" and bows.modifiers[1].halve
    assert (skirmishers.firer, skirmishers.combat_value, [m.add for m in skirmishers.modifiers],
            skirmishers.target_number) == (javelins, 6, [1, 0], 7 // 2)
    assert skirmishers.dice == 3 and not skirmishers.half_dice  # "normal skirmishers who roll full dice"
    assert (bows.order, skirmishers.order) == (1, 1)  # identical rates: simultaneous


def test_1_9_horse_archers_fire_first_and_the_crossbows_return_fire_in_disorder_at_half_value():
    """1-9: "The horse archers have the higher rate of fire and do so first, inflicting medium damage on
    the crossbows. The medium damage disorders the crossbows and inflicts 1 figure casualty on them. The
    crossbows then return fire in disorder which halves their final combat value. Since this was a
    reactionary fire the crossbows add a (-) distraction modifier to their leader.\""""
    game = battle(TURKS)
    game = play(game, TURKS, {"type": "fire", "unit": HORSE_ARCHERS, "target": CROSSBOWS, "range_inches": 8})
    assert {c["type"] for c in legal(game, CRUSADERS)} == {"return-fire", "hold-fire"}
    evs, game = events(game, CRUSADERS, {"type": "return-fire"},
                       faces=[1, 2, 20, 20, 20, 20, 20, 20] + [1, 19, 19, 19])
    first, second = of(ev.VolleyFired, evs)
    assert (first.firer, first.order, first.rate_of_fire, first.damage) == (HORSE_ARCHERS, 1, 3, "medium")
    assert (first.figures_lost, first.disordered) == (1, True)
    assert (second.firer, second.order, second.rate_of_fire) == (CROSSBOWS, 2, 2)
    assert second.modifiers[-1].reason == "firing in disorder" and second.target_number == (10 + 3) // 2
    assert of(ev.DistractionIncurred, evs)[0].leader == f"{CRUSADERS}/bohemond"
    assert game.state.units[CROSSBOWS].condition == "disordered" and game.state.units[CROSSBOWS].figures == 11


def test_1_9_out_of_range_is_refused_naming_the_chart():
    """1-9: Horse Bow "10"/0"": no ineffective range."""
    game = battle(TURKS)
    v = refused(game, TURKS, {"type": "fire", "unit": HORSE_ARCHERS, "target": CROSSBOWS, "range_inches": 11})
    assert v.code == "day-of-battle.out_of_range" and v.rule == "1-9"


# -- 1-10, 1-2 -------------------------------------------------------------------------------------------
def test_1_10_horse_archers_not_caught_fall_back():
    """1-10: "A) If not caught in one normal move then fallback directly away from the charger
    maintaining a 15" distance between the two or into rough or difficult terrain or through a
    supporting friend in good order.\""""
    game = battle()
    game = play(game, CRUSADERS, charge(game, KNIGHTS, HORSE_ARCHERS, caught_in_one_normal_move=False))
    assert {c["type"] for c in legal(game, TURKS)} == {"fall-back"}
    assert refused(game, TURKS, {"type": "stand"}).rule == "1-10"
    assert refused(game, TURKS, {"type": "evade", "x": 14.6, "y": 0}).rule == "1-10"
    assert refused(game, TURKS, {"type": "fall-back", "x": 14.6, "y": 0}).code == "day-of-battle.say_how"
    assert refused(game, TURKS, {"type": "fall-back", "how": "15-inches-away"}).code == "day-of-battle.say_where"
    evs, game = events(game, TURKS, {"type": "fall-back", "how": "15-inches-away", "x": 14.6, "y": 0})
    fell = of(ev.FellBack, evs)[0]
    assert (fell.x, fell.y) == (14.6, 0) and game.state.charge is None
    assert (game.state.units[HORSE_ARCHERS].x, game.state.units[HORSE_ARCHERS].y) == (14.6, 0)
    # "Horse Archers (-) A)": the (-) distraction for their leader
    assert of(ev.DistractionIncurred, evs)[0].leader == f"{TURKS}/kilij-arslan"
    assert game.state.leaders[f"{TURKS}/kilij-arslan"].distraction == 1


def test_1_10_caught_horse_archers_failing_the_terrain_check_stand_fire_and_fight_with_half_dice():
    """1-10: "B) If caught in a normal make a Terrain check. Pass see A above. Fail stand, fire at
    effective range and fight with half dice.\""""
    game = battle()
    game = play(game, CRUSADERS, charge(game, KNIGHTS, HORSE_ARCHERS))
    assert {c["type"] for c in legal(game, TURKS)} == {"terrain-check"}
    passed = play(game, TURKS, {"type": "terrain-check"}, faces=[3])
    assert {c["type"] for c in legal(passed, TURKS)} == {"fall-back"}
    evs, game = events(game, TURKS, {"type": "terrain-check"}, faces=[20])
    assert not of(ev.TerrainChecked, evs)[0].passed
    v = of(ev.VolleyFired, evs)[0]
    assert v.range_band == "effective" and v.range_inches == 10
    assert of(ev.ChargeStood, evs)[0].half_dice and game.state.units[HORSE_ARCHERS].half_dice_in_fight
    assert of(ev.CombatJoined, evs)[0].half_dice == [HORSE_ARCHERS]
    # the knights roll their dice as the players state them, then the horse archers, halved
    knights = game.state.units[KNIGHTS]
    assert legal(game, CRUSADERS) == [{"type": "fight", "unit": KNIGHTS, "dice": knights.cos, "target_number": 14,
                                       "modifiers": {}}]
    assert refused(game, TURKS, {"type": "fight", "unit": HORSE_ARCHERS, "dice": 5, "target_number": 8}).code == \
        "not_your_turn"  # the charger rolls first
    evs, game = events(game, CRUSADERS, {"type": "fight", "unit": KNIGHTS, "dice": 5, "target_number": 14,
                                         "modifiers": {"charging": 2}}, faces=[1, 14, 15, 20, 3])
    rolled = of(ev.CombatDiceRolled, evs)[0]
    assert (rolled.dice, rolled.hits, rolled.dice_modifiers, rolled.modifiers[0].add) == (5, 3, [], 2)
    evs, game = events(game, TURKS, {"type": "fight", "unit": HORSE_ARCHERS, "dice": 5, "target_number": 8},
                       faces=[8, 9])
    rolled = of(ev.CombatDiceRolled, evs)[0]
    assert (rolled.dice_stated, rolled.dice, rolled.faces, rolled.hits, rolled.rule) == (5, 2, [8, 9], 1, "1-10")
    assert rolled.dice_modifiers[0].halve and game.state.melee is None


# -- 1-3 ------------------------------------------------------------------------------------------------
def test_1_3_knights_dismount_once_with_horse_holders_within_3_inches():
    """1-3: "Knights that begin a game mounted may dismount once during the battle. ... Such an action is
    considered a maneuver for command point cost. ... a Cos. of horse holders ... must be placed within 3"
    of the knights.\""""
    game = play(battle(), CRUSADERS, {"type": "move", "unit": KNIGHTS, "x": 30, "y": 10})
    far = refused(game, CRUSADERS, {"type": "dismount", "unit": KNIGHTS, "horse_holders_x": 30, "horse_holders_y": 6})
    assert far.code == "day-of-battle.horse_holders_too_far" and far.rule == "1-3"
    evs, game = events(game, CRUSADERS, {"type": "dismount", "unit": KNIGHTS, "horse_holders_x": 30,
                                         "horse_holders_y": 8})
    assert of(ev.OrderGiven, evs)[0].cost == 5  # a manoeuvre
    knights = game.state.units[KNIGHTS]
    assert (knights.troop_type, knights.combat_value, knights.dismounted) == ("dismounted-knights", 12, True)
    assert DOB.view(game.state, None)["armies"][0]["units"][0]["counts_as"].startswith("spearmen against cavalry")
    again = refused(game, CRUSADERS, {"type": "dismount", "unit": KNIGHTS, "horse_holders_x": 30, "horse_holders_y": 8})
    assert again.code == "day-of-battle.already_dismounted"


def test_1_3_horse_holders_contacted_are_lost_and_count_as_knights_defeated():
    """1-3: "If the horse holders are contacted by an enemy unit they are lost. This loss counts as
    defeating knights in combat for honor points for the leader that contacted them.\""""
    game = battle()
    game = play(game, CRUSADERS, {"type": "dismount", "unit": KNIGHTS, "horse_holders_x": 18, "horse_holders_y": 8})
    game = play(game, CRUSADERS, {"type": "end-move"})
    game = play(game, TURKS, {"type": "begin-move"}, faces=[1, 1])
    holders = f"{KNIGHTS}-horse-holders"
    assert {"type": "contact-horse-holders", "unit": HORSE_ARCHERS, "horse_holders": holders} in legal(game, TURKS)
    evs, game = events(game, TURKS, {"type": "contact-horse-holders", "unit": HORSE_ARCHERS, "horse_holders": holders})
    award = of(ev.HonourAwarded, evs)[0]
    assert (award.leader, award.deed, award.rule) == (f"{TURKS}/kilij-arslan", "defeated-knights", "1-3")
    assert game.state.units[holders].condition == "lost" and game.state.leaders[award.leader].honour == award.points


# -- 1-4 ------------------------------------------------------------------------------------------------
def test_1_4_eastern_social_ranks_by_card():
    """1-4: "Joker Sultan 5; 9-10 Caliph 4; 6-8 Emir 3; 3-5,Face Atabeg 2; 2 Warrior 1; Ace Commoner 0"."""
    table = {"JK1": ("Sultan", 5), "9S": ("Caliph", 4), "10H": ("Caliph", 4), "6D": ("Emir", 3), "8C": ("Emir", 3),
             "3S": ("Atabeg", 2), "5H": ("Atabeg", 2), "QD": ("Atabeg", 2), "2C": ("Warrior", 1), "AS": ("Commoner", 0)}
    assert {card: rank_from(card, eastern=True) for card in table} == table


class Stacked(Loaded):
    """Every shuffle leaves the deck in the order given (cards named)."""

    def __init__(self, game, top):
        super().__init__(game, [])
        self.top = [DECK.index(c) for c in top]

    def order(self, shuffle):
        return self.top + [i for i in range(len(DECK)) if i not in self.top]


def draw_with(game, seat, leader, top):
    records = take_decision(game, seat, {"type": "draw-leader", "leader": leader}, Stacked(game, top), NOW, SEED)
    return [r.typed() for r in records], project_game(game, records)


def test_1_4_an_eastern_leader_drawing_a_joker_is_a_sultan_and_a_western_one_draws_again():
    """1-4: "Joker Sultan 5"; the core rules (quick-play guide): "If a Joker is drawn draw another card"."""
    game = new_game()
    evs, _ = draw_with(game, TURKS, f"{TURKS}/hasan", ["JK1"])
    rank = of(ev.SocialRankDrawn, evs)[0]
    assert (rank.cards, rank.title, rank.social_rank, rank.table) == (["JK1"], "Sultan", 5, "eastern")
    evs, game = draw_with(game, CRUSADERS, f"{CRUSADERS}/tancred", ["JK2", "9D", "7S", "5H", "3C", "4D", "8H", "KS"])
    rank = of(ev.SocialRankDrawn, evs)[0]
    assert (rank.cards, rank.title, rank.social_rank) == (["JK2", "9D"], "Duke", 4)
    attrs = of(ev.LeaderAttributesDrawn, evs)[0]
    # esteem: a card plus social rank; household: rank plus esteem; motivation 5 = mercenary;
    # initiative and personal combat 10 + the card, morale and combat the card
    assert (attrs.esteem, attrs.household, attrs.motivation) == (7 + 4, 4 + 11, "mercenary")
    assert (attrs.initiative, attrs.morale, attrs.combat, attrs.personal_combat) == (13, 4, 8, 15)
    assert DOB.readers(game.state, attrs) == frozenset({CRUSADERS})


def test_the_deck_is_reshuffled_when_it_runs_out_and_each_shuffle_is_recorded():
    """Core rules: "a deck of 54 playing card's which is reshuffled as it runs out". By play from the
    opening: the four leaders drawn (27 cards), every unit at its suggested spot, then game moves
    begun with every initiative die a 1 (each leader draws social rank + 1 command cards) and ended at
    once, until a move's command cards are more than the deck has left."""
    game = deployed(new_game())
    assert game.state.shuffles == 1 and len(game.state.out) == 27
    while True:
        [seat] = DOB.to_act(game.state)
        leaders = [l for l in game.state.leaders.values() if l.seat == seat]
        wanted = sum(l.social_rank + 1 for l in leaders)
        left = DOB.view(game.state, None)["deck"]
        if wanted > left["left"]:
            break
        game = play(game, seat, {"type": "begin-move"}, faces=[1] * len(leaders))
        game = play(game, seat, {"type": "end-move"})
    assert left == {"size": 54, "left": 54 - len(game.state.out), "shuffles": 1} and 0 < left["left"] < wanted
    remaining = [card for card in DECK if card not in game.state.out]
    evs, game = events(game, seat, {"type": "begin-move"}, faces=[1] * len(leaders))
    shuffles = of(CardsShuffled, evs)
    assert len(shuffles) == 1 and shuffles[0].size == 54 and game.state.shuffles == 2
    assert shuffles[0].purpose.startswith("the deck runs out")
    drawn = [card for e in of(ev.CommandCardsDrawn, evs) for card in e.cards]
    assert len(drawn) == wanted == len(set(drawn))  # no card twice in one draw across the shuffle
    assert set(remaining) < set(drawn)  # the cards left come out before the new shuffle's


# -- 1-5, 1-6, 1-7 -----------------------------------------------------------------------------------------
def test_1_6_eastern_spearmen_may_not_form_square():
    """1-6: "Eastern spearmen as defined above in 1-5 may not form square.\""""
    game = battle(TURKS)
    v = refused(game, TURKS, {"type": "change-formation", "unit": SPEARMEN, "formation": "square"})
    assert v.code == "day-of-battle.no_square" and v.rule == "1-6"
    play(game, TURKS, {"type": "change-formation", "unit": SPEARMEN, "formation": "column"})


def test_1_5_eastern_spearmen_add_no_leader_morale_bonus_to_their_order_test_entering_combat():
    """1-5: "Eastern spearmen do not add the morale bonus of an attached leader or hero when the unit
    makes an order test upon entering combat.\""""
    game = battle()
    game = play(game, CRUSADERS, charge(game, KNIGHTS, SPEARMEN, attached_leader=f"{CRUSADERS}/bohemond"))
    evs, _ = events(game, TURKS, {"type": "stand", "attached_leader": f"{TURKS}/hasan"}, faces=[1, 1])
    knights, spear = of(ev.OrderTested, evs)
    morale = game.state.leaders[f"{CRUSADERS}/bohemond"].morale
    assert knights.target_number == 14 + morale and not knights.leader_bonus_refused
    assert spear.leader_bonus_refused and spear.target_number == 10


def test_1_7_only_the_byzantine_army_may_initiate_scouting_and_the_opponents_points_are_halved():
    """1-7: "only the Byzantine army may initiate scouting as a pre-battle function. If the Byzantine
    player opts for scouting his opponents scouting points are halved.\""""
    game = new_game()
    v = refused(game, CRUSADERS, {"type": "initiate-scouting"})
    assert v.code == "day-of-battle.scouting_byzantine_only" and v.rule == "1-7"
    game = new_game("byzantines-seljuq-turks")
    evs, game = events(game, "byzantines", {"type": "initiate-scouting"})
    s = of(ev.ScoutingResolved, evs)[0]
    from domain.rules.day_of_battle.data import card_value
    assert s.halved == [TURKS] and s.points[TURKS] == card_value(s.cards[TURKS]) // 2
    assert s.points["byzantines"] == card_value(s.cards["byzantines"])


# -- honour and the end ----------------------------------------------------------------------------------------
def test_the_battle_ends_by_agreement_with_the_outcome_and_honour_points():
    game = battle()
    game = play(game, CRUSADERS, {"type": "propose-ruling", "topic": "end-of-battle", "rule": "core rules",
                                  "decision": "the Turks leave the field", "honour": [
                                      {"leader": f"{CRUSADERS}/bohemond", "deed": "won-the-battle"}],
                                  "end": {"winner": CRUSADERS, "reason": "the Turks leave the field"}})
    assert DOB.to_act(game.state) == [TURKS]
    evs, game = events(game, TURKS, {"type": "accept-ruling", "number": 1})
    ended = of(ev.BattleEnded, evs)[0]
    assert ended.outcome.winner == CRUSADERS and ended.honour[f"{CRUSADERS}/bohemond"] == 3
    assert of(GameEnded, evs)[0].outcome.scores == {CRUSADERS: 3.0, TURKS: 0.0}


def ends(game, seat):
    return [c for c in legal(game, seat) if c["type"] == "propose-ruling" and c["topic"] == "end-of-battle"]


def test_the_end_of_the_battle_is_listed_to_the_moving_army():
    """The supplement prints no end of battle ("The following rules are modified from Day Of Battle
    when any of the armies in the First Crusade supplement are used."): the end is the players'
    agreement (RULES_NOTES.md, "The end, listed"), and legal-commands lists it — the field won by
    either side, or a drawn battle — so that a client reading only the listing can end the battle
    (issue 24 point 5)."""
    game = new_game()
    assert not ends(game, CRUSADERS)  # leaders are drawn, armies deployed first
    game = deployed(game)
    [mover] = DOB.to_act(game.state)
    listed = ends(game, mover)
    assert [(c["end"]["winner"], c["ruled_by"]) for c in listed] == [
        (CRUSADERS, "players"), (TURKS, "players"), (None, "players")]
    assert [c["decision"] for c in listed] == ["the battle is over: the field is won by First Crusaders",
                                              "the battle is over: the field is won by Seljuq Turks",
                                              "the battle is over: a drawn battle"]
    assert not ends(game, TURKS if mover == CRUSADERS else CRUSADERS)  # not the moving army
    game = battle()
    assert len(ends(game, CRUSADERS)) == 3  # between orders, too
    fired = play(game, CRUSADERS, {"type": "fire", "unit": CROSSBOWS, "target": HORSE_ARCHERS, "range_inches": 8})
    assert not ends(fired, TURKS) and not ends(fired, CRUSADERS)  # the fire is answered first
    proposed = play(game, CRUSADERS, ends(game, CRUSADERS)[1])
    assert {c["type"] for c in legal(proposed, TURKS)} == {"accept-ruling", "reject-ruling"}
    withdrawn = play(proposed, TURKS, {"type": "reject-ruling", "number": 1})
    assert not withdrawn.ended and len(ends(withdrawn, CRUSADERS)) == 3  # one rejection: play goes on
    evs, ended = events(proposed, TURKS, {"type": "accept-ruling", "number": 1})
    assert ended.ended and ended.outcome.winner == TURKS
    assert of(ev.BattleEnded, evs)[0].outcome.reason == "the field is won by Seljuq Turks"
    assert DOB.to_act(ended.state) == [] and legal(ended, CRUSADERS) == []


def test_the_listed_end_names_a_side_of_allies_and_every_other_seat_accepts():
    """Dorylaeum: armies on the same rear edge are allies; the listed end names each side once
    (its first seat) and the battle ends when all three other seats accept (RULES_NOTES.md)."""
    game = deployed(new_game("dorylaeum"))
    [mover] = DOB.to_act(game.state)
    listed = ends(game, mover)
    assert [c["end"]["winner"] for c in listed] == [CRUSADERS, TURKS, None]
    assert listed[0]["end"]["reason"] == "the field is won by First Crusaders and Byzantines of Alexius Komnenos"
    game = play(game, mover, listed[2])
    for seat in [s for s in game.state.seats if s != mover]:
        assert not game.ended
        game = play(game, seat, next(c for c in legal(game, seat) if c["type"] == "accept-ruling"))
    assert game.ended and game.outcome.draw and game.outcome.reason == "a drawn battle"

def test_1_8_the_distraction_is_added_to_the_leaders_next_initiative_die():
    """1-8: "This penalty, (-) is a +1 modifier which is added to the initiative die roll of the leader or
    hero commanding the skirmish unit at the start of his next game move.\""""
    game = battle(TURKS)
    game = play(game, TURKS, {"type": "fire", "unit": HORSE_ARCHERS, "target": CROSSBOWS, "range_inches": 8})
    game = play(game, CRUSADERS, {"type": "return-fire"}, faces=[1, 2, 20, 20, 20, 20, 20, 20] + [19] * 4)
    bohemond = f"{CRUSADERS}/bohemond"
    assert game.state.leaders[bohemond].distraction == 1
    game = play(game, TURKS, {"type": "end-move"})
    evs, game = events(game, CRUSADERS, {"type": "begin-move"}, faces=[12, 12])
    check = next(e for e in of(ev.InitiativeChecked, evs) if e.leader == bohemond)
    assert (check.roll, check.distraction, check.total) == (12, 1, 13)
    assert check.passed == (13 <= check.initiative)
    assert game.state.leaders[bohemond].distraction == 0


def test_a_seat_sees_its_own_leaders_skills_and_command_points_and_no_one_elses():
    """DESIGN.md "Hidden information": Day of Battle keeps the cards drawn for rank and command."""
    game = play(battle(), CRUSADERS, {"type": "end-move"})
    game = play(game, TURKS, {"type": "begin-move"})
    for reader, own in ((TURKS, True), (CRUSADERS, False), (None, False)):
        view = DOB.view(game.state, reader)
        turks = next(a for a in view["armies"] if a["seat"] == TURKS)
        leader = turks["leaders"][0]
        assert leader["title"] is not None  # the rank is public
        assert (leader["initiative"] is not None) == own and (leader["command_cards"] is not None) == own
