"""Saline event cards and favours (B) 1) Play an Event Card, 2) Play a Favour) and every FAQ answer.
Card ids follow the data file (RULES_NOTES.md): E01-E05 Sel menu/Vent solaire, E06-E10
Prise/Sourceux, E11-E15 Orage de mer/Brise de mer, E16-E18 Malandrin/Larcin, E19 Pot-de-vin/Bec
salé, E20-E23 Pays de salines/Pays rédimés, E24-E27 Franc-salé/Marché noir, E28-E29 Devoir pour le
pot/Orage isolé, E30-E34 Effondrement du mulon/Quart bouillon, E35-E38 Brigandage/Retour du pardon,
E39-E41 Faux-saunier/Grande Gabelle, E42-E44 Gabelou/Petite Gabelle, E45-E48 Souverain/Courtisane,
E49 Grenier à sel/Microclimat."""

from __future__ import annotations

import pytest

from domain.rules.base import RuleViolation
from domain.rules.saline.events import CardResolved, GabelleMoved, LiardsPaid, SaltMoved, SaltProduced
from domain.rules.saline.rules import collections
from domain.rules.saline.data import MULON_MAX, POSITIONS, SALT_CUBES
from tests.rules.saline.helpers import (
    SALINE, Scripted, act, buying, end_day, legal, refused, started, types, with_state,
)


def play(game, seat, card, effect, **choices):
    return act(game, seat, {"type": "play", "card": card, "effect": effect, **choices})


def answered(game, answers: dict[str, dict | None]):
    """Every other seat answers the card just played (None: pass)."""
    events = []
    while game.state.pending is not None and game.state.asked:
        seat = game.state.asked[0]
        answer = answers.get(seat)
        more, game = act(game, seat, {"type": "pass"} if answer is None else {"type": "play", **answer})
        events += more
    return events, game


def at_night(game):
    """Every seat does nothing and ends its day turn: the night begins."""
    for _ in range(len(game.state.seats)):
        seat = game.state.current
        _, game = act(game, seat, {"type": "nothing"})
        _, game = act(game, seat, {"type": "end"})
    assert game.state.phase == "night"
    return game


def test_two_to_four_players():
    """FAQ: "Why is there no 2-player variant? It is entirely possible to play with 2 players"."""
    for players in (2, 3, 4):
        assert started(players).state.phase == "day"
    with pytest.raises(RuleViolation):
        SALINE.setup("standard", ("p1",), {})
    with pytest.raises(RuleViolation):
        SALINE.setup("standard", ("p1", "p2", "p3", "p4", "p5"), {})


def test_cards_by_phase():
    """Play an Event Card: "Day cards (sun icon) may be played before or after your chosen action
    during the day phase. Night cards (moon icon) must be played before drawing a new card, at the
    start of the night phase. Cards bearing the triangle symbol may be played at any time."""
    game = started(2, hands={"p1": ["E11", "E01"], "p2": ["E16", "E03"]})
    assert refused(game, "p1", {"type": "play", "card": "E11", "effect": "Orage de mer"}).code == \
        "saline.wrong_phase"
    assert {"type": "play", "card": "E11", "effect": "Brise de mer", "target": None, "colour": None, "space": None,
            "position": None} in legal(game, "p1")
    night = at_night(game)
    assert refused(night, "p1", {"type": "play", "card": "E01", "effect": "Sel menu"}).code == "saline.wrong_phase"
    _, after = play(night, "p1", "E11", "Brise de mer")  # the triangle: at night too
    assert after.state.pending.effect == "Brise de mer"
    _, after = act(night, "p1", {"type": "draw"})
    _, after = act(after, "p1", {"type": "discard", "card": "E01"})
    _, after = play(after, "p2", "E16", "Larcin", target="p1")
    _, after = answered(after, {})
    assert after.state.liards == {"p1": 3, "p2": 5}  # 3 + 1 liard (do nothing) + 1 stolen


