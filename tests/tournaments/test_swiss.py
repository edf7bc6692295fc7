"""A 9-player, 5-round Swiss run over HTTP: the director pairs each round, every player
fetches their own seat token and plays random legal commands to the end; the results reach
the standings only through the games' GameEnded events."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from domain.rules.registry import RULE_SYSTEMS
from replays.archive import decode_archive, verify_archive
from tests.tournaments.sim import (
    assert_standings_match,
    my_seat_tokens,
    open_tournament,
    pair,
    play_legal_to_end,
    play_open_table,
    recompute,
    records_of,
)

PLAYERS = ["Richard", "Saladin", "Hugh", "Taqi", "Guy", "Raymond", "Gerard", "Keukburi", "Reynald"]
GAMES = {
    "open-table": {"rules": "open-table", "scenarios": ["table"], "seats": ("p1", "p2")},
    "saladin": {"rules": "saladin", "scenarios": ["arsuf"], "seats": ("crusaders", "ayyubids")},
}


def test_nine_players_five_rounds_swiss_open_table(client):
    """On both storage backends, with quick open-table games."""
    run_swiss(client, "open-table")


@pytest.mark.slow  # a long simulation: nine players, five rounds of Arsuf (make test-slow; CI)
def test_nine_players_five_rounds_swiss_of_arsuf(sqlite_client):
    """Saladin's Arsuf played to the end with random legal commands (SQLite: the long run)."""
    run_swiss(sqlite_client, "saladin")


def run_swiss(client, game: str) -> None:
    spec = GAMES[game]
    if spec["rules"] not in RULE_SYSTEMS:
        pytest.fail(f"{spec['rules']} is not registered")
    rng = random.Random(f"swiss-{game}")
    run = open_tournament(client, PLAYERS, rules=spec["rules"], scenarios=spec["scenarios"], format="swiss",
                          rounds=5)
    first, second = spec["seats"]
    met: set[frozenset[str]] = set()
    byes: Counter[str] = Counter()
    sides: dict[str, Counter[str]] = {p: Counter() for p in PLAYERS}
    for number in range(1, 6):
        paired = pair(client, run)
        assert paired["round"] == number and len(paired["tables"]) == 4 and len(paired["byes"]) == 1
        for bye in paired["byes"]:
            byes[bye["player"]] += 1
            assert bye["points"] == 1 and "odd number" in bye["reason"]
        tokens = my_seat_tokens(client, run, number)
        for table in paired["tables"]:
            pair_ = frozenset(table["seats"].values())
            assert pair_ not in met, f"rematch in round {number}: {sorted(pair_)}"
            met.add(pair_)
            assert set(table["seats"]) == {first, second}
            for seat, player in table["seats"].items():
                sides[player][seat] += 1
            assert tokens[table["game"]] == table["seat_tokens"]
            summary = client.get(f"/games/{table['game']}").json()
            assert summary["tournament"] == {"id": run.id, "round": number, "table": table["table"]}
            if spec["rules"] == "open-table":
                play_open_table(client, table["game"], tokens[table["game"]], rng)
            else:
                play_legal_to_end(client, table["game"], tokens[table["game"]], rng)
        listed = client.get(f"/tournaments/{run.id}/rounds/{number}").json()
        assert all(t["status"] == "ended" and t["result_hash"] for t in listed["tables"])

    assert max(byes.values()) == 1 and sum(byes.values()) == 5, "a second bye"
    for player, seen in sides.items():
        assert abs(seen[first] - seen[second]) <= 1, f"{player} sides {dict(seen)}"

    summary = client.get(f"/tournaments/{run.id}").json()
    assert summary["status"] == "complete" and summary["current_round"] == 5
    again = client.post(f"/tournaments/{run.id}/rounds", headers=run.director)
    assert again.status_code == 409 and again.json()["code"] == "tournament_complete"

    records = records_of(client, run.id)
    assert len(records) == 20
    standings = client.get(f"/tournaments/{run.id}/standings").json()["standings"]
    assert_standings_match(standings, recompute(records, PLAYERS), PLAYERS)

    ended = {r["header"]["game"]: next(e for e in r["events"] if e["type"] == "GameEnded") for r in records}
    for row in client.get(f"/tournaments/{run.id}/crosstable").json()["rows"]:
        for cell in row["rounds"]:
            if cell["kind"] == "game":
                assert cell["hash"] == ended[cell["game"]]["hash"], "a result must link its game's GameEnded"

    verdict = verify_archive(decode_archive(client.get(f"/tournaments/{run.id}/archive").content))
    assert verdict.ok and verdict.games == 20, verdict.problems
