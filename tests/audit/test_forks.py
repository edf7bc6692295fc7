"""Issue 5: forks for study — same dice, fresh dice, forced faces; the original untouched."""

from __future__ import annotations

from pathlib import Path

from replays.record_format import decode_record
from tests.conftest import ADMIN_TOKEN, new_game, post

SEED = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"
PLAYS = [("alice", {"type": "roll", "label": f"turn {i}", "dice": "3d6"}) for i in range(6)]


def play(client, game, plays):
    return [post(client, game, seat, command).json() for seat, command in plays]


def test_same_dice_fork_replays_the_original_after_the_fork_point(client):
    original = new_game(client, seed=SEED)
    responses = play(client, original, PLAYS)
    fork = client.post(f"/games/{original['id']}/fork", json={"version": 5, "dice": "same"})
    assert fork.status_code == 201, fork.text
    forked = fork.json()
    assert forked["version"] == 5
    summary = client.get(f"/games/{forked['id']}").json()
    assert summary["fork"]["game"] == original["id"] and summary["fork"]["version"] == 5
    # the same decisions after the fork point draw the same dice, byte for byte
    again = play(client, forked, PLAYS[2:])
    for first, second in zip(responses[2:], again):
        assert [e["data"] for e in first["events"]] == [e["data"] for e in second["events"]]
    # the original is untouched and lists its fork
    assert client.get(f"/games/{original['id']}").json()["version"] == 13
    assert forked["id"] in {g["id"] for g in client.get(f"/games/{original['id']}/forks").json()["forks"]}
    record = client.get(f"/games/{forked['id']}/record").json()
    assert client.post("/records/verify", json=record).json()["ok"]


def test_fresh_fork_does_not_reuse_the_seed(client):
    original = new_game(client)
    play(client, original, PLAYS[:2])
    forked = client.post(f"/games/{original['id']}/fork", json={"version": 3, "dice": "fresh"}).json()
    assert forked["seed_commitment"] != original["seed_commitment"]
    assert client.get(f"/games/{forked['id']}").json()["seed"] is None  # a fresh seed is secret as usual
    body = post(client, forked, "alice", {"type": "roll", "label": "x", "dice": "1d6"}).json()
    assert body["events"][1]["data"]["draws"] == [3]  # draw numbers continue from the copied play
    assert client.post("/records/verify", json=client.get(f"/games/{forked['id']}/record").json()).json()["ok"]


def test_same_dice_need_a_public_seed(client):
    original = new_game(client)
    play(client, original, PLAYS[:1])
    refused = client.post(f"/games/{original['id']}/fork", json={"version": 3, "dice": "same"})
    assert refused.status_code == 409 and refused.json()["code"] == "seed_not_revealed"


def test_a_fresh_fork_of_a_shuffled_live_deck_draws_a_fresh_order_of_the_cards_left(client):
    """DESIGN.md "Hidden information": "A fork of a game with secrets, before the reveal, starts
    with fresh dice". The fork draws the first cards of its own order still in the deck."""
    original = new_game(client)
    post(client, original, "alice", {"type": "shuffle", "deck": "standard-54"})
    drawn = post(client, original, "alice", {"type": "draw", "deck": "standard-54", "count": 20}).json()
    before = drawn["events"][1]["data"]["cards"]
    forked = client.post(f"/games/{original['id']}/fork", json={"version": 5, "dice": "fresh"})
    assert forked.status_code == 201, forked.text
    rest = post(client, forked.json(), "bob", {"type": "draw", "deck": "standard-54", "count": 34}).json()
    after = rest["events"][1]["data"]["cards"]
    assert sorted(before + after) == sorted(_standard())
    same = client.post(f"/games/{original['id']}/fork", json={"version": 5, "dice": "same"})
    assert same.status_code == 409 and same.json()["code"] == "seed_not_revealed"


def _standard():
    import json
    from pathlib import Path

    return json.loads((Path(__file__).resolve().parents[2] / "domain/rules/open_table/standard-54.json").read_text())["cards"]


