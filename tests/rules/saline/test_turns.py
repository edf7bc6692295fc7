"""Saline, section by section of the *Saline Rulebook*: components, set-up, the day (morning, day,
night), the actions, the gabelle, weather and rain, objectives, the end and the scoring. Decks are
left in their printed order (helpers.Scripted) or the event deck dealt as a test says (helpers.Dealt),
so a test knows the draws: objectives J01…, œillets O01… (greens first), event cards E01… (data file
order). Positions are reached by play from the opening; none here is built by hand (helpers.with_state)."""

from __future__ import annotations

import pytest

from domain.rules.saline.data import CATALOGUE, DATA, LIARDS, problems
from domain.rules.saline.events import (
    GabelleMoved, HandLimitDiscard, MarketReplenished, ObjectiveClaimed,
    SaltMoved, SaltProduced, WeatherRead,
)
from domain.rules.saline.rules import collections
from tests.rules.saline.helpers import (
    SALINE, Scripted, act, buying, end_day, legal, new_game, refused, started, types,
)


# -- Components ---------------------------------------------------------------------------------------
def test_components_as_printed():
    """Components: "32 œillet cards … 8 green œillets: production capacity of 2 salt, 10 red … 3,
    8 yellow … 4, 6 blue … 5"; "18 objective cards"; "49 event cards"; "4 favour cards";
    "30 coins (liards: 21 of value 1 and 9 of value 5)"."""
    colours = list(CATALOGUE.oeillets.values())
    assert [colours.count(c) for c in ("green", "red", "yellow", "blue")] == [8, 10, 8, 6]
    assert CATALOGUE.capacity == {"green": 2, "red": 3, "yellow": 4, "blue": 5}
    assert len(CATALOGUE.objectives) == 18 and len(CATALOGUE.events) == 49 and len(CATALOGUE.favours) == 4
    assert LIARDS == 21 + 9 * 5
    # the card list's ×N counts, by the first title of each card
    counts = {card.effects[0].name: card.count for card in DATA.events}
    assert counts == {"Sel menu": 5, "Prise": 5, "Orage de mer": 5, "Malandrin": 3, "Pot-de-vin": 1,
                      "Pays de salines": 4, "Franc-salé": 4, "Devoir pour le pot et la salière": 2,
                      "Effondrement du mulon": 5, "Brigandage": 4, "Faux-saunier": 3, "Gabelou": 3,
                      "Souverain": 4, "Grenier à sel": 1}


def test_owner_data_is_validated_and_hashed():
    """The owner's printed data replaces the reconstruction: validated, its hash in GameCreated."""
    import msgspec
    raw = msgspec.to_builtins(DATA)
    assert problems(raw) == []
    raw["oeillets"]["blue"]["count"] = 7
    assert any("32 œillets" in p for p in problems(raw))
    raw["oeillets"]["blue"]["count"] = 6
    raw["market_prices"] = [2, 3, 4, 5]
    assert SALINE.data_hash("standard", {"cards": raw}) != SALINE.data_hash("standard", None)
    game = started(3, options={"cards": raw})
    assert game.state.cat.prices == (2, 3, 4, 5)


