"""Issue 24, "Not done until": a Saxon Shore game played to its §1 victory, as long as the one
the issue reports or longer (77,448 events, 22,501 decisions; tests/long_games.SAXON_FULL), exports, verifies over REST (gzipped and
not), imports, opens in the viewer and steps to its middle and end — on a real server (uvicorn,
SQLite file) and in a real browser."""

from __future__ import annotations

import gzip
import json

import httpx
import pytest

from tests.conftest import ADMIN_TOKEN
from tests.long_games import SAXON_FULL, saxon_shore_record

JSON = {"Content-Type": "application/json"}
GZIP = {**JSON, "Content-Encoding": "gzip"}
ADMIN = {"Authorization": f"Bearer {ADMIN_TOKEN}"}


@pytest.mark.slow
def test_a_full_length_game_exports_verifies_imports_and_steps_in_the_viewer(server, page, tmp_path):
    played = saxon_shore_record(*SAXON_FULL)
    record = json.loads(played)
    events, decisions = len(record["events"]), sum(e[0] == "DecisionTaken" for e in record["events"])
    assert events >= 48_295 and record["outcome"]["reason"]
    http = httpx.Client(base_url=server.url, timeout=120)

    imported = http.post("/records/import", content=gzip.compress(played), headers={**GZIP, **ADMIN})
    assert imported.status_code == 201, imported.text
    game = imported.json()["id"]
    assert imported.json()["head"] == record["head"]

    exported = http.get(f"/games/{game}/record", headers={"Accept-Encoding": "gzip"})
    assert exported.status_code == 200 and exported.headers.get("content-encoding") == "gzip"
    again = json.loads(exported.content)  # httpx has decompressed it
    assert again["events"] == record["events"] and again["head"] == record["head"]
    assert len(exported.content) / decisions <= 400  # bytes a decision, as exported
    assert again["signature"]["hash"] == record["head"]["hash"]

    for body, headers in ((exported.content, JSON), (gzip.compress(exported.content), GZIP)):
        verdict = http.post("/records/verify", content=body, headers=headers)
        assert verdict.status_code == 200, verdict.text
        assert verdict.json()["ok"] is True, verdict.json()["problems"][:3]

    path = tmp_path / "saxon-shore.record.json"
    path.write_bytes(exported.content)
    middle = events // 2
    page.set_default_timeout(120_000)
    page.goto(f"{server.url}/viewer/record")
    page.wait_for_selector("body[data-opener='ready']")
    page.set_input_files("#record-file", str(path))
    page.wait_for_function("v => document.body.dataset.version === String(v)", arg=events)
    assert "verified" in page.locator("#subtitle").inner_text()
    end = http.get(f"/games/{game}/state", params={"at": events}).json()
    shown = page.evaluate("() => document.body.dataset.version")
    assert shown == str(events) and end["version"] == events
    # the middle, through the move list's jumps (a turn near it), then one step at a time to it
    target = page.evaluate("""(middle) => {
        const jumps = [...document.querySelectorAll('#movelist [data-goto]')].map((b) => Number(b.dataset.goto));
        return jumps.filter((v) => v <= middle).sort((a, b) => b - a)[0] || 1; }""", middle)
    with page.expect_response(lambda r: "/viewer/records/" in r.url and f"state?at={target}" in r.url) as seen:
        page.locator(f'#movelist [data-goto="{target}"]').first.click()
    page.wait_for_function("v => document.body.dataset.version === String(v)", arg=target)
    assert seen.value.json() == http.get(f"/games/{game}/state", params={"at": target}).json()
    for version in range(target + 1, min(target + 4, events) + 1):
        page.keyboard.press("ArrowRight")
        page.wait_for_function("v => document.body.dataset.version === String(v)", arg=version)
    page.keyboard.press("End")
    page.wait_for_function("v => document.body.dataset.version === String(v)", arg=events)
