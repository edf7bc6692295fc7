"""Issue 24, point 1: a compact portable record (``herald-record/2``, docs/record-format.md)
that a third party verifies with hashlib/hmac alone, while every record exported before
(``herald-record/1``, fixtures exported by the code before the change) still verifies and
imports."""

from __future__ import annotations

import json
import random
from pathlib import Path

import msgspec
import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from api.bootstrap import Herald
from api.config import Settings
from replays.record_format import decode_record, encode_record
from replays.verify import verify
from tests.conftest import ADMIN_TOKEN, new_game
from tests.replays import stdlib_verifier

V1 = Path(__file__).parent / "records_v1"
FIXTURES = sorted(V1.glob("*.json"))
SERVER_KEY = (V1 / "server_public_key.txt").read_text().strip()
SEED = "5e" * 32


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    db = tmp_path_factory.mktemp("record_format") / "herald.db"
    herald = Herald(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(db)},
                    admin_token=ADMIN_TOKEN, signing_key_path=db.parent / "signing-key.pem")
    with TestClient(create_app(herald, Settings(admin_token=ADMIN_TOKEN, writes_per_token=0,
                                                writes_per_address=0))) as test_client:
        yield test_client
    herald.close()


def play(client, rules: str, scenario: str, seats: list[str], decisions: int, seed: int) -> dict:
    """A study game (public seed) played by a client taking random commands from
    legal-commands; the game it made."""
    game = new_game(client, rules=rules, seats=seats, scenario=scenario, seed=SEED)
    rnd = random.Random(seed)
    for _ in range(decisions):
        now = client.get(f"/games/{game['id']}").json()
        if now["status"] == "ended" or not now["to_act"]:
            break
        seat = rnd.choice(now["to_act"])
        auth = {"Authorization": f"Bearer {game['seat_tokens'][seat]}"}
        listed = client.get(f"/games/{game['id']}/legal-commands", params={"seat": seat}, headers=auth).json()
        commands = [c for c in listed["commands"] if c["type"] != "end"] or listed["commands"]
        if not commands:
            break
        done = [c for c in commands if c["type"] in ("done", "pass")]
        command = done[0] if done and rnd.random() < 0.3 else rnd.choice(commands)
        response = client.post(f"/games/{game['id']}/commands", json={"seat": seat, "command": command}, headers=auth)
        assert response.status_code in (201, 409, 422), response.text
    return game


GAMES = [("open-table", "table", ["alice", "bob"], 40), ("saladin", "arsuf", ["crusaders", "ayyubids"], 60),
         ("saladin", "hattin", ["crusaders", "ayyubids"], 60), ("saxon-shore", "standard", ["p1", "p2", "p3"], 120),
         ("saline", "standard", ["p1", "p2", "p3"], 80), ("kingdoms-of-crusaders", "standard", ["p1", "p2"], 80),
         ("day-of-battle", "crusaders-seljuq-turks", ["crusaders", "seljuq-turks"], 60)]


@pytest.fixture(scope="module")
def exported(client) -> dict[str, bytes]:
    """One study game of every rule system, as GET /games/{id}/record exports it."""
    out = {}
    for i, (rules, scenario, seats, decisions) in enumerate(GAMES):
        game = play(client, rules, scenario, seats, decisions, i)
        out[f"{rules}/{scenario}"] = client.get(f"/games/{game['id']}/record").content
    return out


def die_kinds(client, rules: str) -> dict[str, list]:
    return client.get(f"/rules/{rules}").json()["die_kinds"]


def test_every_export_is_format_2_one_event_a_line(exported):
    for name, raw in exported.items():
        record = json.loads(raw)
        assert record["format"] == "herald-record/2", name
        assert raw.count(b"\n") == len(record["events"]) + 2  # the header line, one line an event, the end
        assert all(isinstance(e, list) and 2 <= len(e) <= 4 for e in record["events"])
        assert record["head"]["version"] == len(record["events"])


