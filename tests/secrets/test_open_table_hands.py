"""Issue 12, "The core": the open table gets hands, and nobody reads another seat's hand.

DESIGN.md, "Hidden information": "A seat's token reads its own sealed events in full; every
other reader gets the event with data replaced by {"sealed": SEAL, "for": [seats]}".
"""

from __future__ import annotations

import pytest

from tests.conftest import ADMIN_TOKEN, new_game, post
from tests.secrets.leak import LeakScan
from tests.records import expanded

# distinctive names, so a scan for one cannot match anything else
COURT = [f"{name}-of-the-court" for name in (
    "Courtisane", "Gabelou", "Bailli", "Sénéchal", "Connétable", "Prévôt", "Chambellan", "Échanson",
    "Maréchal", "Chancelier", "Aumônier", "Héraut")]
SEATS = ("p1", "p2", "p3")


def table(client) -> dict:
    game = new_game(client, seats=SEATS, options={"decks": {"court": COURT}})
    assert post(client, game, "p1", {"type": "shuffle", "deck": "court"}).status_code == 201
    return game


def send(client, game, seat, command) -> dict:
    response = post(client, game, seat, command)
    assert response.status_code == 201, response.text
    return response.json()


def hand(client, game, seat) -> list[str]:
    headers = {"Authorization": f"Bearer {game['seat_tokens'][seat]}"}
    return client.get(f"/games/{game['id']}", headers=headers).json()["view"]["hands"][seat]


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)  # what a reader gets does not depend on the store
def test_hands_leak_to_no_other_reader_on_any_path(client, herald, tmp_path, backend):
    """Every byte every other reader gets, on every read path, SSE and the CLI included, is
    scanned for each card while it sits in a hand (tests/secrets/leak.py)."""
    game = table(client)
    scan = LeakScan(client, herald, game, umpire_token=ADMIN_TOKEN)
    for seat in SEATS:
        send(client, game, seat, {"type": "take", "deck": "court", "count": 3})
        scan.step()
    played = hand(client, game, "p1")[0]
    send(client, game, "p1", {"type": "play", "card": played})  # revealed as it is played
    scan.step()
    discarded = hand(client, game, "p2")[1]
    send(client, game, "p2", {"type": "discard", "card": discarded})  # face down: stays sealed
    scan.step()
    shown = hand(client, game, "p3")
    send(client, game, "p3", {"type": "show-hand"})
    send(client, game, "p1", {"type": "take", "deck": "court", "count": 2})
    scan.step()
    scan.full(tmp_path)

    live = {s.value for s in scan.live()}
    assert discarded in live and played not in live and not live & set(shown)
    assert len(live) == 4 + 3  # p1: 3 taken, 1 played, 2 more; p2: 3 taken (1 discarded face down); p3's shown
    assert scan.scanned > 1000 and live <= scan.secrets_checked
    assert live <= scan.owners_saw  # the control: each owner did read its own secrets
    # the end reveals every hand, and the seed: then nothing is secret
    for seat in SEATS:
        send(client, game, seat, {"type": "end", "outcome": {"draw": True, "reason": "agreed"}})
    assert scan.live() == []
    spectator = client.get(f"/games/{game['id']}").json()["view"]["hands"]
    assert spectator["p2"] == hand(client, game, "p2") and len(spectator["p1"]) == 4


def test_a_discard_face_down_seals_its_decision_too(client):
    """Issue 12: "A secret choice (a card discarded face down) seals its DecisionTaken too"."""
    game = table(client)
    send(client, game, "p2", {"type": "take", "deck": "court", "count": 2})
    card = hand(client, game, "p2")[0]
    body = send(client, game, "p2", {"type": "discard", "card": card})
    decision, public, secret = body["events"]
    assert decision["data"]["command"] == {"type": "discard", "card": card} and decision["for"] == ["p2"]
    assert public["type"] == "open-table.DiscardedFaceDown" and "for" not in public
    assert secret["data"] == {"seat": "p2", "card": card} and len(secret["salt"]) == 64
    seen = client.get(f"/games/{game['id']}/events", params={"after": decision["version"] - 1}).json()["events"]
    assert seen[0]["data"] == {"sealed": seen[0]["data"]["sealed"], "for": ["p2"]} and "salt" not in seen[0]
    assert seen[0]["hash"] == decision["hash"] and seen[2]["hash"] == secret["hash"]
    timeline = client.get(f"/games/{game['id']}/timeline").json()["entries"]
    assert [e["text"] for e in timeline[-3:]] == [
        "a decision, sealed for P2", "P2 discards a card face down", "card discarded, sealed for P2"]
    mine = client.get(f"/games/{game['id']}/timeline",
                      headers={"Authorization": f"Bearer {game['seat_tokens']['p2']}"}).json()["entries"]
    assert mine[-1]["text"] == f"P2 discards {card} face down"
    view = client.get(f"/games/{game['id']}").json()["view"]
    assert view["hands"] == {"p2": 1} and view["face_down"] == {"p2": 1}


