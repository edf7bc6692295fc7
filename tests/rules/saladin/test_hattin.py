"""The Battle of Hattin — 1187: Special rules and Scenario-specific Actions."""

from __future__ import annotations

from tests.rules.saladin.helpers import (
    SALADIN,
    full,
    FakeRng,
    act,
    banner_view,
    below_five_with_the_leader_ordered,
    decide_events,
    drive,
    finish_turn,
    legal,
    looses,
    new_game,
    orders,
    play,
    played_until,
    refused,
    start,
    view,
)

D, S, B, X = "double", "stroke", "blank", "slash"
HORNS = {"type": "leader", "action": "horns"}
ORDER_LOSS = {"type": "leader", "action": "order-loss"}


def crusaders_first():
    return start(new_game("hattin"), "crusaders")


def test_statuses_two_location_banner_moves_and_single_location_enemy_follows():
    """Hattin — Statuses: D'Ibelin changes location when Committed; Keukburi keeps its one
    location and takes D'Ibelin's status."""
    g = crusaders_first()
    g = play(g, "crusaders", act("d-ibelin", "charge", "keukburi"))
    assert legal(g, "ayyubids") == [{"type": "react", "banner": "keukburi", "reaction": "evade"},
                                    {"type": "decline-reaction"}]
    g = play(g, "ayyubids", {"type": "decline-reaction"})
    assert banner_view(g, "d-ibelin")["lances"] == {"uncommitted": 0, "committed": full("hattin", "d-ibelin")}
    keukburi = banner_view(g, "keukburi")
    assert (keukburi["status"], keukburi["location"], keukburi["engaged"]) == ("committed", "field", ["d-ibelin"])


def test_statuses_ridefort_and_husam_lulu_are_never_committed():
    """Hattin — Statuses: Ridefort and Husam Lulu can never be Committed."""
    g = crusaders_first()
    for banner in ("ridefort", "husam-lulu"):
        assert banner_view(g, banner)["lances"] == {"field": len(banner_view(g, banner)["track"])}
        assert all(a["status"] != "committed" for a in banner_view(g, banner)["actions"])


def test_lusignan_moves_to_the_horns_recovers_an_order_and_swaps_four_cards():
    """Hattin — Lusignan (Leader) and Cards: once per game, Lusignan's lances go to the Horns,
    1 boxed Order comes back to the Available pool, and the cards of Lusignan, Châtillon,
    Saladin and Manguras are replaced on the same side (Deployed or Ordered). Reached by play from
    the opening (helpers.played_until, seed 1): the first time the Horns may be played with an Order
    in the box."""
    def horns_with_a_boxed_order(g):
        return (g.to_act() == ["crusaders"] and g.state.phase == "activation" and g.state.pending is None
                and g.state.sides["crusaders"].boxed >= 1 and HORNS in legal(g, "crusaders")
                and all(g.state.banners[b].in_play for b in ("saladin", "chatillon", "manguras")))

    before = played_until("hattin", horns_with_a_boxed_order, seed=1)
    assert banner_view(before, "lusignan")["lances"] == {"camp": full("hattin", "lusignan"), "horns": 0}
    g = play(before, "crusaders", HORNS)
    lusignan = banner_view(g, "lusignan")
    assert lusignan["lances"] == {"camp": 0, "horns": full("hattin", "lusignan")} and lusignan["card"] == "lusignan-horns"
    assert lusignan["status"] == banner_view(before, "saladin")["status"]  # the status of Saladin, its only enemy
    for banner in ("lusignan", "chatillon", "saladin", "manguras"):
        assert banner_view(g, banner)["card"] == f"{banner}-horns"
        assert banner_view(g, banner)["card_side"] == banner_view(before, banner)["card_side"]
    assert banner_view(g, "d-ibelin")["card"] == "d-ibelin"
    was = orders(before, "crusaders")
    assert orders(g, "crusaders") == {**was, "available": was["available"] + 1, "box": was["box"] - 1}
    v = view(g)
    assert v["horns"] and v["sides"]["crusaders"]["leader"]["card_side"] == "ordered"
    assert v["sides"]["crusaders"]["leader"]["used"] == ["horns"]
    # Manguras can no longer reach Lusignan
    assert refused(g, "ayyubids", act("manguras", "loose", "lusignan")).code == "saladin.invalid_target"
    g = finish_turn(g)
    g = start(g, "crusaders")
    assert refused(g, "crusaders", HORNS).code == "saladin.once_per_game_used"


