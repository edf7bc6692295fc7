"""Sequence of Play (Chaos, Initiative, Activation, Redeployment), Key Game Terms (Order,
Lance, Status, Action / Reaction) and Victory Conditions, through the Game aggregate."""

from __future__ import annotations

import pytest

from tests.rules.saladin.helpers import (
    full,
    act,
    banner_view,
    decide_events,
    drive,
    finish_turn,
    legal,
    looses,
    new_game,
    orders,
    may_take,
    play,
    played_until,
    refused,
    start,
    view,
)

D, S, B, X = "double", "stroke", "blank", "slash"
PASS = {"type": "pass"}


# -- Initiative ------------------------------------------------------------------------------------
def test_initiative_fewest_available_orders_arsuf_crusaders_and_ayyubids_may_seize():
    """Sequence of Play — Initiative: 11 against 12 Available Orders gives the Crusaders the
    initiative; the Ayyubid Leader may seize it first."""
    g = new_game("arsuf")
    v = view(g)
    assert (v["initiative"], v["phase"], v["to_act"]) == ("crusaders", "seize", "ayyubids")
    assert legal(g, "ayyubids") == [{"type": "leader", "action": "seize-initiative"}, {"type": "decline-seize"}]
    assert legal(g, "crusaders") == []
    g = play(g, "ayyubids", {"type": "decline-seize"})
    assert (view(g)["initiative"], view(g)["phase"], view(g)["to_act"]) == ("crusaders", "choose-first", "crusaders")


def test_initiative_tie_hattin_goes_to_the_ayyubids():
    """Hattin — Special rules: initiative in case of a tie — Ayyubids (no Crusader seizing)."""
    v = view(new_game("hattin"))
    assert (v["initiative"], v["phase"], v["to_act"]) == ("ayyubids", "choose-first", "ayyubids")


def test_initiative_tie_arsuf_goes_to_the_crusaders():
    """Arsuf — Special rules: initiative in case of a tie — Crusaders. Reached by play from the
    opening (helpers.played_until, seed 2): turn 2 begins with 10 Available Orders on each side."""
    def tied(g):
        s = g.state
        return (s.turn >= 2 and s.phase in ("seize", "choose-first")
                and s.sides["crusaders"].available == s.sides["ayyubids"].available)

    g = played_until("arsuf", tied, seed=2)
    assert orders(g, "crusaders")["available"] == orders(g, "ayyubids")["available"] == 10
    assert view(g)["initiative"] == "crusaders"


def test_initiative_holder_chooses_who_starts_the_activation_phase():
    """Sequence of Play — Initiative: the holder chooses whether or not to start."""
    g = play(new_game("hattin"), "ayyubids", {"type": "choose-first", "seat": "crusaders"})
    assert (view(g)["phase"], view(g)["to_act"]) == ("activation", "crusaders")
    assert refused(new_game("hattin"), "ayyubids", {"type": "choose-first", "seat": "x"}).code == "saladin.unknown_seat"


def test_seizing_the_initiative_orders_the_leader_for_the_turn():
    """Sequence of Play — Initiative: a Leader that seizes the initiative turns Ordered, so it
    cannot act again this turn; it is seized only in the Initiative phase."""
    g = play(new_game("arsuf"), "ayyubids", {"type": "leader", "action": "seize-initiative"})
    g = play(g, "ayyubids", {"type": "choose-first", "seat": "ayyubids"})
    g = play(g, "ayyubids", act("saphadin", "loose", "sable"))
    g = play(g, "crusaders", act("lusignan", "hold"))
    assert refused(g, "ayyubids", {"type": "leader", "action": "recover-order"}).code == "saladin.leader_ordered"
    assert refused(g, "ayyubids", {"type": "leader", "action": "seize-initiative"}).code == "saladin.wrong_phase"