# -- Setup ----------------------------------------------------------------------------------------------
def test_setup():
    """Setup: "Place the gabelle die on the value 1"; "a sel cube on the 0 of the rain scale"; "place
    face up … the number of objectives corresponding to the number of players"; "Deal each player one
    objective face down"; "1 favour card, 3 liards, 1 mulon card with 3 sel cubes on it, 1 green
    œillet, which they place as they wish"; "reveal 4 of them on the market purchase track"; "Each
    player receives 2" event cards; "Determine a first player at random"."""
    game = new_game(3)
    events, game = act(game, "p1", {"type": "prepare"}, Scripted(game, first="p2"))
    s = game.state
    assert s.gabelle == 1 and s.rain == 0
    assert s.public_objectives == ("J01", "J02", "J03", "J04")
    assert s.secrets == {"p1": "J05", "p2": "J06", "p3": "J07"}
    assert s.liards == {"p1": 3, "p2": 3, "p3": 3} and s.mulons == {"p1": 3, "p2": 3, "p3": 3}
    assert s.salt_reserve == 80 - 9
    assert s.favours == {"p1": "Faveur du Seigneur", "p2": "Faveur de la Reine", "p3": "Faveur de l'Évêque"}
    assert s.market == ("O04", "O05", "O06", "O07")  # O01-O03: the greens given to the players
    assert s.hands == {"p1": ("E01", "E02"), "p2": ("E03", "E04"), "p3": ("E05", "E06")}
    assert s.first == "p2" and s.phase == "placing"
    # the green œillet, placed as each player wishes, in turn order from the first player
    assert SALINE.to_act(s) == ["p2"]
    assert refused(game, "p2", {"type": "place", "position": "X"}).code == "saline.position"
    for seat, position in (("p2", "NE"), ("p3", "S"), ("p1", "W")):
        events, game = act(game, seat, {"type": "place", "position": position})
    assert game.state.salines == {"p1": {"W": "O01"}, "p2": {"NE": "O02"}, "p3": {"S": "O03"}}
    assert game.state.phase == "day" and game.state.day == 1 and game.state.current == "p2"


@pytest.mark.parametrize("players,public", [(2, 3), (3, 4), (4, 5)])
def test_face_up_objectives_by_player_count(players, public):
    """Setup: "place face up … the number of objectives corresponding to the number of players"
    (RULES_NOTES.md: the board's numbers, reconstructed as one more than the players)."""
    game = started(players)
    assert len(game.state.public_objectives) == public
    assert len(game.state.secrets) == players


# -- Morning ----------------------------------------------------------------------------------------------
def test_weather_single_and_double_production():
    """Morning: "At least 1 wind or 1 sun: simple production (1 salt per œillet). Wind + sun: double
    production (2 salt per œillet)." An œillet holds at most its capacity."""
    game = started(2, weather=["sun", "sun"])
    assert game.state.salt == {"O01": 1, "O02": 1}
    game = started(2, weather=["wind", "sun"])
    assert game.state.salt == {"O01": 2, "O02": 2}
    game = started(2, weather=["sun", "sun"])
    events, game = end_day(game, weather=["sun", "wind"])
    produced = [e for e in events if isinstance(e, SaltProduced)]
    assert produced[0].salt == {"O01": 1, "O02": 1}  # double, but a green œillet holds 2
    events, game = end_day(game, weather=["wind", "sun"])
    assert not [e for e in events if isinstance(e, SaltProduced)] and game.state.salt == {"O01": 2, "O02": 2}


def test_rain_stops_production_and_climbs_the_scale():
    """Morning: "At least 1 rain: no production. Add +1 on the rain scale. When the marker reaches
    level 3, return it to 0 and make a new roll of the dice."""
    game = started(2, weather=["rain", "sun"])
    assert game.state.rain == 1 and game.state.salt == {"O01": 0, "O02": 0}
    events, game = end_day(game, weather=["rain", "rain"])
    assert game.state.rain == 2
    events, game = end_day(game, weather=["sun", "rain", "wind", "sun"])
    reads = [e for e in events if isinstance(e, WeatherRead)]
    assert [(r.production, r.rain, r.roll_again) for r in reads] == [("none", 0, True), ("double", 0, False)]
    assert game.state.rain == 0


def test_gabelle_faces_move_the_gabelle_die():
    """Morning: "+1 moves the gabelle die up one value and -1 moves it down one value" (and the die
    stays on its faces, 1 to 6)."""
    game = started(2, weather=["sun+1", "sun+1"])
    assert game.state.gabelle == 3
    events, game = end_day(game, weather=["wind-1", "sun"])
    assert game.state.gabelle == 2
    assert [e.value for e in events if isinstance(e, GabelleMoved)] == [2]
    events, game = end_day(game, weather=["wind-1", "sun"])
    assert game.state.gabelle == 1
    events, game = end_day(game, weather=["wind-1", "wind-1"])
    assert game.state.gabelle == 1 and not [e for e in events if isinstance(e, GabelleMoved)]