def test_resolution_order_gabelle_cost_effect():
    """Nota bene: "Event cards are resolved in this order: A, modification of the gabelle die; B, any
    card cost; C, the card's effect." Devoir pour le pot (gabelle +1; every opponent pays 1) and
    Orage isolé (cost 1 to the targeted opponent; the target's œillets lose their salt)."""
    game = started(3, weather=["sun", "sun"], hands={"p1": ["E28", "E29"], "p2": ["E01", "E02"], "p3": ["E03", "E04"]})
    game = at_night(game)
    _, game = play(game, "p1", "E28", "Devoir pour le pot et la salière")
    events, game = answered(game, {})
    kinds = [type(e).__name__ for e in events if isinstance(e, GabelleMoved | LiardsPaid | CardResolved)]
    assert kinds == ["GabelleMoved", "LiardsPaid", "LiardsPaid", "CardResolved"]
    assert game.state.gabelle == 2 and game.state.liards == {"p1": 4, "p2": 3, "p3": 3}
    _, game = play(game, "p1", "E29", "Orage isolé", target="p2")
    assert refused(game, "p1", {"type": "pass"}).code == "not_your_turn"  # p2 and p3 answer first
    events, game = answered(game, {})
    moved = [e for e in events if isinstance(e, LiardsPaid | SaltMoved)]
    assert isinstance(moved[0], LiardsPaid) and moved[0].payee == "p2" and moved[0].reason == "cost"
    assert isinstance(moved[1], SaltMoved) and moved[1].source == "O02"


def test_one_or_two_cards_a_turn():
    """Play an Event Card: "During the game turn, you may play one, or even two, event cards".
    Hand-built: play cannot give a player a third playable card in one day (a hand holds 2 after the
    night, and cards drawn tonight are not played), so the limit is tried on a hand of three."""
    game = started(2)
    game = with_state(game, hands={"p1": ("E01", "E02", "E20"), "p2": ()})
    for card in ("E01", "E02"):
        _, game = play(game, "p1", card, "Sel menu")
        _, game = answered(game, {})
    assert refused(game, "p1", {"type": "play", "card": "E20", "effect": "Pays rédimés"}).code == "saline.two_cards"
    _, game = play(game, "p1", "favour", "Pays rédimés")  # a favour is not an event card
    _, game = answered(game, {})
    assert game.state.liards["p1"] == 4 and game.state.gabelle == 1


def test_favour_once_per_game():
    """Play a Favour: "The favour card is a joker, to be used at any moment during the game. … It can
    be used only once during the game." (RULES_NOTES.md: it plays as any event card effect.)"""
    game = started(2)
    _, game = play(game, "p1", "favour", "Grenier à sel")
    _, game = answered(game, {})
    assert game.state.mulons["p1"] == 6 and game.state.favours["p1"] is None
    assert refused(game, "p1", {"type": "play", "card": "favour", "effect": "Sel menu"}).code == "saline.favour_used"


# -- FAQ -------------------------------------------------------------------------------------------
def test_faq_microclimat_only_for_its_player():
    """FAQ: "Does the Microclimat card give extra production to all players? No, only to the player
    who plays it."""
    game = started(2, weather=["sun", "sun"], hands={"p1": ["E49", "E01"], "p2": ["E02", "E03"]})
    _, game = play(game, "p1", "E49", "Microclimat")
    events, game = answered(game, {})
    produced = [e for e in events if isinstance(e, SaltProduced)]
    assert produced[0].salt == {"O01": 1} and produced[0].seats == ["p1"]
    assert game.state.salt == {"O01": 2, "O02": 1}