# -- Activation ------------------------------------------------------------------------------------
def test_activation_alternates_between_players():
    """Sequence of Play — Activation: players alternate activations."""
    g = start(new_game("arsuf"), "crusaders")
    g = play(g, "crusaders", act("lusignan", "hold"))
    assert view(g)["to_act"] == "ayyubids"
    assert refused(g, "crusaders", act("henry-ii", "hold")).code == "not_your_turn"
    g = play(g, "ayyubids", act("aslam", "hold"))
    assert view(g)["to_act"] == "crusaders"


def test_pass_only_with_every_card_ordered_then_opponent_continues_alone():
    """Sequence of Play — Activation: a player passes only when all their Banners and Leader
    are Ordered; a player who passed no longer activates; the opponent goes on until they pass."""
    g = start(new_game("arsuf"), "crusaders")
    violation = refused(g, "crusaders", PASS)
    assert violation.code == "saladin.cannot_pass_with_deployed_cards"
    assert violation.rule == "Sequence of Play — Activation"
    crusaders = ["bourgogne", "henry-ii", "lusignan", "naplouse", "richard", "sable"]
    ayyubids = ["ala-afdal", "ala-al-din", "aslam", "saladin", "saphadin", "soulayman"]
    for c, a in zip(crusaders, ayyubids):
        assert PASS not in legal(g, "crusaders")
        g = play(g, "crusaders", act(c, "hold"))
        g = play(g, "ayyubids", act(a, "hold"))
    assert PASS not in legal(g, "crusaders")  # the Leader card is still Deployed
    g = play(g, "crusaders", {"type": "leader", "action": "recover-order"})  # no spent Order: nothing back
    assert orders(g, "crusaders")["available"] == 11
    g = play(g, "ayyubids", act("saphadin", "loose", "henry-ii"))
    assert PASS in legal(g, "crusaders")
    g = play(g, "crusaders", PASS)
    assert view(g)["sides"]["crusaders"]["passed"] and view(g)["to_act"] == "ayyubids"
    g = play(g, "ayyubids", act("ala-al-din", "loose", "bourgogne"))  # an Ordered banner acts again
    assert view(g)["to_act"] == "ayyubids"
    # the Leader card is a Deployed card too
    assert refused(g, "ayyubids", PASS).code == "saladin.cannot_pass_with_deployed_cards"
    assert refused(g, "crusaders", act("henry-ii", "loose", "ala-afdal")).code == "not_your_turn"
    g = play(g, "ayyubids", {"type": "leader", "action": "recover-order"})
    g = play(g, "ayyubids", PASS)
    assert view(g)["turn"] == 2


def test_ordered_banner_uses_only_actions_marked_for_the_back_of_the_card():
    """Activation — Special cases: an Ordered banner can still be activated, with the actions
    available on its Ordered side."""
    g = start(new_game("arsuf"), "crusaders")
    g = play(g, "crusaders", act("henry-ii", "loose", "ala-afdal"))
    g = play(g, "ayyubids", act("aslam", "hold"))
    assert banner_view(g, "henry-ii")["card_side"] == "ordered"
    henry = sorted(c["action"] for c in legal(g, "crusaders") if c.get("banner") == "henry-ii")
    assert henry == ["loose", "loose"]  # at Ala Afdal or Saphadin; Hold and Shield wall are front-side only
    assert refused(g, "crusaders", act("henry-ii", "shield-wall")).code == "saladin.action_not_usable_when_ordered"
    assert refused(g, "crusaders", act("henry-ii", "hold")).code == "saladin.action_not_usable_when_ordered"
    g = play(g, "crusaders", act("henry-ii", "loose", "saphadin"))
    assert banner_view(g, "henry-ii")["card_side"] == "ordered"


