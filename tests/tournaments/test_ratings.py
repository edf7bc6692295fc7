"""Ratings per rule system and scenario (OpenSkill Plackett-Luce), from every finished rated
game, tournament or not, shown on GET /players/{name}."""

from __future__ import annotations

from openskill.models import PlackettLuce

from tests.conftest import new_game, post


def _play(client, players: dict[str, str], outcome: dict, **extra) -> dict:
    game = client.post("/games", json={"rules": "open-table", "seats": {s: {"player": p} for s, p in players.items()},
                                       **extra}).json()
    for seat in players:
        assert post(client, game, seat, {"type": "end", "outcome": outcome}).status_code == 201
    return game


def test_ratings_follow_every_rated_game_and_match_openskill(client):
    model = PlackettLuce()
    ann, bob, cid = model.rating(), model.rating(), model.rating()
    _play(client, {"p1": "Ann", "p2": "Bob"}, {"winner": "p1"})
    [[ann], [bob]] = model.rate([[ann], [bob]], ranks=[1, 2])
    _play(client, {"p1": "Bob", "p2": "Cid", "p3": "Ann"}, {"winner": "p2", "ranking": ["p2", "p3", "p1"]})
    [[bob], [cid], [ann]] = model.rate([[bob], [cid], [ann]], ranks=[3, 1, 2])
    _play(client, {"p1": "Ann", "p2": "Cid"}, {"draw": True})
    [[ann], [cid]] = model.rate([[ann], [cid]], ranks=[1, 1])

    # not rated: a study game (its seed chosen by its creator), an unfinished game
    _play(client, {"p1": "Ann", "p2": "Bob"}, {"winner": "p2"}, seed="ab" * 16)
    new_game(client, seats=("p1", "p2"))

    profile = client.get("/players/Ann").json()
    assert profile["name"] == "Ann" and len(profile["ratings"]) == 1
    rating = profile["ratings"][0]
    assert (rating["rules"], rating["scenario"], rating["games"]) == ("open-table", "table", 3)
    assert abs(rating["mu"] - ann.mu) < 1e-9 and abs(rating["sigma"] - ann.sigma) < 1e-9
    assert abs(rating["ordinal"] - (ann.mu - 3 * ann.sigma)) < 1e-9
    board = client.get("/players", params={"rules": "open-table", "scenario": "table"}).json()["ratings"]
    expected = sorted([("Ann", ann), ("Bob", bob), ("Cid", cid)], key=lambda x: -(x[1].mu - 3 * x[1].sigma))
    assert [r["player"] for r in board] == [name for name, _ in expected]
    assert client.get("/players/Nobody").json() == {"name": "Nobody", "ratings": []}


def test_unrated_tournament_games_leave_ratings_alone(client):
    made = client.post("/tournaments", json={"name": "Friendly", "rules": "open-table", "format": "swiss",
                                             "rounds": 1, "rated": False}).json()
    director = {"Authorization": f"Bearer {made['director_token']}"}
    for name in ("Ann", "Bob"):
        client.post(f"/tournaments/{made['id']}/players", json={"name": name}, headers=director)
    table = client.post(f"/tournaments/{made['id']}/rounds", headers=director).json()["tables"][0]
    game = {"id": table["game"], "seat_tokens": table["seat_tokens"]}
    for seat in ("p1", "p2"):
        post(client, game, seat, {"type": "end", "outcome": {"winner": "p1"}})
    assert client.get("/players/Ann").json()["ratings"] == []
    assert client.get(f"/tournaments/{made['id']}/standings").json()["standings"][0]["points"] == 1
