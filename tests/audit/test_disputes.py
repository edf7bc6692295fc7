"""Issue 5: disputes and rulings as events; voided play stays in the record; the state is
refolded without it; dice already drawn are never drawn again."""

from tests.conftest import ADMIN_TOKEN, new_game, post
from tests.records import expanded

UMPIRE = {"Authorization": f"Bearer {ADMIN_TOKEN}"}


def seat_headers(game, seat):
    return {"Authorization": f"Bearer {game['seat_tokens'][seat]}"}


def test_dispute_upheld_with_void_refolds_state_and_keeps_dice_drawn(client):
    game = new_game(client)
    gid = game["id"]
    post(client, game, "alice", {"type": "shuffle", "deck": "standard-54"})          # v2-3, draws 0..52
    post(client, game, "alice", {"type": "draw", "deck": "standard-54", "count": 2})  # v4-5
    post(client, game, "bob", {"type": "roll", "label": "disputed charge", "dice": "2d6"})  # v6-7, draws 53-54
    post(client, game, "bob", {"type": "draw", "deck": "standard-54", "count": 1})    # v8-9
    assert client.get(f"/games/{gid}").json()["view"]["decks"]["standard-54"]["left"] == 51

    raised = client.post(f"/games/{gid}/disputes", headers=seat_headers(game, "alice"),
                         json={"seat": "alice", "about_version": 6, "reason": "Bob rolled before his turn", "freeze": True})
    assert raised.status_code == 201, raised.text
    dispute = raised.json()["events"][0]["version"]
    listed = client.get("/games", params={"player": "Alice"}).json()["games"]
    assert next(g for g in listed if g["id"] == gid)["open_disputes"] == 1

    frozen = post(client, game, "bob", {"type": "note", "text": "moving on"})
    assert frozen.status_code == 422 and frozen.json()["code"] == "game_frozen"
    assert client.get(f"/games/{gid}").json()["to_act"] == []
    assert client.get(f"/games/{gid}/legal-commands", params={"seat": "bob"},
                      headers=seat_headers(game, "bob")).json()["commands"] == []

    not_umpire = client.post(f"/games/{gid}/rulings", headers=seat_headers(game, "alice"),
                             json={"dispute": dispute, "ruling": "upheld", "reason": "x", "void_from": 6})
    assert not_umpire.status_code == 403 and not_umpire.json()["code"] == "not_umpire"
    nobody = client.post(f"/games/{gid}/rulings",  # no token at all: 401, as the route's security scheme says
                         json={"dispute": dispute, "ruling": "upheld", "reason": "x", "void_from": 6})
    assert nobody.status_code == 401, nobody.text

    ruled = client.post(f"/games/{gid}/rulings", headers=UMPIRE,
                        json={"dispute": dispute, "ruling": "upheld", "reason": "out of turn", "void_from": 6})
    assert ruled.status_code == 201, ruled.text
    ruling = ruled.json()["events"]
    assert [e["type"] for e in ruling] == ["DisputeRuled", "DecisionsVoided", "VoidedCardsReshuffled"]
    # issue 30: Bob's voided draw is seen; the deck is shuffled again at fresh draws (55..107)
    assert ruling[2]["data"]["deck"] == "standard-54" and ruling[2]["data"]["draws"] == list(range(55, 108))

    # The state is refolded without versions 6..9: Bob's roll and his draw are gone.
    view = client.get(f"/games/{gid}").json()["view"]
    assert view["decks"]["standard-54"]["left"] == 52 and view["rolls"] == 0
    # History shows everything, voided play included.
    types = [e["type"] for e in client.get(f"/games/{gid}/events", params={"limit": 100}).json()["events"]]
    assert types.count("DiceRolled") == 1 and "DecisionsVoided" in types
    # The next roll uses the next draw number: dice already drawn (and the reshuffle's) stay drawn.
    again = post(client, game, "bob", {"type": "roll", "label": "the charge, in turn", "dice": "1d6"}).json()
    assert again["events"][1]["data"]["draws"] == [108]
    # The state at a version before the ruling is what it was then.
    assert client.get(f"/games/{gid}/state", params={"at": 9}).json()["view"]["decks"]["standard-54"]["left"] == 51
    # The index no longer counts an open dispute, and the record verifies.
    listed = client.get("/games", params={"player": "Alice"}).json()["games"]
    assert next(g for g in listed if g["id"] == gid)["open_disputes"] == 0
    record = expanded(client.get(f"/games/{gid}/record").content)
    verdict = client.post("/records/verify", json=record).json()
    assert verdict["ok"], verdict
    disputes = client.get(f"/games/{gid}/disputes").json()["events"]
    assert [e["type"] for e in disputes] == ["DisputeRaised", "DisputeRuled", "DecisionsVoided", "VoidedCardsReshuffled"]


