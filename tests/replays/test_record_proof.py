"""Issue 11, point 1: every field a reader of a portable record sees is derived from the
hash-chained events (and the chain head is what the signature covers). An edited header,
outcome, date, tournament or fork claim fails verification, which names the field, in the API,
in ``herald replay verify`` and in the viewer's record mode, even beside the server's key and
the players' receipts."""

from __future__ import annotations

import copy
import json

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from api.config import Settings
from api.cli import main as herald_cli
from api.bootstrap import Herald
from tests.conftest import ADMIN_TOKEN, new_game, post
from tests.records import expanded


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    """One SQLite-backed app for the module: what is checked here is the verifier and the
    CLI, not storage (the backends are covered by the storage and audit suites)."""
    db = tmp_path_factory.mktemp("record_proof") / "herald.db"
    herald = Herald(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(db)},
                    admin_token=ADMIN_TOKEN, signing_key_path=db.parent / "signing-key.pem")
    with TestClient(create_app(herald, Settings(admin_token=ADMIN_TOKEN))) as test_client:
        yield test_client
    herald.close()


@pytest.fixture(scope="module")
def ended(client):
    """An ended open-table game: its record (signed, seed revealed), receipts and the key."""
    game = new_game(client)
    receipts = [post(client, game, "alice", {"type": "roll", "label": "charge", "dice": "2d6"}).json()["head"]]
    outcome = {"winner": "alice", "reason": "routed"}
    for seat in ("alice", "bob"):
        receipts.append(post(client, game, seat, {"type": "end", "outcome": outcome}).json()["head"])
    record = expanded(client.get(f"/games/{game['id']}/record").content)
    key = client.get("/keys").json()["keys"][0]["key"]
    return record, receipts, key


def _verify(client, record, receipts=(), key=None):
    body = {"record": record, "receipts": list(receipts), **({"public_key": key} if key else {})}
    response = client.post("/records/verify", json=body)
    assert response.status_code == 200, response.text
    return response.json()


EDITS = {
    "header.seats": lambda r: r["header"]["seats"]["alice"].update(player="Mallory"),
    "outcome": lambda r: r["outcome"].update(winner="bob"),
    "header.created_at": lambda r: r["header"].update(created_at="2020-01-01T00:00:00.000000+00:00"),
    "header.ended_at": lambda r: r["header"].update(ended_at="2031-01-01T00:00:00.000000+00:00"),
    "header.tournament": lambda r: r["header"].update(tournament={"id": "world-championship", "round": 7,
                                                                  "table": 1}),
    "header.fork": lambda r: r["header"].update(fork={"game": "7f3c0b54-3f1e-4a43-9a51-5d5ad0a0e6b1",
                                                      "version": 3, "dice": "same"}),
    "header.study": lambda r: r["header"].update(study=True),
    "header.client_seed": lambda r: r["header"].update(client_seed="chosen"),
    "head": lambda r: r["head"].update(version=2),
}


def test_the_honest_record_verifies_with_key_and_receipts(client, ended):
    record, receipts, key = ended
    assert _verify(client, record, receipts, key)["ok"]


@pytest.mark.parametrize("field", sorted(EDITS))
def test_an_edited_field_fails_and_is_named_even_with_key_and_receipts(client, ended, field):
    record, receipts, key = ended
    forged = copy.deepcopy(record)
    EDITS[field](forged)
    verdict = _verify(client, forged, receipts, key)
    assert not verdict["ok"]
    assert [p["what"].split(" ")[0] for p in verdict["problems"]] == [field], verdict["problems"]


def test_a_dropped_outcome_or_seed_is_named(client, ended):
    record, _, _ = ended
    for field in ("outcome", "seed"):
        forged = copy.deepcopy(record)
        forged[field] = None
        verdict = _verify(client, forged)
        assert not verdict["ok"]
        assert any(field in p["what"].split(" ")[0:3] or field in p["what"] for p in verdict["problems"])


def test_the_cli_names_the_edited_field(client, ended, tmp_path, capsys):
    record, receipts, key = ended
    honest, forged_file = tmp_path / "honest.json", tmp_path / "forged.json"
    honest.write_text(json.dumps(record))
    forged = copy.deepcopy(record)
    EDITS["header.seats"](forged)
    forged_file.write_text(json.dumps(forged))
    assert herald_cli(["replay", "verify", str(honest), "--key", key]) == 0
    capsys.readouterr()
    assert herald_cli(["replay", "verify", str(forged_file), "--key", key,
                       *[f"--receipt={r['version']}:{r['hash']}" for r in receipts]]) == 1
    out = capsys.readouterr().out
    assert "FAIL version 1: header.seats" in out and "Mallory" in out


def test_the_viewer_shows_the_chains_names_and_no_verified_beside_edited_ones(client, ended):
    record, _, _ = ended
    forged = copy.deepcopy(record)
    EDITS["header.seats"](forged)
    body = client.post("/viewer/record", json=forged).json()
    assert body["verdict"]["ok"] is False
    assert body["verdict"]["problems"][0]["what"].startswith("header.seats")
    assert body["header"]["seats"]["alice"]["player"] == "Alice"  # what the chain proves, not the edit
    assert "Mallory" not in json.dumps(body["header"])
