"""Issue 29, "Invitations" and "Seeds chosen blind", over the HTTP API on each backend.

- "A game can be created with seats left open or offered to named registered players; a player
  takes a seat with their player token (recorded as SeatClaimed, as today), or declines; an
  open seat can be taken by anyone with the invitation link's secret. The creator never needs to
  see another player's seat token."
- "Commit first, then take each seat's own seed when it joins (and the creator's, if any), so no
  party — the server included — can choose the dice; the record proves the order (commitment
  before every client seed) and the verifier checks it."
"""

from __future__ import annotations

import json
from uuid import UUID

from domain.randomness import uniform
from domain.seating import blind_client_seed
from replays.record_format import decode_record
from replays.verify import verify
from tests.replays import stdlib_verifier

ARSUF = {"rules": "saladin", "scenario": "arsuf"}


def register(client, name: str) -> str:
    made = client.post("/players", json={"name": name})
    assert made.status_code == 201, made.text
    return made.json()["player_token"]


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def take(client, game: dict, seat: str, player: str, token: str, **body):
    return client.post(f"/games/{game['id']}/seats/{seat}/take", json={"player": player, **body},
                       headers=bearer(token))


def play_to_end(client, game_id: str, tokens: dict[str, str], limit: int = 2000) -> dict:
    """Each seat to act sends its first legal command, until the game ends."""
    for _ in range(limit):
        summary = client.get(f"/games/{game_id}").json()
        if summary["status"] == "ended":
            return summary
        seat = summary["to_act"][0]
        listed = client.get(f"/games/{game_id}/legal-commands", params={"seat": seat},
                            headers=bearer(tokens[seat])).json()
        sent = client.post(f"/games/{game_id}/commands", headers=bearer(tokens[seat]),
                           json={"seat": seat, "command": listed["commands"][0], "expected_version": listed["version"]})
        assert sent.status_code == 201, sent.text
    raise AssertionError("the game did not end")


def test_invited_and_open_seats_are_taken_by_their_players_and_the_creator_holds_no_token(client):
    alice, bob, carol = register(client, "Alice"), register(client, "Bob"), register(client, "Carol")
    made = client.post("/games", json={**ARSUF, "seats": {"crusaders": {"player": "Alice", "invite": True},
                                                          "ayyubids": {"open": True}}})
    assert made.status_code == 201, made.text
    game = made.json()
    assert game["seat_tokens"] == {} and game["invitation"]
    seating = client.get(f"/games/{game['id']}").json()["seating"]
    assert seating["invited"] == ["crusaders"] and seating["open"] == ["ayyubids"]
    assert seating["awaited"] == ["crusaders", "ayyubids"]
    assert client.get(f"/games/{game['id']}").json()["to_act"] == []

    # the invited seat is Alice's alone; the open seat wants the link's secret
    assert take(client, game, "crusaders", "Bob", bob).json()["code"] == "not_invited"
    assert take(client, game, "crusaders", "Alice", bob).status_code == 403  # Bob's token is not Alice's
    assert take(client, game, "ayyubids", "Bob", bob).json()["code"] == "invitation_required"
    assert take(client, game, "ayyubids", "Bob", bob, invitation="not-it").json()["code"] == "wrong_invitation"
    # the claim route of a creator's seat does not take an offered one
    claimed = client.post(f"/games/{game['id']}/seats/crusaders/claim", headers=bearer(alice))
    assert claimed.status_code == 409 and claimed.json()["code"] == "seat_taken"
    version = client.get(f"/games/{game['id']}").json()["version"]
    assert version == 2  # nothing refused was recorded

    # Alice declines; her seat is open from then on, and Carol takes it with the link
    declined = client.post(f"/games/{game['id']}/seats/crusaders/decline", json={"player": "Alice"},
                           headers=bearer(alice))
    assert declined.status_code == 201, declined.text
    assert declined.json()["events"][0]["type"] == "SeatDeclined"
    first = take(client, game, "crusaders", "Carol", carol, invitation=game["invitation"])
    second = take(client, game, "ayyubids", "Bob", bob, invitation=game["invitation"])
    assert first.status_code == second.status_code == 201, (first.text, second.text)
    assert take(client, game, "ayyubids", "Alice", alice, invitation=game["invitation"]).json()["code"] == "seat_taken"
    summary = client.get(f"/games/{game['id']}").json()
    assert summary["seating"]["awaited"] == [] and summary["seating"]["taken"] == {"crusaders": "Carol",
                                                                                  "ayyubids": "Bob"}
    assert summary["to_act"]
    tokens = {"crusaders": first.json()["seat_token"], "ayyubids": second.json()["seat_token"]}
    play_to_end(client, game["id"], tokens)
    types = [e["type"] for e in client.get(f"/games/{game['id']}/events", params={"limit": 8}).json()["events"]]
    assert types[:5] == ["GameCreated", "SeatsOffered", "SeatDeclined", "SeatTaken", "SeatTaken"]
    assert verify(decode_record(client.get(f"/games/{game['id']}/record").content)).ok
    told = [e["text"] for e in client.get(f"/games/{game['id']}/timeline").json()["entries"][:5]]
    assert told[1:5] == ["seats: ayyubids open; crusaders offered to their players", "Alice declines crusaders: it is open",
                         "Carol takes crusaders", "Bob takes ayyubids"], told


def test_an_invitation_names_a_registered_player(client):
    refused = client.post("/games", json={**ARSUF, "seats": {"crusaders": {"player": "Nobody", "invite": True},
                                                             "ayyubids": {"player": "Bob"}}})
    assert refused.status_code == 404 and refused.json()["code"] == "unknown_player"


