"""Issue 14, points 1-6 and 9: readings of the rulebook that version 1 of the engine got wrong,
each reached by play from the opening with forced dice, each quoting the sentence it checks."""

from __future__ import annotations

import pytest

from domain.rules.base import RuleViolation
from domain.rules.saladin.data import TABLES
from tests.rules.saladin.helpers import (
    SALADIN,
    act,
    banner_view,
    below_five_with_the_leader_ordered,
    decide_events,
    finish_turn,
    last_order_at_arsuf,
    legal,
    new_game,
    orders,
    play,
    refused,
    start,
    view,
)

D, S, B, X = "double", "stroke", "blank", "slash"
PASS = {"type": "pass"}
DECLINE = {"type": "decline-reaction"}


def full(scenario: str, banner: str) -> int:
    return len(TABLES[scenario].banner(banner).track)


# -- 1. Reinforce --------------------------------------------------------------------------------------
def test_reinforce_the_banner_places_one_of_its_own_lances():
    """Hattin — Saladin / Ridefort (Reinforce): "The Banner of Saladin or Ridefort places 1 of
    its Lances on the location of the last lost Lance of the Banner of Saphadin or Manguras for
    Saladin, and Lusignan for Ridefort." The lance is Saladin's own: Saladin has one fewer, the
    Losses Track is untouched, and an empty Losses Track does not stop it: Ridefort looses at
    Saphadin until its 6th lance empties the track ("A player must immediately place back in the
    box 1 Order when they lose their 6th Lance. The 6 Lances are then also placed back in the
    game box"), the Ayyubids answering with Holds."""
    g = start(new_game("hattin"), "crusaders")
    g = play(g, "crusaders", act("ridefort", "loose", "saphadin"), [S])
    assert banner_view(g, "saphadin")["lances"] == {"field": full("hattin", "saphadin") - 1}
    assert view(g)["sides"]["ayyubids"]["losses_track"] == 1
    for faces in ([D], [D], [S]):
        hold = next(m for m in legal(g, "ayyubids") if m.get("action") == "hold" and m["banner"] != "saladin")
        g = play(g, "ayyubids", hold)
        g = play(g, "crusaders", act("ridefort", "loose", "saphadin"), faces)
    assert view(g)["sides"]["ayyubids"]["losses_track"] == 0  # the 6th lance took the track to the box
    events, g = decide_events(g, "ayyubids", act("saladin", "reinforce", "saphadin"))
    placed = [e for e in events if type(e).__name__ == "LancePlaced"]
    assert [(e.banner, e.onto) for e in placed] == [("saladin", "saphadin")]
    assert banner_view(g, "saphadin")["lances"] == {"field": full("hattin", "saphadin") - 5}
    assert sum(banner_view(g, "saladin")["lances"].values()) == full("hattin", "saladin") - 1
    assert view(g)["sides"]["ayyubids"]["losses_track"] == 0


def test_reinforce_uncovers_the_acting_banners_cost_symbol():
    """Key Game Terms — Lance: lances leave a track "from bottom to top and from left to right,
    by following the numbering", and Activation — Special cases: the "cost increased by 1"
    symbol unveiled raises the cost. Aslam's Reinforce Arsuf takes Aslam's own lance."""
    g = start(new_game("arsuf"), "crusaders")
    g = play(g, "crusaders", act("lusignan", "assault-arsuf", "arsuf"), [S, B, B])
    assert view(g)["arsuf_lances"] == 1
    aslam_before = banner_view(g, "aslam")
    g = play(g, "ayyubids", act("aslam", "reinforce-arsuf"))
    assert view(g)["arsuf_lances"] == 2
    aslam = banner_view(g, "aslam")
    assert sum(aslam["lances"].values()) == sum(aslam_before["lances"].values()) - 1
    assert [s["lance"] for s in aslam["track"]][0] is False  # slot 1 left first
    assert view(g)["sides"]["ayyubids"]["losses_track"] == 1  # Arsuf's lost lance stays there


def test_reinforce_needs_a_lost_lance_on_the_target_not_on_the_losses_track():
    """Hattin — Saladin / Ridefort (Reinforce): "on the location of the last lost Lance" — the
    target must have lost one."""
    g = start(new_game("hattin"), "crusaders")
    assert refused(g, "crusaders", act("ridefort", "reinforce", "lusignan")).code == "saladin.nothing_to_reinforce"


