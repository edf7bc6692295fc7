"""Issue 11, point 5 (records and the CLI): a record whose hashes hold but whose fields have
the wrong types (draws as a number, a recording time that is not ISO 8601, ...) is a clear
problem in the API (200 ok:false naming the version, or 4xx, never 500) and in the CLI (a
message and a non-zero exit, never a traceback); the CLI reads /dev/zero and FIFOs with a
bound and a clear error."""

from __future__ import annotations

import contextlib
import copy
import io
import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from uuid import UUID

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from api.cli import main
from api.config import Settings
from api.bootstrap import Herald
from domain.game import GENESIS_HASH, event_hash
from tests.conftest import ADMIN_TOKEN, new_game, post
from tests.records import expanded

HERALD = str(Path(sys.executable).parent / "herald")


def rehash(record: dict) -> dict:
    """Re-link the whole chain after an edit, as a forger would: every hash holds again."""
    prev = GENESIS_HASH
    for e in record["events"]:
        e["prev_hash"] = prev
        e["hash"] = prev = event_hash(UUID(record["header"]["game"]), e["version"], e["type"], e["data"],
                                      e["prev_hash"], e["recorded_at"])
    record["head"] = {"version": len(record["events"]), "hash": prev}
    record["signature"] = None
    return record


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    """One SQLite-backed app for the module: what is checked here is the verifier and the
    CLI, not storage (the backends are covered by the storage and audit suites)."""
    db = tmp_path_factory.mktemp("malformed_records") / "herald.db"
    herald = Herald(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(db)},
                    admin_token=ADMIN_TOKEN, signing_key_path=db.parent / "signing-key.pem")
    with TestClient(create_app(herald, Settings(admin_token=ADMIN_TOKEN))) as test_client:
        yield test_client
    herald.close()


@pytest.fixture(scope="module")
def record(client):
    game = new_game(client, options={"decks": {"tiny": ["a", "b", "c"]}})
    post(client, game, "alice", {"type": "roll", "label": "charge", "dice": "2d6"})
    post(client, game, "alice", {"type": "shuffle", "deck": "tiny"})
    post(client, game, "bob", {"type": "draw", "deck": "tiny", "count": 1})
    return expanded(client.get(f"/games/{game['id']}/record").content)


def _event(record, type_):
    return next(e for e in record["events"] if e["type"] == type_)


FORGERIES = {
    "draws as a number": lambda r: _event(r, "DiceRolled")["data"].update(draws=3),
    "faces as a string": lambda r: _event(r, "DiceRolled")["data"].update(faces="six"),
    "shuffle draws of text": lambda r: _event(r, "CardsShuffled")["data"].update(draws=["x"]),
    "recorded_at not ISO 8601": lambda r: _event(r, "DiceRolled").update(recorded_at="yesterday at noon"),
    "GameCreated recorded_at not ISO 8601": lambda r: r["events"][0].update(recorded_at="2026-13-45T99:00:00"),
    "seats as a list": lambda r: r["events"][0]["data"].update(seats=["alice"]),
    "command as a number": lambda r: _event(r, "DecisionTaken")["data"].update(command=7),
}


@pytest.mark.parametrize("forgery", sorted(FORGERIES))
def test_the_api_names_a_malformed_event_whose_hashes_hold(client, record, forgery):
    forged = rehash(record_copy(record, forgery))
    response = client.post("/records/verify", json=forged)
    assert response.status_code < 500, response.text
    if response.status_code == 200:
        verdict = response.json()
        assert verdict["ok"] is False and verdict["problems"], verdict
        assert any(p["version"] is not None for p in verdict["problems"])
    viewer = client.post("/viewer/record", json=forged)
    assert viewer.status_code < 500, viewer.text


def record_copy(record, forgery):
    forged = copy.deepcopy(record)
    FORGERIES[forgery](forged)
    return forged


def herald_cli(*args: str) -> tuple[int, str]:
    """Run ``herald`` in this process: its exit code and everything it printed. Any exception
    other than the SystemExit of a clear message fails the test (it would be a traceback)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(list(args))
        except SystemExit as exit_:
            code = exit_.code if isinstance(exit_.code, int) else 1
            print(exit_.code, file=err)
    return code, out.getvalue() + err.getvalue()


@pytest.mark.parametrize("forgery", sorted(FORGERIES))
def test_the_cli_says_what_is_wrong(client, record, forgery, tmp_path):
    path = tmp_path / "forged.json"
    path.write_text(json.dumps(rehash(record_copy(record, forgery))))
    for command in ("verify", "show"):
        code, said = herald_cli("replay", command, str(path))
        assert code != 0 and said.strip(), said


def test_the_real_cli_prints_no_traceback(client, record, tmp_path):
    path = tmp_path / "forged.json"
    path.write_text(json.dumps(rehash(record_copy(record, "draws as a number"))))
    for command in ("verify", "show"):
        done = subprocess.run([HERALD, "replay", command, str(path)], capture_output=True, text=True, timeout=60)
        assert done.returncode != 0 and "Traceback" not in done.stdout + done.stderr
        assert "malformed DiceRolled data" in done.stdout + done.stderr


def test_the_cli_refuses_dev_zero_with_a_bound(monkeypatch):
    monkeypatch.setenv("HERALD_MAX_RECORD_FILE", str(4 * 1024 * 1024))
    code, said = herald_cli("replay", "verify", "/dev/zero")
    assert code != 0 and "more than 4194304 bytes" in said


def test_the_cli_refuses_a_fifo_nobody_writes_to(tmp_path, monkeypatch):
    monkeypatch.setenv("HERALD_READ_WAIT", "0.3")
    fifo = tmp_path / "record.fifo"
    os.mkfifo(fifo)
    code, said = herald_cli("replay", "verify", str(fifo))
    assert code != 0 and "nobody wrote to the FIFO" in said


def test_the_cli_reads_a_record_from_a_fifo_whose_writer_comes_late(client, record, tmp_path):
    fifo = tmp_path / "record.fifo"
    os.mkfifo(fifo)

    def write_late() -> None:
        time.sleep(0.5)  # the reader is already waiting on the FIFO
        fd = os.open(fifo, os.O_WRONLY)
        os.write(fd, json.dumps(record).encode())
        os.close(fd)

    writer = threading.Thread(target=write_late)
    writer.start()
    code, said = herald_cli("replay", "verify", str(fifo))
    writer.join()
    assert code == 0 and said.startswith("OK:"), said


def test_the_cli_refuses_a_folder(tmp_path):
    code, said = herald_cli("replay", "verify", str(tmp_path))
    assert code != 0 and "folder" in said


@pytest.mark.parametrize("where", ["beside the events", "in an event's data"])
def test_the_cli_says_a_record_nests_too_deep_without_a_traceback(tmp_path, where):
    """README: a file that is not a record is "a one-line error and exit code 1 or 2"; JSON
    nested 5,000 deep made msgspec raise RecursionError, which came out as a traceback."""
    deep = "[" * 5000 + "]" * 5000
    text = ('{"events": [], "x": ' + deep + "}" if where == "beside the events" else
            '{"events": [{"version": 1, "type": "GameCreated", "data": {"a": ' + deep + '}, "hash": "x", '
            '"prev_hash": ""}]}')
    path = tmp_path / "deep.json"
    path.write_text(text)
    for args in (("replay", "verify"), ("replay", "show"), ("analyse",), ("rules", "check")):
        code, said = herald_cli(*args, str(path))
        assert code in (1, 2) and len(said.strip().splitlines()) == 1, (args, said)
        assert where == "beside the events" or "nests too deep" in said, (args, said)