def test_market_slides_toward_the_lowest_price():
    """Morning: "Replenish the market if necessary by sliding the remaining œillets toward the lowest
    price"; Day, Buy: "The market is not actually replenished immediately"."""
    game = started(2, weather=["sun", "sun"])
    _, game = act(game, "p1", {"type": "buy", "space": 2, "position": "E"})
    assert game.state.market == ("O03", None, "O05", "O06")
    _, game = act(game, "p1", {"type": "end"})
    game = idle(game, "p2")
    _, game = act(game, "p1", {"type": "draw"})
    _, game = act(game, "p1", {"type": "discard", "card": "E01"})
    _, game = act(game, "p2", {"type": "draw"})
    events, game = act(game, "p2", {"type": "discard", "card": "E03"})
    replenished = [e for e in events if isinstance(e, MarketReplenished)][0]
    assert game.state.market == ("O03", "O05", "O06", "O07") and replenished.revealed == ["O07"]


# -- Day ---------------------------------------------------------------------------------------------------
def test_buy_at_the_price_of_its_space():
    """Day, Buy: "Buy an œillet available on the market at the price indicated at its location"."""
    game = started(2)  # 3 liards each (Setup)
    assert refused(game, "p1", {"type": "buy", "space": 4, "position": "E"}).code == "saline.cannot_pay"
    assert refused(game, "p1", {"type": "buy", "space": 1, "position": "N"}).code == "saline.position"
    _, game = act(game, "p1", {"type": "buy", "space": 3, "position": "E"})
    assert game.state.liards["p1"] == 0 and game.state.salines["p1"] == {"N": "O01", "E": "O05"}
    assert refused(game, "p1", {"type": "nothing"}).code == "saline.one_action"


def test_harvest_one_colour_excess_over_ten_lost():
    """Day, Harvest: "Harvest all the salt on the œillets of that colour that you own and store it on
    your mulon. If there are more than 10 salt on your mulon, remove the excess."""
    game = started(2, hands={"p1": ["E49", "E01"], "p2": ["E02", "E03"]}, oeillets=["O10", "O11"])
    assert game.state.market[:2] == ("O10", "O11")  # two red œillets first on the market
    for card, effect in (("E49", "Grenier à sel"), ("E01", "Sel menu")):  # the mulon: 3 + 3 + 2
        _, game = act(game, "p1", {"type": "play", "card": card, "effect": effect})
        _, game = act(game, "p2", {"type": "pass"})
    _, game = act(game, "p1", {"type": "buy", "space": 1, "position": "E"})
    _, game = act(game, "p1", {"type": "end"})
    game = idle(game, "p2")
    game = night(game)
    game = idle(game, "p2")
    _, game = act(game, "p1", {"type": "buy", "space": 1, "position": "S"})  # O11, slid to space 1
    _, game = act(game, "p1", {"type": "end"})
    game = night(game)  # day 3: single production again, p1 first
    assert game.state.salines["p1"] == {"N": "O01", "E": "O10", "S": "O11"} and game.state.current == "p1"
    assert game.state.salt["O10"] == 2 and game.state.salt["O11"] == 1 and game.state.mulons["p1"] == 8
    assert refused(game, "p1", {"type": "harvest", "colour": "blue"}).code == "saline.colour"
    reserve = game.state.salt_reserve
    events, game = act(game, "p1", {"type": "harvest", "colour": "red"})  # O10, O11: red
    assert game.state.mulons["p1"] == 10 and game.state.salt["O10"] == 0 and game.state.salt["O11"] == 0
    assert game.state.salt["O01"] == 2 and game.state.salt_reserve == reserve + 1  # 8 + 3: 1 removed
    assert [e for e in events if isinstance(e, SaltMoved) and e.reason == "excess"][0].salt == 1


