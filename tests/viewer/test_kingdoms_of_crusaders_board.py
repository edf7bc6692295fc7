"""The Kingdoms of Crusaders renderer in a real browser: a 4-player and a 2-player game recorded
over HTTP (each seat reading its legal commands with its own token); the viewer stepped to the
start, the middle and the end, as a spectator and with a seat's token. The five territories'
armies (card by card), victory markers and every hand (face up or as backs, with counts) are
checked against GET /state?at=N read with the same token; a spectator's page and another seat's
page never carry a card that sits in someone else's hand. The phone window must not scroll
sideways."""

from __future__ import annotations

import random

import httpx
import pytest

from tests.viewer.conftest import PHONE, WIDE

READ_BOARD = """() => {
  const root = document.querySelector('#board svg.koc[data-renderer="kingdoms-of-crusaders"]');
  if (!root) return null;
  const out = { layout: root.dataset.layout, territories: {}, hands: {} };
  for (const t of root.querySelectorAll('g.territory')) {
    const armies = {};
    for (const a of t.querySelectorAll('g.army')) {
      armies[a.dataset.seat] = { cards: [...a.querySelectorAll('g.card')].map((c) => c.dataset.card),
                                 complete: a.dataset.complete === 'yes' };
    }
    out.territories[t.dataset.sector] = { name: t.dataset.name, winner: t.dataset.winner || null,
      marker: t.dataset.marker ? Number(t.dataset.marker) : null, armies };
  }
  for (const h of root.querySelectorAll('g.hand')) {
    out.hands[h.dataset.seat] = { count: Number(h.dataset.count),
      faceUp: [...h.querySelectorAll('g.card.face-up')].map((c) => c.dataset.card),
      backs: h.querySelectorAll('g.card.back').length };
  }
  return out;
}"""


def record_game(api: httpx.Client, players: int, rnd: random.Random, limit: int | None = None) -> dict:
    """A game played by random legal commands, to its end or for ``limit`` commands (then it is
    still in play: its seed unrevealed, its hands secret)."""
    seats = {f"p{i}": name for i, name in enumerate(["Baldwin", "Bohemond", "Raymond", "Joscelin"][:players], 1)}
    response = api.post("/games", json={"rules": "kingdoms-of-crusaders",
                                        "seats": {s: {"player": p} for s, p in seats.items()}})
    assert response.status_code == 201, response.text
    game = response.json()
    played = 0
    while True:
        summary = api.get(f"/games/{game['id']}").json()
        if not summary["to_act"] or played == limit:
            break
        played += 1
        seat = summary["to_act"][0]
        auth = {"Authorization": f"Bearer {game['seat_tokens'][seat]}"}
        legal = api.get(f"/games/{game['id']}/legal-commands", params={"seat": seat}, headers=auth).json()
        response = api.post(f"/games/{game['id']}/commands", headers=auth,
                            json={"seat": seat, "command": rnd.choice(legal["commands"]),
                                  "expected_version": summary["version"]})
        assert response.status_code == 201, response.text
    game["head"] = summary["version"]
    game["ended"] = not summary["to_act"]
    return game


@pytest.fixture(scope="module")
def games(api) -> dict:
    rnd = random.Random(1099)
    return {4: record_game(api, 4, rnd, limit=50), 2: record_game(api, 2, rnd)}


def expected(view: dict) -> dict:
    return {
        "territories": {str(t["sector"]): {
            "name": t["name"], "winner": t["marker"]["seat"] if t["marker"] else None,
            "marker": t["marker"]["number"] if t["marker"] else None,
            "armies": {s: {"cards": [c["id"] for c in a["cards"]], "complete": a["complete"]}
                       for s, a in t["armies"].items()}} for t in view["territories"]},
        "hands": {s: {"count": h["count"], "faceUp": [c["id"] for c in h["cards"]] if h["cards"] else [],
                      "backs": 0 if h["cards"] else h["count"]} for s, h in view["hands"].items()},
    }


