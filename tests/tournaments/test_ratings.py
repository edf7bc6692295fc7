"""Ratings per rule system and scenario (OpenSkill Plackett-Luce), from every finished rated
game whose players are vouched for (a rated tournament's, or a casual game every seat of
which its registered player claimed), shown on GET /players/{name}."""

from __future__ import annotations

from uuid import UUID

from openskill.models import PlackettLuce

from api.wire.games import CommandRequest, CreateGame, SeatRequest
from api.wire.tournaments import CreateTournament
from tests.conftest import new_game, post


REGISTERED: dict[tuple[int, str], str] = {}


def player_token(client, name: str) -> str:
    """``name``'s player token on this client's server (registered on first use)."""
    key = (id(client), name)
    if key not in REGISTERED:
        made = client.post("/players", json={"name": name})
        assert made.status_code == 201, made.text
        REGISTERED[key] = made.json()["player_token"]
    return REGISTERED[key]


def _play(client, players: dict[str, str], outcome: dict, vouched: bool = True, **extra) -> dict:
    seats = {s: {"player": p, **({"player_token": player_token(client, p)} if vouched else {})}
             for s, p in players.items()}
    game = client.post("/games", json={"rules": "open-table", "seats": seats, **extra}).json()
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

    # not rated: a study game (its seed chosen by its creator), an unfinished game, a game
    # whose players did not vouch for it
    _play(client, {"p1": "Ann", "p2": "Bob"}, {"winner": "p2"}, seed="ab" * 16)
    new_game(client, seats=("p1", "p2"))
    _play(client, {"p1": "Ann", "p2": "Bob"}, {"winner": "p2"}, vouched=False)

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


def test_ratings_and_the_tournament_list_rebuild_from_zero_to_the_same(herald):
    tournaments = herald.tournaments
    tokens = {name: herald.players.register(name).player_token for name in ("Ann", "Bob")}
    game = herald.games.create(CreateGame(rules="open-table", seats={"p1": SeatRequest("Ann", tokens["Ann"]),
                                                              "p2": SeatRequest("Bob", tokens["Bob"])}))
    for seat in ("p1", "p2"):
        herald.games.command(UUID(game.id), CommandRequest(seat, {"type": "end", "outcome": {"winner": "p2"}}),
                       game.seat_tokens[seat])
    tournaments.create(CreateTournament(name="Cup", rules="open-table", format="swiss", rounds=1))
    tournaments.catch_up()  # what the app's background follower does
    before = (tournaments.player("Ann"), tournaments.results.list()[0])
    seen: list[int] = []
    tournaments.ratings.rebuild(seen.append)
    tournaments.results.rebuild(seen.append)
    tournaments.catch_up()
    assert (tournaments.player("Ann"), tournaments.results.list()[0]) == before
    assert before[0].ratings[0].games == 1 and len(before[1]) == 1
    assert seen and all(n > 0 for n in seen) and sum(seen) <= 2 * herald.store.recorder.max_notification_id()