def test_sell_then_pay_the_gabelle():
    """Day, Sell: "selling 9 salt with the gabelle die showing 4 gives 5 liards (9 − 4 = 5)". Reached
    by play: p1's mulon (3) takes Grenier à sel (+3) and Sel menu (+2) on day 1 and Quart bouillon (+1,
    gabelle −1) on day 2; the météo dice raise the gabelle to 3, then 5, and Quart bouillon brings it to 4."""
    game = started(2, weather=["sun+1", "sun+1"], hands={"p1": ["E49", "E01"], "p2": ["E02", "E03"]},
                   then=["E30", "E04"])
    for card, effect in (("E49", "Grenier à sel"), ("E01", "Sel menu")):
        _, game = act(game, "p1", {"type": "play", "card": card, "effect": effect})
        _, game = act(game, "p2", {"type": "pass"})
    assert game.state.mulons["p1"] == 8 and game.state.gabelle == 3
    _, game = end_day(game, weather=["sun+1", "sun+1"])
    assert game.state.hands["p1"] == ("E30",) and game.state.gabelle == 5 and game.state.current == "p2"
    game = idle(game, "p2")
    _, game = act(game, "p1", {"type": "play", "card": "E30", "effect": "Quart bouillon"})
    _, game = act(game, "p2", {"type": "pass"})
    assert game.state.mulons["p1"] == 9 and game.state.gabelle == 4
    liards = game.state.liards["p1"]
    _, game = act(game, "p1", {"type": "sell"})
    assert game.state.liards["p1"] - liards == 5 and game.state.mulons["p1"] == 0


def test_do_nothing_takes_one_liard():
    """Day, Do nothing: "Take 1 liard from the reserve."; Nota bene: playing cards is not an action."""
    game = started(2)
    _, game = act(game, "p1", {"type": "play", "card": "E01", "effect": "Sel menu"})
    _, game = act(game, "p2", {"type": "pass"})
    assert game.state.mulons["p1"] == 5 and not game.state.acted
    _, game = act(game, "p1", {"type": "nothing"})
    assert game.state.liards["p1"] == 4


def test_day_turn_order_then_night():
    """Day: "In turn order, starting with the first player, all players each take one action";
    Night: "each player draws 1 event card, with a hand limit of 2 cards. Discard the excess";
    "pass the first-player token to your left-hand neighbour"."""
    game = started(3, first="p2")
    assert game.state.current == "p2"
    assert refused(game, "p2", {"type": "end"}).code == "saline.action_first"
    assert refused(game, "p2", {"type": "draw"}).code == "saline.not_night"
    for seat in ("p2", "p3", "p1"):
        assert game.state.current == seat
        _, game = act(game, seat, {"type": "nothing"})
        _, game = act(game, seat, {"type": "end"})
    assert game.state.phase == "night" and game.state.current == "p2"
    events, game = act(game, "p2", {"type": "draw"})  # announced, the others pass (test_windows.py), then drawn
    assert types(events)[1:3] == ["ActionAnnounced", "WindowOpened"]
    drawn = types(events).index("WindowClosed")
    assert types(events)[drawn + 1:drawn + 4] == ["EventCardsDrawn", "DrawnEventCards", "TurnEnded"]
    assert [e for e in events if isinstance(e, HandLimitDiscard)]
    assert SALINE.to_act(game.state) == ["p2"] and len(game.state.hands["p2"]) == 3
    assert [c["type"] for c in legal(game, "p2")] == ["discard"] * 3
    _, game = act(game, "p2", {"type": "discard", "card": "E03"})
    assert game.state.hands["p2"] == ("E04", "E07") and game.state.current == "p3"
    for seat in ("p3", "p1"):
        _, game = act(game, seat, {"type": "draw"})
        _, game = act(game, seat, {"type": "discard", "card": game.state.hands[seat][0]})
    assert game.state.day == 2 and game.state.first == "p3" and game.state.phase == "day"


