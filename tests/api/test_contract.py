"""DESIGN.md, "The wire contract of the core resources": field names clients rely on."""

from tests.conftest import new_game, post

EVENT_FIELDS = {"version", "type", "data", "prev_hash", "hash", "recorded_at"}


def test_rules_list_and_open_table(client):
    listed = client.get("/rules").json()["rules"]
    assert "open-table" in {r["id"] for r in listed}
    info = client.get("/rules/open-table").json()
    assert {"id", "version", "scenarios", "die_kinds", "command_schema"} <= info.keys()
    scenario = info["scenarios"][0]
    assert {"id", "seats", "players"} <= scenario.keys()
    assert scenario["players"] == {"min": 1, "max": 8}
    assert info["die_kinds"]["saladin-combat"] == ["blank", "blank", "stroke", "stroke", "double", "slash"]
    assert info["die_kinds"]["d6"] == [1, 2, 3, 4, 5, 6]


def test_create_game_returns_tokens_once_and_commitment(client):
    game = new_game(client, seats=("alice", "bob", "carol"))
    assert {"id", "version", "seed_commitment", "seat_tokens"} <= game.keys()
    assert game["version"] == 1 and set(game["seat_tokens"]) == {"alice", "bob", "carol"}
    summary = client.get(f"/games/{game['id']}").json()
    assert {"id", "rules", "scenario", "status", "version", "to_act", "view", "outcome", "seed"} <= summary.keys()
    assert summary["status"] == "active" and summary["seed"] is None and summary["outcome"] is None
    assert "seat_tokens" not in summary
    assert summary["to_act"] == ["alice", "bob", "carol"]


def test_command_response_shape_and_dice_event(client):
    game = new_game(client)
    response = post(client, game, "alice", {"type": "roll", "label": "3d6 for the charge", "dice": "3d6"},
                    expected_version=1)
    assert response.status_code == 201, response.text
    body = response.json()
    assert {"version", "events", "head", "view"} <= body.keys()
    assert body["head"] == {"version": 3, "hash": body["events"][-1]["hash"]}
    decision, dice = body["events"]
    assert EVENT_FIELDS <= decision.keys() and EVENT_FIELDS <= dice.keys()
    assert decision["type"] == "DecisionTaken" and decision["data"]["command"]["dice"] == "3d6"
    assert dice["type"] == "DiceRolled"
    assert dice["data"]["draws"] == [0, 1, 2] and dice["data"]["kind"] == "d6"
    assert all(f in range(1, 7) for f in dice["data"]["faces"])
    assert dice["data"]["purpose"] == "3d6 for the charge"
    assert dice["prev_hash"] == decision["hash"]


def test_saladin_dice_by_kind_name(client):
    game = new_game(client)
    body = post(client, game, "bob", {"type": "roll", "label": "Loose", "dice": "2xsaladin-combat"}).json()
    dice = body["events"][1]["data"]
    assert dice["kind"] == "saladin-combat" and len(dice["faces"]) == 2
    assert set(dice["faces"]) <= {"blank", "stroke", "double", "slash"}


def test_legal_commands_are_postable_as_they_are(client):
    game = new_game(client)
    listed = client.get(f"/games/{game['id']}/legal-commands", params={"seat": "alice"},
                        headers={"Authorization": f"Bearer {game['seat_tokens']['alice']}"}).json()
    assert listed["version"] == 1
    types = {c["type"] for c in listed["commands"]}
    assert {"note", "roll", "shuffle", "draw", "end"} <= types
    for command in listed["commands"]:
        if command["type"] != "end":
            assert post(client, game, "alice", command).status_code == 201, command


def test_events_pagination(client):
    game = new_game(client)
    for i in range(5):
        post(client, game, "alice", {"type": "note", "text": f"move {i}"})
    first = client.get(f"/games/{game['id']}/events", params={"limit": 4}).json()
    assert [e["version"] for e in first["events"]] == [1, 2, 3, 4] and first["next"] == 4
    rest = client.get(f"/games/{game['id']}/events", params={"after": 4, "limit": 4}).json()
    assert [e["version"] for e in rest["events"]] == [5, 6] and rest["next"] is None


