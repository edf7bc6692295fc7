"""Issue 29, "Ratings people read": "... and ratings on the tournament page and in the viewer."
In a real browser: a rated game's page shows each player's rating before and after it (the
change), and a tournament's standings show its players' ratings, as the routes answer them."""

from __future__ import annotations

from tests.tournaments.sim import open_tournament


def ready(page):
    page.wait_for_function("() => document.body.dataset.ready === 'yes'")


def test_a_rated_games_page_and_a_tournaments_standings_show_the_ratings(page, server, api):
    tokens = {name: api.post("/players", json={"name": name}).json()["player_token"] for name in ("Rae", "Sol")}
    game = api.post("/games", json={"rules": "open-table", "seats": {
        "p1": {"player": "Rae", "player_token": tokens["Rae"]},
        "p2": {"player": "Sol", "player_token": tokens["Sol"]}}}).json()
    end = {"type": "end", "outcome": {"winner": "p1", "reason": "agreed"}}
    for seat, token in game["seat_tokens"].items():
        assert api.post(f"/games/{game['id']}/commands", json={"seat": seat, "command": end},
                        headers={"Authorization": f"Bearer {token}"}).status_code == 201
    changes = api.get(f"/games/{game['id']}/ratings").json()["changes"]
    assert len(changes) == 2

    page.goto(f"{server.url}/viewer/{game['id']}")
    ready(page)
    page.wait_for_selector("#result .rating")
    for change in changes:
        shown = page.locator(f'#result .rating[data-player="{change["player"]}"]')
        assert int(shown.get_attribute("data-after")) == change["after"]
        sign = "+" if change["change"] >= 0 else ""
        assert f"{change['before']} → {change['after']} ({sign}{change['change']})" in shown.inner_text()

    run = open_tournament(api, ["Rae", "Sol", "Tam"], rules="open-table", format="swiss", rounds=1)
    ratings = api.get(f"/tournaments/{run.id}/ratings").json()["ratings"]
    page.goto(f"{server.url}/viewer/tournaments/{run.id}")
    ready(page)
    for player in ("Rae", "Sol", "Tam"):
        row = page.locator(f'#standings tbody tr[data-player="{player}"]')
        expected = str(ratings[player][0]["display"]) if ratings[player] else ""
        assert row.get_attribute("data-rating") == expected
    assert page.locator('#standings tbody tr[data-player="Rae"] td.rating').inner_text() == \
        str(ratings["Rae"][0]["display"])
