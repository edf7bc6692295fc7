"""Issue 11, point 2: once a seed is public no die may be drawn from it. A ruling that
reveals the seed of a game in play ends the game (GameEnded, no winner, then SeedRevealed;
docs/DECISIONS.md "Record proof"), so nobody can predict its next dice, and no "same dice" fork
can preview them. To play on, fork it from before the reveal: the fork has its own commitment,
and its record verifies."""

from __future__ import annotations

import hashlib

from tests.conftest import ADMIN_TOKEN, new_game, post
from tests.records import expanded

UMPIRE = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
ROLL = {"type": "roll", "label": "charge", "dice": "3d6"}


def revealed_game(client):
    """A game in play whose seed an umpire reveals: the game, and the version before the ruling."""
    game = new_game(client)
    post(client, game, "alice", ROLL)
    gid = game["id"]
    raised = client.post(f"/games/{gid}/disputes", headers={"Authorization": f"Bearer {game['seat_tokens']['bob']}"},
                         json={"seat": "bob", "about_version": 3, "reason": "were those dice fair?"})
    dispute = raised.json()["events"][0]["version"]
    ruled = client.post(f"/games/{gid}/rulings", headers=UMPIRE,
                        json={"dispute": dispute, "ruling": "rejected", "reason": "see for yourself",
                              "reveal_seed": True})
    assert ruled.status_code == 201, ruled.text
    return game, dispute, ruled.json()


def test_revealing_the_seed_ends_the_game_and_no_die_is_drawn_after(client):
    game, dispute, ruled = revealed_game(client)
    assert [e["type"] for e in ruled["events"]] == ["DisputeRuled", "GameEnded", "SeedRevealed"]
    ended = ruled["events"][1]["data"]["outcome"]
    assert ended["winner"] is None and f"dispute {dispute}" in ended["reason"]
    summary = client.get(f"/games/{game['id']}").json()
    assert summary["status"] == "ended" and summary["to_act"] == []
    assert hashlib.sha256(bytes.fromhex(summary["seed"])).hexdigest() == game["seed_commitment"]
    refused = post(client, game, "alice", ROLL)
    assert refused.status_code == 422 and refused.json()["code"] == "game_over"
    record = expanded(client.get(f"/games/{game['id']}/record").content)
    assert client.post("/records/verify", json=record).json()["ok"]


def test_a_same_dice_fork_previews_nothing_the_parent_can_still_roll(client):
    game, dispute, _ = revealed_game(client)
    fork = client.post(f"/games/{game['id']}/fork", json={"version": dispute, "dice": "same"})
    assert fork.status_code == 201, fork.text
    previewed = post(client, fork.json(), "alice", ROLL)
    assert previewed.status_code == 201  # the fork may roll the seed's next dice for study ...
    assert post(client, game, "alice", ROLL).status_code == 422  # ... the parent never will


def test_a_fork_of_a_revealed_game_has_its_own_commitment_and_its_record_verifies(client):
    game, dispute, ruled = revealed_game(client)
    for dice in ("fresh", "same"):
        made = client.post(f"/games/{game['id']}/fork", json={"version": dispute, "dice": dice})
        assert made.status_code == 201, made.text
        fork = made.json()
        post(client, fork, "alice", ROLL)
        record = expanded(client.get(f"/games/{fork['id']}/record").content)
        assert not any(e["type"] == "SeedRevealed" for e in record["events"])
        assert (fork["seed_commitment"] != game["seed_commitment"]) == (dice == "fresh")
        verdict = client.post("/records/verify", json=record).json()
        assert verdict["ok"], verdict


def test_no_fork_carries_the_parents_reveal(client):
    game, _, ruled = revealed_game(client)
    for event in ruled["events"]:  # the ruling itself is taken whole with its GameEnded and SeedRevealed
        refused = client.post(f"/games/{game['id']}/fork", json={"version": event["version"], "dice": "fresh"})
        assert refused.status_code == 422 and refused.json()["code"] == "fork_after_end"


def test_a_fork_inside_a_command_takes_the_whole_command_and_verifies(client):
    game = new_game(client)
    post(client, game, "alice", ROLL)  # v2 DecisionTaken, v3 DiceRolled
    made = client.post(f"/games/{game['id']}/fork", json={"version": 2, "dice": "fresh"})
    assert made.status_code == 201, made.text
    fork = made.json()
    assert fork["version"] == 3 and client.get(f"/games/{fork['id']}").json()["fork"]["version"] == 3
    post(client, fork, "bob", ROLL)
    verdict = client.post("/records/verify", json=expanded(client.get(f"/games/{fork['id']}/record").content)).json()
    assert verdict["ok"], verdict
