"""The Battle of Arsuf — 1191: Special rules and Scenario-specific Actions."""

from __future__ import annotations

from tests.rules.saladin.helpers import (
    full,
    FakeRng,
    SALADIN,
    act,
    banner_view,
    decide_events,
    finish_turn,
    new_game,
    orders,
    legal,
    may_take,
    play,
    played_until,
    refused,
    start,
    view,
)

D, S, B, X = "double", "stroke", "blank", "slash"


def test_assault_on_arsuf_and_the_twelfth_order():
    """Arsuf — Orders and Lusignan (Assault on Arsuf): the two Ayyubid lances in Arsuf are the
    target; when both are eliminated the Crusaders' twelfth Order goes to their Available pool."""
    g = start(new_game("arsuf"), "crusaders")
    assert refused(g, "crusaders", act("lusignan", "assault-arsuf", "saladin")).code == "saladin.invalid_target"
    g = play(g, "crusaders", act("lusignan", "assault-arsuf", "arsuf"), [S, B, B])
    assert view(g)["arsuf_lances"] == 1 and orders(g, "crusaders")["in_arsuf"] == 1
    g = play(g, "ayyubids", act("aslam", "hold"))
    g = finish_turn(g)
    g = start(g, "crusaders")
    available = orders(g, "crusaders")["available"]
    g = play(g, "crusaders", act("lusignan", "assault-arsuf", "arsuf"), [D, B, S])
    v = view(g)
    assert v["arsuf_lances"] == 0
    assert orders(g, "crusaders")["in_arsuf"] == 0
    assert orders(g, "crusaders")["available"] == available - 1 + 1
    assert v["sides"]["ayyubids"]["losses_track"] == 2
    assert banner_view(g, "lusignan")["lances"] == {"field": full("arsuf", "lusignan") - 1}
    assert refused(g, "ayyubids", act("aslam", "reinforce-arsuf")).code == "saladin.nothing_to_reinforce"


def test_aslam_reinforce_arsuf():
    """Arsuf — Aslam (Reinforce Arsuf): "The Banner of Aslam places 1 of its Lances on the
    location of the last lost Lance in Arsuf." By play from the opening (helpers.played_until,
    seed 1): the first time it is listed (turn 2)."""
    g = start(new_game("arsuf"), "ayyubids")
    assert refused(g, "ayyubids", act("aslam", "reinforce-arsuf")).code == "saladin.nothing_to_reinforce"
    g = played_until("arsuf", lambda g: may_take(g, "ayyubids", "aslam", "reinforce-arsuf") is not None, seed=1)
    aslam, arsuf = g.state.banners["aslam"].lances, view(g)["arsuf_lances"]
    track = view(g)["sides"]["ayyubids"]["losses_track"]
    g = play(g, "ayyubids", may_take(g, "ayyubids", "aslam", "reinforce-arsuf"))
    assert view(g)["arsuf_lances"] == arsuf + 1 and view(g)["sides"]["ayyubids"]["losses_track"] == track
    assert g.state.banners["aslam"].lances == aslam - 1


def test_aslam_reinforce_ala_afdal_or_ala_al_din():
    """Arsuf — Aslam (Reinforce): only Ala Afdal or Ala al Din. By play from the opening
    (helpers.played_until, seed 1): the first Reinforce of Aslam listed."""
    g = played_until("arsuf", lambda g: may_take(g, "ayyubids", "aslam", "reinforce") is not None, seed=1)
    targets = {c["target"] for c in legal(g, "ayyubids") if c.get("banner") == "aslam" and c.get("action") == "reinforce"}
    assert targets and targets <= {"ala-afdal", "ala-al-din"}
    assert refused(g, "ayyubids", act("aslam", "reinforce", "saphadin")).code == "saladin.invalid_target"
    target = min(targets)
    lances = sum(banner_view(g, target)["lances"].values())
    g = play(g, "ayyubids", act("aslam", "reinforce", target))
    assert sum(banner_view(g, target)["lances"].values()) == lances + 1


def test_saladin_sacrifice():
    """Arsuf — Saladin (Sacrifice): the Crusaders place 1 Order in the Spent pool, then
    Saladin's banner suffers 2 dice."""
    g = start(new_game("arsuf"), "ayyubids")
    events, g = decide_events(g, "ayyubids", act("saladin", "sacrifice"), [D, S])
    names = [type(e).__name__ for e in events]
    assert names.index("OrdersSpent") < names.index("DiceRolled")
    assert orders(g, "crusaders") == {"available": 10, "spent": 1, "box": 0, "in_arsuf": 1, "unused": 1}
    assert orders(g, "ayyubids")["spent"] == 1
    assert banner_view(g, "saladin")["lances"] == {"field": full("arsuf", "saladin") - 3}
    assert view(g)["sides"]["ayyubids"]["losses_track"] == 3


def test_henry_ii_shield_wall():
    """Arsuf — Henry II (Shield wall): Ayyubid actions against Henry II use 1 less die; the
    marker is removed during Redeployment."""
    g = start(new_game("arsuf"), "crusaders")
    g = play(g, "crusaders", act("henry-ii", "shield-wall"))
    assert view(g)["markers"] == {"shield-wall": "henry-ii"}
    probe = FakeRng()
    SALADIN.decide(g.state, "ayyubids", SALADIN.parse_command(act("saphadin", "loose", "henry-ii")), probe)
    assert probe.requests == []  # 1 die less: no die at all
    events, g = decide_events(g, "ayyubids", act("ala-afdal", "loose", "henry-ii"))
    assert not [e for e in events if type(e).__name__ == "DiceRolled"]
    g = finish_turn(g)
    assert view(g)["markers"] == {}


def test_statuses_never_committed_arsuf_banners():
    """Arsuf — Statuses: Lusignan, Henry II, Aslam and Saladin can never be Committed."""
    g = start(new_game("arsuf"))
    for banner in ("lusignan", "henry-ii", "aslam", "saladin"):
        assert all(a["status"] != "committed" for a in banner_view(g, banner)["actions"])
        assert banner_view(g, banner)["lances"] == {"field": len(banner_view(g, banner)["track"])}
