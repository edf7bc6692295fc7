"""Every worked example printed in the rulebook, reached by real play through the Game
aggregate (domain.game) with forced dice, then checked token by token."""

from __future__ import annotations

from tests.rules.saladin.helpers import (
    full,
    act,
    banner_view,
    decide_events,
    finish_turn,
    legal,
    new_game,
    orders,
    play,
    start,
    view,
)

D, S, B, X = "double", "stroke", "blank", "slash"
DECLINE = {"type": "decline-reaction"}


def arsuf_before_chaos():
    """Turns 1 and 2 at Arsuf, played to just before the Chaos phase of turn 3: Arsuf falls
    (the twelfth Crusader Order), Naplouse and Sablé lose all their lances in turn 2 and are
    given to the Ayyubids; 18 lances fall on each side (3 Orders each to the box)."""
    g = start(new_game("arsuf"), "crusaders")
    for seat, command, faces in [
        ("crusaders", act("naplouse", "charge", "soulayman"), None),
        ("ayyubids", DECLINE, [D, D, D]),  # red: Soulaymân -4; green: Naplouse -2
        ("ayyubids", act("saladin", "sacrifice"), [D, D]),  # Saladin -4
        ("crusaders", act("lusignan", "assault-arsuf", "arsuf"), [D, B, B]),  # Arsuf falls: +1 Order
        ("ayyubids", act("soulayman", "melee", "naplouse"), [B, D]),  # Naplouse -2
        ("crusaders", act("naplouse", "melee", "soulayman"), [B, D]),  # Naplouse -2
        ("ayyubids", act("saphadin", "loose", "sable"), [D]),  # Sablé -2
        ("crusaders", act("sable", "charge", "saphadin"), [D, D, D]),  # Saphadin, Ordered, cannot Evade: -4; Sablé -2
        ("ayyubids", act("soulayman", "melee", "naplouse"), [B, D]),  # Naplouse -2: 1 left
        ("crusaders", act("sable", "melee", "saphadin"), [B, D]),  # Sablé -2
        ("ayyubids", act("saphadin", "melee", "sable"), [B, D]),  # Sablé -2: 1 left
    ]:
        g = play(g, seat, command, faces)
    g = finish_turn(g)
    g = start(g, "ayyubids")
    for seat, command, faces in [
        ("ayyubids", act("soulayman", "melee", "naplouse"), [B, S]),  # Naplouse's last lance
        ("crusaders", act("richard", "loose", "ala-al-din"), [D]),
        ("ayyubids", act("saphadin", "melee", "sable"), [B, S]),  # Sablé's last lance
        ("crusaders", act("henry-ii", "loose", "ala-afdal"), [D]),
    ]:
        g = play(g, seat, command, faces)
    return g


def test_chaos_and_initiative_example_at_arsuf():
    """Sequence of Play — Chaos and Initiative example (Battle of Arsuf): "the Crusaders player
    gave the Banners of Naplouse and Sablé to their Ayyubids opponent in previous turns. So they
    must return 3 Orders to the box. The Crusaders player has 5 Orders left, and the Ayyubids
    player has 7. It is the Crusaders player who has the initiative, unless the Ayyubids player
    decides to activate their Leader. This is what the latter does." """
    g = finish_turn(arsuf_before_chaos())
    v = view(g)
    assert v["turn"] == 3
    assert v["sides"]["ayyubids"]["captured_banners"] == ["naplouse", "sable"]
    assert v["sides"]["crusaders"]["captured_banners"] == []
    # Chaos: the Crusaders return 1 + 2 Orders, the Ayyubids 1
    assert orders(g, "crusaders") == {"available": 5, "spent": 0, "box": 7, "in_arsuf": 0, "unused": 1}
    assert orders(g, "ayyubids") == {"available": 7, "spent": 0, "box": 5, "in_arsuf": 0, "unused": 1}
    # the Crusaders have the initiative, unless the Ayyubid Leader seizes it
    assert v["initiative"] == "crusaders" and v["phase"] == "seize" and v["to_act"] == "ayyubids"
    g = play(g, "ayyubids", {"type": "leader", "action": "seize-initiative"})
    v = view(g)
    assert v["initiative"] == "ayyubids" and v["phase"] == "choose-first" and v["to_act"] == "ayyubids"
    assert v["sides"]["ayyubids"]["leader"]["card_side"] == "ordered"
    assert v["sides"]["crusaders"]["leader"]["card_side"] == "deployed"
    assert banner_view(g, "soulayman")["fate"] == "set-aside"  # Naplouse was its only target
    assert all(b["card_side"] == "deployed" for b in v["banners"])
    assert v["sides"]["crusaders"]["lances_boxed"] == 18 and v["sides"]["ayyubids"]["lances_boxed"] == 18
    assert v["arsuf_lances"] == 0 and v["markers"] == {}


