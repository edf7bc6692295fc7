"""Issue 5: dice statistics — counts per face, expected counts, chi-square and p-value."""

from __future__ import annotations

from uuid import UUID

from api.wire.games import CommandRequest
from tests.conftest import new_game, post


def test_ten_thousand_fair_rolls_pass_the_chi_square_test(client, herald):
    game = new_game(client, seats=("alice",))
    gid, token = UUID(game["id"]), game["seat_tokens"]["alice"]
    for _ in range(100):
        herald.games.command(gid, CommandRequest("alice", {"type": "roll", "label": "fair", "dice": "100d6"}), token)
    report = client.get(f"/games/{game['id']}/dice").json()
    (d6,) = report["kinds"]
    assert d6["kind"] == "d6" and d6["rolls"] == 10_000
    assert sum(d6["counts"].values()) == 10_000 and d6["expected"] == {str(f): round(10_000 / 6, 3) for f in range(1, 7)}
    assert d6["p_value"] > 0.001  # fair dice: a p-value this small would happen once in a thousand runs
    assert report["flagged"] is False and report["by_seat"]["alice"][0]["rolls"] == 10_000


def test_saladin_die_expected_counts_follow_its_faces(client):
    game = new_game(client, seats=("alice",))
    post(client, game, "alice", {"type": "roll", "label": "loose", "dice": "60xsaladin-combat"})
    (kind,) = client.get(f"/games/{game['id']}/dice").json()["kinds"]
    assert kind["expected"] == {"blank": 20.0, "stroke": 20.0, "double": 10.0, "slash": 10.0}


def test_player_dice_across_games(client):
    for _ in range(2):
        game = new_game(client, seats=("solo",), )
        post(client, game, "solo", {"type": "roll", "label": "x", "dice": "5d20"})
    report = client.get("/players/Solo/dice").json()
    d20 = next(k for k in report["kinds"] if k["kind"] == "d20")
    assert d20["rolls"] >= 10


def test_a_fork_does_not_count_its_parents_rolls_again(client):
    """Forking copies the parent's play: counting those rolls again would let anyone, with no
    token, inflate a player's statistics by forking a game over and over."""
    game = new_game(client, seats=("forkless",))
    post(client, game, "forkless", {"type": "roll", "label": "x", "dice": "3d6"})
    post(client, game, "forkless", {"type": "end", "outcome": {"winner": "forkless", "reason": "alone"}})
    before = client.get("/players/Forkless/dice").json()
    for _ in range(3):
        response = client.post(f"/games/{game['id']}/fork", json={"version": 3, "dice": "same"})
        assert response.status_code == 201, response.text
    after = client.get("/players/Forkless/dice").json()
    assert [k["rolls"] for k in after["kinds"]] == [k["rolls"] for k in before["kinds"]] == [3]
    fork = response.json()
    post(client, fork, "forkless", {"type": "roll", "label": "y", "dice": "2d6"})
    assert client.get("/players/Forkless/dice").json()["kinds"][0]["rolls"] == 5  # the fork's own rolls count