# -- 2. Two-location enemies --------------------------------------------------------------------------
def test_charge_against_a_two_location_enemy_commits_it_too():
    """Activation — Special cases: "A Banner can change its status from Uncommitted to Committed
    or vice versa according to the indications of the Action performed. In this case, you must
    move the Lances of the Banner concerned to the appropriate location on the game board. This
    change therefore involves changing the status of the enemy Banner." Saladin charges D'Ibelin
    at Hattin: both are Committed, both banners' lances stand on their Committed locations, and
    D'Ibelin can strike back in melee."""
    g = start(new_game("hattin"), "ayyubids")
    g = play(g, "ayyubids", act("saladin", "charge", "d-ibelin"))
    saladin, ibelin = banner_view(g, "saladin"), banner_view(g, "d-ibelin")
    assert (saladin["status"], ibelin["status"]) == ("committed", "committed")
    assert ibelin["lances"] == {"uncommitted": 0, "committed": full("hattin", "d-ibelin")}
    assert saladin["engaged"] == ["d-ibelin"] and ibelin["engaged"] == ["saladin"]
    assert act("d-ibelin", "melee", "saladin") in legal(g, "crusaders")
    # Saladin regroups: "changing the status of the enemy Banner" again — D'Ibelin goes back
    g = play(g, "crusaders", act("d-ibelin", "melee", "saladin"))
    g = finish_turn(g)
    g = start(g, "ayyubids")
    g = play(g, "ayyubids", act("saladin", "regroup"))
    ibelin = banner_view(g, "d-ibelin")
    assert ibelin["status"] == "uncommitted" and ibelin["lances"]["uncommitted"] == full("hattin", "d-ibelin")


# -- 3. Single-location banners with two enemies ------------------------------------------------------
def test_single_location_banner_stays_committed_while_another_committed_enemy_targets_it():
    """Arsuf — Statuses: Ala al Din's "status is the same as that of the Crusaders Banner that
    targets them". Richard then Bourgogne charge it; when Bourgogne regroups, Richard still
    targets it Committed, so Ala al Din stays Committed; when Richard regroups too, it goes back."""
    g = start(new_game("arsuf"), "crusaders")
    g = play(g, "crusaders", act("richard", "charge", "ala-al-din"))
    g = play(g, "ayyubids", DECLINE)
    g = play(g, "ayyubids", act("aslam", "hold"))
    g = play(g, "crusaders", act("bourgogne", "charge", "ala-al-din"))
    assert banner_view(g, "ala-al-din")["engaged"] == ["bourgogne", "richard"]
    g = finish_turn(g)
    g = start(g, "crusaders")
    g = play(g, "crusaders", act("bourgogne", "regroup"))
    ala = banner_view(g, "ala-al-din")
    assert (ala["status"], ala["engaged"]) == ("committed", ["richard"])
    g = play(g, "ayyubids", act("aslam", "hold"))
    g = play(g, "crusaders", act("richard", "regroup"))
    assert banner_view(g, "ala-al-din")["status"] == "uncommitted"


# -- 4. Charges into banners that can never be Committed ---------------------------------------------
@pytest.mark.parametrize("scenario, seat, banner, target", [
    ("arsuf", "crusaders", "bourgogne", "saladin"),
    ("hattin", "ayyubids", "saladin", "ridefort"),
])
def test_no_charge_into_a_banner_that_can_never_be_committed(scenario, seat, banner, target):
    """Arsuf — Statuses: "the Banners of Lusignan, Henry II, Aslam and Saladin can never be
    Committed"; Hattin — Statuses: "The Banners of Ridefort and Husam Lulu can never be
    Committed". A Charge "involves changing the status of the enemy Banner", so it cannot target
    them; a Loose still can."""
    g = start(new_game(scenario), seat)
    violation = refused(g, seat, act(banner, "charge", target))
    assert violation.code == "saladin.target_never_committed"
    assert violation.rule == "Activation — Special cases and consequences of activation"
    assert act(banner, "charge", target) not in legal(g, seat)
    assert act(banner, "loose", target) in legal(g, seat)