def test_faq_courtisane_copies_with_cost_and_gabelle_again():
    """FAQ: "How is a card copied with Courtisane resolved? The effect of Courtisane applies
    immediately after the card that has just been copied. The costs and gabelle modifications are
    applied again." Pays de salines (gabelle +1, +2 liards) copied by p2."""
    game = started(3, hands={"p1": ["E20", "E01"], "p2": ["E45", "E02"], "p3": ["E03", "E04"]})
    _, game = play(game, "p1", "E20", "Pays de salines")
    events, game = answered(game, {"p2": {"card": "E45", "effect": "Courtisane"}})
    resolved = [(e.seat, e.copy) for e in events if isinstance(e, CardResolved)]
    assert resolved == [("p1", False), ("p2", True)]
    assert game.state.gabelle == 3 and game.state.liards == {"p1": 5, "p2": 5, "p3": 3}
    # a copy of a card with a cost pays it again: Brise de mer (cost 1 to the reserve)
    game = started(3, hands={"p1": ["E11", "E01"], "p2": ["E46", "E02"], "p3": ["E03", "E04"]})
    _, game = play(game, "p1", "E11", "Brise de mer")
    _, game = answered(game, {"p2": {"card": "E46", "effect": "Courtisane"}})
    assert game.state.liards == {"p1": 2, "p2": 2, "p3": 3}


def test_faq_souverain_cancels_effect_cost_and_gabelle():
    """FAQ: "The Souverain cancels the effect of the card, but also its possible cost and, where
    applicable, the modification of the gabelle." Orage isolé (cost 1 to the target) and Grande
    Gabelle (+1)."""
    game = started(3, weather=["sun", "sun"], hands={"p1": ["E29", "E39"], "p2": ["E45", "E01"], "p3": ["E46", "E02"]})
    game = at_night(game)
    _, game = play(game, "p1", "E29", "Orage isolé", target="p3")
    events, game = answered(game, {"p2": {"card": "E45", "effect": "Souverain"}})
    assert [e.cancelled for e in events if isinstance(e, CardResolved)] == [True]
    assert game.state.liards == {"p1": 4, "p2": 4, "p3": 4} and game.state.salt["O03"] == 1
    assert game.state.pending is None and "E29" in game.state.event_discard
    _, game = play(game, "p1", "E39", "Grande Gabelle")
    _, game = answered(game, {"p3": {"card": "E46", "effect": "Souverain"}})
    assert game.state.gabelle == 1


def test_faq_gabelou_and_faux_saunier():
    """FAQ: "When do I play Gabelou, and when must the player pay me the gabelle? Play Gabelou just
    after the Faux-saunier is placed. The gabelle is paid to you after the result of the sale."""
    game = started(2, weather=["sun+1", "sun+1"], hands={"p1": ["E39", "E20"], "p2": ["E42", "E01"]})
    assert game.state.gabelle == 3 and game.state.mulons["p1"] == 3
    _, other = play(game, "p1", "E20", "Pays rédimés")
    assert refused(other, "p2", {"type": "play", "card": "E42", "effect": "Gabelou"}).code == "saline.gabelou"
    _, game = play(game, "p1", "E39", "Faux-saunier")
    events, game = answered(game, {"p2": {"card": "E42", "effect": "Gabelou"}})
    paid = [(e.payer, e.payee, e.liards, e.reason) for e in events if isinstance(e, LiardsPaid)]
    assert paid == [("reserve", "p1", 3, "sale"), ("p1", "p2", 3, "gabelle")]
    assert game.state.liards == {"p1": 3, "p2": 6} and game.state.mulons["p1"] == 0


def test_faq_faux_saunier_without_gabelou_pays_no_gabelle():
    game = started(2, weather=["sun+1", "sun+1"], hands={"p1": ["E39", "E01"], "p2": ["E02", "E03"]})
    _, game = play(game, "p1", "E39", "Faux-saunier")
    _, game = answered(game, {})
    assert game.state.gabelle == 3 and game.state.liards["p1"] == 3 + 3


