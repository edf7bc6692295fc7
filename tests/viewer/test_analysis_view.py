"""Issue 19's analysis graph and ranked commands in a real browser.

The analysis routes (``GET /games/{id}/analysis`` and ``/analysis/{version}/commands``) are
another part of issue 19; until they are on this server the page's requests for them are
answered here, in this test only, by Playwright with bodies of the issue's shape (a 202 with
progress first, then the 200). Everything else is the real server and the recorded game."""

from __future__ import annotations

import json

from tests.viewer.conftest import ARSUF_SEATS


def at_version(page, version):
    page.wait_for_function("v => document.body.dataset.version === String(v)", arg=version)


def stub_analysis(arsuf, api):
    """An analysis of the recorded game in the issue's shape: a point at every decision, the
    Crusaders' chance falling as the game goes on, two swings."""
    events = api.get(f"/games/{arsuf['id']}/events", params={"limit": 1000}).json()["events"]
    decisions = [e for e in events if e["type"] == "DecisionTaken"]
    n = len(decisions)
    points = []
    for i, e in enumerate(decisions):
        c = round(0.6 - 0.5 * i / max(1, n - 1), 3)
        points.append({"version": e["version"], "win": {"crusaders": c, "ayyubids": round(0.95 - c, 3), "draw": 0.05},
                       "low": {"crusaders": max(0, c - 0.07), "ayyubids": max(0, 0.88 - c), "draw": 0.01},
                       "high": {"crusaders": min(1, c + 0.07), "ayyubids": min(1, 1.02 - c), "draw": 0.09}})
    swings = [{"version": decisions[n // 3]["version"], "seat": decisions[n // 3]["data"]["seat"], "delta": -0.2,
               "decision": {"command": decisions[n // 3]["data"]["command"], "label": "the charge that lost it"}},
              {"version": decisions[2 * n // 3]["version"], "seat": decisions[2 * n // 3]["data"]["seat"], "delta": 0.15,
               "decision": {"command": decisions[2 * n // 3]["data"]["command"], "label": "a late rally"}}]
    return {"points": points, "swings": swings, "policy": "random", "rollouts": 200}, decisions


def route_stub(page, analysis, asked):
    calls = {"n": 0}

    def analysis_route(route):
        calls["n"] += 1
        if calls["n"] == 1:
            route.fulfill(status=202, content_type="application/json", body=json.dumps({"progress": {"done": 3, "total": 10}}))
        else:
            route.fulfill(status=200, content_type="application/json", body=json.dumps(analysis))

    def commands_route(route):
        version = int(route.request.url.rstrip("/").split("/")[-2])
        asked.append(version)
        played = next(p for p in analysis["points"] if p["version"] == version)
        body = {"version": version, "seat": "crusaders", "commands": [
            {"command": {"type": "pass"}, "label": "pass", "win": {"crusaders": 0.71}, "rollouts": 200, "played": False},
            {"command": {"type": "activate"}, "label": "the move played", "win": {"crusaders": played["win"]["crusaders"]},
             "rollouts": 200, "played": True}]}
        route.fulfill(status=200, content_type="application/json", body=json.dumps(body))

    page.route("**/games/*/analysis", analysis_route)
    page.route("**/games/*/analysis/*/commands", commands_route)
    return calls


def test_the_graph_draws_every_point_marks_the_swings_and_jumps(page, server, api, arsuf):
    analysis, decisions = stub_analysis(arsuf, api)
    asked: list[int] = []
    calls = route_stub(page, analysis, asked)
    v = decisions[5]["version"]
    page.goto(f"{server.url}/viewer/{arsuf['id']}?v={v}")
    at_version(page, v)
    page.wait_for_function("() => document.body.dataset.analysis === 'ready'")
    assert calls["n"] >= 2, "the 202 was followed by polling until the 200"
    graph = page.locator("#analysis-graph svg.graph")
    assert graph.get_attribute("data-points") == str(len(analysis["points"]))
    for seat in ("crusaders", "ayyubids", "draw"):
        line = graph.locator(f'polyline[data-seat="{seat}"]')
        assert len(line.get_attribute("points").split()) == len(analysis["points"]), seat
        assert graph.locator(f'polygon.band[data-seat="{seat}"]').count() == 1
    key = page.locator("#analysis-graph .graph-key").inner_text()
    assert ARSUF_SEATS["crusaders"] in key and ARSUF_SEATS["ayyubids"] in key and "200 rollouts" in key
    # The chance drawn at a point is the point's: the line's y at its x maps back to p.
    first = graph.locator('polyline[data-seat="crusaders"]').get_attribute("points").split()[0]
    y = float(first.split(",")[1])
    assert abs((1 - (y - 10) / (170 - 10 - 22)) - analysis["points"][0]["win"]["crusaders"]) < 0.01
    # Swings are marked; a click on one jumps to it.
    swings = graph.locator("g.swing")
    assert swings.count() == 2
    assert "the charge that lost it" in swings.first.locator("title").text_content()
    swings.first.locator("path").click()
    at_version(page, analysis["swings"][0]["version"])
    assert graph.locator("line.now").get_attribute("data-version") == str(analysis["swings"][0]["version"])
    # The ranked commands of the decision on the board, the one played marked.
    page.wait_for_function("v => document.querySelector('#ranked').dataset.version === String(v)"
                           " && document.querySelector('#ranked table')", arg=analysis["swings"][0]["version"])
    rows = page.locator("#ranked tr[data-rank]")
    assert rows.count() == 2
    assert page.locator("#ranked tr[data-played]").inner_text().count("the move played") == 1
    assert analysis["swings"][0]["version"] in asked
    # A click anywhere on the graph jumps to the nearest decision.
    graph.scroll_into_view_if_needed()
    box = graph.locator("rect.hit").bounding_box()
    page.mouse.click(box["x"] + box["width"] - 1, box["y"] + box["height"] / 2)
    at_version(page, analysis["points"][-1]["version"])


def test_a_refused_analysis_says_why(page, server, api, arsuf):
    page.route("**/games/*/analysis", lambda route: route.fulfill(
        status=403, content_type="application/problem+json",
        body=json.dumps({"type": "about:blank", "title": "Forbidden", "status": 403, "code": "live_game",
                         "detail": "no engine help for a live game's seats"})))
    page.goto(f"{server.url}/viewer/{arsuf['id']}?v=3")
    at_version(page, 3)
    page.wait_for_function("() => document.body.dataset.analysis === 'refused-403'")
    assert "not during play" in page.locator("#analysis-state").inner_text()
    assert page.locator("#analysis-graph svg").count() == 0
