"""The Day of Battle renderer in a real browser: a battle recorded over HTTP by two clients
reading legal-commands, shown at its end and in the middle. Each army's units (Cos., figures,
condition) are checked against GET /state?at=N, and each exchange of fire against the recorded
VolleyFired events: the order of fire, the target numbers, every die and the damage. The phone
window must not scroll sideways."""

from __future__ import annotations

import pytest

from tests.rules.day_of_battle.helpers import SEATS, battle_over_http
from tests.viewer.conftest import PHONE, WIDE, create

READ_BOARD = """() => {
  const root = document.querySelector('#board svg.dob[data-renderer="day-of-battle"]');
  if (!root) return null;
  const units = {};
  for (const u of root.querySelectorAll('g.dob-unit-row')) {
    units[u.dataset.unit] = { condition: u.dataset.condition, cos: Number(u.dataset.cos), figures: Number(u.dataset.figures) };
  }
  const exchanges = {};
  for (const x of root.querySelectorAll('g.dob-exchange')) {
    exchanges[x.dataset.exchange] = [...x.querySelectorAll('g.dob-volley')].map((v) => ({
      order: Number(v.dataset.order), firer: v.dataset.firer, target: v.dataset.target,
      target_number: Number(v.dataset.targetNumber), faces: v.dataset.faces ? v.dataset.faces.split(' ').map(Number) : [],
      hits: Number(v.dataset.hits), damage: v.dataset.damage,
      hit_dice: v.querySelectorAll('g.die.hit').length }));
  }
  return { units, exchanges, placed: root.querySelectorAll('g.dob-unit').length };
}"""


@pytest.fixture(scope="module")
def battle(api, server) -> dict:
    game = create(api, "day-of-battle", SEATS, "crusaders-seljuq-turks")
    battle_over_http(server.url, game)
    summary = api.get(f"/games/{game['id']}").json()
    assert summary["status"] == "ended"
    game["head"] = summary["version"]
    return game


def show(page, server, game: dict, version: int) -> dict:
    page.goto(f"{server.url}/viewer/{game['id']}?v={version}")
    page.wait_for_function("v => document.body.dataset.version === String(v)", arg=version)
    page.wait_for_selector("#board svg.dob")
    return page.evaluate(READ_BOARD)


def test_the_board_shows_armies_states_and_each_exchange_as_resolved(page, server, api, battle):
    events = api.get(f"/games/{battle['id']}/events", params={"limit": 1000}).json()["events"]
    volleys = [e for e in events if e["type"] == "day-of-battle.VolleyFired"]
    assert volleys
    middle = next(e["version"] for e in events if e["type"] == "day-of-battle.VolleyFired")
    for version in (middle, battle["head"]):
        state = api.get(f"/games/{battle['id']}/state", params={"at": version}).json()
        drawn = show(page, server, battle, version)
        assert drawn is not None
        want = {u["id"]: {"condition": u["condition"], "cos": u["cos"], "figures": u["figures"]}
                for a in state["view"]["armies"] for u in a["units"]}
        assert drawn["units"] == want, version
        assert drawn["placed"] == sum(1 for a in state["view"]["armies"] for u in a["units"]
                                      if u["x"] is not None and u["condition"] != "lost")
        expected: dict[str, list] = {}
        for e in volleys:
            if e["version"] <= version:
                d = e["data"]
                expected.setdefault(str(d["exchange"]), []).append({
                    "order": d["order"], "firer": d["firer"], "target": d["target"],
                    "target_number": d["target_number"], "faces": d["faces"], "hits": d["hits"],
                    "damage": d["damage"], "hit_dice": d["hits"]})
        assert drawn["exchanges"] == expected, version


