"""Issue 7 in a real browser: a recorded Arsuf game stepped with the keyboard, the drawn
lances and Order pools checked against GET /state at every step; a live game followed while
another client posts commands; forking and annotating from a step."""

from __future__ import annotations

import random
from urllib.parse import parse_qs, urlparse

from tests.viewer.conftest import ARSUF_SEATS, PHONE, WIDE, create, play_random

# What the page drew, read back from the SVG's data attributes.
READ_BOARD = """() => {
  const board = document.querySelector('#board svg.saladin');
  if (!board) return null;
  const out = { version: Number(document.body.dataset.version), banners: {}, pools: {}, losses: {}, markers: {},
                arsuf: null, captured: {} };
  for (const g of board.querySelectorAll('g.banner')) {
    const locations = {};
    for (const l of g.querySelectorAll('g.location')) {
      locations[l.dataset.location] = l.querySelectorAll('.lance.filled').length;
    }
    out.banners[g.dataset.banner] = { locations, empty: g.querySelectorAll('.lance.empty').length,
      card_side: g.dataset.cardSide, status: g.dataset.status, fate: g.dataset.fate };
  }
  for (const g of board.querySelectorAll('g.pool')) {
    out.pools[g.dataset.side + '/' + g.dataset.pool] = { count: Number(g.dataset.count),
      tokens: g.querySelectorAll('.order-token').length };
  }
  for (const g of board.querySelectorAll('g.losses')) out.losses[g.dataset.side] = g.querySelectorAll('.loss.filled').length;
  for (const g of board.querySelectorAll('g.marker-place')) out.markers[g.dataset.marker] = g.dataset.banner;
  for (const g of board.querySelectorAll('g.captured')) {
    out.captured[g.dataset.side] = [...g.querySelectorAll('.captured-banner')].map((c) => c.dataset.banner);
  }
  const arsuf = board.querySelector('g.arsuf');
  if (arsuf) out.arsuf = arsuf.querySelectorAll('.lance.filled').length;
  const data = board.querySelector('.card-data');
  out.card_data = data ? { source: data.dataset.source, hash: data.dataset.hash, text: data.textContent } : null;
  return out;
}"""


def at_version(page, version: int) -> dict:
    page.wait_for_function("v => document.body.dataset.version === String(v)", arg=version)
    return page.evaluate(READ_BOARD)


def expected(view: dict) -> dict:
    """The same quantities, from the view JSON the state API serves."""
    pools = {}
    for side, s in view["sides"].items():
        o = s["orders"]
        pools[f"{side}/available"] = o["available"]
        pools[f"{side}/spent"] = o["spent"]
        pools[f"{side}/box"] = o["box"]
        if o["in_arsuf"]:
            pools[f"{side}/in-arsuf"] = o["in_arsuf"]
    return {
        "banners": {b["id"]: {"locations": dict(b["lances"]), "card_side": b["card_side"], "status": b["status"],
                              "fate": b["fate"], "slots": len(b["track"]) * len(b["lances"])}
                    for b in view["banners"]},
        "pools": pools,
        "losses": {side: s["losses_track"] for side, s in view["sides"].items()},
        "markers": dict(view["markers"]),
        "captured": {side: s["captured_banners"][:4] for side, s in view["sides"].items()},
        "arsuf": view["arsuf_lances"],
        "card_data": {"source": view["card_data"]["source"], "hash": view["card_data"]["data_hash"]},
    }


def check_board(drawn: dict, view: dict, version: int) -> None:
    want = expected(view)
    assert drawn is not None, f"v{version}: no Saladin board drawn"
    assert set(drawn["banners"]) == set(want["banners"]), f"v{version}: banners"
    for bid, b in want["banners"].items():
        got = drawn["banners"][bid]
        assert got["locations"] == b["locations"], f"v{version} {bid}: lances drawn {got['locations']}, state {b['locations']}"
        assert got["empty"] + sum(got["locations"].values()) == b["slots"], f"v{version} {bid}: slots"
        for key in ("card_side", "status", "fate"):
            assert got[key] == b[key], f"v{version} {bid}: {key} drawn {got[key]}, state {b[key]}"
    for pool, count in want["pools"].items():
        assert drawn["pools"].get(pool) == {"count": count, "tokens": count}, (
            f"v{version} {pool}: drawn {drawn['pools'].get(pool)}, state {count}")
    assert set(drawn["pools"]) == set(want["pools"]), f"v{version}: pools {sorted(drawn['pools'])}"
    assert drawn["losses"] == want["losses"], f"v{version}: losses tracks"
    assert drawn["markers"] == want["markers"], f"v{version}: markers"
    assert drawn["captured"] == want["captured"], f"v{version}: captured banners"
    assert drawn["arsuf"] == want["arsuf"], f"v{version}: Arsuf garrison"
    got = drawn["card_data"]
    assert got and {"source": got["source"], "hash": got["hash"]} == want["card_data"], f"v{version}: card data"