def test_faq_unable_to_pay_the_gabelle():
    """FAQ: "What happens if I cannot pay the gabelle? In this rare case, sacrifice 1 œillet of your
    choice, but keep your liards."""
    game = started(2)  # able to pay (3 liards, gabelle 1): no sacrifice
    assert refused(game, "p1", {"type": "sell", "sacrifice": "N"}).code == "saline.no_sacrifice"
    # reached by play: the météo dice raise the gabelle to 3, then 5; p1 spends its 3 liards on an œillet
    game = started(2, weather=["sun+1", "sun+1"])
    _, game = act(game, "p1", {"type": "buy", "space": 3, "position": "E"})
    _, game = act(game, "p1", {"type": "end"})
    _, game = act(game, "p2", {"type": "nothing"})
    _, game = act(game, "p2", {"type": "end"})
    for seat in ("p1", "p2"):
        _, game = act(game, seat, {"type": "draw"}, Scripted(game, weather=["sun+1", "sun+1"]))
        _, game = act(game, seat, {"type": "discard", "card": game.state.hands[seat][0]},
                      Scripted(game, weather=["sun+1", "sun+1"]))
    _, game = act(game, "p2", {"type": "nothing"})
    _, game = act(game, "p2", {"type": "end"})
    assert game.state.gabelle == 5 and game.state.liards["p1"] == 0 and game.state.mulons["p1"] == 3
    assert refused(game, "p1", {"type": "sell"}).code == "saline.sacrifice"
    assert [c for c in legal(game, "p1") if c["type"] == "sell"] == [
        {"type": "sell", "sacrifice": "N"}, {"type": "sell", "sacrifice": "E"}]
    salt = game.state.salt[game.state.salines["p1"]["E"]]
    reserve = game.state.salt_reserve
    events, game = act(game, "p1", {"type": "sell", "sacrifice": "E"})
    assert game.state.liards["p1"] == 3 and list(game.state.salines["p1"]) == ["N"]  # "keep your liards"
    assert "OeilletSacrificed" in types(events) and game.state.salt_reserve == reserve + 3 + salt


def test_faq_no_more_salt_cubes():
    """FAQ: "What happens if there are no more sel cubes? If there are no more cubes, take anything
    to replace the missing sel." (The reserve goes below zero: stand-ins.)

    By play: four players buy œillets (up to five each) and harvest the fullest colour until their
    mulons hold 10, every morning wind and sun (double production), until the 80 cubes are on the
    board and a morning still produces."""
    def buy_or_harvest(game, seat):
        s = game.state
        own = s.salines[seat]
        if len(own) < 5:
            for space, oeillet in enumerate(s.market, 1):
                if oeillet is not None and s.cat.prices[space - 1] <= s.liards[seat]:
                    return {"type": "buy", "space": space, "position": next(p for p in POSITIONS if p not in own)}
        held = {c: sum(s.salt[o] for o in own.values() if s.colour(o) == c) for c in {s.colour(o) for o in own.values()}}
        best = max(sorted(held), key=held.get)
        return {"type": "harvest", "colour": best} if s.mulons[seat] < MULON_MAX and held[best] else {"type": "nothing"}

    game = started(4, weather=["wind", "sun"])
    for _ in range(12):
        before = game.state.salt_reserve
        events, game = end_day(game, weather=["wind", "sun"], actions=buy_or_harvest, keep=True)
        if game.state.salt_reserve < 0:
            break
    produced = sum(sum(e.salt.values()) for e in events if isinstance(e, SaltProduced))
    on_board = sum(game.state.salt.values()) + sum(game.state.mulons.values())
    assert game.outcome is None and 0 <= before < produced and on_board == SALT_CUBES - game.state.salt_reserve
    assert SALINE.view(game.state, None)["reserve"]["stand_ins"] == -game.state.salt_reserve > 0