def show(page, server, game: dict, version: int, token: str | None) -> dict:
    page.goto(f"{server.url}/viewer/{game['id']}?v=1")
    page.evaluate("([key, token]) => token ? sessionStorage.setItem(key, token) : sessionStorage.removeItem(key)",
                  [f"herald.token.{game['id']}", token])
    page.goto(f"{server.url}/viewer/{game['id']}?v={version}")
    page.wait_for_function("v => document.body.dataset.version === String(v)", arg=version)
    page.wait_for_selector("#board svg.koc")
    return page.evaluate(READ_BOARD)


@pytest.mark.parametrize("players", [4, 2])
def test_the_board_draws_what_the_state_api_says_for_each_reader(page, server, api, games, players):
    """Location card (the five territories), Armies and domination (armies, markers); DESIGN.md
    "Hidden information": the reader's own hand face up, the others as backs. The 4-player game is
    still in play (its hands secret); the 2-player game has ended (its seed revealed, every reader
    reads the record whole and the hands are shown at the end)."""
    game = games[players]
    assert game["ended"] == (players == 2)
    versions = [5 + 2 * players, game["head"] // 2, game["head"]]
    for version in versions:
        for seat in [None, "p2"]:
            token = game["seat_tokens"][seat] if seat else None
            headers = {"Authorization": f"Bearer {token}"} if token else {}
            state = api.get(f"/games/{game['id']}/state", params={"at": version}, headers=headers).json()
            drawn = show(page, server, game, version, token)
            assert drawn is not None, f"v{version}: no board"
            assert drawn["layout"] == state["view"]["layout"]
            want = expected(state["view"])
            assert drawn["territories"] == want["territories"], f"v{version} {seat}"
            assert drawn["hands"] == want["hands"], f"v{version} {seat}"
            if not game["ended"]:  # p1's hand is nowhere on a spectator's or p2's page
                svg = page.inner_html("#board")
                full = api.get(f"/games/{game['id']}/state", params={"at": version},
                               headers={"Authorization": f"Bearer {game['seat_tokens']['p1']}"}).json()
                assert full["view"]["hands"]["p1"]["cards"] is not None, (version, full)
                p1_hand = [c["id"] for c in full["view"]["hands"]["p1"]["cards"]]
                assert p1_hand and not [c for c in p1_hand if f'data-card="{c}"' in svg], f"v{version}: p1's hand leaks"
                if seat:
                    assert len(drawn["hands"][seat]["faceUp"]) == drawn["hands"][seat]["count"] > 0


def test_the_board_fits_a_phone_without_sideways_scrolling(browser, server, games):
    for players, game in games.items():
        for viewport in (PHONE, WIDE):
            context = browser.new_context(viewport=viewport)
            tab = context.new_page()
            tab.goto(f"{server.url}/viewer/{game['id']}?v={game['head'] // 2}")
            tab.wait_for_selector("#board svg.koc")
            scroll = tab.evaluate("() => document.documentElement.scrollWidth - document.documentElement.clientWidth")
            assert scroll <= 1, f"{players} players, {viewport}: scrolls sideways by {scroll}px"
            context.close()


def test_the_board_names_the_players_and_the_page_the_game_as_its_rules_do(page, server, games):
    """Issue 27 point 4: "player names on every board", "titles as the rule systems name
    themselves" (not "Kingdoms Of Crusaders"); point 3: after the reveal the viewer shows every
    hand at every step, to a spectator too."""
    game = games[2]
    show(page, server, game, game["head"] // 2, None)
    title = page.inner_text("#title")
    assert title.startswith("The Kingdoms of Crusaders") and "Of Crusaders" not in title, title
    labels = page.eval_on_selector_all("#board svg.koc text", "ts => ts.map((t) => t.textContent)")
    assert any(t.startswith("Baldwin") for t in labels) and any(t.startswith("Bohemond") for t in labels), labels
    assert not [t for t in labels if t.split(":")[0].split(" ")[0] in ("p1", "p2")], labels
    drawn = page.evaluate(READ_BOARD)
    assert all(h["backs"] == 0 and len(h["faceUp"]) == h["count"] for h in drawn["hands"].values()), drawn["hands"]