def test_legal_commands_are_a_seats_own_with_its_token(client):
    """Issue 12: "/legal-commands (in games with secrets, a seat's own only, with its token)"."""
    game = table(client)
    send(client, game, "p1", {"type": "take", "deck": "court", "count": 2})
    url = f"/games/{game['id']}/legal-commands"
    assert client.get(url, params={"seat": "p1"}).status_code == 401
    other = client.get(url, params={"seat": "p1"}, headers={"Authorization": f"Bearer {game['seat_tokens']['p2']}"})
    assert other.status_code == 403 and other.json()["code"] == "wrong_token"
    own = client.get(url, params={"seat": "p1"}, headers={"Authorization": f"Bearer {game['seat_tokens']['p1']}"})
    plays = {c["card"] for c in own.json()["commands"] if c["type"] == "play"}
    assert plays == set(hand(client, game, "p1"))


def test_playing_a_card_not_in_hand_is_refused(client):
    game = table(client)
    response = post(client, game, "p1", {"type": "play", "card": COURT[0]})
    assert response.status_code == 422 and response.json()["code"] == "open-table.not_in_hand"


def test_the_umpires_inspection_is_recorded_and_answers_every_hand(client):
    """Issue 12: "POST /games/{id}/inspections (admin token or the tournament's director)
    answers the full state and is recorded as an event naming who looked and when"."""
    game = table(client)
    for seat in SEATS:
        send(client, game, seat, {"type": "take", "deck": "court", "count": 2})
    url = f"/games/{game['id']}/inspections"
    assert client.post(url, json={}).status_code == 401
    seat = client.post(url, json={}, headers={"Authorization": f"Bearer {game['seat_tokens']['p1']}"})
    assert seat.status_code == 403 and seat.json()["code"] == "not_umpire"
    before = client.get(f"/games/{game['id']}").json()["version"]
    looked = client.post(url, json={"reason": "disputed play"}, headers={"Authorization": f"Bearer {ADMIN_TOKEN}"})
    assert looked.status_code == 201, looked.text
    body = looked.json()
    hands = {s: [card for _, card in h] for s, h in body["state"]["hands"].items()}
    assert hands == {s: hand(client, game, s) for s in SEATS} and body["at_version"] == before
    inspected = client.get(f"/games/{game['id']}/events", params={"after": before}).json()["events"]
    assert [e["type"] for e in inspected] == ["Inspected"]
    assert inspected[0]["data"] == {"by": "admin", "at_version": before, "reason": "disputed play"}
    record = expanded(client.get(f"/games/{game['id']}/record").content)
    assert client.post("/records/verify", json=record).json()["ok"]


