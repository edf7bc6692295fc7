"""Issue 19 on the Saxon Shore map in a real browser: a move is drawn as an arrow from where
the units stood to where they stand now (read from the views, units by id), beneath the
province cards; the map zooms and pans (buttons, keys, the wheel, a drag) and keeps its zoom
from step to step. The move is composed from GET /legal-commands' ``choices`` (moves are too
many to list) and checked with POST /commands/check before it is sent."""

from __future__ import annotations

import random

import pytest

from tests.viewer.conftest import create
from tests.viewer.test_saxon_shore_board import SEATS, pick


def auth(game, seat):
    return {"Authorization": f"Bearer {game['seat_tokens'][seat]}"}


def where(view):
    """Each unit's place: province or sea zone."""
    out = {}
    for name, p in view["provinces"].items():
        out |= {u["id"]: name for u in p["troops"]}
    for name, z in view["sea_zones"].items():
        out |= {u["id"]: name for u in z["units"]}
    return out


def play_until_a_move(api, game, rnd, limit=1500) -> tuple[int, str, str]:
    """Random listed commands; at the first move phase whose choices let a group step into a
    neighbouring province, that move. Returns (version, from, to)."""
    for _ in range(limit):
        summary = api.get(f"/games/{game['id']}").json()
        assert summary["to_act"], "the game ended before anyone moved"
        seat = summary["to_act"][0]
        legal = api.get(f"/games/{game['id']}/legal-commands", params={"seat": seat}, headers=auth(game, seat)).json()
        for choice in legal.get("choices", []):
            if choice["type"] != "move":
                continue
            groups, steps = choice["units"]["groups"], choice["path"]["steps"]
            tries = [(place, ids, nxt) for place, ids in groups.items() for nxt in steps.get(place, [])
                     if nxt in summary["view"]["provinces"]]
            rnd.shuffle(tries)
            for place, ids, nxt in tries:
                command = {"type": "move", "units": ids[:1], "path": [nxt]}
                body = {"seat": seat, "command": command, "expected_version": summary["version"]}
                if api.post(f"/games/{game['id']}/commands/check", json=body, headers=auth(game, seat)).json()["accepted"]:
                    sent = api.post(f"/games/{game['id']}/commands", json=body, headers=auth(game, seat))
                    assert sent.status_code == 201, sent.text
                    return sent.json()["events"][0]["version"], place, nxt
        done = [c for c in legal["commands"] if c.get("type") == "done"]
        command = done[0] if done and rnd.random() < 0.7 else pick(legal["commands"], rnd)  # on to the move phase
        body = {"seat": seat, "command": command, "expected_version": summary["version"]}
        assert api.post(f"/games/{game['id']}/commands", json=body, headers=auth(game, seat)).status_code == 201
    pytest.fail("no move was possible")


def at_version(page, version):
    page.wait_for_function("v => document.body.dataset.version === String(v)", arg=version)


def test_a_move_is_an_arrow_and_the_map_zooms_and_pans(page, server, api):
    game = create(api, "saxon-shore", SEATS, "standard", seed="7e" * 32)
    version, origin, destination = play_until_a_move(api, game, random.Random(6))
    head = api.get(f"/games/{game['id']}").json()["version"]
    # The arrow's ends are where the views put the units before and after the step.
    before = where(api.get(f"/games/{game['id']}/state", params={"at": version - 1}).json()["view"])
    after = where(api.get(f"/games/{game['id']}/state", params={"at": head}).json()["view"])
    moved = {(before[i], after[i]) for i in after if i in before and before[i] != after[i]}
    assert (origin, destination) in moved
    page.goto(f"{server.url}/viewer/{game['id']}?v={head}")
    at_version(page, head)
    board = page.locator("#board")
    arrow = board.locator(f'.overlay path.ov-move[data-from="{origin}"][data-to="{destination}"]')
    assert arrow.count() == 1
    assert board.locator(f'.overlay .ov-ring[data-at="{destination}"]').count() == 1  # the command names it
    beneath = page.evaluate("""() => {
      const overlay = document.querySelector('#board g.overlay');
      return [...document.querySelectorAll('#board g.province')].every((p) => overlay.compareDocumentPosition(p) & Node.DOCUMENT_POSITION_FOLLOWING);
    }""")
    assert beneath, "the marks are drawn beneath the province cards"

    # Zoom: the buttons, kept across steps, the keys, a drag to pan, the wheel, and back.
    svg = board.locator("svg.saxon-shore-map")
    whole = [float(x) for x in svg.get_attribute("viewBox").split()]
    board.locator('[data-zoom-action="in"]').click()
    zoomed = [float(x) for x in svg.get_attribute("viewBox").split()]
    assert zoomed[2] == pytest.approx(whole[2] / 1.5) and zoomed[3] == pytest.approx(whole[3] / 1.5)
    page.keyboard.press("ArrowLeft")
    at_version(page, head - 1)
    assert [float(x) for x in svg.get_attribute("viewBox").split()] == zoomed
    page.keyboard.press("+")
    closer = [float(x) for x in svg.get_attribute("viewBox").split()]
    assert closer[2] < zoomed[2]
    box = svg.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] / 2 - 120, box["y"] + box["height"] / 2 - 80, steps=5)
    page.mouse.up()
    panned = [float(x) for x in svg.get_attribute("viewBox").split()]
    assert panned[0] > closer[0] and panned[1] > closer[1] and panned[2] == closer[2]
    page.mouse.wheel(0, 300)
    wheeled = [float(x) for x in svg.get_attribute("viewBox").split()]
    assert wheeled[2] > panned[2]
    page.keyboard.press("0")
    assert [float(x) for x in svg.get_attribute("viewBox").split()] == whole
    # The arrow follows the map: still there after the zoom.
    page.keyboard.press("ArrowRight")
    at_version(page, head)
    assert board.locator(f'.overlay path.ov-move[data-from="{origin}"][data-to="{destination}"]').count() == 1