def test_banner_and_leader_activation_example_henry_ii_looses_at_ala_afdal():
    """Activation — Banner and Leader activation example (Battle of Arsuf): Henry II's Loose
    at Ala Afdal spends 1 Order and rolls 1 die that kills 1 lance; the Ayyubid Leader then
    recovers a spent Order and turns to its Ordered side."""
    g = start(new_game("arsuf"), "ayyubids")
    g = play(g, "ayyubids", act("saphadin", "loose", "sable"), [B])  # the Ayyubids have a spent Order
    assert orders(g, "ayyubids")["spent"] == 1
    events, g = decide_events(g, "crusaders", act("henry-ii", "loose", "ala-afdal"), [S])
    dice = [e for e in events if type(e).__name__ == "DiceRolled"]
    assert len(dice) == 1 and dice[0].faces == ["stroke"] and dice[0].seat == "crusaders"
    assert orders(g, "crusaders") == {"available": 10, "spent": 1, "box": 0, "in_arsuf": 1, "unused": 1}
    assert banner_view(g, "ala-afdal")["lances"] == {"field": full("arsuf", "ala-afdal") - 1}
    assert view(g)["sides"]["ayyubids"]["losses_track"] == 1
    assert view(g)["sides"]["crusaders"]["losses_track"] == 0
    henry = banner_view(g, "henry-ii")
    assert henry["card_side"] == "ordered" and henry["lances"] == {"field": full("arsuf", "henry-ii")}
    assert view(g)["to_act"] == "ayyubids"
    g = play(g, "ayyubids", {"type": "leader", "action": "recover-order"})
    assert orders(g, "ayyubids") == {"available": 12, "spent": 0, "box": 0, "in_arsuf": 0, "unused": 1}
    assert view(g)["sides"]["ayyubids"]["leader"]["card_side"] == "ordered"
    assert view(g)["to_act"] == "crusaders"
    others = [b for b in view(g)["banners"] if b["id"] not in ("henry-ii", "saphadin")]
    assert all(b["card_side"] == "deployed" and b["status"] == "uncommitted" for b in others)


def test_reaction_example_naplouse_charge_met_by_sulayman_evade():
    """Key Game Terms — Reaction example (Battle of Arsuf): Naplouse charges Sulaymân for 2
    Orders; Sulaymân evades; both roll 1 die; Naplouse turns Ordered, Sulaymân stays
    Deployed; both stay Uncommitted because the Charge is cancelled."""
    g = start(new_game("arsuf"), "crusaders")
    g = play(g, "crusaders", act("naplouse", "charge", "soulayman"))
    assert orders(g, "crusaders")["available"] == 9 and orders(g, "crusaders")["spent"] == 2
    assert view(g)["phase"] == "reaction" and view(g)["to_act"] == "ayyubids"
    assert legal(g, "ayyubids") == [
        {"type": "react", "banner": "soulayman", "reaction": "evade"},
        {"type": "decline-reaction"},
    ]
    events, g = decide_events(g, "ayyubids", {"type": "react", "banner": "soulayman", "reaction": "evade"}, [S, S])
    dice = [e for e in events if type(e).__name__ == "DiceRolled"]
    assert [(d.seat, len(d.faces)) for d in dice] == [("crusaders", 1), ("ayyubids", 1)]
    naplouse, soulayman = banner_view(g, "naplouse"), banner_view(g, "soulayman")
    assert naplouse["card_side"] == "ordered" and soulayman["card_side"] == "deployed"
    assert naplouse["status"] == "uncommitted" and soulayman["status"] == "uncommitted"
    assert naplouse["lances"] == {"uncommitted": full("arsuf", "naplouse") - 1, "committed": 0}
    assert soulayman["lances"] == {"field": full("arsuf", "soulayman") - 1}
    assert orders(g, "crusaders") == {"available": 9, "spent": 2, "box": 0, "in_arsuf": 1, "unused": 1}
    assert orders(g, "ayyubids") == {"available": 12, "spent": 0, "box": 0, "in_arsuf": 0, "unused": 1}
    assert view(g)["phase"] == "activation" and view(g)["to_act"] == "ayyubids"