def test_forks_before_the_reveal_keep_the_secrets(client):
    """DESIGN.md: "A fork of a game with secrets, before the reveal, starts with fresh dice";
    a fork whose copied play holds sealed events is the umpire's, and recorded as a look."""
    game = table(client)
    send(client, game, "p1", {"type": "take", "deck": "court", "count": 3})
    version = client.get(f"/games/{game['id']}").json()["version"]
    url = f"/games/{game['id']}/fork"
    refused = client.post(url, json={"version": version, "dice": "fresh"})
    assert refused.status_code == 403 and refused.json()["code"] == "hidden_information"
    early = client.post(url, json={"version": 3, "dice": "fresh"})  # the shuffle only: nothing sealed yet
    assert early.status_code == 201
    assert client.post(url, json={"version": version, "dice": "same"}).json()["code"] == "seed_not_revealed"
    forced = client.post(url, json={"version": version, "dice": "forced", "forced": [6]},
                         headers={"Authorization": f"Bearer {ADMIN_TOKEN}"})  # a study fork's record is public
    assert forced.status_code == 409 and forced.json()["code"] == "hidden_information"
    umpire = client.post(url, json={"version": version, "dice": "fresh"},
                         headers={"Authorization": f"Bearer {ADMIN_TOKEN}"})
    assert umpire.status_code == 201, umpire.text
    forked = umpire.json()
    last = client.get(f"/games/{game['id']}/events", params={"after": version}).json()["events"]
    assert [e["type"] for e in last] == ["Inspected"] and last[0]["data"]["reason"] == "fork for study"
    # the fork keeps p1's cards sealed for p1, and draws the rest in a fresh order
    assert hand(client, forked, "p1") == hand(client, game, "p1")
    spectator = client.get(f"/games/{forked['id']}/events").json()["events"]
    assert any(e["data"].get("for") == ["p1"] for e in spectator)
    rest = send(client, forked, "p2", {"type": "take", "deck": "court", "count": 9})
    assert sorted(hand(client, forked, "p1") + rest["events"][2]["data"]["cards"]) == sorted(COURT)
    assert client.post("/records/verify", json=expanded(client.get(f"/games/{forked['id']}/record").content)).json()["ok"]


@pytest.mark.parametrize("reader", ["spectator", "p2", "p1"])
def test_every_copy_verifies_and_says_what_it_cannot_prove(client, reader):
    """Issue 12: "A spectator's redacted record verifies its whole chain (herald replay verify
    says which events are sealed and not yet provable); a seat's copy also proves its own seals"."""
    game = table(client)
    send(client, game, "p1", {"type": "take", "deck": "court", "count": 2})
    send(client, game, "p2", {"type": "take", "deck": "court", "count": 2})
    headers = {} if reader == "spectator" else {"Authorization": f"Bearer {game['seat_tokens'][reader]}"}
    record = expanded(client.get(f"/games/{game['id']}/record", headers=headers).content)
    verdict = client.post("/records/verify", json=record).json()
    assert verdict["ok"], verdict
    notes = " | ".join(verdict["notes"])
    held = [e["version"] for e in record["events"] if "salt" in e]
    sealed = [e["version"] for e in record["events"] if e["data"].keys() == {"sealed", "for"}]
    assert len(held) == (0 if reader == "spectator" else 1) and len(sealed) == 2 - len(held)
    assert f"sealed in this copy; their seals are in the chain but what they hold is not provable" in notes
    if held:
        assert f"held with their salt, each proven against its seal by the chain: version(s) {held[0]}" in notes
        # a seat's own copy proves its seal: a changed card breaks the chain there
        event = next(e for e in record["events"] if "salt" in e)
        event["data"]["cards"][0] = "Forged-of-the-court"
        tampered = client.post("/records/verify", json=record).json()
        assert not tampered["ok"] and tampered["problems"][0]["version"] == event["version"]


def test_after_the_reveal_the_record_proves_every_seal(client):
    """Issue 12: "after SeedRevealed the full record proves every seal, so anyone can show what
    each seat held at every step"."""
    game = table(client)
    for seat in SEATS:
        send(client, game, seat, {"type": "take", "deck": "court", "count": 2})
    card = hand(client, game, "p3")[0]
    send(client, game, "p3", {"type": "discard", "card": card})
    for seat in SEATS:
        send(client, game, seat, {"type": "end", "outcome": {"winner": "p1", "reason": "agreed"}})
    record = expanded(client.get(f"/games/{game['id']}/record").content)
    assert record["seed"] and all(e["data"].keys() != {"sealed", "for"} for e in record["events"])
    sealed = [e for e in record["events"] if "for" in e]
    assert len(sealed) == 5 and all(len(e["salt"]) == 64 for e in sealed)
    verdict = client.post("/records/verify", json=record).json()
    assert verdict["ok"], verdict
    assert any("every salt is the one the revealed seed gives" in n for n in verdict["notes"])
    assert any(e["data"] == {"seat": "p3", "card": card} for e in sealed)
    forged = dict(sealed[0], salt="00" * 32)
    record["events"][sealed[0]["version"] - 1] = forged
    assert not client.post("/records/verify", json=record).json()["ok"]