def state(api, game_id: str, version: int) -> dict:
    response = api.get(f"/games/{game_id}/state", params={"at": version})
    assert response.status_code == 200, response.text
    return response.json()


def url_version(page) -> int:
    return int(parse_qs(urlparse(page.url).query)["v"][0])


def test_arsuf_stepped_with_the_keyboard_draws_what_the_state_api_says(page, server, api, arsuf):
    head = arsuf["head"]
    page.goto(f"{server.url}/viewer/{arsuf['id']}?v=1")
    check_board(at_version(page, 1), state(api, arsuf["id"], 1)["view"], 1)
    assert page.locator("#timeline li").count() == head

    # Forward through the opening, one key press per step, every step checked.
    for version in range(2, 61):
        page.keyboard.press("ArrowRight")
        check_board(at_version(page, version), state(api, arsuf["id"], version)["view"], version)
        assert url_version(page) == version
    # And back.
    for version in range(59, 49, -1):
        page.keyboard.press("ArrowLeft")
        check_board(at_version(page, version), state(api, arsuf["id"], version)["view"], version)
        assert url_version(page) == version
    # The end of the game, then the start again.
    page.keyboard.press("End")
    final = state(api, arsuf["id"], head)
    check_board(at_version(page, head), final["view"], head)
    assert final["view"]["outcome"] is not None
    assert page.locator("[data-outcome]").count() >= 1
    page.keyboard.press("Home")
    check_board(at_version(page, 1), state(api, arsuf["id"], 1)["view"], 1)
    # Shift+→ jumps to the next decision.
    page.keyboard.press("Shift+ArrowRight")
    events = api.get(f"/games/{arsuf['id']}/events", params={"limit": 1000}).json()["events"]
    first_decision = next(e["version"] for e in events if e["type"] == "DecisionTaken")
    at_version(page, first_decision)


def test_a_linked_step_opens_there_and_the_timeline_moves_the_board(page, server, api, arsuf):
    events = api.get(f"/games/{arsuf['id']}/events", params={"limit": 1000}).json()["events"]
    roll = next(e for e in events if e["type"] == "DiceRolled" and e["version"] > 20)
    page.goto(f"{server.url}/viewer/{arsuf['id']}?v=17")
    check_board(at_version(page, 17), state(api, arsuf["id"], 17)["view"], 17)

    # The timeline shows every die as a face, never as a number.
    item = page.locator(f'#timeline li[data-version="{roll["version"]}"]')
    faces = item.locator("svg.die-svg")
    assert faces.count() == len(roll["data"]["faces"])
    assert [faces.nth(i).get_attribute("data-face") for i in range(faces.count())] == roll["data"]["faces"]
    # Who decided what.
    decision = next(e for e in events if e["type"] == "DecisionTaken")
    who = page.locator(f'#timeline li[data-version="{decision["version"]}"] .seat')
    assert who.get_attribute("data-seat") == decision["data"]["seat"]
    assert who.inner_text() == f"{ARSUF_SEATS[decision['data']['seat']]} ({decision['data']['seat']})"  # the player, then the side

    item.click()
    check_board(at_version(page, roll["version"]), state(api, arsuf["id"], roll["version"])["view"], roll["version"])
    assert url_version(page) == roll["version"]
    assert "current" in (item.get_attribute("class") or "")


def test_play_runs_forward_at_the_chosen_speed_and_stops_at_the_end(page, server, api, arsuf):
    head = arsuf["head"]
    page.goto(f"{server.url}/viewer/{arsuf['id']}?v={head - 6}")
    at_version(page, head - 6)
    page.select_option("#speed", "25")
    page.click("#play")
    check_board(at_version(page, head), state(api, arsuf["id"], head)["view"], head)
    page.wait_for_function("() => document.querySelector('#play').getAttribute('aria-label') === 'Play'")
    assert page.locator("#forward").is_disabled()


