"""The view clients read and the board people read (DESIGN.md: view, render_text)."""

from __future__ import annotations

import msgspec

from tests.rules.saladin.helpers import full, SALADIN, act, new_game, play, played_until, start


def test_view_is_json_ready_and_the_same_for_every_seat():
    """Saladin hides nothing: the spectator and both seats see the same board."""
    g = start(new_game("hattin"), "crusaders")
    g = play(g, "crusaders", act("ridefort", "loose", "keukburi"), ["stroke"])
    v = SALADIN.view(g.state, None)
    assert v == SALADIN.view(g.state, "crusaders") == SALADIN.view(g.state, "ayyubids")
    assert msgspec.json.decode(msgspec.json.encode(v)) == v
    assert set(v) >= {"scenario", "turn", "phase", "to_act", "initiative", "banners", "sides", "markers", "outcome"}
    keukburi = next(b for b in v["banners"] if b["id"] == "keukburi")
    assert keukburi["lances"] == {"field": full("hattin", "keukburi") - 1}
    assert [s["lance"] for s in keukburi["track"]] == [False] + [True] * (full("hattin", "keukburi") - 1)
    assert set(v["sides"]["crusaders"]["orders"]) == {"available", "spent", "box", "in_arsuf", "unused"}
    assert v["sides"]["ayyubids"]["losses_track"] == 1
    assert v["to_act"] == "ayyubids" and v["turn"] == 1 and v["phase"] == "activation"


def test_render_text_shows_pools_banners_and_the_end():
    """herald replay show: the text board."""
    g = start(new_game("arsuf"), "crusaders")
    text = SALADIN.render_text(g.state)
    assert "in Arsuf 1" in text and "Arsuf: 2 Ayyubid lances" in text
    assert "Henry II" in text and "Soulaymân" in text
    g = played_until("arsuf", lambda g: g.ended, seed=2)  # by play: the Ayyubids box their last Order
    assert "ENDED: the Crusaders win (the Ayyubids placed their last Order in the box)" in SALADIN.render_text(g.state)
