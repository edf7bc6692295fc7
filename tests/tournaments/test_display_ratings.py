"""Issue 29, "Ratings people read": "A familiar display scale (documented mapping from
OpenSkill), the change per game, a history per player and rule system, and ratings on the
tournament page and in the viewer." The scale: display = round(1500 + 30 × ordinal),
ordinal = mu − 3·sigma (projections/ratings.py, README "Ratings")."""

from __future__ import annotations

from tests.tournaments.test_vouched_ratings import create, finish, register


def vouched_game(client, tokens: dict[str, str], winner: str = "p1") -> str:
    game = create(client, {"p1": {"player": "Ann", "player_token": tokens["Ann"]},
                           "p2": {"player": "Bob", "player_token": tokens["Bob"]}}).json()
    end = {"type": "end", "outcome": {"winner": winner}}
    for seat, token in game["seat_tokens"].items():
        assert client.post(f"/games/{game['id']}/commands", json={"seat": seat, "command": end},
                           headers={"Authorization": f"Bearer {token}"}).status_code == 201
    return game["id"]


def test_each_rated_game_shows_its_change_and_the_history_adds_up(client):
    tokens = {name: register(client, name) for name in ("Ann", "Bob")}
    unrated = create(client, {"p1": {"player": "Ann"}, "p2": {"player": "Bob"}}).json()
    finish(client, unrated)
    assert client.get(f"/games/{unrated['id']}/ratings").json()["changes"] == []
    games = [vouched_game(client, tokens, winner) for winner in ("p1", "p1", "p2")]

    first = client.get(f"/games/{games[0]}/ratings").json()
    assert first["scale"].startswith("display = round(1500 + 30 × ordinal)")
    changes = {c["player"]: c for c in first["changes"]}
    assert changes["Ann"]["before"] == changes["Bob"]["before"] == 1500  # newcomers: ordinal 0
    assert changes["Ann"]["change"] > 0 and changes["Ann"]["after"] == 1500 + changes["Ann"]["change"]
    ordinal = changes["Ann"]["mu"] - 3 * changes["Ann"]["sigma"]
    assert changes["Ann"]["after"] == round(1500 + 30 * ordinal)

    history = client.get("/players/Ann/ratings/open-table").json()
    assert [h["game"] for h in history["history"]] == games
    for before, after in zip(history["history"], history["history"][1:]):
        assert after["before"] == before["after"]  # each game starts where the last left off
    assert history["ratings"][0]["display"] == history["history"][-1]["after"]
    profile = client.get("/players/Ann").json()["ratings"][0]
    assert profile["display"] == round(1500 + 30 * profile["ordinal"])
    assert client.get("/players/Nobody/ratings/open-table").json()["history"] == []


def test_a_tournaments_players_ratings_are_on_its_page(client):
    from tests.tournaments.sim import open_tournament

    tokens = {name: register(client, name) for name in ("Ann", "Bob")}
    vouched_game(client, tokens)
    run = open_tournament(client, ["Ann", "Bob", "Cid"], rules="open-table", format="swiss", rounds=1)
    shown = client.get(f"/tournaments/{run.id}/ratings").json()
    assert shown["rules"] == "open-table"
    assert shown["ratings"]["Cid"] == []
    assert shown["ratings"]["Ann"][0]["display"] > 1500 > shown["ratings"]["Bob"][0]["display"]
    assert client.get("/tournaments/00000000-0000-4000-8000-000000000000/ratings").status_code == 404
