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
SAID = "recorded under saxon-shore 1.1.0; this server has 2.2.0"


def test_the_version_is_2_2_0_and_it_replays_2_1_0_and_2_0_0():
    assert (S.version, S.older_versions) == ("2.2.0", ("2.1.0", "2.0.0"))


def test_the_map_header_names_the_option_the_engine_reads():
    """Issue 26 point 9: the header tells owners to give their map as ``options.map``, the
    rule system's ``owner_data.option``."""
    header = json.loads((Path(S.package_dir) / "map.json").read_text(encoding="utf-8"))["header"]
    assert f"options.{S.owner_data.option}" in header and "options.data" not in header


def test_a_2_0_0_game_on_the_built_in_map_still_opens():
    """The header's correction changed the file's bytes, not the map: a game recorded under 2.0.0
    carries the old file's hash and is still played (RULES_NOTES.md, Versions)."""
    from domain.game import rule_system_for
    from domain.events import GameCreated, SeatInfo
    created = GameCreated(rules=S.id, rules_version="2.0.0", scenario="standard",
                          data_hash="8f535e1702b6fcf603476371cf3f6a47261814726ca8307b0dab52bebdb07a43",
                          seats={"p1": SeatInfo(player="a"), "p2": SeatInfo(player="b")}, seed_commitment="0" * 64)
    assert rule_system_for(created).version == "2.0.0"
    assert S.data_hash("standard") != created.data_hash


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