def test_state_at_any_version(client):
    game = new_game(client)
    post(client, game, "alice", {"type": "shuffle", "deck": "standard-54"})
    post(client, game, "alice", {"type": "draw", "deck": "standard-54", "count": 2})
    at3 = client.get(f"/games/{game['id']}/state", params={"at": 3}).json()
    at5 = client.get(f"/games/{game['id']}/state", params={"at": 5}).json()
    assert at3["view"]["decks"]["standard-54"]["left"] == 54
    assert at5["view"]["decks"]["standard-54"]["left"] == 52
    assert "standard-54" in at5["text"]


def test_game_index_filters_and_cursor(client):
    tag = "zed-" + client.get("/health").headers.get("date", "x").replace(" ", "")[:5].lower()
    ids = []
    for _ in range(3):
        response = client.post("/games", json={"rules": "open-table", "seats": {"p1": {"player": tag}}})
        ids.append(response.json()["id"])
    page = client.get("/games", params={"player": tag, "limit": 2}).json()
    assert [g["id"] for g in page["games"]] == ids[::-1][:2]
    assert page["next"] is not None
    rest = client.get("/games", params={"player": tag, "limit": 2, "after": page["next"]}).json()
    assert [g["id"] for g in rest["games"]] == [ids[0]] and rest["next"] is None
    assert client.get("/games", params={"player": tag, "status": "ended"}).json()["games"] == []


def test_end_by_agreement_reveals_the_seed(client):
    game = new_game(client)
    outcome = {"winner": "bob", "reason": "alice resigns"}
    first = post(client, game, "alice", {"type": "end", "outcome": outcome}).json()
    assert [e["type"] for e in first["events"]] == ["DecisionTaken", "open-table.EndProposed"]
    second = post(client, game, "bob", {"type": "end", "outcome": outcome}).json()
    assert [e["type"] for e in second["events"]][-2:] == ["GameEnded", "SeedRevealed"]
    summary = client.get(f"/games/{game['id']}").json()
    assert summary["status"] == "ended" and summary["outcome"]["winner"] == "bob"
    import hashlib
    assert hashlib.sha256(bytes.fromhex(summary["seed"])).hexdigest() == game["seed_commitment"]
    ended = client.get("/games", params={"player": "Bob", "status": "ended"}).json()["games"]
    assert game["id"] in {g["id"] for g in ended}


def test_study_game_seed_is_public_and_reproducible(client):
    seed = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"
    game = new_game(client, seed=seed)
    assert client.get(f"/games/{game['id']}").json()["seed"] == seed
    record = client.get(f"/games/{game['id']}/record").json()
    assert record["seed"] == seed and record["header"]["study"] is True


def test_timeline_reads_like_a_log(client):
    game = new_game(client)
    post(client, game, "alice", {"type": "roll", "label": "charge", "dice": "2d6"})
    entries = client.get(f"/games/{game['id']}/timeline").json()["entries"]
    assert entries[1]["text"] == "Alice: rolls 2d6 for charge"
    assert entries[2]["text"].startswith("charge: ")


def test_sse_stream_sends_history_then_closes_at_end(client):
    game = new_game(client)
    post(client, game, "alice", {"type": "note", "text": "hello"})
    for seat in ("alice", "bob"):
        post(client, game, seat, {"type": "end", "outcome": {"draw": True}})
    with client.stream("GET", f"/games/{game['id']}/events/stream") as response:
        assert response.headers["content-type"].startswith("text/event-stream")
        text = "".join(response.iter_text())
    ids = [int(line[4:]) for line in text.splitlines() if line.startswith("id: ")]
    assert ids == list(range(1, ids[-1] + 1)) and text.count("event: SeedRevealed") == 1


def test_if_match_is_the_expected_version(client):
    game = new_game(client)
    headers = {"Authorization": f"Bearer {game['seat_tokens']['alice']}"}
    body = {"seat": "alice", "command": {"type": "note", "text": "x"}}
    ok = client.post(f"/games/{game['id']}/commands", json=body, headers={**headers, "If-Match": '"1"'})
    assert ok.status_code == 201
    stale = client.post(f"/games/{game['id']}/commands", json=body, headers={**headers, "If-Match": 'W/"1"'})
    assert stale.status_code == 409 and stale.json()["version"] == 2
    bad = client.post(f"/games/{game['id']}/commands", json=body, headers={**headers, "If-Match": "soon"})
    assert bad.status_code == 422 and bad.json()["code"] == "bad_if_match"