def test_zero_cost_action_always_allowed_and_forced_when_the_pool_is_empty():
    """Activation — Special cases: the 0-cost action is always an option; with an empty
    Available pool a Deployed banner must use it. The empty pool reached by play from the opening
    (helpers.played_until, seed 1: the Crusaders' first action of turn 1 with no Order left)."""
    g = start(new_game("arsuf"), "crusaders")
    assert act("richard", "hold") in legal(g, "crusaders")
    g = played_until("arsuf", lambda g: crusaders_act_with_no_order(g, "crusaders"), seed=1)
    options = legal(g, "crusaders")
    banner_actions = {c["action"] for c in options if c["type"] == "activate"}
    assert banner_actions == {"hold"}
    assert {c["type"] for c in options} == {"activate", "leader"}  # Richard may recover a spent Order
    deployed = next(b for b, banner in g.state.banners.items() if banner.side == "crusaders" and banner.in_play
                    and not banner.ordered)
    assert {c["id"]: c["cost"] for c in banner_view(g, deployed)["actions"]}["loose"] > 0
    target = next(b for b, banner in g.state.banners.items() if banner.side == "ayyubids" and banner.in_play)
    assert refused(g, "crusaders", act(deployed, "loose", target)).code == "saladin.not_enough_orders"
    assert refused(g, "crusaders", PASS).code == "saladin.cannot_pass_with_deployed_cards"


def crusaders_act_with_no_order(g, seat: str) -> bool:
    """``seat`` to take an action (none pending) while the Crusaders have no Available Order."""
    s = g.state
    return (g.to_act() == [seat] and s.phase == "activation" and s.pending is None
            and s.sides["crusaders"].available == 0 and s.sides["crusaders"].spent > 0
            and any(c["type"] == "activate" for c in legal(g, seat)))


def test_cost_increased_by_uncovered_plus_one_markers_but_not_for_zero_cost():
    """Activation — Special cases: each '+1' uncovered by lost lances adds 1 to the cost;
    there is no additional cost to an action with a cost of 0. By play from the opening
    (helpers.played_until, seed 1): the first position where a banner has two '+1' uncovered;
    every banner in play then costs its printed cost plus its uncovered '+1's."""
    opening = start(new_game("arsuf"), "crusaders")

    def uncovered(g, banner):
        return sum(1 for slot in banner_view(g, banner)["track"] if slot["marker"] == "+1" and not slot["lance"])

    g = played_until("arsuf", lambda g: any(uncovered(g, b) >= 2 for b, x in g.state.banners.items() if x.in_play),
                     seed=1)
    for banner in (b for b, x in g.state.banners.items() if x.in_play):
        printed = {a["id"]: a["cost"] for a in banner_view(opening, banner)["actions"]}
        extra = uncovered(g, banner)
        assert {a["id"]: a["cost"] for a in banner_view(g, banner)["actions"]} == \
            {action: cost + extra if cost else 0 for action, cost in printed.items()}
    assert max(uncovered(g, b) for b, x in g.state.banners.items() if x.in_play) == 2


def test_slash_spends_an_order_and_does_nothing_on_an_empty_pool():
    """Combat dice / Activation — Special cases: a slash moves 1 Order of the side it hits to
    the Spent pool; with an empty Available pool it has no effect."""
    g = start(new_game("arsuf"), "crusaders")
    g = play(g, "crusaders", act("henry-ii", "loose", "ala-afdal"), [X])
    assert orders(g, "ayyubids")["available"] == 11 and orders(g, "ayyubids")["spent"] == 1
    assert banner_view(g, "ala-afdal")["lances"] == {"field": full("arsuf", "ala-afdal")}
    # by play (seed 1): the Ayyubids to act while the Crusaders have no Available Order
    g = played_until("arsuf", lambda g: crusaders_act_with_no_order(g, "ayyubids")
                     and any(c.get("action") == "loose" for c in legal(g, "ayyubids")), seed=1)
    spent = orders(g, "crusaders")["spent"]
    loose = next(c for c in legal(g, "ayyubids") if c.get("action") == "loose")
    assert g.state.banners[loose["target"]].side == "crusaders"
    g = play(g, "ayyubids", loose, [X])
    assert orders(g, "crusaders")["available"] == 0 and orders(g, "crusaders")["spent"] == spent


