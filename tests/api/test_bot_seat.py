"""Issue 29, "A bot seat": "A seat can be played by one of the analysis policies, server-side,
recorded like any other decision (its policy and rollouts named in the record), so a player can
practise against it". A real ``herald serve``: a person plays whole games against a bot, over
HTTP, in a dice game (Saladin) and a hidden-hand game (The Kingdoms of Crusaders); the bot moves
after the person's command is answered, and the records verify."""

from __future__ import annotations

import time

import httpx
import pytest

from replays.record_format import decode_record
from replays.verify import verify
from tests.conftest import start_server

POLL = 0.02


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """One real ``herald serve`` for the module (starting one is the slow part here)."""
    found = start_server(tmp_path_factory.mktemp("bots"))
    yield found
    found.stop()


def wait_for_turn(http: httpx.Client, game_id: str, seat: str, timeout: float = 60.0) -> dict:
    """GET /games/{id} until ``seat`` is to act or the game has ended."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        summary = http.get(f"/games/{game_id}").json()
        if summary["status"] == "ended" or seat in summary["to_act"]:
            return summary
        time.sleep(POLL)
    raise AssertionError(f"the bot did not move within {timeout} s: {summary}")


def play_against_bot(http: httpx.Client, body: dict, human: str, limit: int = 1500) -> tuple[dict, list]:
    made = http.post("/games", json=body)
    assert made.status_code == 201, made.text
    game = made.json()
    assert list(game["seat_tokens"]) == [human]  # no token for the bot's seat
    auth = {"Authorization": f"Bearer {game['seat_tokens'][human]}"}
    for _ in range(limit):
        summary = wait_for_turn(http, game["id"], human)
        if summary["status"] == "ended":
            break
        listed = http.get(f"/games/{game['id']}/legal-commands", params={"seat": human}, headers=auth).json()
        sent = http.post(f"/games/{game['id']}/commands", headers=auth,
                         json={"seat": human, "command": listed["commands"][-1], "expected_version": listed["version"]})
        assert sent.status_code in (201, 409), sent.text  # 409: the bot moved in between (a window)
    else:
        raise AssertionError("the game did not end")
    events = []
    after = 0
    while True:
        page = http.get(f"/games/{game['id']}/events", params={"after": after, "limit": 1000}).json()
        events += page["events"]
        if page["next"] is None:
            break
        after = page["next"]
    record = http.get(f"/games/{game['id']}/record").content
    return summary, events, record


def bot_blocks(events: list, bot: str) -> list[tuple[dict, dict]]:
    """Each BotPlayed with the DecisionTaken recorded right after it."""
    return [(a, b) for a, b in zip(events, events[1:]) if a["type"] == "BotPlayed"]


@pytest.mark.parametrize("rules, scenario, human, bot", [
    ("saladin", "arsuf", "crusaders", "ayyubids"),
    ("kingdoms-of-crusaders", "standard", "p1", "p2"),
])
def test_a_person_plays_a_whole_game_against_a_bot(server, rules, scenario, human, bot):
    with httpx.Client(base_url=server.url, timeout=30) as http:
        summary, events, record = play_against_bot(http, {
            "rules": rules, "scenario": scenario,
            "seats": {human: {"player": "Alice"}, bot: {"bot": {"policy": "heuristic"}}}}, human)
    assert summary["status"] == "ended"
    decisions = [e for e in events if e["type"] == "DecisionTaken"]
    by_bot = [e for e in decisions if e["data"].get("seat") == bot or e["data"].get("sealed")]
    blocks = bot_blocks(events, bot)
    assert blocks and len(by_bot) >= len(blocks)
    for played, decision in blocks:  # "its policy and rollouts named in the record"
        assert played["data"] == {"seat": bot, "policy": "heuristic", "rollouts": 0,
                                  "candidates": played["data"]["candidates"]}
        assert played["data"]["candidates"] >= 1
        assert decision["type"] == "DecisionTaken"
    assert all(e["data"].get("seat") != bot for e in decisions if e["type"] == "DecisionTaken"
               and not any(d is e for _, d in blocks) and "seat" in e["data"])
    verdict = verify(decode_record(record))
    assert verdict.ok, verdict.problems


def test_a_bots_rollouts_are_bounded_and_recorded(server):
    """A bot asked for rollouts plays at most its budget of them a decision, and says how many."""
    with httpx.Client(base_url=server.url, timeout=30) as http:
        made = http.post("/games", json={"rules": "saladin", "scenario": "arsuf", "seats": {
            "ayyubids": {"bot": {"policy": "heuristic", "rollouts": 3}}, "crusaders": {"player": "Bob"}}}).json()
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            events = http.get(f"/games/{made['id']}/events").json()["events"]
            if any(e["type"] == "DecisionTaken" for e in events):
                break
            time.sleep(0.1)
        played = next(e for e in events if e["type"] == "BotPlayed")
        assert played["data"]["policy"] == "heuristic"
        assert 0 <= played["data"]["rollouts"] <= 3
        assert played["data"]["rollouts"] * played["data"]["candidates"] <= 64  # analysis/bot.py BUDGET
        told = next(t["text"] for t in http.get(f"/games/{made['id']}/timeline").json()["entries"]
                    if t["type"] == "BotPlayed")
        assert told.startswith("the bot of ") and "ayyubids" not in told, told  # issue 27: players, not seat ids
        # nobody sends a bot seat's commands: it has no token, and no other token acts for it
        sent = http.post(f"/games/{made['id']}/commands", json={"seat": "ayyubids", "command": {"type": "pass"}},
                         headers={"Authorization": f"Bearer {made['seat_tokens']['crusaders']}"})
        assert sent.status_code in (403, 404, 422), sent.text


def test_a_bot_seat_names_a_known_policy(server):
    with httpx.Client(base_url=server.url, timeout=30) as http:
        refused = http.post("/games", json={"rules": "saladin", "scenario": "arsuf", "seats": {
            "ayyubids": {"bot": {"policy": "oracle"}}, "crusaders": {"player": "Bob"}}})
    assert refused.status_code == 422 and refused.json()["code"] == "unknown_policy", refused.text


def test_a_tournament_fills_a_bye_with_a_game_against_the_bot(server):
    """"... and a tournament can fill a bye with it": a Swiss of three pairs two and gives the
    third a bye; paired with ``bye_bot``, the bye comes with a game against the bot, which the
    player finds among their games (table 0), plays to its end, and which leaves the standings
    as the bye's points say."""
    with httpx.Client(base_url=server.url, timeout=30) as http:
        made = http.post("/tournaments", json={"name": "Bye Cup", "rules": "saladin", "format": "swiss",
                                               "scenarios": ["arsuf"], "rounds": 1}).json()
        director = {"Authorization": f"Bearer {made['director_token']}"}
        players = {}
        for name in ("Ann", "Bea", "Cy"):
            players[name] = http.post(f"/tournaments/{made['id']}/players", json={"name": name},
                                      headers=director).json()["player_token"]
        refused = http.post(f"/tournaments/{made['id']}/rounds", params={"bye_bot": "oracle"}, headers=director)
        assert refused.status_code == 422, refused.text
        paired = http.post(f"/tournaments/{made['id']}/rounds", params={"bye_bot": "heuristic"}, headers=director)
        assert paired.status_code == 201, paired.text
        (bye,) = paired.json()["byes"]
        assert bye["game"]
        mine = http.get(f"/tournaments/{made['id']}/my-games",
                        headers={"Authorization": f"Bearer {players[bye['player']]}"}).json()["games"]
        (practice,) = [g for g in mine if g["table"] == 0]
        assert practice["game"] == bye["game"] and practice["status"] == "bye game"
        summary = http.get(f"/games/{bye['game']}").json()
        assert summary["tournament"] is None  # not a table: outside the standings
        assert set(summary["seating"]["bots"]) == {s for s in summary["seats"] if s != practice["seat"]}
        auth = {"Authorization": f"Bearer {practice['seat_token']}"}
        for _ in range(1500):
            summary = wait_for_turn(http, bye["game"], practice["seat"])
            if summary["status"] == "ended":
                break
            listed = http.get(f"/games/{bye['game']}/legal-commands", params={"seat": practice["seat"]},
                              headers=auth).json()
            sent = http.post(f"/games/{bye['game']}/commands", headers=auth, json={
                "seat": practice["seat"], "command": listed["commands"][0], "expected_version": listed["version"]})
            assert sent.status_code in (201, 409), sent.text
        assert summary["status"] == "ended"
        round_ = http.get(f"/tournaments/{made['id']}/rounds/1").json()
        assert round_["byes"][0]["game"] == bye["game"]
        standings = http.get(f"/tournaments/{made['id']}/standings").json()["standings"]
        points = {row["player"]: row["points"] for row in standings}
        assert points[bye["player"]] == bye["points"]  # the bye's points, whatever the practice game gave
