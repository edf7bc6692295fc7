"""Issue 27 point 3: "After the reveal, every read path (`state?at=`, the viewer, timeline,
record) shows every hand, objective and card at every step, to everyone; before it, nothing
changes."

Games with hands are played over the API; every step's board is read by a spectator and by each
seat before the end, and again after it. Before the end each reader sees its own hand only;
after it every reader (a spectator, any seat) sees, at every step, every hand as its own seat
saw it then, and the timeline, the record and a record opened in the viewer hold nothing sealed.
"""

from __future__ import annotations

import random

import pytest

from tests.conftest import new_game, post
from tests.records import expanded

COURT = [f"{name}-of-the-court" for name in ("Gabelou", "Bailli", "Sénéchal", "Connétable", "Prévôt", "Chambellan")]


def auth(game: dict, seat: str | None) -> dict:
    return {"Authorization": f"Bearer {game['seat_tokens'][seat]}"} if seat else {}


def boards(client, game: dict, reader: str | None, most: int = 60) -> dict[int, dict]:
    """The boards of the game's steps (at most ``most`` of them, spread evenly) as ``reader`` sees them."""
    head = client.get(f"/games/{game['id']}").json()["version"]
    versions = sorted({1 + (head - 1) * i // (most - 1) for i in range(most)}) if head > most else range(1, head + 1)
    return {v: client.get(f"/games/{game['id']}/state", params={"at": v}, headers=auth(game, reader)).json()["view"]
            for v in versions}


def play_to_the_end(client, game: dict, rnd: random.Random, limit: int = 800) -> None:
    for _ in range(limit):
        summary = client.get(f"/games/{game['id']}").json()
        if summary["status"] == "ended":
            return
        seat = rnd.choice(summary["to_act"])
        listed = client.get(f"/games/{game['id']}/legal-commands", params={"seat": seat},
                            headers=auth(game, seat)).json()
        kinds = sorted({c["type"] for c in listed["commands"]})
        kind = rnd.choice(kinds)
        assert post(client, game, seat, rnd.choice([c for c in listed["commands"] if c["type"] == kind])
                    ).status_code == 201
    raise AssertionError("the game did not end")


def hands_of(rules: str, view: dict) -> dict[str, object]:
    """Each seat's hidden holding in a view: its hand (and, in Saline, its secret objective)."""
    if rules == "open-table":
        return dict(view["hands"])
    if rules == "kingdoms-of-crusaders":
        return {s: h["cards"] for s, h in view["hands"].items()}
    return {s: (p["hand"]["cards"], p["secret_objective"]) for s, p in view["players"].items()}


def held_words(rules: str, view: dict) -> list[str]:
    """What a text board names of each seat's hidden holding in ``view``: card ids (the open
    table's card names) and, in Saline, the secret objective's name."""
    if rules == "open-table":
        return [c for cards in view["hands"].values() if isinstance(cards, list) for c in cards]
    if rules == "kingdoms-of-crusaders":
        return [c["id"] for h in view["hands"].values() for c in h["cards"] or ()]
    return [w for p in view["players"].values()
            for w in [c["id"] for c in p["hand"]["cards"] or ()] + [(p["secret_objective"] or {}).get("name")] if w]


GAMES = [("kingdoms-of-crusaders", "standard", ("p1", "p2")), ("saline", "standard", ("p1", "p2"))]


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)  # what a reader gets does not depend on the store
@pytest.mark.parametrize(("rules", "scenario", "seats"), GAMES, ids=[g[0] for g in GAMES])
def test_after_the_reveal_every_step_shows_every_hand_to_everyone(client, backend, rules, scenario, seats):
    game = new_game(client, rules=rules, seats=seats, scenario=scenario)
    play_to_the_end(client, game, random.Random(27))
    summary = client.get(f"/games/{game['id']}").json()
    assert summary["seed"], "the end reveals the seed"
    after = {reader: boards(client, game, reader) for reader in (None, *seats)}
    assert after[None] == after[seats[0]] == after[seats[1]]  # everyone reads the same boards
    shown = [v for v, view in after[None].items() if all(h not in (None, ({"count": 0}, None))
                                                         for h in hands_of(rules, view).values())]
    assert len(shown) > len(after[None]) // 2, "most steps hold hands, every one of them shown"
    if rules == "saline":  # every secret objective shown, face up, at every step after it was dealt
        dealt = [v for v, view in after[None].items() if any(p["secret_objective"] for p in view["players"].values())]
        assert all({"face_down": True} not in [p["secret_objective"] for p in after[None][v]["players"].values()]
                   for v in dealt)
    # the timeline and the record hold nothing sealed; a record opened in the viewer shows every hand
    timeline = client.get(f"/games/{game['id']}/timeline", params={"limit": 1000}).json()["entries"]
    assert timeline and not any("sealed" in str(e).lower() for e in timeline)
    record = expanded(client.get(f"/games/{game['id']}/record").content)
    assert not any(set(e["data"]) == {"sealed", "for"} for e in record["events"])
    opened = client.post("/viewer/record", json=record)
    assert opened.status_code == 200, opened.text
    key = opened.json()["key"]
    middle = sorted(shown)[len(shown) // 2]
    step = client.get(f"/viewer/records/{key}/state", params={"at": middle}).json()
    assert step["view"] == after[None][middle]
    # the text board beside the view shows them too, on the server and in the opened record
    text = client.get(f"/games/{game['id']}/state", params={"at": middle}).json()["text"]
    held = held_words(rules, after[None][middle])
    assert held and all(w in text for w in held), (held, text)
    assert step["text"] == text


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
def test_before_the_reveal_nothing_changes_and_after_it_each_step_shows_what_each_seat_held(client, backend):
    game = new_game(client, seats=("p1", "p2"), options={"decks": {"court": COURT}})
    assert post(client, game, "p1", {"type": "shuffle", "deck": "court"}).status_code == 201
    for seat in ("p1", "p2"):
        assert post(client, game, seat, {"type": "take", "deck": "court", "count": 2}).status_code == 201
    before = {reader: boards(client, game, reader) for reader in (None, "p1", "p2")}
    head = max(before[None])
    text = client.get(f"/games/{game['id']}/state", params={"at": head}).json()["text"]
    assert "P1's hand: 2 cards" in text and "P2's hand: 2 cards" in text, text  # a spectator's text: counts
    assert before[None][head]["hands"] == {"p1": 2, "p2": 2}  # counts only, to a spectator
    assert isinstance(before["p1"][head]["hands"]["p1"], list) and before["p1"][head]["hands"]["p2"] == 2
    for seat in ("p1", "p2"):
        assert post(client, game, seat, {"type": "end", "outcome": {"draw": True, "reason": "agreed"}}
                    ).status_code == 201
    after = {reader: boards(client, game, reader) for reader in (None, "p1", "p2")}
    assert after[None] == after["p1"] == after["p2"]
    text = client.get(f"/games/{game['id']}/state", params={"at": head}).json()["text"]
    for seat in ("p1", "p2"):  # the text board at the same step now names every card
        assert f"{seat.upper()}'s hand: {' '.join(before[seat][head]['hands'][seat])};" in text, text
    for version in before[None]:  # every step now shows what each seat held then
        held = {seat: before[seat][version]["hands"][seat] for seat in ("p1", "p2")
                if seat in before[seat][version]["hands"]}
        assert after[None][version]["hands"] == held
