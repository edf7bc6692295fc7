"""What only the director (or an admin) may do, and how each act shows in the standings and
the tournament's history: adjustments, forfeits, withdrawals, byes — each with its reason."""

from __future__ import annotations

import random

from tests.conftest import ADMIN_TOKEN, new_game, post
from tests.tournaments.sim import my_seat_tokens, open_tournament, pair, play_open_table

PLAYERS = ["Ann", "Bert", "Cid", "Dora"]


def _history(client, run) -> list[dict]:
    page = client.get(f"/tournaments/{run.id}/events", params={"limit": 1000}).json()
    events = page["events"]
    for before, after in zip(events, events[1:]):
        assert after["prev_hash"] == before["hash"] and after["version"] == before["version"] + 1
    return events


def _standings(client, run) -> list[dict]:
    return client.get(f"/tournaments/{run.id}/standings").json()["standings"]


def _play_round(client, run, number, rng, winner="p1"):
    tokens = my_seat_tokens(client, run, number)
    for table in run.rounds[-1]["tables"]:
        play_open_table(client, table["game"], tokens[table["game"]], rng, moves=1,
                        outcome={"winner": winner, "reason": "simulated"})


def test_an_adjustment_changes_the_standings_and_the_history_says_why(client):
    rng = random.Random("adjust")
    run = open_tournament(client, PLAYERS, rules="open-table", format="swiss", rounds=2)
    pair(client, run)
    _play_round(client, run, 1, rng)
    before = _standings(client, run)
    last = before[-1]["player"]
    reason = "Arbiter: opponent's clock misread in round 1; half point restored"
    adjusted = client.post(f"/tournaments/{run.id}/adjustments", headers=run.director,
                           json={"player": last, "points": 1.5, "reason": reason, "round": 1})
    assert adjusted.status_code == 200, adjusted.text
    after = _standings(client, run)
    assert after[0]["player"] == last and after[0]["points"] == before[-1]["points"] + 1.5
    assert after[0]["adjustment"] == 1.5
    entry = _history(client, run)[-1]
    assert entry["type"] == "PointsAdjusted"
    assert entry["data"] == {"player": last, "points": 1.5, "reason": reason, "round": 1}


def test_director_actions_need_the_director_or_admin_token(client):
    run = open_tournament(client, PLAYERS[:2], rules="open-table", format="swiss", rounds=1)
    body = {"player": "Ann", "points": 1, "reason": "test"}
    url = f"/tournaments/{run.id}/adjustments"
    assert client.post(url, json=body).status_code == 401
    player = {"Authorization": f"Bearer {run.players['Ann']}"}
    refused = client.post(url, json=body, headers=player)
    assert refused.status_code == 403 and refused.json()["code"] == "not_director"
    assert refused.headers["content-type"] == "application/problem+json"
    assert client.post(f"/tournaments/{run.id}/rounds", headers=player).status_code == 403
    assert client.post(f"/tournaments/{run.id}/players", json={"name": "X"}, headers=player).status_code == 403
    admin = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
    assert client.post(url, json=body, headers=admin).status_code == 200
    other = open_tournament(client, ["Zed"], rules="open-table", format="swiss", rounds=1)
    assert client.post(url, json=body, headers=other.director).status_code == 403  # another tournament's director
    assert client.get(f"/tournaments/{run.id}/my-games", headers=run.director).status_code == 403


