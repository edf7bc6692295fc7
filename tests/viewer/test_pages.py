"""The viewer's other pages in a real browser: the open table (seats, decisions, dice log),
a portable record file opened from disk, the generic tree for rule systems without a
renderer, the seat token kept in sessionStorage and sent on state requests, the home list."""

from __future__ import annotations

import json

from tests.viewer.conftest import create


def post(api, game, seat, command):
    response = api.post(f"/games/{game['id']}/commands", json={"seat": seat, "command": command},
                        headers={"Authorization": f"Bearer {game['seat_tokens'][seat]}"})
    assert response.status_code == 201, response.text
    return response.json()


def at_version(page, version):
    page.wait_for_function("v => document.body.dataset.version === String(v)", arg=version)


def test_open_table_draws_seats_decisions_and_the_dice_log(page, server, api):
    game = create(api, "open-table", {"p1": "Ann", "p2": "Bo"})
    post(api, game, "p1", {"type": "note", "text": "Raymond charges"})
    post(api, game, "p2", {"type": "roll", "label": "counter-attack", "dice": "3d6"})
    rolled = post(api, game, "p1", {"type": "roll", "label": "melee", "dice": "2xsaladin-combat"})
    head = rolled["version"]
    page.goto(f"{server.url}/viewer/{game['id']}")
    at_version(page, head)
    board = page.locator("#board svg.open-table")
    assert board.locator('[data-seat="p1"]').get_attribute("data-decisions") == "2"
    assert board.locator('[data-seat="p2"]').get_attribute("data-decisions") == "1"
    assert board.locator(".roll").count() == 2
    combat = next(e for e in rolled["events"] if e["type"] == "DiceRolled")
    faces = board.locator(f'.roll[data-version="{combat["version"]}"] g.die')
    assert [faces.nth(i).get_attribute("data-face") for i in range(faces.count())] == combat["data"]["faces"]
    view = api.get(f"/games/{game['id']}/state", params={"at": head}).json()["view"]
    assert board.locator("[data-decisions][data-rolls]").get_attribute("data-rolls") == str(view["rolls"])

    # Back to before any roll: the log is empty again.
    first_roll = min(e["version"] for e in api.get(f"/games/{game['id']}/events").json()["events"]
                     if e["type"] == "DiceRolled")
    page.keyboard.press("Home")
    at_version(page, 1)
    for version in range(2, first_roll):
        page.keyboard.press("ArrowRight")
        at_version(page, version)
    assert board.locator(".roll").count() == 0
    page.keyboard.press("ArrowRight")
    at_version(page, first_roll)
    assert board.locator(".roll").count() == 1


def test_a_portable_record_file_opens_and_steps(page, server, api, arsuf, tmp_path):
    record = api.get(f"/games/{arsuf['id']}/record").json()
    path = tmp_path / "arsuf.record.json"
    path.write_text(json.dumps(record))
    page.goto(f"{server.url}/viewer/record")
    page.wait_for_selector("body[data-opener='ready']")
    page.set_input_files("#record-file", str(path))
    head = len(record["events"])
    at_version(page, head)
    assert "verified" in page.locator("#subtitle").inner_text()
    assert page.locator("#timeline li").count() == head
    page.keyboard.press("Home")
    at_version(page, 1)
    page.keyboard.press("ArrowRight")
    at_version(page, 2)
    want = api.get(f"/games/{arsuf['id']}/state", params={"at": 2}).json()["view"]
    drawn = page.evaluate("""() => Object.fromEntries([...document.querySelectorAll('#board g.pool')]
        .map((g) => [g.dataset.side + '/' + g.dataset.pool, Number(g.dataset.count)]))""")
    assert drawn["crusaders/available"] == want["sides"]["crusaders"]["orders"]["available"]
    assert drawn["ayyubids/spent"] == want["sides"]["ayyubids"]["orders"]["spent"]
    # A reload keeps the record (this tab only) and the linked step.
    page.reload()
    at_version(page, 2)


def test_a_broken_record_file_is_refused_with_a_reason(page, server, tmp_path):
    path = tmp_path / "broken.json"
    path.write_text('{"not": "a record"}')
    page.goto(f"{server.url}/viewer/record")
    page.wait_for_selector("body[data-opener='ready']")
    page.set_input_files("#record-file", str(path))
    message = page.locator("#message")
    message.wait_for(state="visible")
    assert "cannot be opened" in message.inner_text()


def test_the_generic_renderer_draws_any_view_as_a_tree(page, server):
    page.goto(f"{server.url}/viewer")
    found = page.evaluate("""async () => {
      const m = await import('/viewer/assets/renderers/index.js');
      const div = document.createElement('div');
      document.body.append(div);
      const r = m.rendererFor('a-rule-system-added-later');
      r.render(div, { view: { turn: 3, hands: { p1: ['card-a', null] } }, version: 9, toAct: [], events: [],
                      game: { rules: 'a-rule-system-added-later', seats: {} }, width: 800 });
      return { generic: r === m.generic, renderer: div.firstElementChild.dataset.renderer,
               keys: [...div.querySelectorAll('.key')].map((k) => k.textContent), saladin: m.rendererFor('saladin') !== m.generic };
    }""")
    assert found["generic"] and found["saladin"]
    assert found["renderer"] == "generic"
    assert {"turn", "hands", "p1"} <= set(found["keys"])


