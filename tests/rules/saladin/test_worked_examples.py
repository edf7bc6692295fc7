"""Every worked example printed in the rulebook, reached by real play through the Game
aggregate (domain.game) with forced dice, then checked token by token."""

from __future__ import annotations

from tests.rules.saladin.helpers import (
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


def arsuf_turn_one_damage():
    """Turn 1 at Arsuf: Naplouse, Sablé, Henry II and four Ayyubid banners trade blows."""
    g = start(new_game("arsuf"), "crusaders")
    g = play(g, "crusaders", act("naplouse", "charge", "soulayman"))  # Sulaymân may react
    g = play(g, "ayyubids", {"type": "decline-reaction"}, [D, B, D])  # red: Soulaymân -2; green: Naplouse -2
    g = play(g, "ayyubids", act("saladin", "sacrifice"), [D, D])  # Saladin -4: the 6th lance boxes an Order
    g = play(g, "crusaders", act("richard", "loose", "ala-al-din"), [D])
    g = play(g, "ayyubids", act("saphadin", "loose", "sable"), [D])
    g = play(g, "crusaders", act("henry-ii", "loose", "ala-afdal"), [D])
    g = play(g, "ayyubids", act("ala-afdal", "loose", "henry-ii"), [S])
    g = play(g, "crusaders", act("bourgogne", "loose", "saladin"), [S])
    g = play(g, "ayyubids", act("aslam", "hold"))
    # Saphadin is Ordered, so it cannot react: Saphadin -4; Sablé -1 is the 6th Crusader lance
    g = play(g, "crusaders", act("sable", "charge", "saphadin"), [D, D, S])
    return finish_turn(g)


def test_chaos_and_initiative_example_at_arsuf():
    """Sequence of Play — Chaos and Initiative example (Battle of Arsuf): Naplouse and Sablé
    given away cost 3 Orders; 5 against 7 gives the Crusaders the initiative; the Ayyubid
    Leader seizes it and turns to its Ordered side."""
    g = arsuf_turn_one_damage()
    assert g.state.turn == 2
    # turn 2: Chaos took 1 Order each; Sablé and Naplouse fall, more lances are lost
    g = start(g, "crusaders")
    g = play(g, "crusaders", act("richard", "loose", "ala-al-din"), [D])
    g = play(g, "ayyubids", act("soulayman", "melee", "naplouse"), [B, D])  # Naplouse's last 2 lances
    g = play(g, "crusaders", act("henry-ii", "loose", "ala-afdal"), [S])  # 18th Ayyubid lance
    g = play(g, "ayyubids", act("saphadin", "melee", "sable"), [B, D])  # Sablé's last 2 lances
    g = play(g, "crusaders", act("lusignan", "hold"))
    g = play(g, "ayyubids", act("ala-afdal", "loose", "henry-ii"), [D])  # 12th Crusader lance
    before_chaos = g
    g = finish_turn(g)
    assert sum(orders(before_chaos, "crusaders")[k] for k in ("available", "spent")) == 8
    assert sum(orders(before_chaos, "ayyubids")[k] for k in ("available", "spent")) == 8
    v = view(g)
    assert v["turn"] == 3
    assert v["sides"]["ayyubids"]["captured_banners"] == ["naplouse", "sable"]
    assert v["sides"]["crusaders"]["captured_banners"] == []
    # Chaos: the Crusaders return 1 + 2 Orders, the Ayyubids 1
    assert orders(g, "crusaders") == {"available": 5, "spent": 0, "box": 6, "in_arsuf": 1, "unused": 1}
    assert orders(g, "ayyubids") == {"available": 7, "spent": 0, "box": 5, "in_arsuf": 0, "unused": 1}
    # the Crusaders have the initiative, unless the Ayyubid Leader seizes it
    assert v["initiative"] == "crusaders" and v["phase"] == "seize" and v["to_act"] == "ayyubids"
    g = play(g, "ayyubids", {"type": "leader", "action": "seize-initiative"})
    v = view(g)
    assert v["initiative"] == "ayyubids" and v["phase"] == "choose-first" and v["to_act"] == "ayyubids"
    assert v["sides"]["ayyubids"]["leader"]["card_side"] == "ordered"
    assert v["sides"]["crusaders"]["leader"]["card_side"] == "deployed"
    # every other token of the position
    lances = {b["id"]: (b["fate"], sum(b["lances"].values())) for b in v["banners"]}
    assert lances == {
        "aslam": ("in-play", 4), "saladin": ("in-play", 1), "saphadin": ("in-play", 1),
        "ala-afdal": ("in-play", 1), "ala-al-din": ("in-play", 1), "soulayman": ("set-aside", 2),
        "lusignan": ("in-play", 4), "henry-ii": ("in-play", 1), "sable": ("captured", 0),
        "bourgogne": ("in-play", 5), "richard": ("in-play", 6), "naplouse": ("captured", 0),
    }
    assert all(b["card_side"] == "deployed" for b in v["banners"])
    on_board = [b for b in v["banners"] if b["fate"] != "captured"]
    assert all(b["status"] == "uncommitted" and b["engaged"] == [] for b in on_board)
    assert v["sides"]["crusaders"]["leader"]["used"] == v["sides"]["ayyubids"]["leader"]["used"] == []
    assert v["sides"]["crusaders"]["losses_track"] == 0 and v["sides"]["crusaders"]["lances_boxed"] == 12
    assert v["sides"]["ayyubids"]["losses_track"] == 0 and v["sides"]["ayyubids"]["lances_boxed"] == 18
    assert v["arsuf_lances"] == 2 and v["markers"] == {}


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
    assert banner_view(g, "ala-afdal")["lances"] == {"field": 3}
    assert view(g)["sides"]["ayyubids"]["losses_track"] == 1
    assert view(g)["sides"]["crusaders"]["losses_track"] == 0
    henry = banner_view(g, "henry-ii")
    assert henry["card_side"] == "ordered" and henry["lances"] == {"field": 4}
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
    assert naplouse["lances"] == {"uncommitted": 3, "committed": 0}
    assert soulayman["lances"] == {"field": 3}
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
    sable, saphadin = banner_view(g, "sable"), banner_view(g, "saphadin")
    assert sable["status"] == "committed" and sable["lances"] == {"uncommitted": 0, "committed": 3}
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
    assert sable["status"] == "uncommitted" and sable["lances"] == {"uncommitted": 3, "committed": 0}
    assert sable["card_side"] == "ordered"
    assert saphadin["status"] == "uncommitted" and saphadin["engaged"] == []
    assert saphadin["location"] == "field" and saphadin["lances"] == {"field": 5}


def test_game_example_saladin_removed_when_richard_and_bourgogne_are_gone():
    """Activation — Special cases / Game example (Battle of Arsuf): Richard and Bourgogne
    lose all their lances; Saladin's banner has no target left and is removed, not given."""
    g = start(new_game("arsuf"), "crusaders")
    g = play(g, "crusaders", act("bourgogne", "charge", "ala-al-din"), [B, B, D])  # Bourgogne 5 -> 3
    g = play(g, "ayyubids", act("ala-al-din", "melee", "bourgogne"), [B, D])  # 3 -> 1
    g = play(g, "crusaders", act("richard", "charge", "ala-al-din"), [B, B, B, D])  # Richard 6 -> 4
    assert "richard" in banner_view(g, "ala-al-din")["engaged"]
    g = play(g, "ayyubids", act("ala-afdal", "loose", "bourgogne"), [S])  # Bourgogne eliminated
    assert banner_view(g, "bourgogne")["fate"] == "captured"
    assert banner_view(g, "saladin")["fate"] == "in-play"  # Richard is still a target
    g = play(g, "crusaders", act("richard", "melee", "ala-al-din"), [B, B, D])  # Richard 4 -> 2
    g = play(g, "ayyubids", act("ala-al-din", "melee", "richard"), [B, D])  # Richard eliminated
    v = view(g)
    assert banner_view(g, "richard")["fate"] == "captured"
    saladin = banner_view(g, "saladin")
    assert saladin["fate"] == "set-aside" and saladin["lances"] == {"field": 6}
    assert v["sides"]["crusaders"]["captured_banners"] == []
    assert v["sides"]["ayyubids"]["captured_banners"] == ["bourgogne", "richard"]
    # Ala al Din could target only Richard and Bourgogne too: it is set aside as well
    assert banner_view(g, "ala-al-din")["fate"] == "set-aside"
    # no Order lost for a set-aside banner in the next Chaos phase
    g = finish_turn(g)
    assert orders(g, "ayyubids")["box"] == 1  # Chaos only
    assert orders(g, "crusaders")["box"] == 1 + 1 + 2  # the 6th lance, then Chaos 1 + 2 banners given
    g = start(g, "ayyubids")
    activations = [c for c in legal(g, "ayyubids") if c["type"] == "activate"]
    assert activations and not [c for c in activations if c["banner"] in ("saladin", "ala-al-din")]