def test_no_decision_until_every_seat_is_taken(client):
    """Decided where the issue is silent: a game with a seat awaited takes no decision (no die
    is drawn before every seat's seed is in), and says which seats it waits for."""
    register(client, "Alice")
    game = client.post("/games", json={**ARSUF, "seats": {"crusaders": {"player": "Alice", "invite": True},
                                                          "ayyubids": {"player": "Bob"}}}).json()
    assert list(game["seat_tokens"]) == ["ayyubids"]
    listed_for_alice = client.get("/games", params={"player": "Alice"}).json()["games"]
    assert game["id"] in [g["id"] for g in listed_for_alice]  # how an invited player finds the invitation
    listed = client.get(f"/games/{game['id']}/legal-commands", params={"seat": "ayyubids"}).json()
    assert listed["commands"] == [] and "awaited: crusaders" in listed["waiting"]
    sent = client.post(f"/games/{game['id']}/commands", headers=bearer(game["seat_tokens"]["ayyubids"]),
                       json={"seat": "ayyubids", "command": {"type": "pass"}})
    assert sent.status_code == 422 and sent.json()["code"] == "seats_awaited", sent.text
    assert client.get(f"/games/{game['id']}").json()["version"] == 2


def test_a_fork_of_a_game_whose_seats_are_awaited_waits_too(client):
    """DECISIONS, "Seats taken at a distance": "Forking a game before its seats were taken gives a
    fork that waits too (not refused)". The fork copies the offer; its seats wait as its parent's."""
    register(client, "Alice")
    game = client.post("/games", json={**ARSUF, "seats": {"crusaders": {"player": "Alice", "invite": True},
                                                          "ayyubids": {"player": "Bob"}}}).json()
    forked = client.post(f"/games/{game['id']}/fork", json={"version": game["head"]["version"]},
                         headers=bearer(game["seat_tokens"]["ayyubids"]))
    assert forked.status_code == 201, forked.text
    fork = forked.json()
    listed = client.get(f"/games/{fork['id']}/legal-commands", params={"seat": "ayyubids"}).json()
    assert listed["commands"] == [] and "awaited: crusaders" in listed["waiting"], listed
    sent = client.post(f"/games/{fork['id']}/commands", headers=bearer(fork["seat_tokens"]["ayyubids"]),
                       json={"seat": "ayyubids", "command": {"type": "pass"}})
    assert sent.status_code == 422 and sent.json()["code"] == "seats_awaited", sent.text


def test_blind_seeds_each_seat_gives_its_own_after_the_commitment_and_the_dice_follow_them(client):
    alice = register(client, "Alice")
    made = client.post("/games", json={**ARSUF, "blind_seeds": True,
                                       "seats": {"crusaders": {"player": "Alice", "invite": True},
                                                 "ayyubids": {"player": "Bob"}}})
    assert made.status_code == 201, made.text
    game = made.json()
    held = game["seat_tokens"]["ayyubids"]
    taken = take(client, game, "crusaders", "Alice", alice)
    assert taken.status_code == 422 and taken.json()["code"] == "bad_seat_seed"  # a blind game wants the seed
    taken = take(client, game, "crusaders", "Alice", alice, seed="alices-own-7")
    assert taken.status_code == 201, taken.text
    assert client.get(f"/games/{game['id']}").json()["seating"]["awaited"] == ["ayyubids"]
    given = client.post(f"/games/{game['id']}/seats/ayyubids/seed", json={"seed": "bobs.own"}, headers=bearer(held))
    assert given.status_code == 201, given.text
    again = client.post(f"/games/{game['id']}/seats/ayyubids/seed", json={"seed": "other"}, headers=bearer(held))
    assert again.json()["code"] == "seed_given"
    tokens = {"crusaders": taken.json()["seat_token"], "ayyubids": held}
    summary = play_to_end(client, game["id"], tokens)

    raw = client.get(f"/games/{game['id']}/record").content
    record = json.loads(raw)
    types = [e[0] for e in record["events"]]
    assert types[:4] == ["GameCreated", "SeatsOffered", "SeatTaken", "SeedGiven"]
    assert record["events"][0][1]["client_seed"] == ""  # nothing chosen before the commitment
    first_draw = next(i for i, e in enumerate(record["events"]) if "draws" in e[1])
    assert first_draw > 3  # every seed before any die
    # the dice are the revealed server seed's under the seats' combined seed
    client_seed = blind_client_seed({"crusaders": "alices-own-7", "ayyubids": "bobs.own"})
    seed = bytes.fromhex(summary["seed"])
    dice = [e[1] for e in record["events"] if e[0] == "DiceRolled"]
    faces = client.get("/rules/saladin").json()["die_kinds"]
    for rolled in dice[:20]:
        kind = faces[rolled["kind"]]
        for n, face in zip(rolled["draws"], rolled["faces"]):
            assert kind[uniform(seed, UUID(game["id"]), client_seed, n, len(kind))] == face
    assert verify(decode_record(raw)).ok
    assert stdlib_verifier.verify(record, faces) == []

    # ... and not GameCreated's own client seed's: the seats' seeds choose the dice
    plain = [kind_faces[uniform(seed, UUID(game["id"]), "", n, len(kind_faces))]
             for rolled in dice[:20] for kind_faces in [faces[rolled["kind"]]] for n in rolled["draws"]]
    assert plain != [f for rolled in dice[:20] for f in rolled["faces"]]


def test_a_blind_game_refuses_a_client_seed_given_before_the_commitment(client):
    refused = client.post("/games", json={**ARSUF, "blind_seeds": True, "client_seed": "mine",
                                          "seats": {"crusaders": {"player": "A"}, "ayyubids": {"player": "B"}}})
    assert refused.status_code == 422 and refused.json()["code"] == "bad_seating"