@pytest.mark.parametrize("name", [f"{g[0]}/{g[1]}" for g in GAMES])
def test_a_third_party_verifies_every_rule_system_with_the_standard_library_alone(client, exported, name):
    """docs/record-format.md: "This page is enough to check a record without Herald, with a JSON
    parser, SHA-256 and HMAC-SHA256"."""
    raw = exported[name]
    record = json.loads(raw)
    kinds = die_kinds(client, record["header"]["rules"])
    assert stdlib_verifier.verify(record, kinds) == []
    assert verify(decode_record(raw)).ok
    # the same chain as the server stored: the recomputed links are the stored ones
    game = record["header"]["game"]
    stored = client.get(f"/games/{game}/events", params={"limit": 1000}).json()["events"]
    assert decode_record(raw).events[-1].hash == record["head"]["hash"]
    if len(stored) == len(record["events"]):
        assert [e.hash for e in decode_record(raw).events] == [e["hash"] for e in stored]
    dice = [e for e in record["events"] if e[0] == "DiceRolled"]
    assert dice or name.startswith(("kingdoms", "saline")), "the game rolled dice the third party checks"


def forge(raw: bytes, change) -> dict:
    record = json.loads(raw)
    change(record)
    return record


def _first(record, type_):
    return next(e for e in record["events"] if e[0] == type_)


def _face(record):
    event = _first(record, "DiceRolled")
    faces = event[1]["faces"]
    faces[0] = 6 if faces[0] != 6 else 1


FORGERIES = {
    "a die's face": _face,
    "a recording time": lambda r: r["events"][2].__setitem__(slice(2, None), [r["events"][0][2] + 1]),
    "an event removed": lambda r: r["events"].pop(3),
    "two events swapped": lambda r: r["events"].__setitem__(slice(3, 5), r["events"][3:5][::-1]),
    "a decision's command": lambda r: _first(r, "DecisionTaken")[1].__setitem__("seat", "bob"),
    "the head": lambda r: r["head"].__setitem__("hash", "0" * 64),
    "the commitment": lambda r: r.__setitem__("seed_commitment", "1" * 64),
}


@pytest.mark.parametrize("forgery", sorted(FORGERIES))
def test_every_forgery_is_caught_by_both_verifiers(client, forgery):
    game = new_game(client, seed=SEED)
    auth = {"Authorization": f"Bearer {game['seat_tokens']['alice']}"}
    for i in range(4):
        client.post(f"/games/{game['id']}/commands", headers=auth,
                    json={"seat": "alice", "command": {"type": "roll", "label": f"r{i}", "dice": "2d6"}})
    raw = client.get(f"/games/{game['id']}/record").content
    assert stdlib_verifier.verify(json.loads(raw), die_kinds(client, "open-table")) == []
    forged = forge(raw, FORGERIES[forgery])
    assert stdlib_verifier.verify(forged, die_kinds(client, "open-table")), forgery
    verdict = client.post("/records/verify", json=forged)
    assert verdict.status_code == 200 and verdict.json()["ok"] is False, (forgery, verdict.text)


def test_a_receipt_is_checked_against_the_recomputed_chain(client):
    game = new_game(client, seed=SEED)
    auth = {"Authorization": f"Bearer {game['seat_tokens']['alice']}"}
    heads = [client.post(f"/games/{game['id']}/commands", headers=auth,
                         json={"seat": "alice", "command": {"type": "roll", "label": "r", "dice": "1d6"}}).json()["head"]
             for _ in range(3)]
    record = json.loads(client.get(f"/games/{game['id']}/record").content)
    assert stdlib_verifier.verify(record, receipts=heads) == []
    body = {"record": record, "receipts": heads, "public_key": client.get("/keys").json()["keys"][0]["key"]}
    assert client.post("/records/verify", json=body).json()["ok"]
    wrong = [{**heads[1], "hash": "f" * 64}]
    assert stdlib_verifier.verify(record, receipts=wrong)
    assert not client.post("/records/verify", json={"record": record, "receipts": wrong}).json()["ok"]


