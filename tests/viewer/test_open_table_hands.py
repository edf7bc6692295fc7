"""Issue 12: "The viewer shows the game from a seat's perspective with its token (its own hand
face up) or a spectator's (others' cards as backs), and says which events are sealed"."""

from __future__ import annotations

from tests.viewer.test_pages import at_version, post

COURT = ["Courtisane", "Gabelou", "Bailli", "Senechal", "Connetable", "Prevot"]


def open_page(page, server, game, token):
    page.goto(f"{server.url}/viewer")
    page.evaluate("([key, token]) => token ? sessionStorage.setItem(key, token) : sessionStorage.removeItem(key)",
                  [f"herald.token.{game['id']}", token])
    page.goto(f"{server.url}/viewer/{game['id']}")
    page.wait_for_function("() => document.body.dataset.ready === 'yes'")


def test_a_seat_sees_its_hand_face_up_and_a_spectator_sees_backs(page, server, api):
    game = api.post("/games", json={"rules": "open-table", "seats": {"p1": {"player": "Ann"}, "p2": {"player": "Bo"}},
                                    "options": {"decks": {"court": COURT}}}).json()
    post(api, game, "p1", {"type": "shuffle", "deck": "court"})
    post(api, game, "p1", {"type": "take", "deck": "court", "count": 2})
    post(api, game, "p2", {"type": "take", "deck": "court", "count": 3})
    mine = api.get(f"/games/{game['id']}", headers={"Authorization": f"Bearer {game['seat_tokens']['p1']}"}).json()
    p1_cards = mine["view"]["hands"]["p1"]
    last = mine["version"]

    open_page(page, server, game, game["seat_tokens"]["p1"])
    at_version(page, last)
    faces = page.eval_on_selector_all('.hand[data-seat="p1"] .card.face', "els => els.map(e => e.dataset.card)")
    assert faces == p1_cards
    assert page.locator('.hand[data-seat="p2"] .card-back').count() == 3
    assert page.locator('.hand[data-seat="p2"] .card.face').count() == 0
    held = page.locator("#timeline li .tag.sealed.held")
    assert held.count() == 1  # p1's own draw: "sealed · yours"
    assert page.locator('#timeline li.is-sealed[data-sealed-for="p2"]').count() == 1
    html = page.content()
    assert not any(card in html for card in COURT if card not in p1_cards)  # p2's cards nowhere on p1's page

    open_page(page, server, game, None)
    at_version(page, last)
    assert page.locator(".hand .card.face").count() == 0
    assert page.locator('.hand[data-seat="p1"] .card-back').count() == 2
    assert page.locator("#timeline li.is-sealed").count() == 2
    sealed = page.locator('#timeline li.is-sealed[data-sealed-for="p1"] .tag.sealed').inner_text()
    assert "sealed for p1" in sealed.lower()
    html = page.content()
    assert not any(card in html for card in COURT)