def test_a_live_game_is_followed_while_another_client_posts_commands(page, server, api):
    game = create(api, "saladin", ARSUF_SEATS, "arsuf")
    page.goto(f"{server.url}/viewer/{game['id']}")
    at_version(page, 1)
    page.wait_for_function("() => document.body.dataset.live === 'on'")
    assert page.locator("#live").is_visible()
    rnd = random.Random(5)
    for _ in range(4):
        version = play_random(api, game, rnd, limit=1)
        drawn = at_version(page, version)  # the page was at the head, so it follows
        check_board(drawn, state(api, game["id"], version)["view"], version)
        assert page.locator("#timeline li").count() == version
        assert url_version(page) == version
    # Stepped back, the page stays put and counts what it has not seen.
    page.keyboard.press("ArrowLeft")
    behind = version - 1
    at_version(page, behind)
    version = play_random(api, game, rnd, limit=1)
    page.wait_for_function("n => document.querySelectorAll('#timeline li').length === n", arg=version)
    assert page.evaluate("() => document.body.dataset.version") == str(behind)
    assert page.locator("#new-events").is_visible()
    page.keyboard.press("End")
    check_board(at_version(page, version), state(api, game["id"], version)["view"], version)


def _has_route(api, method: str, path: str) -> bool:
    return method in api.get("/openapi.json").json()["paths"].get(path, {})


def test_fork_from_a_step(page, server, api, arsuf):
    page.goto(f"{server.url}/viewer/{arsuf['id']}?v=30")
    at_version(page, 30)
    page.click("#fork")
    message = page.locator("#study-message")
    message.wait_for(state="visible")
    if _has_route(api, "post", "/games/{game_id}/fork"):
        page.wait_for_function("() => document.body.dataset.fork")
        fork_id = page.evaluate("() => document.body.dataset.fork")
        forked = api.get(f"/games/{fork_id}").json()
        # the fork starts at the end of the decision that version 30 belongs to
        events = api.get(f"/games/{arsuf['id']}/events", params={"limit": 500}).json()["events"]
        end = next((e["version"] - 1 for e in events if e["version"] > 30 and e["type"] == "DecisionTaken"),
                   events[-1]["version"])
        assert forked["fork"]["game"] == arsuf["id"] and forked["fork"]["version"] == end
        assert f"Forked at step {end}" in message.inner_text()
        page.wait_for_selector(f'#forks a[href="/viewer/{fork_id}"]')
        page.click("#fork-link")
        page.wait_for_function("() => document.body.dataset.ready === 'yes'")
        version = forked["version"]
        check_board(at_version(page, version), state(api, fork_id, version)["view"], version)
    else:
        # Forks (issue 5) are not on this server yet: the page says so plainly.
        assert "Forking is not available on this server yet" in message.inner_text()
        assert "/fork" in message.inner_text()


def test_annotate_a_step(page, server, api):
    arsuf = create(api, "saladin", ARSUF_SEATS, "arsuf")  # its own game: a note adds an event
    play_random(api, arsuf, random.Random(12), limit=6)
    page.goto(f"{server.url}/viewer/{arsuf['id']}?v=12")
    at_version(page, 12)
    # Annotations speak for a seat (or the umpire): the seat's token goes in the token box.
    page.click("#token-box summary")
    page.fill("#token", arsuf["seat_tokens"]["crusaders"])
    page.click("#token-save")
    page.wait_for_function("() => document.querySelector('#token-state').textContent.includes('seat token')")
    page.fill("#note", "What if Richard had held?")
    page.click("#annotate")
    message = page.locator("#study-message")
    message.wait_for(state="visible")
    if _has_route(api, "post", "/games/{game_id}/annotations"):
        page.wait_for_function("() => document.body.dataset.annotated === '12'")
        note = page.locator("#timeline li.annotation").last
        assert "What if Richard had held?" in note.inner_text() and "crusaders" in note.inner_text()
        events = api.get(f"/games/{arsuf['id']}/events", params={"limit": 1000}).json()["events"]
        recorded = [e for e in events if e["type"] == "Annotated"][-1]
        assert recorded["data"]["at_version"] == 12 and recorded["data"]["text"] == "What if Richard had held?"
        # The note shows under the board at the step it is about, and its link goes there.
        page.keyboard.press("End")
        at_version(page, recorded["version"])
        note.locator("button[data-goto]").click()
        at_version(page, 12)
        assert "What if Richard had held?" in page.locator("#notes").inner_text()
    else:
        assert "Annotating is not available on this server yet" in message.inner_text()


def test_phone_and_desktop_windows_do_not_scroll_sideways(browser, server, arsuf):
    for viewport in (WIDE, PHONE):
        context = browser.new_context(viewport=viewport)
        tab = context.new_page()
        for url, ready in ((f"/viewer/{arsuf['id']}?v=1", "body[data-version='1']"),
                           (f"/viewer/{arsuf['id']}", f"body[data-version='{arsuf['head']}']"),
                           ("/viewer", "#games a"), ("/viewer/record", "#record-file")):
            tab.goto(server.url + url)
            tab.wait_for_selector(ready)
            width, inner = tab.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
            assert width <= inner, f"{viewport} {url}: the page is {width}px wide in a {inner}px window"
            if "data-version" in ready:
                box = tab.locator("#board svg").bounding_box()
                assert box and box["x"] >= 0 and box["x"] + box["width"] <= inner
        context.close()