def test_a_sealed_hand_is_proven_by_the_seat_and_by_everyone_after_the_reveal(client):
    game = new_game(client, options={"decks": {"court": [f"c{i}" for i in range(12)]}})
    tokens = game["seat_tokens"]

    def send(seat, command):
        assert client.post(f"/games/{game['id']}/commands", json={"seat": seat, "command": command},
                           headers={"Authorization": f"Bearer {tokens[seat]}"}).status_code == 201

    send("alice", {"type": "shuffle", "deck": "court"})
    send("alice", {"type": "take", "deck": "court", "count": 3})
    own = json.loads(client.get(f"/games/{game['id']}/record", headers={"Authorization": f"Bearer {tokens['alice']}"}).content)
    held = [e for e in own["events"] if len(e) == 4]
    assert held and held[0][3]["for"] == ["alice"]
    assert stdlib_verifier.verify(own) == []
    spectator = json.loads(client.get(f"/games/{game['id']}/record").content)
    assert [e[1].keys() for e in spectator["events"] if len(e) == 4] == []
    assert stdlib_verifier.verify(spectator) == []
    held[0][1]["cards"][0] = "c99"  # the seat's copy of its own hand, forged: the chain breaks
    assert stdlib_verifier.verify(own)
    for seat in ("alice", "bob"):
        send(seat, {"type": "end", "outcome": {"winner": "alice", "reason": "test"}})
    after = json.loads(client.get(f"/games/{game['id']}/record").content)
    assert after["seed"] and any(len(e) == 4 for e in after["events"])
    assert stdlib_verifier.verify(after) == []
    bad_salt = json.loads(json.dumps(after))
    next(e for e in bad_salt["events"] if len(e) == 4)[3]["salt"] = "00" * 32
    assert any("salt" in p or "chain" in p for p in stdlib_verifier.verify(bad_salt))