# -- 5. Passing with the Leader card Deployed ---------------------------------------------------------
def test_pass_only_with_the_leader_card_ordered_too():
    """Sequence of Play — Activation: "A player can pass only if all their Banners and Leader
    cards are on their Ordered side." At Hattin the Crusaders hold every banner; Guy de
    Lusignan's card is still Deployed, so they cannot pass until they activate him."""
    g = start(new_game("hattin"), "crusaders")
    for c, a in zip(["chatillon", "d-ibelin", "lusignan", "naplouse", "raymond-iii", "ridefort"],
                    ["husam-lulu", "keukburi", "manguras", "saladin", "saphadin", "taqui-al-din"]):
        g = play(g, "crusaders", act(c, "hold"))
        g = play(g, "ayyubids", act(a, "hold"))
    assert PASS not in legal(g, "crusaders")
    assert refused(g, "crusaders", PASS).code == "saladin.cannot_pass_with_deployed_cards"
    g = play(g, "crusaders", {"type": "leader", "action": "recover-order"})
    assert view(g)["sides"]["crusaders"]["leader"]["card_side"] == "ordered"
    g = play(g, "ayyubids", {"type": "leader", "action": "recover-order"})
    assert PASS in legal(g, "crusaders")


def test_horns_when_the_lusignan_card_is_ordered_is_the_first_action_of_next_turn():
    """Hattin — Lusignan (Leader): "If the Lusignan card is on its Ordered side, the Action will
    have to be the first one performed by the Crusaders player during the next turn." Reached
    by play from the opening, every die forced (helpers.below_five_with_the_leader_ordered): Guy de
    Lusignan recovers an Order in turn 2 (his card turns Ordered), then the 6th lance of Keukburi's
    looses brings the Crusaders below 5 Orders; Husam Lulu's fire follows."""
    g = below_five_with_the_leader_ordered()
    assert view(g)["sides"]["crusaders"]["leader"]["card_side"] == "ordered"
    g = play(g, "crusaders", next(c for c in legal(g, "crusaders") if c.get("action") == "hold"))
    g = play(g, "ayyubids", act("husam-lulu", "set-fire"))
    assert {"type": "leader", "action": "horns"} not in legal(g, "crusaders")
    g = finish_turn(g)
    g = start(g, "crusaders")
    assert legal(g, "crusaders") == [{"type": "leader", "action": "horns"}]


# -- 6. Clauses the data made dead --------------------------------------------------------------------
def test_saladin_reacts_to_richard_at_arsuf():
    """Key Game Terms — Action / Reaction, example Banner of Richard: "it can be targeted by one
    Banner in Reaction" — Saladin, whose reaction answers Richard when Richard targets him."""
    g = start(new_game("arsuf"), "crusaders")
    g = play(g, "crusaders", act("richard", "loose", "saladin"))
    assert legal(g, "ayyubids") == [{"type": "react", "banner": "saladin", "reaction": "evade"}, DECLINE]
    g = play(g, "ayyubids", {"type": "react", "banner": "saladin", "reaction": "evade"}, [S, S])
    assert banner_view(g, "richard")["card_side"] == "ordered"
    assert banner_view(g, "saladin")["card_side"] == "deployed"


def test_ala_afdal_can_be_committed_by_a_crusader_banner_that_targets_it():
    """Arsuf — Statuses: "The Banners of Saphadin, Ala Afdal, Ala al Din and Soulaymân have only
    one location on the game board and their status is the same as that of the Crusaders Banner
    that targets them." Bourgogne's Charge makes Ala Afdal Committed."""
    g = start(new_game("arsuf"), "crusaders")
    g = play(g, "crusaders", act("bourgogne", "charge", "ala-afdal"))
    ala = banner_view(g, "ala-afdal")
    assert (ala["status"], ala["engaged"], ala["location"]) == ("committed", ["bourgogne"], "field")


# -- 9. Readings left open, offered as game options ---------------------------------------------------
def test_taqui_al_din_acts_by_itself_by_default():
    """Hattin — Taqui al Din: "In the event of a Charge or Uncontrolled Charge by the Banner of
    Raymond III, the Banner of Taqui al Din undergoes the effects of 1 Combat die. The Banner of
    Raymond III must remove 2 Lances that are placed back directly in the game box". The paragraph
    names no action (the others read "Husam Lulu (Set Fire)", "Lusignan (Shield wall)"), so it is
    a scenario rule, not a choice: it applies even with Taqui al Din's card Ordered. Its effects
    take the place of the Charge's dice; the Charge still commits Raymond III, and Taqui al Din
    with it."""
    g = start(new_game("hattin"), "ayyubids")
    g = play(g, "ayyubids", act("taqui-al-din", "hold"))
    assert banner_view(g, "taqui-al-din")["card_side"] == "ordered"
    events, g = decide_events(g, "crusaders", act("raymond-iii", "charge", "taqui-al-din"), [S])
    names = [type(e).__name__ for e in events]
    assert "ReactionOffered" not in names and "SpecialRuleApplied" in names
    assert view(g)["sides"]["crusaders"]["lances_boxed"] == 2
    assert banner_view(g, "taqui-al-din")["lances"] == {"field": full("hattin", "taqui-al-din") - 1}
    assert banner_view(g, "raymond-iii")["status"] == "committed"
    assert banner_view(g, "taqui-al-din")["engaged"] == ["raymond-iii"]
    raymond = banner_view(g, "raymond-iii")
    assert raymond["lances"] == {"uncommitted": 0, "committed": full("hattin", "raymond-iii") - 2}