def test_combat_die_faces_blank_stroke_double_slash():
    """Key Game Terms — Combat dice: blank nothing, stroke 1 lance, double 2 lances, slash 1
    Order spent; the die is 2 blank, 2 stroke, 1 double, 1 slash."""
    from domain.dice import STANDARD_DICE

    assert STANDARD_DICE["saladin-combat"].faces == ("blank", "blank", "stroke", "stroke", "double", "slash")
    g = start(new_game("arsuf"), "crusaders")
    g = play(g, "crusaders", act("richard", "charge", "ala-al-din"))
    g = play(g, "ayyubids", {"type": "decline-reaction"}, [S, D, X])
    assert banner_view(g, "ala-al-din")["lances"] == {"field": full("arsuf", "ala-al-din") - 3}
    assert banner_view(g, "richard")["lances"] == {"uncommitted": 0, "committed": full("arsuf", "richard")}
    assert orders(g, "crusaders")["spent"] == 2 + 1
    g = start(new_game("arsuf"), "crusaders")
    g = play(g, "crusaders", act("richard", "charge", "ala-al-din"))
    g = play(g, "ayyubids", {"type": "decline-reaction"}, [B, B, S])
    assert banner_view(g, "ala-al-din")["lances"] == {"field": full("arsuf", "ala-al-din")}
    assert banner_view(g, "richard")["lances"] == {"uncommitted": 0, "committed": full("arsuf", "richard") - 1}


def test_red_dice_hit_the_ayyubid_banner_green_the_crusader_banner_rolled_together():
    """Key Game Terms — Action / Reaction: red dice apply to the Ayyubid banner and green dice to
    the Crusader banner; both are rolled, then applied together."""
    g = start(new_game("arsuf"), "crusaders")
    g = play(g, "crusaders", act("naplouse", "charge", "soulayman"))
    events, g = decide_events(g, "ayyubids", {"type": "decline-reaction"}, [S, B, D])
    dice = [e for e in events if type(e).__name__ == "DiceRolled"]
    assert [(d.seat, d.faces) for d in dice] == [("crusaders", ["stroke", "blank"]), ("ayyubids", ["double"])]
    names = [type(e).__name__ for e in events]
    assert names.index("LancesLost") > max(i for i, n in enumerate(names) if n == "DiceRolled")
    assert banner_view(g, "soulayman")["lances"] == {"field": full("arsuf", "soulayman") - 1}
    assert banner_view(g, "naplouse")["lances"] == {"uncommitted": 0, "committed": full("arsuf", "naplouse") - 2}


def test_status_change_moves_lances_and_drags_the_single_location_enemy():
    """Key Game Terms — Status / Activation — Special cases: a Charge moves the lances to the
    Committed location and the single-location target takes the same status; an Uncommitted
    banner targeting it does not change it."""
    g = start(new_game("arsuf"), "crusaders")
    g = play(g, "crusaders", act("sable", "charge", "saphadin"))
    g = play(g, "ayyubids", {"type": "decline-reaction"})
    assert banner_view(g, "sable")["lances"] == {"uncommitted": 0, "committed": full("arsuf", "sable")}
    saphadin = banner_view(g, "saphadin")
    assert (saphadin["status"], saphadin["engaged"], saphadin["location"]) == ("committed", ["sable"], "field")
    g = play(g, "ayyubids", act("aslam", "hold"))
    g = play(g, "crusaders", act("henry-ii", "loose", "saphadin"))  # Henry II is never Committed
    assert banner_view(g, "saphadin")["status"] == "committed"
    assert banner_view(g, "saphadin")["engaged"] == ["sable"]