def test_a_fork_is_checked_by_the_third_party_too(client):
    game = play(client, "saladin", "arsuf", ["crusaders", "ayyubids"], 30, 7)
    version = client.get(f"/games/{game['id']}").json()["version"]
    for dice in ("same", "fresh"):
        fork = client.post(f"/games/{game['id']}/fork", json={"version": max(2, version // 2), "dice": dice},
                           headers={"Authorization": f"Bearer {ADMIN_TOKEN}"})
        assert fork.status_code == 201, fork.text
        forked = fork.json()
        raw = client.get(f"/games/{forked['id']}/record").content
        record = json.loads(raw)
        assert record["header"]["fork"]["dice"] == dice
        assert stdlib_verifier.verify(record, die_kinds(client, "saladin")) == []
        assert verify(decode_record(raw)).ok


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.name)
def test_records_exported_before_still_verify_and_convert(path):
    """Issue 24: "Old records (exported by the code before this change, checked in as
    fixtures) still verify." Written again as format 2 they verify the same, hash for hash,
    and a third party checks them."""
    raw = path.read_bytes()
    old = decode_record(raw)
    assert old.format == "herald-record/1"
    before = verify(old, public_key=SERVER_KEY)
    assert before.ok, before.problems
    compact = encode_record(old)
    new = decode_record(compact)
    assert [(e.version, e.hash, e.prev_hash, e.recorded_at, e.data) for e in new.events] == \
           [(e.version, e.hash, e.prev_hash, e.recorded_at, e.data) for e in old.events]
    after = verify(new, public_key=SERVER_KEY)
    assert after.ok and after.notes == before.notes
    assert stdlib_verifier.verify(json.loads(compact)) == []
    assert encode_record(new) == compact  # written again, the same bytes


def test_an_old_record_imports_and_exports_as_format_2(client):
    raw = (V1 / "saxon_shore_study.json").read_bytes()
    imported = client.post("/records/import", content=raw, headers={"Content-Type": "application/json",
                                                                     "Authorization": f"Bearer {ADMIN_TOKEN}"})
    assert imported.status_code == 201, imported.text
    game = imported.json()["id"]
    again = client.get(f"/games/{game}/record").content
    assert json.loads(again)["format"] == "herald-record/2"
    assert decode_record(again).events[-1].hash == decode_record(raw).events[-1].hash
    assert verify(decode_record(again)).ok


def test_format_2_takes_at_most_two_fifths_of_format_1(exported):
    """What nobody can recompute is kept; links, versions and repeated prefixes go. (The
    figures for a full-length game: bench/bench_long_games.py.) Each export is measured against
    format 1 of the same record: the games differ from run to run (a game's dice are drawn from
    its seed and its id), so bytes a decision do too (357 to 417 in five runs), the ratio not."""
    for path in FIXTURES:
        old = path.read_bytes()
        assert len(encode_record(decode_record(old))) < 0.55 * len(msgspec.json.encode(msgspec.json.decode(old)))
    for name, raw in exported.items():
        format_1 = msgspec.json.encode(decode_record(raw))  # the in-memory record is format 1's shape
        bound = 0.4 if name == "saxon-shore/standard" else 0.55  # many small events: links weigh most
        assert len(raw) < bound * len(format_1), (name, len(raw) / len(format_1))


MALFORMED = {
    "an event of one item": lambda r: r["events"].__setitem__(1, ["DecisionTaken"]),
    "an event of five items": lambda r: r["events"][1].extend([None, None, None]),
    "a type that is a number": lambda r: r["events"][1].__setitem__(0, 7),
    "data that is a list": lambda r: r["events"][1].__setitem__(1, []),
    "a time that is a float": lambda r: r["events"][0].__setitem__(2, 1.5),
    "a time out of range": lambda r: r["events"][0].__setitem__(2, 10**18),
    "no first time": lambda r: r["events"][0].pop(2),
    "a seal of the wrong shape": lambda r: r["events"][1].extend([None, {"salt": 1}]),
    "a salt that is not hex": lambda r: r["events"][1].extend([None, {"salt": "zz", "for": ["alice"]}]),
    "no head": lambda r: r.pop("head"),
    "an unknown field": lambda r: r.__setitem__("extra", 1),
}


@pytest.mark.parametrize("name", sorted(MALFORMED))
def test_a_malformed_format_2_record_is_a_clear_4xx(client, name):
    game = new_game(client)
    client.post(f"/games/{game['id']}/commands", json={"seat": "alice", "command": {"type": "note", "text": "x"}},
                headers={"Authorization": f"Bearer {game['seat_tokens']['alice']}"})
    record = forge(client.get(f"/games/{game['id']}/record").content, MALFORMED[name])
    for path in ("/records/verify", "/viewer/record", "/records/import"):
        response = client.post(path, json=record, headers={"Authorization": f"Bearer {ADMIN_TOKEN}"})
        assert response.status_code in (400, 422) or (response.status_code == 200 and not response.json().get("ok", True)), \
            (path, response.status_code, response.text)
        assert response.status_code < 500


def test_only_the_admin_token_imports_and_nothing_is_stored_otherwise(client):
    raw = (V1 / "saxon_shore_study.json").read_bytes()
    games = client.get("/games").json()["games"]
    no_token = client.post("/records/import", content=raw, headers={"Content-Type": "application/json"})
    assert no_token.status_code == 401 and no_token.headers["content-type"] == "application/problem+json"
    other = client.post("/records/import", content=raw, headers={"Content-Type": "application/json",
                                                                  "Authorization": "Bearer not-the-admin"})
    assert other.status_code == 403 and other.json()["code"] == "not_admin"
    assert client.get("/games").json()["games"] == games


def test_an_import_never_takes_the_id_of_a_private_stream(client, tmp_path, monkeypatch):
    """Issue 30, point 7: ``herald import`` stored a record under its game id, so a record made
    with the id of a player's stream (a name-based UUID anyone computes) took that stream, and
    ``POST /players`` then answered 409 ``name_taken`` for a name nobody registered."""
    from api.services.games import commands as games_service  # where a game's id is drawn
    from api.skeleton import confusable_key
    from domain.players import player_stream_id

    taken = player_stream_id(confusable_key("Alice"))
    monkeypatch.setattr(games_service, "uuid4", lambda: taken)  # a server that chose such an id
    game = new_game(client)
    for seat in ("alice", "bob"):
        client.post(f"/games/{game['id']}/commands", headers={"Authorization": f"Bearer {game['seat_tokens'][seat]}"},
                    json={"seat": seat, "command": {"type": "end", "outcome": {"winner": "alice"}}})
    record = client.get(f"/games/{game['id']}/record").content
    assert game["id"] == str(taken) and verify(decode_record(record)).ok
    other = Herald(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(tmp_path / "other.db")},
                   admin_token=ADMIN_TOKEN, signing_key_path=tmp_path / "key.pem")
    try:
        with TestClient(create_app(other, Settings(admin_token=ADMIN_TOKEN))) as elsewhere:
            refused = elsewhere.post("/records/import", content=record, headers={
                "Content-Type": "application/json", "Authorization": f"Bearer {ADMIN_TOKEN}"})
            assert refused.status_code == 422 and refused.json()["code"] == "game_id_reserved", refused.text
            assert elsewhere.post("/players", json={"name": "Alice"}).status_code == 201
    finally:
        other.close()
