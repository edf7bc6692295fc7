"""Issue 27 point 4, "The viewer as a player would study with": player names on every board and
note (never a seat id, never an auto-cased one), titles as the rule systems name themselves ("no
'Kingdoms Of Crusaders'"), "the ending line shown once", "notes/annotations made after the end
kept beside the record (not appended as moves after `SeedRevealed` in the timeline)", a line's
player said once ("P2 (Bohemond): Bohemond: places …" was the last move); point 3, the text board
beside the viewer's board shows every hand after the reveal. In Chromium, against a real
``herald serve``, on games played to their end over HTTP."""

from __future__ import annotations

import random

import pytest

from tests.viewer.conftest import create, play_random

SEATS = {"p1": "Baldwin", "p2": "Bohemond"}


def at_version(page, version):
    page.wait_for_function("v => document.body.dataset.version === String(v)", arg=version)


@pytest.fixture(scope="module")
def kingdoms(api) -> dict:
    """A Kingdoms game played to its end, then a note written after the end about its middle step."""
    game = create(api, "kingdoms-of-crusaders", SEATS)
    game["head"] = play_random(api, game, random.Random(27))
    assert api.get(f"/games/{game['id']}").json()["status"] == "ended"
    game["middle"] = game["head"] // 2
    noted = api.post(f"/games/{game['id']}/annotations", json={"at_version": game["middle"], "text": "the turning point"},
                     headers={"Authorization": f"Bearer {game['seat_tokens']['p1']}"})
    assert noted.status_code == 201, noted.text
    game["note"] = noted.json()["version"]
    return game


def test_a_note_after_the_end_is_beside_the_record_not_a_step(page, server, kingdoms):
    page.goto(f"{server.url}/viewer/{kingdoms['id']}")
    at_version(page, kingdoms["head"])  # the last step is the end (SeedRevealed), not the note after it
    assert page.locator("#head").inner_text() == str(kingdoms["head"])
    assert page.locator(f'#timeline li[data-version="{kingdoms["note"]}"]').count() == 0
    assert page.locator("#timeline li").last.get_attribute("data-type") == "SeedRevealed"
    after = page.locator("#afterwords")
    assert after.is_visible() and "Notes after the end" in after.inner_text()
    assert page.locator("#afterword-list li").inner_text().startswith("Baldwin on step")
    page.locator("#afterword-list [data-goto]").click()
    at_version(page, kingdoms["middle"])
    note = page.locator("#notes").inner_text()
    assert "Baldwin: the turning point" in note and "after the game ended" in note, note


def test_names_not_seats_and_the_end_said_once(page, server, api, kingdoms):
    page.goto(f"{server.url}/viewer/{kingdoms['id']}?v={kingdoms['middle']}")
    at_version(page, kingdoms["middle"])
    assert page.locator("#title").inner_text() == "The Kingdoms of Crusaders"
    assert page.locator("#subtitle").inner_text().startswith("Baldwin (p1) · Bohemond (p2)")
    last = page.locator("#last-move").inner_text()
    player = last.split(": ")[0].removeprefix("LAST MOVE").strip().removeprefix("last move").strip()
    assert player in SEATS.values() and f"{player}: {player}" not in last, last  # the player said once
    for seat in ("P1", "P2", "p1", "p2"):
        assert f"{seat} " not in last and f"{seat}:" not in last, last
    chips = page.eval_on_selector_all("#timeline .seat, #moves .seat", "s => s.map((x) => x.textContent)")
    assert chips and set(chips) <= set(SEATS.values()), set(chips)
    # the text board beside the board: after the reveal every hand card by card
    view = api.get(f"/games/{kingdoms['id']}/state", params={"at": kingdoms["middle"]}).json()["view"]
    text = page.eval_on_selector("#text", "e => e.textContent")
    for seat, hand in view["hands"].items():
        assert f"{SEATS[seat]}'s hand: " in text and all(c["id"] in text for c in hand["cards"]), text
    # the end: one line, the page's banner
    page.keyboard.press("End")
    at_version(page, kingdoms["head"])
    outcome = api.get(f"/games/{kingdoms['id']}").json()["outcome"]
    banner = page.locator("#result").inner_text()
    assert f"{SEATS[outcome['winner']]} wins" in banner, banner
    said = page.evaluate("""(reason) => [...document.querySelectorAll('body *')].filter((e) => e.getClientRects().length
        && !e.closest('#timeline, #text, #moves') && [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.includes(reason))
        ).length""", outcome["reason"])  # on the page (the board's SVG included), beside the timeline and the text board
    assert said == 1, f"the end's reason {outcome['reason']!r} is shown {said} times"
    ended = page.locator('#timeline li[data-type="GameEnded"]').inner_text()
    assert outcome["reason"] not in ended, ended  # the rule's own end line above says it


def test_the_game_list_names_games_as_their_rule_systems_do(page, server, kingdoms):
    page.goto(f"{server.url}/viewer")
    link = page.locator(f'#games a[href="/viewer/{kingdoms["id"]}"]')
    link.wait_for()
    assert link.inner_text() == "The Kingdoms of Crusaders", link.inner_text()
    assert "Kingdoms Of" not in page.locator("#games").inner_text()