def test_rejected_dispute_changes_nothing(client):
    game = new_game(client)
    gid = game["id"]
    post(client, game, "alice", {"type": "roll", "label": "x", "dice": "1d6"})
    d = client.post(f"/games/{gid}/disputes", headers=seat_headers(game, "bob"),
                    json={"seat": "bob", "about_version": 3, "reason": "loaded die"}).json()["events"][0]["version"]
    before = client.get(f"/games/{gid}").json()["view"]
    r = client.post(f"/games/{gid}/rulings", headers=UMPIRE, json={"dispute": d, "ruling": "rejected", "reason": "fair"})
    assert r.status_code == 201
    assert client.get(f"/games/{gid}").json()["view"] == before
    bad = client.post(f"/games/{gid}/rulings", headers=UMPIRE, json={"dispute": d, "ruling": "upheld", "reason": "again"})
    assert bad.status_code == 422 and bad.json()["code"] == "audit.no_open_dispute"


def test_umpire_ruling_reveals_the_seed(client):
    game = new_game(client)
    gid = game["id"]
    d = client.post(f"/games/{gid}/disputes", headers=seat_headers(game, "bob"),
                    json={"seat": "bob", "about_version": 1, "reason": "show us the seed"}).json()["events"][0]["version"]
    assert client.get(f"/games/{gid}").json()["seed"] is None
    r = client.post(f"/games/{gid}/rulings", headers=UMPIRE,
                    json={"dispute": d, "ruling": "upheld", "reason": "audit", "reveal_seed": True})
    assert [e["type"] for e in r.json()["events"]] == ["DisputeRuled", "GameEnded", "SeedRevealed"]
    import hashlib
    seed = client.get(f"/games/{gid}").json()["seed"]
    assert hashlib.sha256(bytes.fromhex(seed)).hexdigest() == game["seed_commitment"]


def test_all_seats_agree_to_abandon(client):
    game = new_game(client)
    gid = game["id"]
    first = client.post(f"/games/{gid}/abandon", headers=seat_headers(game, "alice"), json={"seat": "alice"})
    assert [e["type"] for e in first.json()["events"]] == ["AbandonAgreed"]
    assert client.get(f"/games/{gid}").json()["seed"] is None
    twice = client.post(f"/games/{gid}/abandon", headers=seat_headers(game, "alice"), json={"seat": "alice"})
    assert twice.status_code == 422
    last = client.post(f"/games/{gid}/abandon", headers=seat_headers(game, "bob"), json={"seat": "bob"})
    assert [e["type"] for e in last.json()["events"]] == ["AbandonAgreed", "GameEnded", "SeedRevealed"]
    summary = client.get(f"/games/{gid}").json()
    assert summary["status"] == "ended" and summary["seed"] and summary["outcome"]["winner"] is None
    assert client.post("/records/verify", json=expanded(client.get(f"/games/{gid}/record").content)).json()["ok"]


def test_annotations_are_listed_exported_and_change_nothing(client):
    game = new_game(client)
    gid = game["id"]
    post(client, game, "alice", {"type": "roll", "label": "x", "dice": "1d6"})
    before = client.get(f"/games/{gid}").json()["view"]
    r = client.post(f"/games/{gid}/annotations", headers=seat_headers(game, "bob"),
                    json={"text": "What if Raymond had not charged?", "at_version": 2,
                          "target": {"piece": "raymond-iii", "location": "tiberias"}, "arrow": ["hattin", "tiberias"]})
    assert r.status_code == 201, r.text
    assert client.get(f"/games/{gid}").json()["view"] == before
    notes = client.get(f"/games/{gid}/annotations").json()["events"]
    assert notes[0]["data"]["by"] == "bob" and notes[0]["data"]["target"]["piece"] == "raymond-iii"
    record = expanded(client.get(f"/games/{gid}/record").content)
    assert any(e["type"] == "Annotated" for e in record["events"])
    assert client.post("/records/verify", json=record).json()["ok"]
    anonymous = client.post(f"/games/{gid}/annotations", json={"text": "hi"})
    assert anonymous.status_code == 401
    empty = client.post(f"/games/{gid}/annotations", headers=UMPIRE, json={"text": "  "})
    assert empty.status_code == 422 and empty.json()["code"] == "audit.bad_text"
