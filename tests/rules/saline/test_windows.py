"""Saline out of turn (issue 26; domain/rules/base.py, "Out-of-turn play"): cards bearing the
triangle and the favour played while another player's action or draw waits.

B) 1) Play an Event Card: "Cards bearing the triangle symbol may be played at any time."
B) 2) Play a Favour: "The favour card is a joker, to be used at any moment during the game."
A) 3) Night, Nota bene: "It is possible to play cards bearing the triangle symbol even after drawing
your end-of-turn card."

Every position here is reached by play from the opening: the event deck dealt in a scripted order
(``Dealt``), the météo dice forced."""

from __future__ import annotations

from pathlib import Path

from domain.rules.saline.events import (
    ActionAnnounced, GabelleMoved, LiardsPaid, OeilletSacrificed, SacrificeOwed, WindowClosed, WindowOpened,
)
from replays.record_format import decode_record
from replays.verify import verify
from tests.conftest import new_game, post
from tests.rules.saline.helpers import SALINE, Dealt, act, legal, new_game as domain_game, refused, types

RECORDS = Path(__file__).parent / "records"


def dealt(hands: dict[str, list[str]], weather: list[str] | None = None, players: int = 3):
    """A game set up with these starting hands (two cards each, dealt in seat order), greens at N,
    p1 first; ``weather``: the first mornings' météo faces."""
    game = domain_game(players)
    order = [c for seat in sorted(hands) for c in hands[seat]]
    rng = lambda g: Dealt(g, order, weather=weather)  # noqa: E731 - one deal for every draw
    _, game = act(game, "p1", {"type": "prepare"}, rng(game))
    for seat in game.state.seats:
        _, game = act(game, seat, {"type": "place", "position": "N"}, rng(game))
    assert {s: list(h) for s, h in game.state.hands.items()} == hands
    return game, rng


def play(card, effect, **choices):
    return {"type": "play", "card": card, "effect": effect, **choices}


def test_the_gabelle_raised_before_an_opponent_sells():
    """B) 1): "Cards bearing the triangle symbol may be played at any time." p1 announces a sale; p2
    raises the gabelle with Grande Gabelle (triangle, +1) before it resolves; the sale then pays the
    gabelle at 2, not 1."""
    game, rng = dealt({"p1": ["E01", "E02"], "p2": ["E39", "E43"], "p3": ["E03", "E04"]}, ["sun", "sun"])
    assert game.state.gabelle == 1 and game.state.mulons["p1"] == 3
    events, game = act(game, "p1", {"type": "sell"}, window=True)
    assert types(events)[1:] == ["ActionAnnounced", "WindowOpened"]
    assert events[2] == WindowOpened(seat="p1", action="sell", seats=["p2", "p3"])
    assert SALINE.to_act(game.state) == ["p2", "p3"] and SALINE.window(game.state).holder == "p1"
    assert refused(game, "p1", {"type": "end"}).code == "not_your_turn"  # p1's sale waits
    assert play("E39", "Grande Gabelle", target=None, colour=None, space=None, position=None) in legal(game, "p2")
    assert {"type": "pass"} in legal(game, "p2") and {"type": "pass"} in legal(game, "p3")
    # only the triangle out of turn: Faux-saunier (day) is not listed, nor is it accepted
    assert not [c for c in legal(game, "p2") if c.get("effect") == "Faux-saunier"]
    assert refused(game, "p2", play("E39", "Faux-saunier")).code == "saline.triangle_only"
    assert refused(game, "p3", play("E03", "Sel menu")).code == "saline.triangle_only"
    _, game = act(game, "p2", play("E39", "Grande Gabelle"), window=True)
    for seat in ("p3", "p1"):  # the card just played is answered first (B: answers, in turn order)
        _, game = act(game, seat, {"type": "pass"}, window=True)
    assert game.state.gabelle == 2
    assert SALINE.to_act(game.state) == ["p2", "p3"]  # opened again: everyone waits again after a play
    _, game = act(game, "p3", {"type": "pass"}, window=True)
    events, game = act(game, "p2", {"type": "pass"}, window=True)
    assert WindowClosed(seat="p1", action="sell") in events
    assert LiardsPaid(payer="p1", payee="reserve", liards=2, reason="gabelle") in events
    assert game.state.liards["p1"] == 3 + 3 - 2 and game.state.window is None
    assert SALINE.to_act(game.state) == ["p1"] and {"type": "end"} in legal(game, "p1")


