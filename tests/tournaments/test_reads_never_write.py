"""Issue 18: tournament reads never write. The results process (a GameEnded becomes the
table's ResultRecorded) runs in the background; a read waits for it to catch up, it never
runs it. With the follower stopped, no read appends anything, anywhere."""

from __future__ import annotations

import random

from tests.tournaments.sim import my_seat_tokens, open_tournament, pair, play_open_table

PLAYERS = ["Ann", "Bert", "Cid", "Dora"]


def _play_round(client, run, rng):
    tokens = my_seat_tokens(client, run, 1)
    for table in run.rounds[-1]["tables"]:
        play_open_table(client, table["game"], tokens[table["game"]], rng, moves=1,
                        outcome={"winner": "p1", "reason": "simulated"})


def test_no_tournament_read_writes_and_results_arrive_in_the_background(client):
    herald = client.app.state.herald
    follower = herald.tournaments.follower
    run = open_tournament(client, PLAYERS, rules="open-table", format="swiss", rounds=2)
    pair(client, run)
    follower.close()  # stopped: nothing but a write may now append
    _play_round(client, run, random.Random("reads"))
    head = herald.store.recorder.max_notification_id()
    tid, game = run.id, run.rounds[-1]["tables"][0]["game"]
    reads = [f"/tournaments/{tid}", f"/tournaments/{tid}/standings", f"/tournaments/{tid}/crosstable",
             f"/tournaments/{tid}/rounds/1", f"/tournaments/{tid}/events", f"/tournaments/{tid}/archive",
             f"/tournaments/{tid}/games", "/tournaments", "/players/Ann",
             "/players?rules=open-table&scenario=table"]
    for path in reads:
        assert client.get(path).status_code == 200, path
    assert herald.store.recorder.max_notification_id() == head  # not one event appended by a read
    assert client.get(f"/tournaments/{tid}/rounds/1").json()["tables"][0]["status"] == "playing"

    follower.start()  # the app's background process: the next read waits for it to catch up
    table = next(t for t in client.get(f"/tournaments/{tid}/rounds/1").json()["tables"] if t["game"] == game)
    assert table["status"] == "ended" and table["result_version"] is not None
    assert herald.store.recorder.max_notification_id() > head  # written by the follower
    assert client.get(f"/tournaments/{tid}/standings").json()["standings"][0]["points"] == 1
