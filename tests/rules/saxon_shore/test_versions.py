"""Issue 15 point 10: "Bump the rule system's version; a record made under an older version is
named as such by the verifier." ``records/saxon-shore-1.1.0.json`` is a real record made by
Saxon Shore 1.1.0 (six decisions of a study game, its events the old state patches and
``Flow``): the library verifier, ``herald replay verify`` and ``POST /records/verify`` each say
which version made it and which this server has, and replay nothing under rules it was not
played by."""

from __future__ import annotations

import json
from pathlib import Path

from api.cli import main
from replays.record_format import decode_record
from replays.verify import verify

from .helpers import S

OLD = Path(__file__).parent / "records" / "saxon-shore-1.1.0.json"
SAID = "recorded under saxon-shore 1.1.0; this server has 2.0.0"


def test_the_version_is_two():
    assert S.version == "2.0.0"


def test_the_verifier_names_the_version_a_record_was_made_under():
    record = decode_record(OLD.read_bytes())
    assert record.header.rules_version == "1.1.0"
    assert {"saxon-shore.Flow", "saxon-shore.ProvinceSet"} <= {e.type for e in record.events}
    verdict = verify(record)
    assert not verdict.ok
    assert [(p.version, p.what) for p in verdict.problems] == [(1, f"cannot replay: {SAID}")]


def test_herald_replay_verify_says_it(capsys):
    assert main(["replay", "verify", str(OLD)]) == 1
    assert SAID in capsys.readouterr().out


def test_the_api_verify_says_it(client):
    answer = client.post("/records/verify", json=json.loads(OLD.read_bytes()))
    assert answer.status_code == 200, answer.text
    verdict = answer.json()
    assert verdict["ok"] is False
    assert any(SAID in p["what"] for p in verdict["problems"]), verdict
