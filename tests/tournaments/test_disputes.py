"""A dispute upheld in a tournament game changes the result the standings count, and the
tournament's history shows why, linked to the ruling in the game's own record."""

from __future__ import annotations

from replays.archive import decode_archive, verify_archive
from tests.conftest import ADMIN_TOKEN
from tests.tournaments.sim import my_seat_tokens, open_tournament, pair, send

UMPIRE = {"Authorization": f"Bearer {ADMIN_TOKEN}"}


def test_an_upheld_dispute_changes_the_standings_and_the_history_says_why(client):
    run = open_tournament(client, ["Ann", "Bob"], rules="open-table", format="swiss", rounds=1)
    table = pair(client, run)["tables"][0]
    game, tokens = table["game"], my_seat_tokens(client, run, 1)[table["game"]]
    ann, bob = (next(s for s, p in table["seats"].items() if p == name) for name in ("Ann", "Bob"))

    # Ann rolls the decisive charge out of turn and claims the win.
    charge = send(client, game, ann, tokens[ann], {"type": "roll", "label": "decisive charge", "dice": "3d6"})
    send(client, game, ann, tokens[ann], {"type": "end", "outcome": {"winner": ann, "reason": "the charge"}})
    disputed = client.post(f"/games/{game}/disputes", headers={"Authorization": f"Bearer {tokens[bob]}"},
                           json={"seat": bob, "about_version": charge["events"][0]["version"],
                                 "reason": "Ann charged out of turn", "freeze": True})
    assert disputed.status_code == 201, disputed.text
    dispute = disputed.json()["events"][0]["version"]
    assert client.get(f"/tournaments/{run.id}/rounds/1").json()["tables"][0]["status"] == "playing"

    reason = "the charge was rolled out of turn: play from it is void"
    ruled = client.post(f"/games/{game}/rulings", headers=UMPIRE,
                        json={"dispute": dispute, "ruling": "upheld", "reason": reason,
                              "void_from": charge["events"][0]["version"]})
    assert ruled.status_code == 201, ruled.text
    ruling_event = ruled.json()["events"][0]
    assert client.get(f"/games/{game}").json()["view"]["end_proposals"] == {}  # Ann's claim is voided

    # Play goes on in turn; this time Bob's counter-charge wins and both seats agree.
    send(client, game, bob, tokens[bob], {"type": "roll", "label": "counter-charge", "dice": "3d6"})
    for seat in (ann, bob):
        send(client, game, seat, tokens[seat], {"type": "end", "outcome": {"winner": bob, "reason": "rout"}})

    standings = {r["player"]: r["points"] for r in
                 client.get(f"/tournaments/{run.id}/standings").json()["standings"]}
    assert standings == {"Bob": 1.0, "Ann": 0.0}  # Ann's voided claim would have given her the point

    history = client.get(f"/tournaments/{run.id}/events").json()["events"]
    noted, result = history[-2], history[-1]
    assert noted["type"] == "RulingNoted" and result["type"] == "ResultRecorded"
    assert noted["data"]["ruling"] == "upheld" and noted["data"]["reason"] == reason
    assert (noted["data"]["version"], noted["data"]["hash"]) == (ruling_event["version"], ruling_event["hash"])
    assert f"dispute {dispute} upheld ({reason})" in result["data"]["reason"]
    assert result["data"]["outcome"]["winner"] == bob
    shown = client.get(f"/tournaments/{run.id}/rounds/1").json()["tables"][0]
    assert shown["status"] == "ended" and shown["rulings"][0]["reason"] == reason
    assert "upheld" in shown["reason"]

    archive = decode_archive(client.get(f"/tournaments/{run.id}/archive").content)
    verdict = verify_archive(archive)
    assert verdict.ok, verdict.problems


def test_a_rejected_dispute_is_noted_and_changes_nothing(client):
    run = open_tournament(client, ["Ann", "Bob"], rules="open-table", format="swiss", rounds=1)
    table = pair(client, run)["tables"][0]
    game, tokens = table["game"], my_seat_tokens(client, run, 1)[table["game"]]
    roll = send(client, game, "p1", tokens["p1"], {"type": "roll", "label": "charge", "dice": "1d6"})
    disputed = client.post(f"/games/{game}/disputes", headers={"Authorization": f"Bearer {tokens['p2']}"},
                           json={"seat": "p2", "about_version": roll["events"][0]["version"], "reason": "loaded die"})
    dispute = disputed.json()["events"][0]["version"]
    client.post(f"/games/{game}/rulings", headers=UMPIRE,
                json={"dispute": dispute, "ruling": "rejected", "reason": "the die is fair"})
    for seat in ("p1", "p2"):
        send(client, game, seat, tokens[seat], {"type": "end", "outcome": {"winner": "p1"}})
    history = client.get(f"/tournaments/{run.id}/events").json()["events"]
    assert [e["type"] for e in history[-2:]] == ["RulingNoted", "ResultRecorded"]
    assert history[-2]["data"]["ruling"] == "rejected" and history[-1]["data"]["reason"] == "GameEnded"
    standings = client.get(f"/tournaments/{run.id}/standings").json()["standings"]
    assert standings[0]["player"] == table["seats"]["p1"] and standings[0]["points"] == 1