def test_lusignan_at_the_horns_has_the_status_of_saladin():
    """Hattin — Statuses: at the Horns, Lusignan has the same status as Saladin."""
    g = crusaders_first()
    g = play(g, "crusaders", HORNS)
    g = play(g, "ayyubids", act("saladin", "charge", "lusignan"))
    assert banner_view(g, "saladin")["status"] == "committed"
    assert banner_view(g, "lusignan")["status"] == "committed"
    assert banner_view(g, "lusignan")["lances"] == {"camp": 0, "horns": full("hattin", "lusignan")}
    g = finish_turn(g)
    g = start(g, "ayyubids")
    g = play(g, "ayyubids", act("saladin", "regroup"))
    assert banner_view(g, "lusignan")["status"] == "uncommitted"


def test_horns_action_is_mandatory_when_available_and_spent_fall_below_five():
    """Hattin — Lusignan (Leader): below 5 Orders (available + spent) with the Leader card
    Deployed, the Horns must be the next Crusader action. Reached by play from the opening
    (helpers.played_until: random-legal choices, seeded dice): the first Crusader action with the
    Leader Deployed and 5 Orders in play, then the first with fewer (both in turn 5 of seed 20)."""
    def crusader_action(g, orders):
        side = g.state.sides["crusaders"]
        return (g.to_act() == ["crusaders"] and g.state.phase == "activation" and g.state.pending is None
                and not g.state.horns and not side.leader_ordered and "horns" not in side.used_once
                and g.state.banners["lusignan"].in_play and orders(side.available + side.spent))

    g = played_until("hattin", lambda g: crusader_action(g, lambda n: n == 5), seed=20)
    assert HORNS in legal(g, "crusaders") and len(legal(g, "crusaders")) > 1
    g = played_until("hattin", lambda g: crusader_action(g, lambda n: n < 5), seed=20)
    assert legal(g, "crusaders") == [HORNS]
    hold = next(b for b, banner in g.state.banners.items() if banner.side == "crusaders" and banner.in_play
                and b != "lusignan")
    assert refused(g, "crusaders", act(hold, "hold")).code == "saladin.horns_action_required"
    assert refused(g, "crusaders", {"type": "pass"}).code == "saladin.cannot_pass_with_deployed_cards"


def test_horns_action_with_the_leader_ordered_is_the_first_action_of_the_next_turn():
    """Hattin — Lusignan (Leader): if the Leader card is Ordered, the Horns is the first
    Crusader action of the next turn. By play from the opening, every die forced
    (helpers.below_five_with_the_leader_ordered): the Crusaders fall to 4 Orders in turn 2 after
    Guy de Lusignan's card has turned Ordered."""
    g = below_five_with_the_leader_ordered()
    assert HORNS not in legal(g, "crusaders") and legal(g, "crusaders")
    hold = next(c for c in legal(g, "crusaders") if c.get("action") == "hold")
    g = play(g, "crusaders", hold)
    g = finish_turn(g)
    assert view(g)["turn"] == 3
    g = start(g, "crusaders")
    assert legal(g, "crusaders") == [HORNS]


LEADER_ACTION = {"true_cross": "leader-action"}


def ayyubid_action(g) -> bool:
    s = g.state
    return g.to_act() == ["ayyubids"] and s.phase == "activation" and s.pending is None


def test_saladin_leader_order_loss_once_per_game_after_the_horns_and_chatillon():
    """Hattin — Saladin (Leader): once per game, when Lusignan has moved to the Horns or is
    eliminated and Châtillon is eliminated, the Crusaders place 1 Order in the box (game option
    ``true_cross: leader-action``). By play from the opening (helpers.played_until, seed 65): the
    Horns in turn 1 with Châtillon still there, then the first time the action is listed (turn 6,
    Châtillon eliminated, the Leader card Deployed)."""
    def eliminated(state, banner):
        return state.banners[banner].fate in ("captured", "boxed")

    g = start(new_game("hattin", options=LEADER_ACTION), "ayyubids")
    assert refused(g, "ayyubids", ORDER_LOSS).code == "saladin.leader_action_unavailable"
    g = played_until("hattin", lambda g: ayyubid_action(g) and g.state.horns and not eliminated(g.state, "chatillon"),
                     seed=65, options=LEADER_ACTION)
    assert refused(g, "ayyubids", ORDER_LOSS).code == "saladin.leader_action_unavailable"
    g = played_until("hattin", lambda g: ayyubid_action(g) and ORDER_LOSS in legal(g, "ayyubids"),
                     seed=65, options=LEADER_ACTION)
    assert g.state.horns and eliminated(g.state, "chatillon")
    was = orders(g, "crusaders")
    g = play(g, "ayyubids", ORDER_LOSS)
    pool = "available" if was["available"] else "spent"
    assert orders(g, "crusaders") == {**was, pool: was[pool] - 1, "box": was["box"] + 1}
    assert "order-loss" in g.state.sides["ayyubids"].used_once  # once per game: the next turn refuses it
    # (this game's next Chaos takes the Crusaders' last Orders: the refusal is the test below)