def test_game_example_sable_regroups_at_a_surcharge_dragging_saphadin():
    """Activation — Game example (Battle of Arsuf): Sablé, with lances lost, Regroups for
    2 Orders; no dice; its lances move to the Uncommitted location; Saphadin goes from
    Committed to Uncommitted on the same location."""
    g = start(new_game("arsuf"), "crusaders")
    g = play(g, "crusaders", act("sable", "charge", "saphadin"))
    g = play(g, "ayyubids", {"type": "decline-reaction"}, [B, B, D])  # green double: Sablé loses 2
    g = play(g, "ayyubids", act("saphadin", "melee", "sable"), [B, S])  # and 1 more
    n = full("arsuf", "sable")
    sable, saphadin = banner_view(g, "sable"), banner_view(g, "saphadin")
    assert sable["status"] == "committed" and sable["lances"] == {"uncommitted": 0, "committed": n - 3}
    assert saphadin["status"] == "committed" and saphadin["engaged"] == ["sable"]
    assert sable["surcharge"] == 1
    g = finish_turn(g)  # Regroup is not on the back of the card: next turn, Sablé is Deployed
    g = start(g, "crusaders")
    available = orders(g, "crusaders")["available"]
    events, g = decide_events(g, "crusaders", act("sable", "regroup"))
    assert not [e for e in events if type(e).__name__ == "DiceRolled"]
    assert orders(g, "crusaders")["available"] == available - 2
    assert orders(g, "crusaders")["spent"] == 2
    sable, saphadin = banner_view(g, "sable"), banner_view(g, "saphadin")
    assert sable["status"] == "uncommitted" and sable["lances"] == {"uncommitted": n - 3, "committed": 0}
    assert sable["card_side"] == "ordered"
    assert saphadin["status"] == "uncommitted" and saphadin["engaged"] == []
    assert saphadin["location"] == "field" and saphadin["lances"] == {"field": full("arsuf", "saphadin")}


def test_game_example_saladin_removed_when_richard_and_bourgogne_are_gone():
    """Activation — Special cases / Game example (Battle of Arsuf): "The Banners of Richard and
    Bourgogne have lost all their Lances. The Ayyubids player eliminated them. Saladin's Banner
    no longer has a target and is therefore removed from the game." — not given, and no Order
    lost for it in the Chaos phase."""
    g = start(new_game("arsuf"), "crusaders")
    for seat, command, faces in [
        ("crusaders", act("bourgogne", "charge", "ala-al-din"), [B, B, D]),  # Bourgogne -2
        ("ayyubids", act("ala-al-din", "melee", "bourgogne"), [B, D]),  # -2
        ("crusaders", act("richard", "charge", "ala-al-din"), [B, B, D]),  # Richard -2
        ("ayyubids", act("ala-afdal", "loose", "bourgogne"), [D]),  # -2
        ("crusaders", act("bourgogne", "melee", "ala-al-din"), [B, D]),  # -2: 1 left
    ]:
        g = play(g, seat, command, faces)
    assert banner_view(g, "ala-al-din")["engaged"] == ["bourgogne", "richard"]
    g = play(g, "ayyubids", act("ala-al-din", "melee", "bourgogne"), [B, S])  # Bourgogne eliminated
    assert banner_view(g, "bourgogne")["fate"] == "captured"
    assert banner_view(g, "saladin")["fate"] == "in-play"  # Richard is still a target
    g = finish_turn(g)
    g = start(g, "crusaders")
    for seat, command, faces in [
        ("crusaders", act("richard", "melee", "ala-al-din"), [B, D]),  # Richard -2
        ("ayyubids", act("ala-al-din", "melee", "richard"), [B, D]),  # -2
        ("crusaders", act("richard", "melee", "ala-al-din"), [B, D]),  # -2: 1 left
    ]:
        g = play(g, seat, command, faces)
    g = play(g, "ayyubids", act("ala-al-din", "melee", "richard"), [B, S])  # Richard eliminated
    v = view(g)
    assert banner_view(g, "richard")["fate"] == "captured"
    saladin = banner_view(g, "saladin")
    assert saladin["fate"] == "set-aside" and saladin["lances"] == {"field": full("arsuf", "saladin")}
    assert v["sides"]["crusaders"]["captured_banners"] == []
    assert v["sides"]["ayyubids"]["captured_banners"] == ["bourgogne", "richard"]
    # Ala al Din could target only Richard and Bourgogne too: it is set aside as well
    assert banner_view(g, "ala-al-din")["fate"] == "set-aside"
    # no Order lost for a set-aside banner in the next Chaos phase
    g = finish_turn(g)
    assert orders(g, "ayyubids")["box"] == 1 + 1  # Chaos of turns 2 and 3 only
    assert orders(g, "crusaders")["box"] == 3 + (1 + 1) + (1 + 2)  # 18 lances, then Chaos with 1 and 2 banners given
    g = start(g, "ayyubids")
    activations = [c for c in legal(g, "ayyubids") if c["type"] == "activate"]
    assert activations and not [c for c in activations if c["banner"] in ("saladin", "ala-al-din")]