def test_the_favour_at_any_moment():
    """B) 2): the favour "to be used at any moment during the game": p3 plays its favour out of turn,
    before p1's action resolves (as a card bearing the triangle: Petite Gabelle, gabelle −1)."""
    game, _ = dealt({"p1": ["E01", "E02"], "p2": ["E03", "E04"], "p3": ["E05", "E06"]}, ["sun+1", "sun"])
    assert game.state.gabelle == 2
    _, game = act(game, "p1", {"type": "nothing"}, window=True)
    assert play("favour", "Petite Gabelle", target=None, colour=None, space=None, position=None) in legal(game, "p3")
    events, game = act(game, "p3", play("favour", "Petite Gabelle"), window=True)
    assert game.state.favours["p3"] is None
    for seat in ("p1", "p2"):
        events, game = act(game, seat, {"type": "pass"}, window=True)
    assert GabelleMoved(step=-1, value=1, by="Petite Gabelle") in events
    assert SALINE.to_act(game.state) == ["p2", "p3"]  # opened again; p3 has used its favour but holds cards
    while game.state.window is not None:
        events, game = act(game, game.state.window.waiting[0], {"type": "pass"}, window=True)
    assert game.state.liards["p1"] == 4 and game.state.acted


def test_a_triangle_card_after_drawing_the_end_of_turn_card():
    """A) 3) Night, Nota bene: "It is possible to play cards bearing the triangle symbol even after
    drawing your end-of-turn card": p1 has drawn (its night turn is over) and plays Brise de mer
    (triangle) before p2's draw resolves; the card it has just drawn it may not play (FAQ)."""
    game, rng = dealt({"p1": ["E11", "E01"], "p2": ["E02", "E03"], "p3": ["E04", "E05"]}, ["sun", "sun"])
    for seat in ("p1", "p2", "p3"):
        _, game = act(game, seat, {"type": "nothing"}, rng(game))
        _, game = act(game, seat, {"type": "end"}, rng(game))
    assert game.state.phase == "night"
    _, game = act(game, "p1", {"type": "draw"}, rng(game))
    _, game = act(game, "p1", {"type": "discard", "card": "E01"}, rng(game))
    assert "p1" in game.state.drew and game.state.current == "p2"
    fresh = game.state.fresh["p1"][0]
    events, game = act(game, "p2", {"type": "draw"}, rng(game), window=True)
    assert ActionAnnounced(seat="p2", action="draw") in events and "p1" in SALINE.to_act(game.state)
    assert refused(game, "p1", play(fresh, game.state.cat.events[fresh][0].name)).code in (
        "saline.drawn_tonight", "saline.triangle_only")
    salt = sum(game.state.salt[o] for o in game.state.salines["p1"].values())
    _, game = act(game, "p1", play("E11", "Brise de mer"), rng(game), window=True)
    while game.state.pending is not None:
        _, game = act(game, game.state.asked[0], {"type": "pass"}, rng(game), window=True)
    assert sum(game.state.salt[o] for o in game.state.salines["p1"].values()) == salt + 1
    assert game.state.liards["p1"] == 4 - 1  # Brise de mer costs 1
    while game.state.window is not None:
        _, game = act(game, game.state.window.waiting[0], {"type": "pass"}, rng(game), window=True)
    assert "p2" in game.state.drew


def test_two_seats_in_one_window_any_order_and_it_closes_on_the_last_pass():
    """base.py, "Out-of-turn play": every waiting seat may act, in any order; the window closes when
    each has passed since the last play, and the held action resolves in that same decision."""
    game, _ = dealt({"p1": ["E01", "E02"], "p2": ["E03", "E04"], "p3": ["E05", "E06"]}, ["sun", "sun"])
    _, game = act(game, "p1", {"type": "nothing"}, window=True)
    events, game = act(game, "p3", {"type": "pass"}, window=True)  # p3 first, though p2 sits before it
    assert SALINE.to_act(game.state) == ["p2"] and not game.state.acted
    assert refused(game, "p3", {"type": "pass"}).code == "not_your_turn"  # a pass is once
    events, game = act(game, "p2", {"type": "pass"}, window=True)
    assert types(events)[1:4] == ["ResponsePassed", "WindowClosed", "ActionTaken"]
    assert game.state.acted and SALINE.to_act(game.state) == ["p1"]