# -- Objectives ------------------------------------------------------------------------------------------------
def test_objective_claimed_as_soon_as_met_one_per_turn():
    """Claim an Objective: "As soon as your saline meets the placement criteria of an objective …
    you must immediately take the corresponding objective … Each objective scores 2 prestige points.
    Only one may be validated per turn." J01 (Les deux verts: N and S green) and J05 (Le front de
    mer: NW, N, NE, any colour)."""
    game = started(2, hands={"p1": ["E20", "E24"], "p2": ["E01", "E02"]}, objectives=["J01", "J13", "J03", "J04", "J05"])
    assert game.state.public_objectives == ("J01", "J13", "J03")  # J13: La croix, N E S W of any colour
    _, game = act(game, "p1", {"type": "buy", "space": 1, "position": "E"})  # a green œillet east
    _, game = act(game, "p1", {"type": "end"})
    game = idle(game, "p2")
    game = night(game)
    game = idle(game, "p2")
    _, game = act(game, "p1", {"type": "play", "card": "E20", "effect": "Pays de salines"})  # +2 liards
    _, game = act(game, "p2", {"type": "pass"})
    events, game = act(game, "p1", {"type": "buy", "space": 1, "position": "S"})  # green at S: J01
    claimed = [e for e in events if isinstance(e, ObjectiveClaimed)]
    assert [(c.seat, c.objective.id, c.secret) for c in claimed] == [("p1", "J01", False)]
    _, game = act(game, "p1", {"type": "play", "card": "E24", "effect": "Marché noir", "space": 2, "position": "W"})
    events, game = act(game, "p2", {"type": "pass"})
    assert set(game.state.salines["p1"]) == {"N", "E", "S", "W"}  # J13 met…
    assert not [e for e in events if isinstance(e, ObjectiveClaimed)]  # …but one per turn
    assert game.state.public_objectives == ("J13", "J03")
    _, game = act(game, "p1", {"type": "end"})
    game = night(game)  # the next morning: J13 is taken
    assert game.state.day == 3 and game.state.claimed["p1"] == ("J01", "J13")


def idle(game, seat):
    """``seat`` does nothing in its day turn and ends it."""
    _, game = act(game, seat, {"type": "nothing"})
    return act(game, seat, {"type": "end"})[1]


def night(game):
    """Each seat draws its night card and discards it again (the hand kept as it was)."""
    for _ in range(len(game.state.seats)):
        seat = game.state.current
        _, game = act(game, seat, {"type": "draw"})
        while game.state.discarding:
            _, game = act(game, seat, {"type": "discard", "card": game.state.hands[seat][-1]})
    return game


def test_secret_objective_read_either_way():
    """The objective cards: "Each player reads them in their own direction. The secret objective
    received at the start of the game may be read in either direction." J04 (La diagonale bleue:
    NE and SW blue), turned round: SW and NE — and J09 (Le coin vert: NW, N, W green) turned: SE, S, E."""
    game = started(2, positions={"p1": "S"}, objectives=["J11", "J02", "J12", "J09", "J05"])
    assert game.state.secrets == {"p1": "J09", "p2": "J05"}
    _, game = act(game, "p1", {"type": "buy", "space": 1, "position": "SE"})  # green: S and SE
    _, game = act(game, "p1", {"type": "end"})
    game = idle(game, "p2")
    game = night(game)
    game = idle(game, "p2")
    events, game = act(game, "p1", {"type": "buy", "space": 1, "position": "E"})
    claimed = [e for e in events if isinstance(e, ObjectiveClaimed)]
    assert [(c.objective.id, c.secret) for c in claimed] == [("J09", True)]  # NW, N, W green, turned round
    assert game.state.public_objectives == ("J11", "J02", "J12")


