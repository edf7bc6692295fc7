"""Issue 19's analysis graph and ranked commands in a real browser, against the real routes
(GET /games/{id}/analysis and /analysis/{version}/commands, seeded rollouts in the server's
worker pool). A study game of Arsuf (a study game may be analysed while it goes on) is played
a few decisions by random legal commands; the page asks for 6 rollouts a board (?rollouts=6)
so the work stays small. What the page draws is checked against the routes' own answers."""

from __future__ import annotations

import random
import time

from tests.viewer.conftest import ARSUF_SEATS, create, play_random

ROLLOUTS = 6


def at_version(page, version):
    page.wait_for_function("v => document.body.dataset.version === String(v)", arg=version)


def settled(api, url, params, timeout=240):
    """The route's 200 (asking again while it answers 202)."""
    deadline = time.monotonic() + timeout
    while True:
        response = api.get(url, params=params)
        if response.status_code == 200:
            return response.json()
        assert response.status_code == 202, response.text
        assert time.monotonic() < deadline, f"{url} still running after {timeout} s"
        time.sleep(0.5)


def test_the_graph_draws_every_point_marks_the_swings_and_ranks_the_commands(page, server, api):
    game = create(api, "saladin", ARSUF_SEATS, "arsuf", seed="c3" * 32)
    head = play_random(api, game, random.Random(19), limit=8)
    page.set_default_timeout(240_000)  # the machine's two cores are shared
    page.goto(f"{server.url}/viewer/{game['id']}?v={head}&rollouts={ROLLOUTS}")
    at_version(page, head)
    page.wait_for_function("() => document.body.dataset.analysis === 'ready'")
    analysis = settled(api, f"/games/{game['id']}/analysis", {"rollouts": ROLLOUTS})
    points = analysis["points"]
    graph = page.locator("#analysis-graph svg.graph")
    assert graph.get_attribute("data-points") == str(len(points)) and len(points) >= 5
    seats = {s for p in points for s in p["win"]}
    assert seats == {"crusaders", "ayyubids", "draw"}
    for seat in seats:
        drawn = graph.locator(f'polyline[data-seat="{seat}"]').get_attribute("points").split()
        assert len(drawn) == len(points), seat
        # Each vertex's height is the point's chance (the graph's 0..1 runs from y=148 up to y=10).
        for (x_y, p) in zip(drawn, points):
            y = float(x_y.split(",")[1])
            assert abs((148 - y) / 138 - p["win"][seat]) < 0.005, (seat, p)
        assert graph.locator(f'polygon.band[data-seat="{seat}"]').count() == 1
    # issue 27: the axis counts turns (where each begins, from the outline), not versions
    turns = graph.locator("text.axis.turn").all_text_contents()
    assert turns and all(t.startswith("turn ") for t in turns), turns
    assert not [t for t in graph.locator("text.axis").all_text_contents() if t.startswith("v")]
    key = page.locator("#analysis-graph .graph-key").inner_text()
    assert ARSUF_SEATS["crusaders"] in key and ARSUF_SEATS["ayyubids"] in key and f"{ROLLOUTS} rollouts" in key
    # The swings are marked with the decision that caused them; a click on one jumps there.
    swings = graph.locator("g.swing")
    assert swings.count() == len(analysis["swings"]) >= 1
    first = analysis["swings"][0]
    assert first["text"] in graph.locator(f'g.swing[data-version="{first["version"]}"] title').text_content()
    graph.locator(f'g.swing[data-version="{first["version"]}"] path').click()
    at_version(page, first["version"])
    # The commands of that decision ranked (at the board it was taken from), the one played marked.
    point = next(p for p in points if p["decision"] == first["version"])
    ranked = settled(api, f"/games/{game['id']}/analysis/{point['version']}/commands", {"rollouts": ROLLOUTS})
    page.wait_for_function("v => document.querySelector('#ranked').dataset.version === String(v)"
                           " && document.querySelector('#ranked table')", arg=point["version"])
    rows = page.locator("#ranked tr[data-rank]")
    assert rows.count() == len(ranked["commands"])
    played = [i for i, c in enumerate(ranked["commands"]) if c["played"]]
    assert len(played) == 1
    assert page.locator("#ranked tr[data-played]").get_attribute("data-rank") == str(played[0] + 1)
    assert ranked["commands"][played[0]]["text"] in page.locator("#ranked tr[data-played]").inner_text()
    # A click on the graph's left edge jumps to the first board analysed.
    graph.scroll_into_view_if_needed()
    box = graph.locator("rect.hit").bounding_box()
    page.mouse.click(box["x"] + 1, box["y"] + box["height"] / 2)
    at_version(page, points[0]["version"])


def test_no_engine_help_during_play_the_page_says_why(page, server, api):
    game = create(api, "saladin", ARSUF_SEATS, "arsuf")  # not a study game, still in play
    head = play_random(api, game, random.Random(3), limit=3)
    assert api.get(f"/games/{game['id']}/analysis").status_code == 403
    page.goto(f"{server.url}/viewer/{game['id']}?v={head}")
    at_version(page, head)
    page.wait_for_function("() => document.body.dataset.analysis === 'offered'")  # it starts when asked
    page.click("#analyse")
    page.wait_for_function("() => document.body.dataset.analysis === 'refused-403'")
    assert "not during play" in page.locator("#analysis-state").inner_text()
    assert page.locator("#analysis-graph svg").count() == 0