def test_saladin_leader_order_loss_is_refused_once_used():
    """Hattin — Saladin (Leader): "once per game": the next turn refuses it. By play from the
    opening, every die forced: the Crusaders take the Horns, Manguras looses at Châtillon until it
    is given to the Ayyubids, Saladin's Leader places the Order in the box, and the Chaos of turn 2
    leaves the Crusaders Orders to go on."""
    g = start(new_game("hattin", options=LEADER_ACTION), "crusaders")
    g = play(g, "crusaders", HORNS)
    g = drive(g, "ayyubids", looses("manguras", "chatillon", [D, D, D, D, S]))
    assert banner_view(g, "chatillon")["fate"] == "captured"
    g = drive(g, "ayyubids", [(ORDER_LOSS, [])])
    g = finish_turn(g)
    assert g.outcome is None and view(g)["turn"] == 2
    g = start(g, "ayyubids")
    assert refused(g, "ayyubids", ORDER_LOSS).code == "saladin.once_per_game_used"


def test_saladin_leader_order_loss_when_lusignan_is_eliminated():
    """Hattin — Saladin (Leader): Lusignan eliminated counts like Lusignan at the Horns (game
    option ``true_cross: leader-action``). By play from the opening, every die forced: Manguras
    looses at Châtillon, then at Lusignan in his camp, until both are given to the Ayyubids; the
    Horns never taken."""
    g = start(new_game("hattin", options=LEADER_ACTION), "ayyubids")
    g = drive(g, "ayyubids", looses("manguras", "chatillon", [D, D, D, D, S]))
    assert ORDER_LOSS not in legal(g, "ayyubids")  # Châtillon alone is not enough
    g = drive(g, "ayyubids", looses("manguras", "lusignan", [D, D, D, D, S]))
    assert [banner_view(g, b)["fate"] for b in ("chatillon", "lusignan")] == ["captured", "captured"]
    assert not view(g)["horns"] and g.to_act() == ["ayyubids"]
    assert ORDER_LOSS in legal(g, "ayyubids")


def test_reinforce_saladin_and_ridefort():
    """Hattin — Saladin / Ridefort (Reinforce): the banner "places 1 of its Lances on the
    location of the last lost Lance of the Banner of Saphadin or Manguras for Saladin, and
    Lusignan for Ridefort". By play from the opening (helpers.played_until): the first Reinforce
    of Saladin listed (seed 1), of Ridefort onto Lusignan (seed 65)."""
    def listed(g, seat, banner):
        s = g.state
        if not (g.to_act() == [seat] and s.phase == "activation" and s.pending is None):
            return None
        return next((c for c in legal(g, seat) if c.get("banner") == banner and c.get("action") == "reinforce"), None)

    g = played_until("hattin", lambda g: listed(g, "ayyubids", "saladin") is not None, seed=1)
    reinforce = listed(g, "ayyubids", "saladin")
    target = reinforce["target"]
    assert target in ("saphadin", "manguras")
    assert refused(g, "ayyubids", act("saladin", "reinforce", "keukburi")).code == "saladin.invalid_target"
    before = {b: sum(banner_view(g, b)["lances"].values()) for b in (target, "saladin")}
    track = view(g)["sides"]["ayyubids"]["losses_track"]
    g = play(g, "ayyubids", reinforce)
    assert sum(banner_view(g, target)["lances"].values()) == before[target] + 1
    assert sum(banner_view(g, "saladin")["lances"].values()) == before["saladin"] - 1
    assert view(g)["sides"]["ayyubids"]["losses_track"] == track
    g = played_until("hattin", lambda g: listed(g, "crusaders", "ridefort") is not None, seed=65)
    reinforce = listed(g, "crusaders", "ridefort")
    assert reinforce["target"] == "lusignan"
    before = {b: sum(banner_view(g, b)["lances"].values()) for b in ("lusignan", "ridefort")}
    g = play(g, "crusaders", reinforce)
    assert sum(banner_view(g, "lusignan")["lances"].values()) == before["lusignan"] + 1
    assert sum(banner_view(g, "ridefort")["lances"].values()) == before["ridefort"] - 1


