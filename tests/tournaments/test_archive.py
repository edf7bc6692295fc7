"""The tournament archive verifies offline with the real ``herald replay verify``; a tampered
result is caught whether the forger edits the history or rewrites its whole hash chain."""

from __future__ import annotations

import copy
import csv
import io
import json
import random

import httpx

from domain.tournaments.events import event_hash
from tests.tournaments.sim import my_seat_tokens, open_tournament, pair, play_open_table

PLAYERS = ["Ann", "Bert", "Cid", "Dora", "Eli"]


def _run_tournament(http) -> str:
    rng = random.Random("archive")
    run = open_tournament(http, PLAYERS, rules="open-table", format="swiss", rounds=2)
    for number in (1, 2):
        pair(http, run)
        tokens = my_seat_tokens(http, run, number)
        for table in run.rounds[-1]["tables"]:
            play_open_table(http, table["game"], tokens[table["game"]], rng, moves=2,
                            outcome={"winner": "p1", "reason": "simulated"})
    adjusted = http.post(f"/tournaments/{run.id}/adjustments", headers=run.director,
                         json={"player": "Eli", "points": -0.5, "reason": "late arrival, round 2"})
    assert adjusted.status_code == 200
    return run.id


def _verify(live_server, path, archive) -> tuple[int, str]:
    path.write_text(json.dumps(archive))
    result = live_server.cli("replay", "verify", str(path))
    return result.returncode, result.stdout + result.stderr


def _rechain(archive: dict) -> None:
    """What a careful forger does: recompute every hash of the tournament's history."""
    from uuid import UUID

    prev = "0" * 64
    for event in archive["events"]:
        event["prev_hash"] = prev
        event["hash"] = event_hash(UUID(archive["tournament"]), event["version"], event["type"], event["data"],
                                   prev, event["recorded_at"])
        prev = event["hash"]
    archive["head"] = {"version": archive["events"][-1]["version"], "hash": prev}


def _rechain_game(record: dict) -> None:
    from uuid import UUID

    from domain.game import event_hash as game_event_hash

    prev = "0" * 64
    for event in record["events"]:
        event["prev_hash"] = prev
        event["hash"] = prev = game_event_hash(UUID(record["header"]["game"]), event["version"], event["type"],
                                               event["data"], prev, event["recorded_at"])
    record["head"] = {"version": record["events"][-1]["version"], "hash": prev}


def test_archive_verifies_offline_and_tampering_is_caught(live_server, tmp_path):
    http = httpx.Client(base_url=live_server.url, timeout=30)
    tid = _run_tournament(http)
    archive = http.get(f"/tournaments/{tid}/archive").json()
    assert archive["format"] == "herald-tournament-archive/1" and len(archive["records"]) == 4

    code, out = _verify(live_server, tmp_path / "archive.json", archive)
    assert code == 0, out
    assert f"OK: tournament {tid}" in out and "4 game records verified" in out

    # 1. Flip one recorded result in the history: its hash no longer matches.
    flipped = copy.deepcopy(archive)
    result = next(e for e in flipped["events"] if e["type"] == "ResultRecorded")
    result["data"]["outcome"]["winner"] = "p2"
    code, out = _verify(live_server, tmp_path / "flipped.json", flipped)
    assert code == 1 and f"FAIL tournament version {result['version']}: hash mismatch" in out

    # 2. Flip it and rewrite the whole chain and the standings: the game's own record disagrees.
    forged = copy.deepcopy(flipped)
    _rechain(forged)
    code, out = _verify(live_server, tmp_path / "forged.json", forged)
    assert code == 1 and "the recorded result differs from the game's GameEnded outcome" in out
    assert "hash mismatch" not in out

    # 3. Edit the game's record instead: its own chain breaks, and the link to it too.
    game_edit = copy.deepcopy(archive)
    record = game_edit["records"][0]
    ended = next(e for e in record["events"] if e["type"] == "GameEnded")
    ended["data"]["outcome"]["winner"] = "p2"
    code, out = _verify(live_server, tmp_path / "game.json", game_edit)
    assert code == 1 and f"FAIL game {record['header']['game']} version {ended['version']}: hash mismatch" in out

    # 4. Edit only the standings: they no longer follow from the records.
    standings = copy.deepcopy(archive)
    standings["standings"][0]["points"] += 1
    code, out = _verify(live_server, tmp_path / "standings.json", standings)
    assert code == 1 and "FAIL standings" in out

    # 5. Drop a game: the pairing names a record the archive lacks.
    dropped = copy.deepcopy(archive)
    gone = dropped["records"].pop()
    code, out = _verify(live_server, tmp_path / "dropped.json", dropped)
    assert code == 1 and f"(game {gone['header']['game']}): the game's record is not in the archive" in out

    # 6. Rewrite a game's GameEnded with an outcome of the wrong type and re-hash its chain
    #    (issue 11): a clear FAIL, never a traceback.
    malformed = copy.deepcopy(archive)
    record = malformed["records"][0]
    ended = next(e for e in record["events"] if e["type"] == "GameEnded")
    ended["data"]["outcome"] = 42
    _rechain_game(record)
    pinned = next(e for e in malformed["events"]
                  if e["type"] == "ResultRecorded" and e["data"]["game"] == record["header"]["game"])
    pinned["data"]["hash"] = ended["hash"]  # the forger re-pins the result to the rewritten game ...
    _rechain(malformed)  # ... and rewrites the tournament's chain too
    code, out = _verify(live_server, tmp_path / "malformed.json", malformed)
    assert code == 1 and "Traceback" not in out
    assert "malformed GameEnded data" in out and "the game's GameEnded outcome is malformed" in out

    # An ordinary game record still verifies through the same command.
    (tmp_path / "one.json").write_text(json.dumps(archive["records"][0]))
    single = live_server.cli("replay", "verify", str(tmp_path / "one.json"))
    assert single.returncode == 0 and single.stdout.startswith("OK:")


def test_exports_standings_and_crosstable_as_csv_and_json(client):
    rng = random.Random("csv")
    run = open_tournament(client, PLAYERS[:4], rules="open-table", format="swiss", rounds=1)
    pair(client, run)
    tokens = my_seat_tokens(client, run, 1)
    for table in run.rounds[-1]["tables"]:
        play_open_table(client, table["game"], tokens[table["game"]], rng, moves=0,
                        outcome={"winner": "p1", "reason": "simulated"})
    as_json = client.get(f"/tournaments/{run.id}/standings").json()["standings"]
    response = client.get(f"/tournaments/{run.id}/standings", params={"format": "csv"})
    assert response.headers["content-type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(response.text)))
    assert [r["player"] for r in rows] == [s["player"] for s in as_json]
    assert [float(r["points"]) for r in rows] == [s["points"] for s in as_json]
    assert {"buchholz", "sonneborn_berger", "head_to_head", "margin"} <= rows[0].keys()
    cross = list(csv.reader(io.StringIO(client.get(f"/tournaments/{run.id}/crosstable",
                                                   params={"format": "csv"}).text)))
    assert cross[0] == ["rank", "player", "r1", "points"]
    assert cross[1][2].startswith("1 v") and cross[1][2].endswith("p1")
    rows_json = client.get(f"/tournaments/{run.id}/crosstable").json()["rows"]
    assert [r["player"] for r in rows_json] == [s["player"] for s in as_json]
    assert client.get(f"/tournaments/{run.id}/standings", params={"format": "xml"}).status_code == 422
    listed = client.get("/tournaments").json()["tournaments"]
    assert listed[0]["id"] == run.id and listed[0]["players"] == 4 and listed[0]["rounds"] == 1