def test_faq_pot_de_vin_and_the_twenty_liards():
    """FAQ: "What happens if a player reaches 20 liards or more but loses them with Pot-de-vin? The
    game ends only if a player has 20 liards or more at the end of a turn."""
    # by play: p1 keeps Pot-de-vin (E19) and harvests; p2 takes a liard a day doing nothing until,
    # on the day it reaches 20, p1 plays Pot-de-vin at night
    game = started(2, hands={"p1": ["E19", "E01"], "p2": ["E02", "E03"]})
    harvest = {"p1": {"type": "harvest", "colour": "green"}}
    while game.state.liards["p2"] < 19:
        _, game = end_day(game, actions=harvest, keep=True)
    for _ in game.state.seats:
        seat = game.state.current
        _, game = act(game, seat, harvest.get(seat, {"type": "nothing"}))
        _, game = act(game, seat, {"type": "end"})
    assert game.state.phase == "night" and game.state.liards == {"p1": 3, "p2": 20}
    assert "E19" in game.state.hands["p1"]
    _, game = play(game, "p1", "E19", "Pot-de-vin", target="p2")
    _, game = answered(game, {})
    assert game.state.liards == {"p1": 1, "p2": 15}
    day = game.state.day
    for seat in ("p1", "p2"):  # the turn ends with p2 below 20 liards: the game goes on
        _, game = act(game, seat, {"type": "draw"})
        while game.state.discarding:
            _, game = act(game, seat, {"type": "discard", "card": game.state.hands[seat][0]})
    assert game.outcome is None and game.state.day == day + 1


def test_faq_marche_noir_and_the_eight_oeillet_maximum():
    """FAQ: "Can I end the game with 9 œillets or more by using Marché noir? No. The maximum number of
    œillets per player is 8."""
    # by play: p1 keeps Marché noir (E24) and buys six œillets around its green one (helpers.buying),
    # then the eighth in its next turn
    game = started(2, hands={"p1": ["E24", "E01"], "p2": ["E02", "E03"]})
    game = buying(game, "p1", ["NE", "E", "SE", "S", "SW", "W"], liards=4, keep=True)
    if game.state.current != "p1":
        _, game = act(game, game.state.current, {"type": "nothing"})
        _, game = act(game, game.state.current, {"type": "end"})
    _, game = act(game, "p1", {"type": "buy", "space": 1, "position": "NW"})
    assert len(game.state.salines["p1"]) == 8 and "E24" in game.state.hands["p1"] and game.state.liards["p1"] >= 3
    assert refused(game, "p1", {"type": "play", "card": "E24", "effect": "Marché noir", "space": 2,
                                "position": "N"}).code == "saline.eight_oeillets"
    assert not [c for c in legal(game, "p1") if c.get("effect") == "Marché noir" or c["type"] == "buy"]


def test_faq_more_than_four_of_a_colour():
    """FAQ: "If you have more than 4 œillets of the same colour, a new collection is started."""
    assert collections(["yellow"] * 6)[0] == 8 + 2
    assert collections(["yellow"] * 8)[0] == 8 + 8


def test_faq_no_cards_after_the_night_draw_or_retour_du_pardon():
    """FAQ: "Can I play event cards drawn in the night phase, or after having played Retour du pardon?
    No. Drawing event cards indicates the end of the player's turn." Nota bene: "It is possible to
    play cards bearing the triangle symbol even after drawing your end-of-turn card" (an older one,
    as an answer)."""
    game = started(2, hands={"p1": ["E35", "E01"], "p2": ["E16", "E20"]}, then=["E45", "E02"])
    game = at_night(game)
    events, game = play(game, "p1", "E35", "Retour du pardon")
    events, game = answered(game, {})
    assert game.state.hands["p1"] == ("E01", "E45", "E02") and "p1" in game.state.drew
    assert set(game.state.fresh["p1"]) == {"E45", "E02"} and game.state.discarding == ("p1",)
    _, game = act(game, "p1", {"type": "discard", "card": "E02"})
    assert game.state.current == "p2"  # p1's turn ended with the draw
    # p2 plays a card at night; p1 may not answer with the Souverain it drew tonight
    _, game = play(game, "p2", "E16", "Larcin", target="p1")
    assert refused(game, "p1", {"type": "play", "card": "E45", "effect": "Souverain"}).code == "saline.drawn_tonight"
    assert {c.get("card") for c in legal(game, "p1") if c["type"] == "play"} == {"favour"}


def owner_cards(**changes):
    """The data file as an owner might pass it, with ``changes`` made."""
    import json

    from domain.rules.saline.data import PACKAGE
    cards = json.loads((PACKAGE / "cards.json").read_text())
    cards.update(changes)
    return cards