def test_hattin_draws_fire_and_lusignan_on_the_horns(page, server, api):
    """Hattin's own pieces: a policy that sets Fire and moves Lusignan to the Horns whenever
    it may, otherwise random legal commands; the board is checked where each first appears."""
    game = create(api, "saladin", {"crusaders": "Guy", "ayyubids": "Saladin"}, "hattin", seed="b2" * 32)
    rnd = random.Random(3)

    def prefer(commands):
        wanted = [c for c in commands if c.get("action") in ("set-fire", "feed-fire", "horns")]
        return rnd.choice(wanted) if wanted and rnd.random() < 0.9 else rnd.choice(commands)

    first = {}
    for _ in range(400):
        summary = api.get(f"/games/{game['id']}").json()
        if not summary["to_act"]:
            break
        seat = summary["to_act"][0]
        commands = api.get(f"/games/{game['id']}/legal-commands", params={"seat": seat}).json()["commands"]
        response = api.post(f"/games/{game['id']}/commands", json={"seat": seat, "command": prefer(commands)},
                            headers={"Authorization": f"Bearer {game['seat_tokens'][seat]}"})
        assert response.status_code == 201, response.text
        view = response.json()["view"]
        version = response.json()["version"]
        if view["horns"]:
            first.setdefault("horns", version)
        if "fire" in view["markers"]:
            first.setdefault("fire", version)
        if len(first) == 2:
            break
    assert set(first) == {"horns", "fire"}, f"the game never showed {({'horns', 'fire'} - set(first))}"
    # A command records several events: find the very event that moved Lusignan.
    while state(api, game["id"], first["horns"] - 1)["view"]["horns"]:
        first["horns"] -= 1

    page.goto(f"{server.url}/viewer/{game['id']}?v={first['horns'] - 1}")
    before = state(api, game["id"], first["horns"] - 1)["view"]
    check_board(at_version(page, first["horns"] - 1), before, first["horns"] - 1)
    assert page.locator("g.horns").get_attribute("data-horns") == "no"
    page.goto(f"{server.url}/viewer/{game['id']}?v={first['horns']}")
    after = state(api, game["id"], first["horns"])["view"]
    check_board(at_version(page, first["horns"]), after, first["horns"])
    assert page.locator("g.horns").get_attribute("data-horns") == "yes"
    lusignan = next(b for b in after["banners"] if b["id"] == "lusignan")
    assert page.locator('g.banner[data-banner="lusignan"] g.location[data-location="horns"] .lance.filled').count() \
        == lusignan["lances"]["horns"]

    page.goto(f"{server.url}/viewer/{game['id']}?v={first['fire']}")
    fire = state(api, game["id"], first["fire"])["view"]
    check_board(at_version(page, first["fire"]), fire, first["fire"])
    burning = fire["markers"]["fire"]
    assert page.locator(f'g.banner[data-banner="{burning}"] g.marker[data-marker="fire"]').count() == 1


def test_a_game_with_the_owners_cards_says_so(page, server, api):
    """Issue 14: the viewer shows which card data a game used — here an owner's own cards,
    sent with POST /games, whose hash is GameCreated.data_hash."""
    import json

    from domain.rules.saladin.data import PACKAGE

    cards = json.loads((PACKAGE / "arsuf.json").read_text(encoding="utf-8"))
    cards = {k: v for k, v in cards.items() if k not in ("_header", "basis")}
    for card in cards["cards"]:
        for action in card["actions"]:
            action.pop("basis", None)
            if card["id"] == "henry-ii" and action["id"] == "loose":
                action["red"] = 2
        for target in card["targets"]:
            target.pop("basis", None)
        for reaction in card["reactions"]:
            reaction.pop("basis", None)
    for banner in cards["banners"]:
        banner.pop("basis", None)
    for leader in cards["leaders"]:
        for action in leader["actions"]:
            action.pop("basis", None)
    made = api.post("/games", json={"rules": "saladin", "scenario": "arsuf", "options": {"cards": cards},
                                    "seats": {s: {"player": p} for s, p in ARSUF_SEATS.items()}})
    assert made.status_code == 201, made.text
    game = made.json()
    created = api.get(f"/games/{game['id']}/events").json()["events"][0]["data"]
    page.goto(f"{server.url}/viewer/{game['id']}?v=1")
    drawn = at_version(page, 1)
    assert drawn["card_data"]["source"] == "owner" and drawn["card_data"]["hash"] == created["data_hash"]
    assert "the owner's own" in drawn["card_data"]["text"]
    check_board(drawn, state(api, game["id"], 1)["view"], 1)