def test_a_seat_token_stays_in_this_tab_and_goes_with_state_requests(page, server, api):
    game = create(api, "open-table", {"p1": "Ann", "p2": "Bo"})
    post(api, game, "p1", {"type": "note", "text": "hello"})
    token = game["seat_tokens"]["p1"]
    page.goto(f"{server.url}/viewer/{game['id']}?v=1")
    at_version(page, 1)
    sent = []
    page.on("request", lambda r: sent.append((r.url, r.headers.get("authorization"))) if "/state" in r.url else None)
    page.click("#token-box summary")
    page.fill("#token", token)
    page.click("#token-save")
    page.wait_for_function("() => document.querySelector('#token-state').textContent.includes('seat token')")
    page.wait_for_function("() => document.body.dataset.reader === 'seat'")  # the game read again with the token
    page.keyboard.press("ArrowRight")
    at_version(page, 2)
    assert any(auth == f"Bearer {token}" for url, auth in sent), sent
    assert page.evaluate(f"() => sessionStorage.getItem('herald.token.{game['id']}')") == token
    assert page.evaluate(f"() => localStorage.getItem('herald.token.{game['id']}')") is None
    page.click("#token-clear")
    page.wait_for_function("() => document.querySelector('#token-state').textContent.includes('spectator')")
    page.wait_for_function("() => document.body.dataset.reader === 'spectator'")
    assert page.evaluate(f"() => sessionStorage.getItem('herald.token.{game['id']}')") is None


def test_home_lists_games_and_links_to_their_boards(page, server, api, arsuf):
    page.goto(f"{server.url}/viewer")
    link = page.locator(f'#games a[href="/viewer/{arsuf["id"]}"]')
    link.click()
    page.wait_for_function("() => document.body.dataset.ready === 'yes'")
    assert page.locator("#title").inner_text().startswith("Saladin")


def test_an_unknown_game_says_so(page, server):
    page.goto(f"{server.url}/viewer/00000000-0000-4000-8000-000000000000")
    message = page.locator("#message")
    message.wait_for(state="visible")
    assert "404" in message.inner_text()


def test_disputes_rulings_and_voided_play_in_the_timeline(page, server, api):
    from tests.conftest import ADMIN_TOKEN

    paths = api.get("/openapi.json").json()["paths"]
    assert "/games/{game_id}/disputes" in paths and "/games/{game_id}/rulings" in paths, "issue 5's routes"
    game = create(api, "open-table", {"p1": "Ann", "p2": "Bo"})
    post(api, game, "p1", {"type": "note", "text": "Raymond charges"})
    voided_roll = post(api, game, "p2", {"type": "roll", "label": "rout", "dice": "2d6"})["version"]
    raised = api.post(f"/games/{game['id']}/disputes",
                      json={"seat": "p1", "about_version": voided_roll, "reason": "rolled out of turn"},
                      headers={"Authorization": f"Bearer {game['seat_tokens']['p1']}"})
    assert raised.status_code == 201, raised.text
    dispute = raised.json()["version"]
    ruled = api.post(f"/games/{game['id']}/rulings",
                     json={"dispute": dispute, "ruling": "upheld", "reason": "p2 rolled early", "void_from": voided_roll - 1},
                     headers={"Authorization": f"Bearer {ADMIN_TOKEN}"})
    assert ruled.status_code == 201, ruled.text
    head = ruled.json()["version"]

    page.goto(f"{server.url}/viewer/{game['id']}")
    at_version(page, head)
    timeline = page.locator("#timeline")
    assert "rolled out of turn" in timeline.locator("li.dispute").inner_text()
    assert "upheld" in timeline.locator('li.ruling[data-type="DisputeRuled"]').inner_text()
    assert timeline.locator('li.ruling[data-type="DecisionsVoided"]').count() == 1
    voided = [int(v) for v in timeline.locator("li.voided").evaluate_all("els => els.map((e) => e.dataset.version)")]
    assert voided == list(range(voided_roll - 1, dispute)), voided
    # The dispute's link goes to the step it is about, where it is listed under the board.
    timeline.locator("li.dispute button[data-goto]").click()
    at_version(page, voided_roll)
    assert "rolled out of turn" in page.locator("#notes").inner_text()


def test_every_registered_rule_system_opens_in_the_viewer(page, server, api):
    import random

    from tests.viewer.conftest import play_random

    for system in api.get("/rules").json()["rules"]:
        scenario = system["scenarios"][0]
        count = max(scenario["players"]["min"], min(2, scenario["players"]["max"]))
        game = create(api, system["id"], {seat: seat.title() for seat in scenario["seats"][:count]}, scenario["id"])
        head = play_random(api, game, random.Random(8), limit=8)
        page.goto(f"{server.url}/viewer/{game['id']}")
        at_version(page, head)
        drawn = page.locator("#board [data-renderer]").get_attribute("data-renderer")
        own = page.evaluate("""async (id) => {
          const m = await import('/viewer/assets/renderers/index.js');
          return m.rendererFor(id) !== m.generic;
        }""", system["id"])
        assert drawn == (system["id"] if own else "generic"), system["id"]
        assert own or system["id"] not in ("saladin", "open-table"), f"{system['id']} lost its renderer"
        if drawn == "generic":
            view = api.get(f"/games/{game['id']}/state", params={"at": head}).json()["view"]
            keys = set(page.locator("#board .generic-view > details > ul > li > .key, "
                                    "#board .generic-view > details > ul > li > details > summary > .key").all_inner_texts())
            assert keys == set(view), system["id"]
        page.keyboard.press("ArrowLeft")
        at_version(page, head - 1)
