"""The Saline renderer in a real browser: a 4-player game (still in play) and a 2-player game (to its
end) recorded over HTTP, each seat reading its legal commands with its own token; the viewer stepped
to the start, the middle and the end, as a spectator and with a seat's token. The market track, every
saline around its mulon (œillet by œillet, with its salt), the hands (face up or as backs, with
counts) and the secret objectives are checked against GET /state?at=N read with the same token; a
spectator's page and another seat's page never carry a card in p1's hand nor p1's secret objective.
The phone window must not scroll sideways."""

from __future__ import annotations

import random

import httpx
import pytest

from tests.rules.saline.policy import choose
from tests.viewer.conftest import PHONE, WIDE

READ_BOARD = """() => {
  const root = document.querySelector('#board svg.saline[data-renderer="saline"]');
  if (!root) return null;
  const out = { market: [], salines: {}, hands: {}, secrets: {} };
  for (const m of root.querySelectorAll('g.market-space')) {
    out.market.push({ space: Number(m.dataset.space), price: Number(m.dataset.price), oeillet: m.dataset.oeillet || null });
  }
  for (const s of root.querySelectorAll('g.player-saline')) {
    const ring = {};
    for (const o of s.querySelectorAll('g.oeillet')) ring[o.dataset.position] = { id: o.dataset.oeillet, salt: Number(o.dataset.salt) };
    out.salines[s.dataset.seat] = { ring, mulon: Number(s.querySelector('g.mulon').dataset.salt),
      liards: Number(s.dataset.liards) };
  }
  for (const h of root.querySelectorAll('g.hand')) {
    out.hands[h.dataset.seat] = { count: Number(h.dataset.count),
      faceUp: [...h.querySelectorAll('g.card.face-up')].map((c) => c.dataset.card),
      backs: h.querySelectorAll('g.card.back').length };
  }
  for (const s of root.querySelectorAll('g.secret')) {
    const o = s.querySelector('g.objective');
    out.secrets[s.dataset.seat] = o ? o.dataset.objective : 'face down';
  }
  return out;
}"""


def record_game(api: httpx.Client, players: int, rnd: random.Random, limit: int | None = None) -> dict:
    seats = {f"p{i}": name for i, name in enumerate(["Anne", "Yves", "Soizic", "Loïc"][:players], 1)}
    response = api.post("/games", json={"rules": "saline", "seats": {s: {"player": p} for s, p in seats.items()}})
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
                            json={"seat": seat, "command": choose(legal["commands"], rnd),
                                  "expected_version": summary["version"]})
        assert response.status_code == 201, response.text
    game["head"] = summary["version"]
    game["ended"] = not summary["to_act"]
    return game


@pytest.fixture(scope="module")
def games(api) -> dict:
    rnd = random.Random(1313)
    return {4: record_game(api, 4, rnd, limit=60), 2: record_game(api, 2, rnd)}


def expected(view: dict) -> dict:
    players = view["players"]
    return {
        "market": [{"space": m["space"], "price": m["price"], "oeillet": m["oeillet"]} for m in view["market"]],
        "salines": {s: {"ring": {pos: {"id": o["id"], "salt": o["salt"]} for pos, o in p["saline"].items()},
                        "mulon": p["mulon"], "liards": p["liards"]} for s, p in players.items()},
        "hands": {s: {"count": p["hand"]["count"],
                      "faceUp": [c["id"] for c in p["hand"]["cards"]] if p["hand"]["cards"] else [],
                      "backs": 0 if p["hand"]["cards"] else p["hand"]["count"]} for s, p in players.items()},
        "secrets": {s: ("face down" if p["secret_objective"].get("face_down") else p["secret_objective"]["id"])
                    for s, p in players.items() if p["secret_objective"]},
    }


def show(page, server, game: dict, version: int, token: str | None) -> dict:
    page.goto(f"{server.url}/viewer/{game['id']}?v=1")
    page.evaluate("([key, token]) => token ? sessionStorage.setItem(key, token) : sessionStorage.removeItem(key)",
                  [f"herald.token.{game['id']}", token])
    page.goto(f"{server.url}/viewer/{game['id']}?v={version}")
    page.wait_for_function("v => document.body.dataset.version === String(v)", arg=version)
    page.wait_for_selector("#board svg.saline")
    return page.evaluate(READ_BOARD)


@pytest.mark.parametrize("players", [4, 2])
def test_the_board_draws_what_the_state_api_says_for_each_reader(page, server, api, games, players):
    """Components (the market track, the mulons and œillets), Setup (the secret objective dealt face
    down); DESIGN.md "Hidden information": the reader's own hand and secret objective face up, the
    others as backs / face down; everything shown once the game has ended."""
    game = games[players]
    assert game["ended"] == (players == 2)
    versions = [game["head"] // 3, game["head"] // 2, game["head"]]
    for version in versions:
        for seat in [None, "p2"]:
            token = game["seat_tokens"][seat] if seat else None
            headers = {"Authorization": f"Bearer {token}"} if token else {}
            state = api.get(f"/games/{game['id']}/state", params={"at": version}, headers=headers).json()
            drawn = show(page, server, game, version, token)
            assert drawn is not None, f"v{version}: no board"
            assert drawn == expected(state["view"]), f"v{version} {seat}"
            if not game["ended"]:  # p1's hand and secret objective are nowhere on these pages
                svg = page.inner_html("#board")
                full = api.get(f"/games/{game['id']}/state", params={"at": version},
                               headers={"Authorization": f"Bearer {game['seat_tokens']['p1']}"}).json()
                p1 = full["view"]["players"]["p1"]
                hand = [c["id"] for c in p1["hand"]["cards"]]
                assert not [c for c in hand if f'data-card="{c}"' in svg], f"v{version}: p1's hand leaks"
                secret = p1["secret_objective"]["id"]
                if secret not in [o["id"] for o in p1["claimed"]] and secret not in [
                        o["id"] for o in full["view"]["objectives"]]:
                    assert f'data-objective="{secret}"' not in svg
                if seat:
                    assert len(drawn["hands"][seat]["faceUp"]) == drawn["hands"][seat]["count"]
                    assert drawn["secrets"][seat] != "face down"


def test_the_board_fits_a_phone_without_sideways_scrolling(browser, server, games):
    for players, game in games.items():
        for viewport in (PHONE, WIDE):
            context = browser.new_context(viewport=viewport)
            tab = context.new_page()
            tab.goto(f"{server.url}/viewer/{game['id']}?v={game['head'] // 2}")
            tab.wait_for_selector("#board svg.saline")
            scroll = tab.evaluate("() => document.documentElement.scrollWidth - document.documentElement.clientWidth")
            assert scroll <= 1, f"{players} players, {viewport}: scrolls sideways by {scroll}px"
            context.close()