def test_set_fire_feed_fire_and_the_fire_marker_removal():
    """Hattin — Husam Lulu (Set Fire, Feed Fire): the marker goes on the board and the
    Crusaders spend 1 Order; Feed Fire needs the marker and spends 1 more; at the end of a turn
    without Feed Fire the marker is removed."""
    g = start(new_game("hattin"), "ayyubids")
    assert refused(g, "ayyubids", act("husam-lulu", "feed-fire")).code == "saladin.no_fire_marker"
    g = play(g, "ayyubids", act("husam-lulu", "set-fire"))
    assert view(g)["markers"] == {"fire": "husam-lulu"}
    assert orders(g, "crusaders")["spent"] == 1 and orders(g, "ayyubids")["spent"] == 1
    g = play(g, "crusaders", act("ridefort", "hold"))
    g = play(g, "ayyubids", act("husam-lulu", "feed-fire"))  # on the back of the card
    assert orders(g, "crusaders")["spent"] == 2
    g = finish_turn(g)
    assert view(g)["markers"] == {"fire": "husam-lulu"}  # fed this turn: it stays
    g = start(g, "ayyubids")
    assert refused(g, "ayyubids", act("husam-lulu", "set-fire")).code == "saladin.fire_already_set"
    g = finish_turn(g)
    assert view(g)["markers"] == {}  # not fed this turn: removed


def test_taqui_al_din_against_raymond_iii_charges_sends_two_lances_to_the_box():
    """Hattin — Taqui al Din: against a Charge or an Uncontrolled Charge of Raymond III, Taqui
    al Din suffers 1 die and Raymond III places 2 lances in the box, not on the Losses Track."""
    for charge in ("charge", "uncontrolled-charge"):
        g = start(new_game("hattin", options={"taqui_al_din": "reaction"}), "crusaders")
        g = play(g, "crusaders", act("raymond-iii", charge, "taqui-al-din"))
        assert legal(g, "ayyubids") == [{"type": "react", "banner": "taqui-al-din", "reaction": "open-ranks"},
                                        {"type": "decline-reaction"}]
        events, g = decide_events(g, "ayyubids", {"type": "react", "banner": "taqui-al-din",
                                                  "reaction": "open-ranks"}, [S])
        dice = [e for e in events if type(e).__name__ == "DiceRolled"]
        assert [(d.seat, d.faces) for d in dice] == [("crusaders", ["stroke"])]
        raymond = banner_view(g, "raymond-iii")
        assert raymond["lances"] == {"uncommitted": full("hattin", "raymond-iii") - 2, "committed": 0}
        assert raymond["status"] == "uncommitted"
        assert raymond["card_side"] == "ordered"
        crus = view(g)["sides"]["crusaders"]
        assert (crus["losses_track"], crus["lances_boxed"]) == (0, 2)
        assert banner_view(g, "taqui-al-din")["lances"] == {"field": full("hattin", "taqui-al-din") - 1}
        assert banner_view(g, "taqui-al-din")["card_side"] == "deployed"


def test_lusignan_shield_wall_takes_one_die_from_ayyubid_actions_until_redeployment():
    """Hattin — Lusignan (Shield wall): Ayyubid actions against Lusignan use 1 less die; the
    marker is removed in the Redeployment phase."""
    g = crusaders_first()
    g = play(g, "crusaders", act("lusignan", "shield-wall"))
    assert view(g)["markers"] == {"shield-wall": "lusignan"}
    rng_probe = FakeRng()
    SALADIN.decide(g.state, "ayyubids", SALADIN.parse_command(act("manguras", "loose", "lusignan")), rng_probe)
    assert rng_probe.requests == []  # 1 die less: no die at all
    g = play(g, "ayyubids", act("manguras", "loose", "lusignan"))
    assert banner_view(g, "lusignan")["lances"] == {"camp": full("hattin", "lusignan"), "horns": 0}
    g = finish_turn(g)
    assert view(g)["markers"] == {}


def test_husam_lulu_is_not_given_to_the_crusaders():
    """Hattin — Husam Lulu: its last lance lost, the banner goes back to the box, not to the
    Crusaders, and costs no Order in the Chaos phase. By play from the opening, every die forced:
    Ridefort looses at Husam Lulu until its last lance (the 6th of them on the Losses Track boxes
    an Ayyubid Order: that is the 6th-lance rule, not the Chaos)."""
    g = crusaders_first()
    g = drive(g, "crusaders", looses("ridefort", "husam-lulu", [D, D, D, D, S]))
    assert banner_view(g, "husam-lulu")["lances"] == {"field": 1}
    g = drive(g, "crusaders", looses("ridefort", "husam-lulu", [S]))
    assert banner_view(g, "husam-lulu")["fate"] == "boxed"
    assert view(g)["sides"]["crusaders"]["captured_banners"] == []
    boxed = orders(g, "ayyubids")["box"]
    g = finish_turn(g)
    assert orders(g, "ayyubids")["box"] == boxed + 1  # the Chaos: 1 Order, none for Husam Lulu