def test_the_board_fits_a_phone_without_sideways_scrolling(browser, server, battle):
    for viewport in (PHONE, WIDE):
        context = browser.new_context(viewport=viewport)
        tab = context.new_page()
        tab.goto(f"{server.url}/viewer/{battle['id']}?v={battle['head']}")
        tab.wait_for_selector("#board svg.dob")
        scroll = tab.evaluate("() => document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert scroll <= 1, f"{viewport}: scrolls sideways by {scroll}px"
        context.close()


READ_MARKS = """() => {
  const root = document.querySelector('#board svg.dob');
  return {
    units: [...root.querySelectorAll('g.dob-unit')].map((u) => ({ id: u.dataset.unit, facing: u.dataset.facing,
      label: u.dataset.label, shown: u.querySelector('text.unit-label').textContent,
      strength: Number(u.dataset.strength), pointer: !!u.querySelector('polygon.facing') })),
    arrows: [...root.querySelectorAll('line.dob-arrow')].map((a) => [a.dataset.kind, a.dataset.from, a.dataset.to]),
    ringed: [...root.querySelectorAll('circle.dob-last')].map((c) => [c.dataset.kind, c.dataset.unit]),
    turns: [...document.querySelectorAll('#turn-jump option')].map((o) => o.textContent),
  };
}"""


def test_units_are_labelled_facing_the_enemy_with_the_moves_arrows_and_the_last_exchange_ringed(page, server, api,
                                                                                                  battle):
    """Issue 25 point 13: each unit labelled with its name and strength (Cos.), facing the enemy's
    edge; the game move's charges and volleys drawn as arrows; the last exchange ringed; the move
    list by game move (the outline's turns: the view's ``turn``) and phase."""
    events = api.get(f"/games/{battle['id']}/events", params={"limit": 1000}).json()["events"]
    charge = next(e for e in reversed(events) if e["type"] == "day-of-battle.ChargeDeclared")
    page.goto(f"{server.url}/viewer/{battle['id']}?v={charge['version']}")
    page.wait_for_function("v => document.body.dataset.version === String(v)", arg=charge["version"])
    page.wait_for_selector("#board svg.dob")
    drawn = page.evaluate(READ_MARKS)
    state = api.get(f"/games/{battle['id']}/state", params={"at": charge["version"]}).json()["view"]
    edges = {a["seat"]: a["edge"] for a in state["armies"]}
    units = {u["id"]: u for a in state["armies"] for u in a["units"]}
    assert drawn["units"]
    for u in drawn["units"]:
        want = units[u["id"]]
        assert u["facing"] == ("north" if edges[u["id"].split("/")[0]] == "south" else "south") and u["pointer"]
        assert u["strength"] == want["cos"] and u["shown"] == u["label"] and u["label"].endswith(f" {want['cos']}")
        assert u["label"].startswith(want["name"][:15])
    assert ["charge", charge["data"]["charger"], charge["data"]["target"]] in drawn["arrows"]
    volley = next(e for e in reversed(events) if e["type"] == "day-of-battle.VolleyFired")
    page.goto(f"{server.url}/viewer/{battle['id']}?v={volley['version']}")
    page.wait_for_function("v => document.body.dataset.version === String(v)", arg=volley["version"])
    drawn = page.evaluate(READ_MARKS)
    assert ["volley", volley["data"]["firer"], volley["data"]["target"]] in drawn["arrows"]
    assert sorted(drawn["ringed"]) == sorted([["volley", volley["data"]["firer"]], ["volley", volley["data"]["target"]]])
    outline = api.get(f"/viewer/games/{battle['id']}/outline").json()
    sections = outline["sections"] if isinstance(outline, dict) else outline
    assert {s["phase"] for s in sections} == {"leaders", "deployment", "battle", "over"}
    assert [s["turn"] for s in sections if s["phase"] in ("leaders", "deployment")] == [None, None]
    battle_moves = [s["turn"] for s in sections if s["phase"] == "battle"]
    assert battle_moves[0] == 1 and battle_moves == sorted(battle_moves)
    assert drawn["turns"][0] == "Setup" and "Turn 1" in drawn["turns"]


def test_units_and_armies_are_said_by_their_names_and_players(page, server, api, battle):
    """Issue 27 point 4: player names (not seat ids) on every board and note, and "what changed"
    in words: a volley's step names the units it changed by their profile names and players, the
    exchanges of fire name units, never ``seat/unit`` ids."""
    events = api.get(f"/games/{battle['id']}/events", params={"limit": 1000}).json()["events"]
    # the last volley that cost its target figures (a volley of no hits changes nothing to name; the
    # battle's dice are the server seed's, so which volley that is varies from run to run)
    volley = next(e for e in reversed(events) if e["type"] == "day-of-battle.VolleyFired"
                  and e["data"]["figures_lost"] > 0)
    page.goto(f"{server.url}/viewer/{battle['id']}?v={volley['version']}")
    page.wait_for_function("v => document.body.dataset.version === String(v)", arg=volley["version"])
    page.wait_for_selector("#board svg.dob")
    state = api.get(f"/games/{battle['id']}/state", params={"at": volley["version"]}).json()["view"]
    ids = [u["id"] for a in state["armies"] for u in a["units"]]
    places = page.eval_on_selector_all("#changes-table th", "ths => ths.map((t) => t.textContent)")
    board = page.eval_on_selector_all("#board svg.dob text", "ts => ts.map((t) => t.textContent)")
    said = " ".join(places + board)
    assert places and not [i for i in ids if i in said], said
    players = {s: info["player"] for s, info in api.get(f"/games/{battle['id']}").json()["seats"].items()}
    target = next(u["name"] for a in state["armies"] for u in a["units"] if u["id"] == volley["data"]["target"])
    assert any(target in p for p in places) or any(target in t for t in board), said
    assert all(f"({players[s]})" in said for s in players), said