def test_single_location_banner_follows_the_committed_banners_that_target_it():
    """Arsuf — Statuses: Ala al Din's status is that of the Crusader banner that targets it:
    engaged by Bourgogne's Charge, then by Richard's; Bourgogne regrouping leaves it Committed
    with Richard."""
    g = start(new_game("arsuf"), "crusaders")
    g = play(g, "crusaders", act("bourgogne", "charge", "ala-al-din"))
    assert banner_view(g, "ala-al-din")["engaged"] == ["bourgogne"]
    g = play(g, "ayyubids", act("aslam", "hold"))
    g = play(g, "crusaders", act("richard", "charge", "ala-al-din"))
    g = play(g, "ayyubids", {"type": "decline-reaction"})
    assert banner_view(g, "ala-al-din")["engaged"] == ["bourgogne", "richard"]
    g = finish_turn(g)
    g = start(g, "crusaders")
    g = play(g, "crusaders", act("bourgogne", "regroup"))
    assert banner_view(g, "bourgogne")["status"] == "uncommitted"
    assert banner_view(g, "ala-al-din")["status"] == "committed"
    g = play(g, "ayyubids", act("aslam", "hold"))
    g = play(g, "crusaders", act("richard", "regroup"))
    assert banner_view(g, "ala-al-din")["status"] == "uncommitted"
    assert banner_view(g, "ala-al-din")["engaged"] == []


def test_action_status_and_target_modes_are_checked():
    """Key Game Terms — Status and Action / Reaction: an action of the other status, an enemy
    the card does not list, a mode the card does not allow, or a missing target is refused."""
    g = start(new_game("arsuf"), "crusaders")
    assert refused(g, "crusaders", act("sable", "melee", "saphadin")).code == "saladin.action_needs_status"
    assert refused(g, "crusaders", act("henry-ii", "loose", "soulayman")).code == "saladin.invalid_target"
    assert refused(g, "crusaders", act("henry-ii", "loose", "richard")).code == "saladin.invalid_target"
    assert refused(g, "crusaders", act("henry-ii", "loose")).code == "saladin.target_required"
    assert refused(g, "crusaders", act("henry-ii", "hold", "saphadin")).code == "saladin.target_not_allowed"
    assert refused(g, "crusaders", act("saladin", "hold")).code == "saladin.not_your_banner"
    assert refused(g, "crusaders", act("templars", "hold")).code == "saladin.unknown_banner"
    assert refused(g, "crusaders", act("henry-ii", "fly")).code == "saladin.unknown_action"
    g = play(g, "crusaders", act("lusignan", "hold"))
    # Saladin targets Richard only in Reaction
    assert refused(g, "ayyubids", act("saladin", "loose", "richard")).code == "saladin.invalid_target"
    assert refused(g, "ayyubids", {"type": "choose-first", "seat": "ayyubids"}).code == "saladin.not_initiative_holder"


# -- Reactions -------------------------------------------------------------------------------------
def test_reaction_needs_its_condition_the_reaction_mode_and_a_deployed_banner():
    """Key Game Terms — Action / Reaction: no reaction against an action it does not name,
    from a banner that cannot target the actor in Reaction, or from an Ordered banner."""
    g = start(new_game("arsuf"), "crusaders")
    # Bourgogne charges Ala al Din: Ala al Din's Counter-charge answers only Richard
    g = play(g, "crusaders", act("bourgogne", "charge", "ala-al-din"))
    assert view(g)["phase"] == "activation" and view(g)["to_act"] == "ayyubids"
    # Soulaymân, Ordered, cannot evade Naplouse's Charge
    g = play(g, "ayyubids", act("soulayman", "loose", "naplouse"))
    g = play(g, "crusaders", act("naplouse", "charge", "soulayman"))
    assert view(g)["phase"] == "activation"
    assert banner_view(g, "naplouse")["status"] == "committed"
    g = play(g, "ayyubids", act("aslam", "hold"))
    # Naplouse's Melee is no Charge: no Evade
    g = play(g, "crusaders", act("naplouse", "melee", "soulayman"))
    assert view(g)["phase"] == "activation"