def test_nobody_who_may_play_no_window():
    """The window opens only to seats that may, for all anyone knows, play (a card in hand not drawn
    tonight, under two cards a day, or a favour): p2 has played both its cards and its favour, so
    p1's night draw resolves at once."""
    game, rng = dealt({"p1": ["E01", "E02"], "p2": ["E03", "E04"]}, ["sun", "sun"], players=2)
    events, game = act(game, "p1", {"type": "nothing"}, rng(game))
    assert "WindowOpened" in types(events)  # p2 holds cards: it was asked, and passed
    _, game = act(game, "p1", {"type": "end"}, rng(game))
    for command in (play("E03", "Sel menu"), play("E04", "Sel menu"), play("favour", "Pays de salines")):
        _, game = act(game, "p2", command, rng(game))
        _, game = act(game, "p1", {"type": "pass"}, rng(game))
    assert game.state.hands["p2"] == () and game.state.favours["p2"] is None
    _, game = act(game, "p2", {"type": "nothing"}, rng(game))
    _, game = act(game, "p2", {"type": "end"}, rng(game))
    events, game = act(game, "p1", {"type": "draw"}, rng(game), window=True)
    assert "WindowOpened" not in types(events) and "p1" in game.state.drew


def test_a_sale_whose_gabelle_rose_asks_for_the_sacrifice():
    """FAQ: "What happens if I cannot pay the gabelle? In this rare case, sacrifice 1 œillet of your
    choice, but keep your liards." p1 has spent its liards; when it announces its sale it could pay
    the gabelle (3), but p2 raises it to 4 first: the sale done, p1 names the œillet it gives up."""
    game, rng = dealt({"p1": ["E01", "E02"], "p2": ["E39", "E43"], "p3": ["E03", "E04"]},
                      ["sun+1", "sun", "sun+1", "sun"])
    assert game.state.gabelle == 2
    _, game = act(game, "p1", {"type": "buy", "space": 3, "position": "S"}, rng(game))
    assert game.state.liards["p1"] == 0
    _, game = act(game, "p1", {"type": "end"}, rng(game))
    for seat in ("p2", "p3"):
        _, game = act(game, seat, {"type": "nothing"}, rng(game))
        _, game = act(game, seat, {"type": "end"}, rng(game))
    for seat in ("p1", "p2", "p3"):
        _, game = act(game, seat, {"type": "draw"}, rng(game))
        if game.state.discarding:
            keep = {"E39"}
            _, game = act(game, seat, {"type": "discard",
                                       "card": next(c for c in game.state.hands[seat] if c not in keep)}, rng(game))
    assert game.state.day == 2 and game.state.gabelle == 3 and game.state.current == "p2"
    for seat in ("p2", "p3"):
        _, game = act(game, seat, {"type": "nothing"}, rng(game))
        _, game = act(game, seat, {"type": "end"}, rng(game))
    assert game.state.mulons["p1"] == 3 and game.state.liards["p1"] == 0
    _, game = act(game, "p1", {"type": "sell"}, rng(game), window=True)
    _, game = act(game, "p2", play("E39", "Grande Gabelle"), rng(game), window=True)
    while game.state.pending is not None:
        _, game = act(game, game.state.asked[0], {"type": "pass"}, rng(game), window=True)
    events = []
    while game.state.window is not None:
        more, game = act(game, game.state.window.waiting[0], {"type": "pass"}, rng(game), window=True)
        events += more
    assert game.state.gabelle == 4 and SacrificeOwed(seat="p1") in events
    assert game.state.liards["p1"] == 3 and SALINE.to_act(game.state) == ["p1"]
    assert [c["type"] for c in legal(game, "p1")] == ["sacrifice", "sacrifice"]
    events, game = act(game, "p1", {"type": "sacrifice", "position": "S"}, rng(game))
    assert [e for e in events if isinstance(e, OeilletSacrificed)] and "S" not in game.state.salines["p1"]
    assert game.state.liards["p1"] == 3  # "but keep your liards"


def test_a_saline_1_0_0_record_still_verifies():
    """A record made under saline 1.0.0 (before these windows; tests/rules/saline/records) replays
    and verifies under 1.1.0: the game is played by the rules it was recorded under."""
    record = decode_record((RECORDS / "saline_1_0_0.json").read_bytes())
    assert record.header.rules_version == "1.0.0"
    assert verify(record).ok


