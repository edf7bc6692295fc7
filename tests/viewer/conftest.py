"""Browser fixtures: Debian's Chromium at /usr/bin/chromium driven by Playwright's Python
package (never a downloaded browser), one real ``herald serve`` for the module, and games
recorded over HTTP by posting random legal commands.

A missing Chromium or Playwright is a test FAILURE with the fix in the message, never a skip.
"""

from __future__ import annotations

import os
import random
import subprocess
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.conftest import LiveServer, start_server

CHROMIUM = os.environ.get("HERALD_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
WIDE = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


def _require_chromium() -> None:
    if not (Path(CHROMIUM).is_file() and os.access(CHROMIUM, os.X_OK)):
        pytest.fail(
            f"the viewer's browser tests need Chromium at {CHROMIUM}, and it is missing: "
            "install Debian's package with `apt-get update && apt-get install -y chromium` "
            "(.ci/run does this), or point HERALD_CHROMIUM at a Chromium binary",
            pytrace=False,
        )


@pytest.fixture(scope="session")
def browser() -> Iterator:
    """One headless Chromium for the whole session."""
    _require_chromium()
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.fail("the viewer's browser tests need Playwright's Python package: "
                    "`.venv/bin/pip install -e '.[test]'`", pytrace=False)
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def page(browser):
    """A fresh browser context (own sessionStorage) with a desktop window; page errors fail the test."""
    context = browser.new_context(viewport=WIDE)
    tab = context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda error: errors.append(str(error)))
    tab.set_default_timeout(20_000)  # the machine may be busy with other suites
    yield tab
    context.close()
    assert not errors, f"JavaScript errors in the page: {errors}"


@pytest.fixture(scope="session")
def server(tmp_path_factory) -> Iterator[LiveServer]:
    """A real ``herald serve`` (uvicorn, SQLite file) shared by a module's browser tests;
    the SSE stream polls every 50 ms so live tests stay quick."""
    found = start_server(tmp_path_factory.mktemp("viewer"), {"HERALD_SSE_POLL_SECONDS": "0.05"})
    yield found
    found.process.terminate()
    try:
        found.process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        found.process.kill()


@pytest.fixture(scope="session")
def api(server) -> Iterator[httpx.Client]:
    # an idle pooled connection is dropped after 2 s, before uvicorn's 5 s keep-alive closes it:
    # with both at 5 s (httpx's default), a request sent as the server closes the connection
    # fails "Server disconnected without sending a response" (a test waiting on the page first)
    with httpx.Client(base_url=server.url, timeout=10, limits=httpx.Limits(keepalive_expiry=2.0)) as client:
        yield client


def create(api: httpx.Client, rules: str, seats: dict[str, str], scenario: str | None = None,
           seed: str | None = None) -> dict:
    body = {"rules": rules, "seats": {s: {"player": p} for s, p in seats.items()}}
    if scenario:
        body["scenario"] = scenario
    if seed:
        body["seed"] = seed
    response = api.post("/games", json=body)
    assert response.status_code == 201, response.text
    return response.json()


def play_random(api: httpx.Client, game: dict, rnd: random.Random, limit: int | None = None) -> int:
    """Post random legal commands from /legal-commands until the game ends (or ``limit``
    commands); returns the game's version."""
    played = 0
    while limit is None or played < limit:
        summary = api.get(f"/games/{game['id']}").json()
        if not summary["to_act"]:
            return summary["version"]
        seat = summary["to_act"][0]
        legal = api.get(f"/games/{game['id']}/legal-commands", params={"seat": seat},
                        headers={"Authorization": f"Bearer {game['seat_tokens'][seat]}"}).json()
        assert legal["commands"], f"{seat} is to act but has no legal command at v{summary['version']}"
        response = api.post(
            f"/games/{game['id']}/commands",
            json={"seat": seat, "command": rnd.choice(legal["commands"]), "expected_version": summary["version"]},
            headers={"Authorization": f"Bearer {game['seat_tokens'][seat]}"},
        )
        assert response.status_code == 201, response.text
        played += 1
    return api.get(f"/games/{game['id']}").json()["version"]


ARSUF_SEATS = {"crusaders": "Richard", "ayyubids": "Saladin"}


@pytest.fixture(scope="session")
def arsuf(api) -> dict:
    """A recorded Arsuf game, played to its end by random legal commands over HTTP."""
    game = create(api, "saladin", ARSUF_SEATS, "arsuf", seed="a1" * 32)  # a study game: the same record every run
    game["head"] = play_random(api, game, random.Random(1191))
    assert api.get(f"/games/{game['id']}").json()["status"] == "ended"
    return game