def test_declined_reaction_lets_the_action_resolve():
    """Key Game Terms — Action / Reaction: if the targeted banner does not react, the action's
    effects apply."""
    g = start(new_game("arsuf"), "crusaders")
    g = play(g, "crusaders", act("naplouse", "charge", "soulayman"))
    assert refused(g, "ayyubids", {"type": "react", "banner": "saphadin", "reaction": "evade"}).code == \
        "saladin.reaction_not_allowed"
    assert refused(g, "ayyubids", act("aslam", "hold")).code == "saladin.wrong_phase"
    g = play(g, "ayyubids", {"type": "decline-reaction"}, [D, B, B])
    assert banner_view(g, "soulayman")["lances"] == {"field": full("arsuf", "soulayman") - 2}
    assert banner_view(g, "naplouse")["status"] == "committed"
    assert banner_view(g, "soulayman")["status"] == "committed"


# -- Leader ----------------------------------------------------------------------------------------
def test_leader_activation_recovers_a_spent_order_and_turns_ordered():
    """Activation — Activating a Leader: choose the action, apply it, turn the card Ordered."""
    g = start(new_game("arsuf"), "crusaders")
    g = play(g, "crusaders", act("henry-ii", "loose", "ala-afdal"))
    g = play(g, "ayyubids", act("aslam", "hold"))
    g = play(g, "crusaders", {"type": "leader", "action": "recover-order"})
    assert orders(g, "crusaders")["available"] == 11 and orders(g, "crusaders")["spent"] == 0
    assert view(g)["sides"]["crusaders"]["leader"]["card_side"] == "ordered"
    g = play(g, "ayyubids", act("saladin", "hold"))
    assert refused(g, "crusaders", {"type": "leader", "action": "recover-order"}).code == "saladin.leader_ordered"
    assert refused(g, "crusaders", {"type": "leader", "action": "horns"}).code == "saladin.unknown_leader_action"


# -- Redeployment and Chaos --------------------------------------------------------------------------
def test_redeployment_returns_cards_and_spent_orders_then_chaos_from_turn_two():
    """Sequence of Play — Redeployment and Chaos: every card back to Deployed, spent Orders
    available again; from turn 2, 1 Order to the box plus 1 per banner given away. By play from
    the opening, every die forced: Taqui al Din looses at Raymond III until it is given to the
    Ayyubids (its 6th lance on the Losses Track boxes a Crusader Order in turn 1)."""
    g = start(new_game("hattin"), "ayyubids")
    g = play(g, "ayyubids", act("husam-lulu", "loose", "ridefort"))
    g = drive(g, "ayyubids", looses("taqui-al-din", "raymond-iii", [D, D, D, D, S]))
    assert banner_view(g, "raymond-iii")["fate"] == "captured"
    assert orders(g, "crusaders")["box"] == 1 and orders(g, "ayyubids")["spent"] == 6
    g = finish_turn(g)
    v = view(g)
    assert v["turn"] == 2 and v["phase"] in ("choose-first", "seize")
    assert all(b["card_side"] == "deployed" for b in v["banners"])
    assert all(v["sides"][s]["leader"]["card_side"] == "deployed" for s in ("crusaders", "ayyubids"))
    assert orders(g, "ayyubids") == {"available": 11, "spent": 0, "box": 1, "in_arsuf": 0, "unused": 1}
    assert orders(g, "crusaders") == {"available": 9, "spent": 0, "box": 1 + 2, "in_arsuf": 0, "unused": 1}
    assert v["initiative"] == "crusaders"


def loose_on_a_fifth_loss(g, attacker: str, defender: str, available) -> dict | None:
    """A Loose ``attacker`` may take now at a banner of ``defender`` with 2 lances or more, while
    ``defender`` has 5 lances on its Losses Track and ``available(its Available Orders)`` holds."""
    s = g.state
    if not (g.to_act() == [attacker] and s.phase == "activation" and s.pending is None
            and s.sides[defender].losses == 5 and available(s.sides[defender].available)):
        return None
    return next((c for c in legal(g, attacker) if c.get("action") == "loose" and s.banners[c["target"]].lances >= 2),
                None)


