"""Issue 19's tournament pages in a real browser: a Swiss open-table tournament of five
players and two rounds is run over HTTP (pairings, games played to an agreed outcome, a bye);
its page must show the standings, the crosstable and the pairings of each round exactly as
the tournament routes answer them, each game linked to its replay."""

from __future__ import annotations

import random

import pytest

from tests.tournaments.sim import my_seat_tokens, open_tournament, pair, play_open_table

PLAYERS = ["Ann", "Bo", "Cy", "Di", "Eli"]


@pytest.fixture(scope="module")
def cup(api) -> str:
    rng = random.Random("viewer-cup")
    run = open_tournament(api, PLAYERS, rules="open-table", format="swiss", rounds=2)
    for number in (1, 2):
        pair(api, run)
        tokens = my_seat_tokens(api, run, number)
        for i, table in enumerate(run.rounds[-1]["tables"]):
            outcome = {"draw": True, "reason": "agreed"} if (number, i) == (2, 0) else {"winner": "p1", "reason": "simulated"}
            play_open_table(api, table["game"], tokens[table["game"]], rng, moves=2, outcome=outcome)
    return run.id


def ready(page):
    page.wait_for_function("() => document.body.dataset.ready === 'yes'")


def test_standings_crosstable_and_pairings_link_every_game(page, server, api, cup):
    summary = api.get(f"/tournaments/{cup}").json()
    standings = api.get(f"/tournaments/{cup}/standings").json()["standings"]
    cross = api.get(f"/tournaments/{cup}/crosstable").json()["rows"]
    page.goto(f"{server.url}/viewer/tournaments/{cup}")
    ready(page)
    assert page.locator("#title").inner_text() == summary["name"]
    # Standings: the routes' order, points and record.
    rows = page.locator("#standings tbody tr")
    assert rows.evaluate_all("rs => rs.map((r) => r.dataset.player)") == [s["player"] for s in standings]
    assert [float(p) for p in rows.evaluate_all("rs => rs.map((r) => r.dataset.points)")] == [s["points"] for s in standings]
    first = standings[0]
    assert f"{first['wins']}–{first['draws']}–{first['losses']}" in rows.first.inner_text()
    # Crosstable: one row per player, one cell per round, each game cell linked to its replay.
    assert page.locator("#crosstable tbody tr").count() == len(cross)
    for row in cross:
        for cell in row["rounds"]:
            drawn = page.locator(f'#crosstable tr[data-player="{row["player"]}"] td.cell[data-round="{cell["round"]}"]')
            if cell.get("game"):
                assert drawn.locator("a.replay").get_attribute("href") == f"/viewer/{cell['game']}"
            else:
                assert cell["kind"] == "bye" and "bye" in drawn.inner_text()
    # Pairings by round: every table with its players, result and replay link; the byes.
    for r in summary["paired"]:
        section = page.locator(f'#rounds section.round[data-round="{r["round"]}"]')
        assert section.locator("tbody tr").count() == len(r["tables"])
        for t in r["tables"]:
            line = section.locator(f'tr[data-game="{t["game"]}"]')
            text = line.inner_text()
            assert all(player in text for player in t["seats"].values())
            assert ("draw" in text) == bool(t["outcome"] and t["outcome"].get("draw"))
            assert line.locator("a.replay").get_attribute("href") == f"/viewer/{t['game']}"
        for bye in r["byes"]:
            assert bye["player"] in section.locator("ul.byes").inner_text()
    # A replay link opens the game's board.
    game = summary["paired"][0]["tables"][0]["game"]
    page.locator(f'#rounds tr[data-game="{game}"] a.replay').click()
    page.wait_for_function("() => document.body.dataset.ready === 'yes'")
    assert page.url.endswith(f"/viewer/{game}") or f"/viewer/{game}?" in page.url
    assert "Open table" in page.locator("#title").inner_text()  # the rule system's own title (issue 27)


def test_the_tournament_list_links_each_tournament(page, server, api, cup):
    page.goto(f"{server.url}/viewer/tournaments")
    ready(page)
    link = page.locator(f'#tournaments a[href="/viewer/tournaments/{cup}"]')
    assert link.count() == 1
    link.click()
    ready(page)
    assert page.locator("#standings tbody tr").count() == len(PLAYERS)


def test_an_unknown_tournament_says_so(page, server):
    page.goto(f"{server.url}/viewer/tournaments/7f3c0b54-3f1e-4a43-9a51-5d5ad0a0e6b1")
    ready(page)
    assert "404" in page.locator("#message").inner_text()