def test_forced_faces_are_recorded_as_forced_and_flagged(client):
    original = new_game(client)
    play(client, original, PLAYS[:1])
    forked = client.post(f"/games/{original['id']}/fork",
                         json={"version": 3, "dice": "forced", "forced": [6, 6, 6]}).json()
    body = post(client, forked, "alice", {"type": "roll", "label": "what if", "dice": "3d6"}).json()
    assert body["events"][1]["type"] == "DiceForced" and body["events"][1]["data"]["faces"] == [6, 6, 6]
    normal = post(client, forked, "alice", {"type": "roll", "label": "then", "dice": "1d6"}).json()
    assert normal["events"][1]["type"] == "DiceRolled"
    wrong = client.post(f"/games/{original['id']}/fork", json={"version": 3, "dice": "forced", "forced": ["x"]}).json()
    refused = post(client, wrong, "alice", {"type": "roll", "label": "x", "dice": "1d6"})
    assert refused.status_code == 422 and refused.json()["code"] == "forced_face_mismatch"
    dice = client.get(f"/games/{forked['id']}/dice").json()
    assert dice["flagged"] is True and dice["forced_dice"] == 3
    record = client.get(f"/games/{forked['id']}/record").json()
    assert record["header"]["study"] is True and record["seed"]
    assert client.post("/records/verify", json=record).json()["ok"]


def test_bad_fork_requests(client):
    original = new_game(client)
    for body, status, code in [
        ({"version": 9}, 422, "no_such_version"),
        ({"version": 1, "dice": "loaded"}, 422, "bad_dice_policy"),
        ({"version": 1, "dice": "fresh", "forced": [1]}, 422, "bad_dice_policy"),
        ({"version": 1, "seats": {"zed": {"player": "Z"}}}, 422, "unknown_seat"),
    ]:
        response = client.post(f"/games/{original['id']}/fork", json=body)
        assert response.status_code == status and response.json()["code"] == code, response.text


def test_a_forks_index_row_is_updated_no_earlier_than_it_was_created(client):
    """Issue 27: "a fork's `updated_at` is earlier than its `created_at`" — its copied play keeps
    the parent's times; the index's updated_at never goes back before the fork's creation."""
    original = new_game(client)
    play(client, original, PLAYS[:3])
    forked = client.post(f"/games/{original['id']}/fork", json={"version": 5, "dice": "fresh"}).json()
    rows = {g["id"]: g for g in client.get(f"/games/{original['id']}/forks").json()["forks"]}
    row = rows[forked["id"]]
    assert row["updated_at"] >= row["created_at"], row
    assert row["version"] == 5


def test_a_fork_of_a_game_recorded_under_older_rules_keeps_them_and_plays_on(client):
    """A fork copies play recorded under its parent's rules version, so it is folded, played on
    and verified under that version, not the server's (Saxon Shore 2.1.0 records no
    PlayerAsked: the 2.2.0 fold could not rebuild its queue of steps)."""
    from replays.verify import verify as verify_record

    raw = (Path(__file__).parents[1] / "rules" / "saxon_shore" / "records" / "saxon-shore-2.1.0.json").read_bytes()
    imported = client.post("/records/import", content=raw, headers={"Authorization": f"Bearer {ADMIN_TOKEN}",
                                                                    "Content-Type": "application/json"})
    assert imported.status_code == 201, imported.text
    parent = imported.json()["id"]
    fork = client.post(f"/games/{parent}/fork", json={"version": imported.json()["version"] // 2, "dice": "fresh"})
    assert fork.status_code == 201, fork.text
    forked = fork.json()
    assert client.get(f"/games/{forked['id']}").json()["rules_version"] == "2.1.0"
    for _ in range(5):  # play goes on in the fork, as 2.1.0 plays
        summary = client.get(f"/games/{forked['id']}").json()
        seat = summary["to_act"][0]
        auth = {"Authorization": f"Bearer {forked['seat_tokens'][seat]}"}
        listed = client.get(f"/games/{forked['id']}/legal-commands", params={"seat": seat}, headers=auth).json()
        sent = client.post(f"/games/{forked['id']}/commands", json={"seat": seat, "command": listed["commands"][0]},
                           headers=auth)
        assert sent.status_code == 201, sent.text
    record = decode_record(client.get(f"/games/{forked['id']}/record").content)
    assert record.header.rules_version == "2.1.0"
    assert "saxon-shore.PlayerAsked" not in {e.type for e in record.events}
    assert verify_record(record).ok