def test_owner_cards_sharing_an_effect_name_resolve_with_their_own_numbers():
    """B) 1) Anatomy of an event card: each card prints its own "E: Effect of the card". An owner's
    data giving the title Sel menu +2 to one card and +3 to another: each played resolves with its own
    (E01, dealt to p1 from the printed order, gives 2)."""
    cards = owner_cards()
    last = cards["events"][-1]["effects"][0]
    last.update(name="Sel menu", amount=3)  # Grenier à sel printed as a second "Sel menu", +3
    game = started(2, options={"cards": cards})
    assert game.state.hands["p1"] == ("E01", "E02") and game.state.mulons["p1"] == 3
    _, game = play(game, "p1", "E01", "Sel menu")
    _, game = answered(game, {})
    assert game.state.mulons["p1"] == 3 + 2


def test_a_favour_with_its_own_printed_effect():
    """B) 2) Play a Favour: the transcription says each favour card prints its own effect; the owner's
    data gives it ({"name", "effects"}), "to be used at any moment" (phase "any"). Faveur du Seigneur
    printed as "+4 liards": p1 plays it, and nothing else, with its favour."""
    own = {"name": "Gain", "phase": "any", "gabelle": 0, "cost": 0, "cost_to": "reserve", "target": False,
           "effect": "gain_liards", "amount": 4}
    cards = owner_cards(favours=[{"name": "Faveur du Seigneur", "effects": [{**own, "name": "Faveur du Seigneur"}]},
                                 "Faveur de la Reine", "Faveur de l'Évêque", "Faveur du Prévôt"])
    game = started(2, options={"cards": cards})
    favour = [c for c in legal(game, "p1") if c["type"] == "play" and c["card"] == "favour"]
    assert [c["effect"] for c in favour] == ["Faveur du Seigneur"]
    assert refused(game, "p1", {"type": "play", "card": "favour", "effect": "Sel menu"}).code == "saline.no_such_effect"
    assert len([c for c in legal(game, "p2") if c.get("card") == "favour"]) == 0  # not p2's turn
    _, game = play(game, "p1", "favour", "Faveur du Seigneur")
    _, game = answered(game, {})
    assert game.state.liards["p1"] == 3 + 4 and game.state.favours["p1"] is None
    bad = owner_cards(favours=[{"name": "F", "effects": [{**own, "phase": "day"}]}, "b", "c", "d"])
    assert any("to be used at any moment" in p for p in SALINE.check_owner_data(bad))
    empty = owner_cards(favours=[{"name": "F", "effects": []}, "b", "c", "d"])
    assert any("its printed effect" in p for p in SALINE.check_owner_data(empty))


def test_two_different_meteo_dice():
    """A) 1) Morning: "the first player rolls the 2 météo dice"; the owner's data may print each die
    with its own faces (two lists of 6): each is its own kind of die, rolled once."""
    die1 = ["sun", "sun", "sun", "wind", "wind", "rain"]
    die2 = ["sun+1", "wind-1", "rain", "rain-1", "sun", "wind"]
    cards = owner_cards(weather_faces=[die1, die2])
    assert SALINE.check_owner_data(cards) == []
    kinds = SALINE.game_die_kinds({"cards": cards})
    assert list(kinds["saline-weather-1"].faces) == die1 and list(kinds["saline-weather-2"].faces) == die2
    game = started(2, weather=["wind", "sun+1"], options={"cards": cards})
    assert game.state.gabelle == 2 and game.state.salt[game.state.salines["p1"]["N"]] == 2  # wind + sun: double
    assert SALINE.check_owner_data(owner_cards(weather_faces=[die1, die2[:5]]))