def test_taqui_al_din_as_a_reaction_is_a_game_option():
    """RULES_NOTES.md, Game options: ``taqui_al_din: reaction`` plays the paragraph as a Reaction
    of Taqui al Din's card (Deployed, and the Ayyubids choose)."""
    g = start(new_game("hattin", options={"taqui_al_din": "reaction"}), "crusaders")
    g = play(g, "crusaders", act("raymond-iii", "charge", "taqui-al-din"))
    assert legal(g, "ayyubids") == [{"type": "react", "banner": "taqui-al-din", "reaction": "open-ranks"}, DECLINE]


def crusaders_answer(g):
    """The Crusaders answer with the least they may do: decline a reaction, then Hold a Deployed
    banner, or pass."""
    if {"type": "decline-reaction"} in legal(g, "crusaders"):
        g = play(g, "crusaders", DECLINE)
    if g.state.active == "crusaders" and g.outcome is None:
        hold = next((m for m in legal(g, "crusaders") if m.get("action") == "hold"), PASS)
        g = play(g, "crusaders", hold)
    return g


def true_cross_position(options=None, version=None):
    """Hattin, turn 1, Ayyubids to act, reached by play: Lusignan has moved to the Horns, and
    Manguras has loosed at Châtillon four times with a double stroke, leaving it 1 lance."""
    g = start(new_game("hattin", options=options, version=version), "crusaders")
    g = play(g, "crusaders", {"type": "leader", "action": "horns"})
    for _ in range(4):
        g = play(g, "ayyubids", act("manguras", "loose", "chatillon"), [D])
        g = crusaders_answer(g)
    assert banner_view(g, "chatillon")["lances"] == {"uncommitted": 1, "committed": 0}
    return g


def test_true_cross_as_a_leader_action_is_a_game_option():
    """RULES_NOTES.md, Game options: ``true_cross: leader-action`` reads the listing as "Saladin
    (Leader)" among the Scenario-specific Actions, like "Lusignan (Leader)": an action of the
    Leader card (the default of version 2.0.0)."""
    g = true_cross_position({"true_cross": "leader-action"})
    g = play(g, "ayyubids", act("manguras", "loose", "chatillon"), [S])
    assert banner_view(g, "chatillon")["fate"] == "captured"
    boxed = orders(g, "crusaders")["box"]
    g = crusaders_answer(g)
    g = play(g, "ayyubids", {"type": "leader", "action": "order-loss"})
    assert orders(g, "crusaders")["box"] == boxed + 1


def test_true_cross_is_immediate_by_default():
    """Hattin — Saladin (Leader): "Once per game, if the Lusignan's Banner has moved to the Horns
    of Hattin or is eliminated and if Châtillon's Banner is also eliminated, the Crusaders player
    must immediately place 1 Order back in the box." The book's words are the default (issue 26
    point 10): the Order goes to the box the moment Châtillon falls, no Leader activation."""
    g = true_cross_position()
    boxed = orders(g, "crusaders")["box"]
    events, g = decide_events(g, "ayyubids", act("manguras", "loose", "chatillon"), [S])
    assert "SpecialRuleApplied" in [type(e).__name__ for e in events]
    assert orders(g, "crusaders")["box"] == boxed + 1
    assert view(g)["sides"]["ayyubids"]["leader"]["used"] == ["order-loss"]
    g = crusaders_answer(g)
    assert {"type": "leader", "action": "order-loss"} not in legal(g, "ayyubids")