def test_out_of_turn_over_http_each_seat_with_its_own_token_and_keys(client):
    """Over HTTP: the seats waiting in a window are in ``to_act``, each lists its own commands with its
    own token, acts with its own Idempotency-Keys (the same key in two seats is two commands), and the
    seat whose action waits is refused."""
    game = new_game(client, "saline", ("p1", "p2", "p3"), seed="26" * 32)
    assert post(client, game, "p1", {"type": "prepare"}).status_code == 201
    while True:
        summary = client.get(f"/games/{game['id']}").json()
        if summary["view"]["phase"] == "day":
            break
        assert post(client, game, summary["to_act"][0], {"type": "place", "position": "N"}).status_code == 201
    holder = summary["to_act"][0]
    posted = post(client, game, holder, {"type": "nothing"})
    assert posted.status_code == 201, posted.text
    summary = client.get(f"/games/{game['id']}").json()
    waiting = summary["to_act"]
    assert len(waiting) == 2 and holder not in waiting and summary["view"]["window"]["seat"] == holder
    assert summary["window"] == {"holder": holder, "step": "nothing", "seats": waiting, "waiting": waiting}
    for seat in waiting:
        auth = {"Authorization": f"Bearer {game['seat_tokens'][seat]}"}
        listed = client.get(f"/games/{game['id']}/legal-commands", params={"seat": seat}, headers=auth).json()
        assert {"type": "pass"} in listed["commands"]
        assert listed["prompt"] and "triangle" in listed["prompt"]
        assert all(c["type"] in ("play", "pass") for c in listed["commands"])
    refused_ = post(client, game, holder, {"type": "end"})
    assert refused_.status_code in (409, 422) and refused_.json()["code"] == "not_your_turn"
    first, second = waiting
    key = {"Idempotency-Key": "window-1"}
    a = client.post(f"/games/{game['id']}/commands", json={"seat": first, "command": {"type": "pass"}},
                    headers={"Authorization": f"Bearer {game['seat_tokens'][first]}", **key})
    assert a.status_code == 201, a.text
    again = client.post(f"/games/{game['id']}/commands", json={"seat": first, "command": {"type": "pass"}},
                        headers={"Authorization": f"Bearer {game['seat_tokens'][first]}", **key})
    assert again.json()["version"] == a.json()["version"]  # a retry: the first answer, nothing new
    wrong = client.post(f"/games/{game['id']}/commands", json={"seat": second, "command": {"type": "pass"}},
                        headers={"Authorization": f"Bearer {game['seat_tokens'][first]}", **key})
    assert wrong.status_code in (401, 403)  # another seat's token
    b = client.post(f"/games/{game['id']}/commands", json={"seat": second, "command": {"type": "pass"}},
                    headers={"Authorization": f"Bearer {game['seat_tokens'][second]}", **key})
    assert b.status_code == 201, b.text  # the same key, the other seat's own: its own command
    kinds = [e["type"] for e in b.json()["events"]]
    assert "saline.WindowClosed" in kinds and "saline.ActionTaken" in kinds
    assert client.get(f"/games/{game['id']}").json()["to_act"] == [holder]


def test_a_card_played_in_a_window_over_http(client):
    """Over HTTP, a waiting seat plays a card bearing the triangle (or its favour) with its own token:
    the card is answered, resolves, and the window opens again to everyone who may play."""
    game = new_game(client, "saline", ("p1", "p2", "p3"), seed="27" * 32)
    assert post(client, game, "p1", {"type": "prepare"}).status_code == 201
    while (summary := client.get(f"/games/{game['id']}").json())["view"]["phase"] != "day":
        assert post(client, game, summary["to_act"][0], {"type": "place", "position": "N"}).status_code == 201
    holder = summary["to_act"][0]
    assert post(client, game, holder, {"type": "nothing"}).status_code == 201
    player = client.get(f"/games/{game['id']}").json()["to_act"][0]
    auth = {"Authorization": f"Bearer {game['seat_tokens'][player]}"}
    listed = client.get(f"/games/{game['id']}/legal-commands", params={"seat": player}, headers=auth).json()
    favour = next(c for c in listed["commands"] if c["type"] == "play" and c["card"] == "favour"
                  and c["effect"] == "Grande Gabelle")
    gabelle = client.get(f"/games/{game['id']}").json()["view"]["gabelle"]
    assert post(client, game, player, favour).status_code == 201
    while (summary := client.get(f"/games/{game['id']}").json())["view"]["pending"]:
        assert post(client, game, summary["to_act"][0], {"type": "pass"}).status_code == 201
    assert summary["view"]["gabelle"] == min(6, gabelle + 1)
    assert summary["view"]["window"]["seat"] == holder and player in summary["to_act"]