# -- End and scoring --------------------------------------------------------------------------------------------
@pytest.mark.parametrize("colours,same,different", [
    (["green"], 1, 0), (["green", "green"], 2, 3 * 0), (["blue"] * 3, 4, 0), (["blue"] * 4, 8, 0),
    (["red"] * 5, 8 + 1, 0), (["green", "red"], 2, 3), (["green", "red", "yellow"], 3, 7),
    (["green", "red", "yellow", "blue"], 4, 12), (["green", "green", "red", "red"], 4, 6),
])
def test_collections(colours, same, different):
    """Scoring: same colour 1, 2, 4, 8 ("4 blue cards are worth as many points as 4 green cards");
    different colours 0, 3, 7, 12; FAQ: "If you have more than 4 œillets of the same colour, a new
    collection is started." (RULES_NOTES.md: every œillet counts in both kinds of collection.)"""
    assert collections(colours) == (same, different)


def test_twenty_liards_at_the_end_of_a_turn_ends_the_game():
    """End: "A player has 20 liards or more at the end of a turn. The turn is then completed
    normally, and the final scoring takes place"; "each liard scores 1 point"; "each objective
    scores 2 points"; "your favour card scores 3 points (if it has not been used)"."""
    # by play: p1 buys the red œillet on the market's first space (1 liard) at E, meeting Vert et rouge
    # (N green, E red), then takes 1 liard a day doing nothing; p2 harvests (no liards)
    game = started(2, objectives=["J07", "J01", "J02"], oeillets=["O09"])
    _, game = act(game, "p1", {"type": "buy", "space": 1, "position": "E"})
    assert game.state.claimed["p1"] == ("J07",) and game.state.liards["p1"] == 2
    harvest = {"p2": {"type": "harvest", "colour": "green"}}
    while game.state.liards["p1"] < 19:
        _, game = end_day(game, actions=harvest)
        assert game.outcome is None
    assert game.state.day == 19 and game.state.liards == {"p1": 19, "p2": 3}
    events, game = end_day(game, actions=harvest)
    assert game.outcome is not None
    decided = next(e for e in events if type(e).__name__ == "GameDecided")
    assert decided.ended_by == ["p1"]
    assert decided.points["p1"] == {"same_colour": 2, "different_colours": 3, "liards": 20, "objectives": 2,
                                    "favour": 3, "total": 30}
    assert game.outcome.winner == "p1"
    assert types(events)[-3:-1] == ["HandsShown", "GameDecided"]


def test_eight_oeillets_ends_the_game_after_the_turn():
    """End: "A player has completed their saline, with 8 œillets around their mulon"; the turn is
    completed normally (the other players still play their day and night)."""
    # by play: p1 buys six œillets around its green one, one a day (helpers.buying)
    game = buying(started(2), "p1", ["NE", "E", "SE", "S", "SW", "W"], liards=1)
    assert len(game.state.salines["p1"]) == 7
    if game.state.current != "p1":
        game = idle(game, game.state.current)
    _, game = act(game, "p1", {"type": "buy", "space": 1, "position": "NW"})
    assert game.outcome is None and len(game.state.salines["p1"]) == 8
    assert refused(game, "p1", {"type": "play", "card": "favour", "effect": "Marché noir", "space": 2,
                                "position": "NW"}).code == "saline.eight_oeillets"
    _, game = act(game, "p1", {"type": "end"})
    while game.state.phase == "day":
        game = idle(game, game.state.current)
    for _ in game.state.seats:  # the night: the turn is completed normally
        assert game.outcome is None
        seat = game.state.current
        events, game = act(game, seat, {"type": "draw"})
        while game.state.discarding:
            events, game = act(game, seat, {"type": "discard", "card": game.state.hands[seat][0]})
    assert game.outcome is not None
    assert next(e for e in events if type(e).__name__ == "GameDecided").ended_by == ["p1"]