def test_orders_are_boxed_from_the_available_pool_first():
    """Key Game Terms — Order: an Order placed in the box comes from the Available pool, then
    from the Spent pool when the Available pool is empty. Both reached by play from the opening
    (helpers.played_until, seed 1): an Ayyubid Loose striking the Crusaders' 6th lance, in turn 1
    with Orders Available, in turn 2 with none."""
    for available, pool in ((lambda n: n >= 1, "available"), (lambda n: n == 0, "spent")):
        g = played_until("arsuf", lambda g, a=available: loose_on_a_fifth_loss(g, "ayyubids", "crusaders", a) is not None,
                         seed=1)
        was = orders(g, "crusaders")
        g = play(g, "ayyubids", loose_on_a_fifth_loss(g, "ayyubids", "crusaders", available), [S])
        assert orders(g, "crusaders") == {**was, pool: was[pool] - 1, "box": was["box"] + 1}


def test_sixth_lance_boxes_one_order_and_the_six_lances():
    """Key Game Terms — Lance: the 6th lance lost places 1 Order and the 6 lances in the box;
    later losses start a new Losses Track. By play from the opening (helpers.played_until, seed 1,
    turn 5): a Crusader Loose with a double at an Ayyubid banner, the Ayyubids at 5 losses."""
    def any_pool(n):
        return True

    g = played_until("arsuf", lambda g: loose_on_a_fifth_loss(g, "crusaders", "ayyubids", any_pool) is not None, seed=1)
    loose = loose_on_a_fifth_loss(g, "crusaders", "ayyubids", any_pool)
    was, boxed = orders(g, "ayyubids"), view(g)["sides"]["ayyubids"]["lances_boxed"]
    lances = g.state.banners[loose["target"]].lances
    g = play(g, "crusaders", loose, [D])
    v = view(g)
    assert v["sides"]["ayyubids"]["losses_track"] == 1 and v["sides"]["ayyubids"]["lances_boxed"] == boxed + 6
    pool = "available" if was["available"] else "spent"
    assert orders(g, "ayyubids") == {**was, pool: was[pool] - 1, "box": was["box"] + 1}
    assert g.state.banners[loose["target"]].lances == lances - 2


def test_eliminated_banner_is_given_to_the_opponent_and_never_returns():
    """Key Game Terms — Lance: a banner with no lance left is given to the opponent; it never
    comes back (it cannot be reinforced). By play from the opening (helpers.played_until):
    the first Crusader Loose at an Ayyubid banner down to its last lance (seed 2, turn 2), a stroke."""
    def at_the_last_lance(g):
        s = g.state
        if not (g.to_act() == ["crusaders"] and s.phase == "activation" and s.pending is None):
            return None
        return next((c for c in legal(g, "crusaders") if c.get("action") == "loose"
                     and s.banners[c["target"]].lances == 1), None)

    g = played_until("arsuf", lambda g: at_the_last_lance(g) is not None, seed=2)
    loose = at_the_last_lance(g)
    target, captured = loose["target"], view(g)["sides"]["crusaders"]["captured_banners"]
    g = play(g, "crusaders", loose, [S])
    assert banner_view(g, target)["fate"] == "captured"
    assert view(g)["sides"]["crusaders"]["captured_banners"] == [*captured, target]
    assert g.to_act() == ["ayyubids"]
    assert refused(g, "ayyubids", act("aslam", "reinforce", target)).code == "saladin.invalid_target"
    assert refused(g, "ayyubids", act(target, "hold")).code == "saladin.banner_not_in_play"


def test_reinforce_is_not_a_replacement_from_the_losses_track():
    """Key Game Terms — Lance: "In the event that a player has to replace 1 eliminated Lance,
    they must take it from the Losses Track" — but Aslam's Reinforce "places 1 of its Lances"
    (Arsuf — Aslam (Reinforce)): with the Losses Track empty it still reinforces, and the track
    keeps what it holds. By play from the opening (helpers.played_until, seed 1): the first Reinforce
    of Aslam listed with the Ayyubids' Losses Track empty (turn 3)."""
    g = played_until("arsuf", lambda g: may_take(g, "ayyubids", "aslam", "reinforce") is not None
                     and g.state.sides["ayyubids"].losses == 0, seed=1)
    reinforce = may_take(g, "ayyubids", "aslam", "reinforce")
    target = reinforce["target"]
    lances = sum(banner_view(g, target)["lances"].values())
    g = play(g, "ayyubids", reinforce)
    assert sum(banner_view(g, target)["lances"].values()) == lances + 1
    assert view(g)["sides"]["ayyubids"]["losses_track"] == 0