def test_a_printed_text_with_more_than_one_effect():
    """B) 1) Anatomy: "E: Effect of the card" as printed — a text that says more than one of the
    known effects is given as the first effect and ``also`` (resolved after it, in order), with the
    printed words in ``text``: Grenier à sel printed as "+3 salt on your mulon and +1 liard"."""
    cards = owner_cards()
    first = cards["events"][0]["effects"][0]  # Sel menu, E01-E05
    first.update(text="Take 2 salt onto your mulon and 1 liard", also=[{"effect": "gain_liards", "amount": 1}])
    assert SALINE.check_owner_data(cards) == []
    game = started(2, options={"cards": cards})
    _, game = play(game, "p1", "E01", "Sel menu")
    _, game = answered(game, {})
    assert game.state.mulons["p1"] == 3 + 2 and game.state.liards["p1"] == 3 + 1
    first.update(also=[{"effect": "steal_liards", "amount": 1}])  # needs a target the effect does not name
    assert any("targeted opponent" in p for p in SALINE.check_owner_data(cards))
    first.update(also=[{"effect": "cancel"}])
    assert any("not a further one" in p for p in SALINE.check_owner_data(cards))


def test_a_printed_instruction_outside_the_known_kinds_is_resolved_as_the_players_state_it():
    """B) 1) Anatomy of an event card: "E: Effect of the card" — whatever the owner's card prints. A text
    none of the known kinds says is given as ``as_printed`` with its words (``text``); who plays it
    states what it did (``outcome``: salt and liards to or from the reserve, the gabelle's move),
    recorded as stated (saline.OutcomeStated) and done when the card resolves. Here Sel menu is printed
    as "Each other player gives 1 liard to the reserve and you take 2 salt".

    (The owner's text is taken as printed: Herald keeps the words in the game's hashed cards and what the
    players said it did, never a reading of its own.)"""
    from domain.rules.saline.events import OutcomeStated

    text = "Each other player gives 1 liard to the reserve and you take 2 salt"
    cards = owner_cards()
    first = cards["events"][0]["effects"][0]  # Sel menu, E01-E05
    first.update(effect="as_printed", amount=0, text=text)
    assert SALINE.check_owner_data(cards) == []
    game = started(3, options={"cards": cards})
    listed = [c for c in legal(game, "p1") if c.get("effect") == "Sel menu"]
    assert listed and all(c["outcome"] == {"salt": {}, "liards": {}, "gabelle": 0} for c in listed)
    assert not SALINE.listing_complete(game.state, "p1")  # any other stated outcome is accepted too
    assert refused(game, "p1", {"type": "play", "card": "E01", "effect": "Sel menu"}).code == "saline.choices"
    assert refused(game, "p1", {"type": "play", "card": "E01", "effect": "Sel menu",
                                "outcome": {"liards": {"p9": 1}}}).code == "saline.outcome"
    stated = {"salt": {"p1": 2}, "liards": {"p2": -1, "p3": -1}}
    events, game = play(game, "p1", "E01", "Sel menu", outcome=stated)
    assert [e for e in events if isinstance(e, OutcomeStated)][0].outcome.liards == {"p2": -1, "p3": -1}
    _, game = answered(game, {})
    assert game.state.mulons["p1"] == 3 + 2
    assert game.state.liards == {"p1": 3, "p2": 2, "p3": 2}
    cards["events"][0]["effects"][0].update(text="")
    assert any("printed words" in p for p in SALINE.check_owner_data(cards))
    first.update(text=text, effect="gain_salt", also=[{"effect": "as_printed"}])
    assert any("not a further one" in p for p in SALINE.check_owner_data(cards))


def test_plays_without_a_stated_outcome_are_recorded_as_before():
    """The ``outcome`` of a play is recorded only when stated: a game without an owner's printed
    instruction records its plays field for field as Saline 1.1.0 did before (its records replay)."""
    game = started(2)
    command = SALINE.parse_command({"type": "play", "card": "E01", "effect": "Sel menu"})
    assert SALINE.recorded_command(command) == {"type": "play", "card": "E01", "effect": "Sel menu", "target": None,
                                               "colour": None, "space": None, "position": None}
    assert SALINE.listing_complete(game.state, "p1")
