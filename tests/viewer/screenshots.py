"""Regenerate the viewer screenshots under docs/: the Arsuf board at the start and at the end
of a game recorded the way the browser tests record one (random legal commands over HTTP,
fixed seed), on a 1280×800 window and on a 390×844 phone; the same game studied (a step with
an attack: the last move ringed, the arrow, the step's dice, what changed, the move list and
the analysis graph); a Saxon Shore move on the zoomed map; a tournament's page. With the argument
``day-of-battle``, only the Day of Battle boards: a battle recorded by two clients reading
legal-commands (tests/rules/day_of_battle/helpers.py), at its last volley.

    .venv/bin/python -m tests.viewer.screenshots [day-of-battle]
"""

from __future__ import annotations

import random
import sys
import tempfile
import time
from pathlib import Path

import httpx

from tests.conftest import start_server
from tests.viewer.conftest import ARSUF_SEATS, CHROMIUM, CHROMIUM_ARGS, PHONE, WIDE, create, play_random

DOCS = Path(__file__).resolve().parents[2] / "docs"
ANALYSIS_ROLLOUTS = 20


def _shoot(browser, url: str, version: int | None, name: str, viewport=WIDE, ready: str | None = None,
           before=None) -> None:
    page = browser.new_page(viewport=viewport, device_scale_factor=1)
    page.set_default_timeout(600_000)
    page.goto(url)
    if version is not None:
        page.wait_for_function("v => document.body.dataset.version === String(v)", arg=version)
    if ready:
        page.wait_for_function(ready)
    if before:
        before(page)
    page.wait_for_timeout(300)
    out = DOCS / name
    page.screenshot(path=str(out), full_page=True)
    print(out.relative_to(DOCS.parent))
    page.close()


def _zoom_on_the_move(page) -> None:
    """Wheel the map in twice over the move's arrow."""
    box = page.locator("#board .overlay path.ov-move").first.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    for _ in range(3):
        page.mouse.wheel(0, -200)
        page.wait_for_timeout(100)


def _saxon_move(api) -> tuple[dict, int]:
    from tests.viewer.test_saxon_shore_board import SEATS
    from tests.viewer.test_saxon_shore_study import play_until_a_move

    game = create(api, "saxon-shore", SEATS, "standard", seed="7e" * 32)
    play_until_a_move(api, game, random.Random(6))
    return game, api.get(f"/games/{game['id']}").json()["version"]


def _tournament(api) -> str:
    from tests.viewer.test_tournament_pages import PLAYERS
    from tests.tournaments.sim import my_seat_tokens, open_tournament, pair, play_open_table

    rng = random.Random("viewer-cup")
    run = open_tournament(api, PLAYERS, rules="open-table", format="swiss", rounds=2)
    for number in (1, 2):
        pair(api, run)
        tokens = my_seat_tokens(api, run, number)
        for table in run.rounds[-1]["tables"]:
            play_open_table(api, table["game"], tokens[table["game"]], rng, moves=2,
                            outcome={"winner": "p1", "reason": "agreed at the table"})
    return run.id


def main() -> int:
    from playwright.sync_api import sync_playwright

    DOCS.mkdir(exist_ok=True)
    server = start_server(Path(tempfile.mkdtemp()), {"HERALD_ANALYSIS_BUDGET": "1200"})
    try:
        with httpx.Client(base_url=server.url, timeout=30) as api:
            game = create(api, "saladin", ARSUF_SEATS, "arsuf", seed="a1" * 32)
            head = play_random(api, game, random.Random(1191))
            events = api.get(f"/games/{game['id']}/events", params={"limit": 1000}).json()["events"]
            saxon, saxon_head = _saxon_move(api)
            cup = _tournament(api)
            # The analysis is computed once (it is cached) before the page asks for it.
            started = time.monotonic()
            while (found := api.get(f"/games/{game['id']}/analysis", params={"rollouts": ANALYSIS_ROLLOUTS})).status_code == 202:
                time.sleep(1)
            print(f"analysis of {head} versions, {ANALYSIS_ROLLOUTS} rollouts a board: {time.monotonic() - started:.0f} s")
            analysed = {p["decision"] for p in found.json()["points"] if p.get("decision")}
            attack = next(e for e in events if e["type"] == "DecisionTaken" and e["version"] > 30 and e["version"] in analysed
                          and e["data"]["command"].get("action") in ("loose", "charge", "melee"))
            rolled = next(e["version"] for e in events if e["version"] > attack["version"] and e["type"] == "DiceRolled")
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            base = f"{server.url}/viewer/{game['id']}"
            for name, version, viewport, suffix in [("start", 1, WIDE, ""), ("end", head, WIDE, ""),
                                                    ("start", 1, PHONE, "-phone"), ("end", head, PHONE, "-phone")]:
                # (every page asks for the analysis: at the rollouts computed above, from the cache)
                _shoot(browser, f"{base}?v={version}&rollouts={ANALYSIS_ROLLOUTS}", version, f"viewer-arsuf-{name}{suffix}.png",
                       viewport)
            _shoot(browser, f"{base}?v={rolled}&rollouts={ANALYSIS_ROLLOUTS}", rolled, "viewer-arsuf-study.png",
                   ready="() => document.body.dataset.analysis === 'ready' && document.querySelector('#ranked table')")
            _shoot(browser, f"{server.url}/viewer/{saxon['id']}?v={saxon_head}", saxon_head, "viewer-saxon-shore-move.png",
                   before=_zoom_on_the_move)
            _shoot(browser, f"{server.url}/viewer/tournaments/{cup}", None, "viewer-tournament.png",
                   ready="() => document.body.dataset.ready === 'yes'")
            browser.close()
    finally:
        server.process.terminate()
    return 0


def day_of_battle() -> int:
    from playwright.sync_api import sync_playwright

    from tests.rules.day_of_battle.helpers import SEATS, battle_over_http

    server = start_server(Path(tempfile.mkdtemp()), {})
    try:
        with httpx.Client(base_url=server.url, timeout=30) as api:
            game = create(api, "day-of-battle", SEATS, "crusaders-seljuq-turks", seed="d0" * 32)
            battle_over_http(server.url, game)
            events = api.get(f"/games/{game['id']}/events", params={"limit": 1000}).json()["events"]
            volley = next(e["version"] for e in reversed(events) if e["type"] == "day-of-battle.VolleyFired")
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            for viewport, suffix in ((WIDE, ""), (PHONE, "-phone")):
                _shoot(browser, f"{server.url}/viewer/{game['id']}?v={volley}", volley,
                       f"viewer-day-of-battle{suffix}.png", viewport)
            browser.close()
    finally:
        server.process.terminate()
    return 0


if __name__ == "__main__":
    sys.exit(day_of_battle() if sys.argv[1:] == ["day-of-battle"] else main())