def test_bad_requests_are_problems_not_crashes(client):
    director = open_tournament(client, [], rules="open-table", format="swiss", rounds=1)
    for body, code in [
        ({"name": "X", "rules": "chess", "format": "swiss", "rounds": 3}, "unknown_rules"),
        ({"name": "X", "rules": "open-table", "format": "ladder", "rounds": 3}, "unknown_format"),
        ({"name": "X", "rules": "open-table", "format": "swiss"}, "bad_rounds"),
        ({"name": "X", "rules": "saladin", "scenarios": ["arsuf"], "format": "swiss", "rounds": 3, "table_size": 4},
         "bad_table_size"),
        ({"name": "X", "rules": "open-table", "format": "knockout", "table_size": 4}, "bad_format"),
        ({"name": " ", "rules": "open-table", "format": "swiss", "rounds": 1}, "bad_name"),
        ({"name": "X", "rules": "saladin", "scenarios": ["hattin"], "format": "swiss", "rounds": 1,
          "options": {"fog": True}}, "bad_option"),
        ({"name": "X", "rules": "saladin", "format": "swiss", "rounds": 1}, "no_scenario"),
    ]:
        r = client.post("/tournaments", json=body)
        assert r.status_code == 422 and r.json()["code"] == code, (body, r.text)
    assert client.post("/tournaments", json={"name": "X"}).status_code == 422
    assert client.post("/tournaments", content=b"{", headers={"Content-Type": "application/json"}).status_code == 400
    assert client.get("/tournaments/not-a-uuid").status_code == 422
    nowhere = "/tournaments/00000000-0000-0000-0000-000000000000"
    assert client.get(nowhere).status_code == 404
    assert client.post(f"{nowhere}/rounds", headers={"Authorization": f"Bearer {ADMIN_TOKEN}"}).status_code == 404
    assert client.get(f"{nowhere}/standings").status_code == 404
    assert client.get(f"{nowhere}/games").status_code == 404
    game = new_game(client)
    assert client.get(f"/tournaments/{game['id']}").status_code == 404  # a game is not a tournament
    url = f"/tournaments/{director.id}/players"
    assert client.post(url, json={"name": "Ann"}, headers=director.director).status_code == 201
    assert client.post(url, json={"name": "Ann"}, headers=director.director).json()["code"] == "already_registered"
    one = client.post(f"/tournaments/{director.id}/rounds", headers=director.director)
    assert one.status_code == 409 and one.json()["code"] == "too_few_players"
    assert client.get(f"/tournaments/{director.id}/rounds/1").status_code == 404


def test_forfeit_withdrawal_and_a_spoofed_game(client):
    rng = random.Random("forfeit")
    run = open_tournament(client, PLAYERS, rules="open-table", format="swiss", rounds=3)
    first = pair(client, run)
    early = client.post(f"/tournaments/{run.id}/rounds", headers=run.director)
    assert early.status_code == 409 and early.json()["code"] == "round_unfinished"
    late = client.post(f"/tournaments/{run.id}/players", json={"name": "Late"}, headers=run.director)
    assert late.status_code == 409 and late.json()["code"] == "registration_closed"

    # A game naming this tournament is created by its director alone (issue 30, point 5): anyone
    # else is refused, and none is created for a tournament that does not exist; one the
    # director creates by hand, not paired at a table, is not one of its results.
    ref = {"id": run.id, "round": 1, "table": 1}
    body = {"rules": "open-table", "seats": {"p1": {"player": "A"}, "p2": {"player": "B"}}, "tournament": ref}
    assert client.post("/games", json=body).status_code == 401
    assert client.post("/games", json=body, headers={"Authorization": "Bearer guess"}).json()["code"] == "not_director"
    missing = client.post("/games", json={**body, "tournament": {**ref, "id": "no-such-cup"}}, headers=run.director)
    assert missing.status_code == 404, missing.text
    listed = {g["id"] for g in client.get("/games", params={"tournament": run.id}).json()["games"]}
    assert listed == {table["game"] for table in first["tables"]}  # the paired ones, nothing else
    spoof = client.post("/games", json=body, headers=run.director).json()
    for seat in ("p1", "p2"):
        post(client, spoof, seat, {"type": "end", "outcome": {"winner": "p1"}})

    forfeited_table, played_table = first["tables"]
    absent = forfeited_table["seats"]["p2"]
    reason = "did not arrive within 30 minutes"
    r = client.post(f"/tournaments/{run.id}/forfeits", headers=run.director,
                    json={"game": forfeited_table["game"], "forfeited": [absent], "reason": reason})
    assert r.status_code == 200, r.text
    tokens = my_seat_tokens(client, run, 1)
    play_open_table(client, played_table["game"], tokens[played_table["game"]], rng, moves=1,
                    outcome={"winner": "p2", "reason": "simulated"})
    round1 = client.get(f"/tournaments/{run.id}/rounds/1").json()
    assert [t["status"] for t in round1["tables"]] == ["forfeit", "ended"]
    assert round1["tables"][0]["reason"] == reason
    points = {r["player"]: r["points"] for r in _standings(client, run)}
    assert points[absent] == 0 and points[forfeited_table["seats"]["p1"]] == 1
    assert points[played_table["seats"]["p2"]] == 1 and sum(points.values()) == 2

    w = client.post(f"/tournaments/{run.id}/players/{absent}/withdraw", headers=run.director,
                    json={"reason": "left the venue"})
    assert w.status_code == 200 and w.json()["players"][PLAYERS.index(absent)]["withdrawn_after"] == 1
    second = pair(client, run)
    seated = [p for t in second["tables"] for p in t["seats"].values()]
    assert absent not in seated and len(second["byes"]) == 1 and second["byes"][0]["player"] != absent
    types = [e["type"] for e in _history(client, run)]
    assert types[:5] == ["TournamentCreated"] + ["PlayerRegistered"] * 4
    assert types[5:] == ["RoundPaired", "ForfeitRecorded", "ResultRecorded", "PlayerWithdrawn", "RoundPaired",
                         "ByeAssigned"]
    row = next(r for r in client.get(f"/tournaments/{run.id}/crosstable").json()["rows"] if r["player"] == absent)
    assert row["rounds"][0]["kind"] == "forfeit" and row["rounds"][1]["kind"] == "none"