def test_a_version_2_0_0_record_keeps_the_leader_action_default():
    """RULES_NOTES.md, Versions: a game recorded under 2.0.0 without the option is replayed as
    it was played, with the Leader-action reading its version had as the default."""
    g = true_cross_position(version="2.0.0")
    g = play(g, "ayyubids", act("manguras", "loose", "chatillon"), [S])
    boxed = orders(g, "crusaders")["box"]
    g = crusaders_answer(g)
    g = play(g, "ayyubids", {"type": "leader", "action": "order-loss"})
    assert orders(g, "crusaders")["box"] == boxed + 1


def test_unknown_options_are_refused_with_the_rule():
    with pytest.raises(RuleViolation) as error:
        SALADIN.setup("hattin", ("crusaders", "ayyubids"), {"true_cross": "sometimes"})
    assert error.value.code == "saladin.bad_option"


# -- issue 26 point 11: a status the acting banner does not change changes no enemy's -------------------
def richard_regrouped(version=None):
    """Arsuf, turn 2, by play: Richard then Bourgogne charged Ala al Din (turn 1); Richard has just
    paid to Regroup, and Ala al Din stays Committed, still in melee with Bourgogne."""
    g = start(new_game("arsuf", version=version), "crusaders")
    g = play(g, "crusaders", act("richard", "charge", "ala-al-din"))
    g = play(g, "ayyubids", DECLINE)
    g = play(g, "ayyubids", act("aslam", "hold"))
    g = play(g, "crusaders", act("bourgogne", "charge", "ala-al-din"))
    g = finish_turn(g)
    g = start(g, "crusaders")
    g = play(g, "crusaders", act("richard", "regroup"))
    assert banner_view(g, "richard")["status"] == "uncommitted"
    assert banner_view(g, "ala-al-din")["status"] == "committed"
    return g


def test_an_action_that_changes_no_status_leaves_the_enemy_where_it_stands():
    """Activation — Special cases: "A Banner can change its status from Uncommitted to Committed or
    vice versa according to the indications of the Action performed. In this case, you must move
    the Lances of the Banner concerned to the appropriate location on the game board. This change
    therefore involves changing the status of the enemy Banner." Ala al Din's Melee changes no
    status, so Richard, who has just regrouped, stays Uncommitted and its lances stay put."""
    g = richard_regrouped()
    lances = banner_view(g, "richard")["lances"]
    events, g = decide_events(g, "ayyubids", act("ala-al-din", "melee", "richard"))
    kinds = [type(e).__name__ for e in events]
    assert "StatusChanged" not in kinds and "MeleeJoined" not in kinds
    richard = banner_view(g, "richard")
    assert (richard["status"], richard["lances"], richard["engaged"]) == ("uncommitted", lances, [])


def test_a_2_0_0_record_keeps_its_melee_reading():
    """RULES_NOTES.md, Versions: under 2.0.0 any action of a Committed banner brought its target
    into melee; a game recorded then replays so."""
    g = play(richard_regrouped("2.0.0"), "ayyubids", act("ala-al-din", "melee", "richard"))
    assert banner_view(g, "richard")["status"] == "committed"


# -- issue 26 point 13: the last Order boxed ends the game before Arsuf's twelfth comes back -----------
# (helpers.last_order_at_arsuf: turn 3, reached by play from the opening with forced dice)
def test_boxing_the_last_order_ends_the_game_though_arsuf_falls_in_the_same_roll():
    """Victory Conditions: "The game ends immediately when one of the players puts their last
    Order in the box." Lusignan's Assault on Arsuf costs the last Order (spent), kills both Arsuf
    lances (red) and loses Lusignan a 6th lance (green): "A player must immediately place back in
    the box 1 Order when they lose their 6th Lance." The twelfth Order ("as soon as the two
    Ayyubids Lances in Arsuf are eliminated") does not come back to a side that has lost."""
    g = last_order_at_arsuf()
    events, g = decide_events(g, "crusaders", act("lusignan", "assault-arsuf", "arsuf"), [S, S, S])
    assert "OrdersRecovered" not in [type(e).__name__ for e in events]
    assert view(g)["arsuf_lances"] == 0
    assert g.outcome is not None and g.outcome.winner == "ayyubids"


def test_a_2_0_0_record_keeps_the_twelfth_order_recovered():
    """RULES_NOTES.md, Versions: 2.0.0 gave the twelfth Order back in that roll, and play went on."""
    g = last_order_at_arsuf("2.0.0")
    g = play(g, "crusaders", act("lusignan", "assault-arsuf", "arsuf"), [S, S, S])
    assert g.outcome is None and orders(g, "crusaders")["available"] == 1
