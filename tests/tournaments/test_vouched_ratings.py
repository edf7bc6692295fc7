"""Issue 11, point 7: forged ratings. Anyone may create and finish a game naming anyone;
ratings and the leaderboard count only games whose players are vouched for: tournament
games (the director registered the players) or casual games every seat of which its
registered player claimed with their token (at creation, or before play starts)."""

from __future__ import annotations


END = {"type": "end", "outcome": {"winner": "p1"}}


def register(client, name: str) -> str:
    made = client.post("/players", json={"name": name})
    assert made.status_code == 201, made.text
    assert made.json()["name"] == name
    return made.json()["player_token"]


def finish(client, game: dict) -> None:
    for seat in game["seat_tokens"]:
        answer = client.post(f"/games/{game['id']}/commands", json={"seat": seat, "command": END},
                             headers={"Authorization": f"Bearer {game['seat_tokens'][seat]}"})
        assert answer.status_code == 201, answer.text


def create(client, seats: dict, **extra):
    return client.post("/games", json={"rules": "open-table", "seats": seats, **extra})


def ratings(client, name: str) -> list:
    return client.get(f"/players/{name}").json()["ratings"]


def test_a_game_naming_players_who_did_not_vouch_moves_no_rating(client):
    ann, bob = register(client, "Ann"), register(client, "Bob")
    # a forger names Ann and Bob without their tokens, ten times, and always "wins" as Ann
    for _ in range(10):
        finish(client, create(client, {"p1": {"player": "Ann"}, "p2": {"player": "Bob"}}).json())
    # or vouches for one seat only (its own sock puppet), or claims a tournament it is not in
    sock = register(client, "Sock")
    finish(client, create(client, {"p1": {"player": "Sock", "player_token": sock}, "p2": {"player": "Bob"}}).json())
    cup = client.post("/tournaments", json={"name": "Cup", "rules": "open-table", "format": "swiss", "rounds": 1}).json()
    finish(client, create(client, {"p1": {"player": "Ann"}, "p2": {"player": "Bob"}},
                          tournament={"id": cup["id"], "round": 1, "table": 1}).json())
    assert ratings(client, "Ann") == [] and ratings(client, "Bob") == [] and ratings(client, "Sock") == []
    assert client.get("/players", params={"rules": "open-table", "scenario": "table"}).json()["ratings"] == []

    # with both players' tokens the same game is rated
    finish(client, create(client, {"p1": {"player": "Ann", "player_token": ann},
                                   "p2": {"player": "Bob", "player_token": bob}}).json())
    assert [(r["player"], r["games"]) for r in
            client.get("/players", params={"rules": "open-table", "scenario": "table"}).json()["ratings"]] == [
        ("Ann", 1), ("Bob", 1)]


def test_a_wrong_or_unknown_token_refuses_the_game(client):
    register(client, "Ann")
    wrong = create(client, {"p1": {"player": "Ann", "player_token": "guess"}, "p2": {"player": "Bob"}})
    assert wrong.status_code == 403 and wrong.json()["code"] == "wrong_token"
    unknown = create(client, {"p1": {"player": "Zed", "player_token": "guess"}, "p2": {"player": "Bob"}})
    assert unknown.status_code == 404 and unknown.json()["code"] == "unknown_player"
    again = client.post("/players", json={"name": "Ann"})
    assert again.status_code == 409 and again.json()["code"] == "name_taken"
    assert client.get("/games").json()["games"] == []  # nothing was created


def test_seats_are_claimed_before_play_starts(client):
    ann, bob = register(client, "Ann"), register(client, "Bob")
    game = create(client, {"p1": {"player": "Ann"}, "p2": {"player": "Bob"}}).json()
    url = f"/games/{game['id']}/seats"
    assert client.post(f"{url}/p1/claim").status_code == 401
    assert client.post(f"{url}/p1/claim", headers={"Authorization": f"Bearer {bob}"}).json()["code"] == "wrong_token"
    claimed = client.post(f"{url}/p1/claim", headers={"Authorization": f"Bearer {ann}"})
    assert claimed.status_code == 201 and claimed.json() == {"game": game["id"], "seat": "p1", "player": "Ann"}
    assert client.post(f"{url}/p2/claim", headers={"Authorization": f"Bearer {bob}"}).status_code == 201
    finish(client, game)
    assert [r["games"] for r in ratings(client, "Ann")] == [1]

    # once a command is recorded, a seat can no longer be claimed (no vouching for a game
    # after seeing how it goes)
    late = create(client, {"p1": {"player": "Ann", "player_token": ann}, "p2": {"player": "Bob"}}).json()
    client.post(f"/games/{late['id']}/commands", json={"seat": "p1", "command": {"type": "note", "text": "hi"}},
                headers={"Authorization": f"Bearer {late['seat_tokens']['p1']}"})
    refused = client.post(f"/games/{late['id']}/seats/p2/claim", headers={"Authorization": f"Bearer {bob}"})
    assert refused.status_code == 409 and refused.json()["code"] == "play_started"


def test_vouching_comes_from_the_record_so_a_rebuild_gives_the_same_ratings(client):
    ann, bob = register(client, "Ann"), register(client, "Bob")
    finish(client, create(client, {"p1": {"player": "Ann", "player_token": ann},
                                   "p2": {"player": "Bob", "player_token": bob}}).json())
    finish(client, create(client, {"p1": {"player": "Ann"}, "p2": {"player": "Bob"}}).json())
    before = ratings(client, "Ann")
    assert [r["games"] for r in before] == [1]
    client.app.state.herald.tournaments.ratings.rebuild()
    assert ratings(client, "Ann") == before