# -- Victory -------------------------------------------------------------------------------------------
# Each end reached by play from the opening (helpers.played_until: random-legal choices, seeded dice;
# the seeds found by playing seeds 1-79 of each scenario to their end).
def lances_on_the_board(g) -> dict[str, int]:
    """Each side's lances on the board, set-aside banners included (and the Ayyubids' at Arsuf)."""
    lances = {s: sum(b.lances for b in g.state.banners.values() if b.side == s) for s in ("crusaders", "ayyubids")}
    lances["ayyubids"] += g.state.arsuf_lances
    return lances


def test_last_order_in_the_box_loses_at_once():
    """Victory Conditions: the player who places their last Order in the box loses at once."""
    g = played_until("arsuf", lambda g: g.ended, seed=2)
    assert g.outcome.winner == "crusaders"
    assert "ayyubids placed their last Order" in g.outcome.reason
    assert g.state.sides["ayyubids"].orders == 0 < g.state.sides["crusaders"].orders
    assert view(g)["phase"] == "over" and g.to_act() == []
    assert refused_after_end(g)


def refused_after_end(g) -> bool:
    from domain.rules.base import RuleViolation

    try:
        play(g, "ayyubids", act("aslam", "hold"))
    except RuleViolation as violation:
        return violation.code == "game_over"
    return False


def test_simultaneous_loss_most_orders_just_before_wins():
    """Victory Conditions: both lose their last Order together: most Orders (available +
    spent) just before wins. (Hattin, seed 76: the Ayyubids had 2, the Crusaders 1.)"""
    g = played_until("hattin", lambda g: g.ended, seed=76)
    assert g.state.sides["ayyubids"].orders == g.state.sides["crusaders"].orders == 0
    assert g.outcome.winner == "ayyubids"
    assert "most Orders just before" in g.outcome.reason
    assert g.outcome.scores == {"crusaders": 1.0, "ayyubids": 2.0}


@pytest.mark.parametrize("scenario,seed", [("arsuf", 20), ("arsuf", 32), ("hattin", 21), ("hattin", 14)])
def test_simultaneous_loss_equal_orders_most_lances_on_the_board_then_draw(scenario, seed):
    """Victory Conditions: equal Orders just before: most lances on the board (set-aside
    banners included) wins; equal lances: a draw (Hattin, seed 14)."""
    g = played_until(scenario, lambda g: g.ended, seed=seed)
    assert g.outcome.scores == {"crusaders": 1.0, "ayyubids": 1.0}  # as many Orders just before
    lances = lances_on_the_board(g)
    if g.outcome.draw:
        assert g.outcome.winner is None and lances["crusaders"] == lances["ayyubids"]
        assert "as many Orders and lances" in g.outcome.reason
    else:
        loser = next(s for s in lances if s != g.outcome.winner)
        assert lances[g.outcome.winner] > lances[loser] and "most lances" in g.outcome.reason
    assert (scenario, seed) != ("hattin", 14) or g.outcome.draw


@pytest.mark.parametrize("scenario", ["arsuf", "hattin"])
def test_text_board_and_narrative(scenario):
    """herald replay show: a board a person reads at a glance; one-line narratives."""
    from tests.rules.saladin.helpers import SALADIN

    g = start(new_game(scenario))
    text = SALADIN.render_text(g.state)
    assert "Crusaders: Orders available" in text and "Ayyubids: Orders available" in text
    assert SALADIN.describe_command(act("henry-ii", "loose", "ala-afdal")) == "Henry II looses at Ala Afdal"
    assert SALADIN.describe_command({"type": "pass"}) == "passes"