def test_two_directors_pairing_at_once_pair_one_round(client):
    from concurrent.futures import ThreadPoolExecutor

    run = open_tournament(client, PLAYERS, rules="open-table", format="swiss", rounds=2)
    with ThreadPoolExecutor(4) as pool:
        answers = list(pool.map(lambda _: client.post(f"/tournaments/{run.id}/rounds", headers=run.director),
                                range(4)))
    assert sorted(a.status_code for a in answers) == [201, 409, 409, 409]
    assert {a.json()["code"] for a in answers if a.status_code == 409} == {"round_unfinished"}
    games = client.get("/games", params={"tournament": run.id}).json()["games"]
    assert len(games) == 2 and client.get(f"/tournaments/{run.id}").json()["current_round"] == 1


def test_the_director_rules_on_disputes_in_the_tournaments_games_only(client):
    """Issue 5: an umpire is the admin token or the tournament's director."""
    run = open_tournament(client, PLAYERS[:2], rules="open-table", format="swiss", rounds=1)
    pair(client, run)
    table = run.rounds[-1]["tables"][0]
    tokens = my_seat_tokens(client, run, 1)[table["game"]]
    seat, token = sorted(tokens.items())[0]
    raised = client.post(f"/games/{table['game']}/disputes", headers={"Authorization": f"Bearer {token}"},
                         json={"seat": seat, "about_version": 1, "reason": "wrong seating"})
    assert raised.status_code == 201, raised.text
    dispute = raised.json()["events"][0]["version"]
    ruling = {"dispute": dispute, "ruling": "rejected", "reason": "seating checked"}
    player = client.post(f"/games/{table['game']}/rulings", json=ruling,
                         headers={"Authorization": f"Bearer {run.players['Ann']}"})
    assert player.status_code == 403 and player.json()["code"] == "not_umpire"
    director = client.post(f"/games/{table['game']}/rulings", json=ruling, headers=run.director)
    assert director.status_code == 201, director.text
    # the same director is no umpire of a game outside the tournament
    other = new_game(client)
    raised = client.post(f"/games/{other['id']}/disputes",
                         headers={"Authorization": f"Bearer {other['seat_tokens']['alice']}"},
                         json={"seat": "alice", "about_version": 1, "reason": "x"}).json()
    outside = client.post(f"/games/{other['id']}/rulings", headers=run.director,
                          json={"dispute": raised["events"][0]["version"], "ruling": "rejected", "reason": "x"})
    assert outside.status_code == 403
