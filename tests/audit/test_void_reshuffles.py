"""Issue 30, point 2: "Voided card draws come back in the same order." A ruling that voids play
now shuffles every deck in play again, at fresh draws, in its own block (``VoidedCardsReshuffled``
after the ``DecisionsVoided``): no card seen in the voided play comes back where it was, the
record proves the new order (its draws, from the committed seed), and the verifier replays it.
Records of the versions before (open-table 1.0.0, kingdoms-of-crusaders 1.1.0) keep their voids
as they were and still verify."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path
from uuid import UUID

import httpx
import msgspec
import pytest

from domain import seals
from domain.audit import raise_dispute, reshuffle_after_void, rule_dispute
from domain.events import GameCreated, SeatInfo
from domain.game import GENESIS_HASH, apply, chain, create_game, event_hash, game_rng, take_decision
from domain.randomness import commitment, shuffle_order
from domain.rules.open_table.data import STANDARD_CARDS
from domain.rules.registry import RULE_SYSTEMS
from replays.record import Record, RecordEvent, build_record, chained_data
from replays.record_format import decode_record, encode_record
from replays.verify import verify
from tests.conftest import ADMIN_TOKEN, new_game, post
from tests.replays import stdlib_verifier
from tests.rules.listing_client import pick

UMPIRE = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
SEED_HEX = "3c" * 32
HERALD = str(Path(sys.executable).parent / "herald")


def auth(game: dict, seat: str) -> dict:
    return {"Authorization": f"Bearer {game['seat_tokens'][seat]}"}


def sent(client, game: dict, seat: str, command: dict) -> list[dict]:
    response = post(client, game, seat, command)
    assert response.status_code == 201, response.text
    return response.json()["events"]


def void(client, game: dict, seat: str, from_version: int) -> list[dict]:
    """``seat`` disputes the play at ``from_version`` and the umpire voids it from there."""
    raised = client.post(f"/games/{game['id']}/disputes", headers=auth(game, seat),
                         json={"seat": seat, "about_version": from_version, "reason": "a misdeal"})
    assert raised.status_code == 201, raised.text
    ruled = client.post(f"/games/{game['id']}/rulings", headers=UMPIRE,
                        json={"dispute": raised.json()["events"][0]["version"], "ruling": "upheld",
                              "reason": "replay it", "void_from": from_version})
    assert ruled.status_code == 201, ruled.text
    return ruled.json()["events"]


def order(game: dict, shuffle: dict, cards) -> list:
    """The deck order a recorded shuffle gives, computed from the seed (docs/record-format.md)."""
    return [cards[i] for i in shuffle_order(bytes.fromhex(SEED_HEX), UUID(game["id"]), "", tuple(shuffle["draws"]),
                                            shuffle["size"])]


def test_open_table_a_voided_take_is_not_dealt_to_the_next_taker(client):
    open_table_repro(client)


def test_kingdoms_a_draw_inside_voided_play_is_not_dealt_again_from_the_same_place(client):
    kingdoms_repro(client)


def test_both_repros_on_a_real_server(live_server):
    """The same two repros against ``herald serve`` (uvicorn, SQLite on disk)."""
    with httpx.Client(base_url=live_server.url, timeout=30) as http:
        open_table_repro(http)
        kingdoms_repro(http)


def open_table_repro(client) -> None:
    """The issue's repro: "Alice takes card-17, card-03, card-11; a dispute voids from that take; Bob
    then takes card-17, card-03, card-11, and Alice knows Bob's hand." A table's answer to a misdeal:
    the cards seen go back and the deck is shuffled again (docs/DECISIONS.md)."""
    game = new_game(client, seed=SEED_HEX)
    [shuffled] = [e for e in sent(client, game, "alice", {"type": "shuffle", "deck": "standard-54"})
                  if e["type"] == "CardsShuffled"]
    taken = sent(client, game, "alice", {"type": "take", "deck": "standard-54", "count": 3})
    alice = next(e for e in taken if e["type"] == "open-table.CardsTaken")["data"]["cards"]
    assert alice == order(game, shuffled["data"], STANDARD_CARDS)[:3]

    ruling = void(client, game, "bob", taken[0]["version"])
    assert [e["type"] for e in ruling] == ["DisputeRuled", "DecisionsVoided", "VoidedCardsReshuffled"]
    again = ruling[2]["data"]
    assert again["deck"] == "standard-54" and again["size"] == 54
    assert again["draws"] == list(range(53, 106))  # fresh draws: the shuffle's 0..52 are never drawn again
    assert client.get(f"/games/{game['id']}").json()["view"]["decks"]["standard-54"]["left"] == 54

    bob = next(e for e in sent(client, game, "bob", {"type": "take", "deck": "standard-54", "count": 3})
               if e["type"] == "open-table.CardsTaken")["data"]["cards"]
    assert bob != alice  # what Alice saw in the voided take tells her nothing of Bob's hand
    new = order(game, again, STANDARD_CARDS)
    assert bob == new[:3] and new != order(game, shuffled["data"], STANDARD_CARDS)


def kingdoms_repro(client) -> None:
    """The issue's repro: "The Kingdoms of Crusaders: a draw inside voided play is dealt again to
    the same seat." Turn sequence: "At the beginning of a turn the player draws one card"; the card
    the next seat drew in the voided turn now comes, like every card, from the new order."""
    rules = RULE_SYSTEMS["kingdoms-of-crusaders"]
    game = new_game(client, rules=rules.id, seats=("p1", "p2"), seed=SEED_HEX)
    prepared = sent(client, game, "p1", {"type": "prepare"})
    [shuffled] = [e for e in prepared if e["type"] == "CardsShuffled"]
    dealt = [c["id"] for e in prepared if e["type"] == "kingdoms-of-crusaders.DrawnCards" for c in e["data"]["cards"]]
    first = next(e for e in prepared if e["type"] == "kingdoms-of-crusaders.TurnBegan")["data"]["seat"]
    other = "p2" if first == "p1" else "p1"
    hand = [c["id"] for e in prepared if e["type"] == "kingdoms-of-crusaders.DrawnCards"
            and e["data"]["seat"] == first for c in e["data"]["cards"]]
    place = {"type": "place", "card": hand[0], "sector": 1}

    placed = sent(client, game, first, place)
    voided_draw = [c["id"] for e in placed if e["type"] == "kingdoms-of-crusaders.DrawnCards" for c in e["data"]["cards"]]
    assert [e["data"]["seat"] for e in placed if e["type"] == "kingdoms-of-crusaders.DrawnCards"] == [other]
    deck = rules.setup("standard", ("p1", "p2"), {}).deck
    old = [c for c in order(game, shuffled["data"], deck) if c not in dealt]
    assert voided_draw == old[:1]  # the deck's next card, which the other seat has now seen

    ruling = void(client, game, other, placed[0]["version"])
    assert [e["type"] for e in ruling] == ["DisputeRuled", "DecisionsVoided", "VoidedCardsReshuffled"]
    again = ruling[2]["data"]
    assert again["deck"] == "units" and again["size"] == len(deck)
    assert again["draws"][0] == shuffled["data"]["draws"][-1] + 2  # after the shuffle's and the first-player die's

    replaced = sent(client, game, first, place)  # the same card placed again: the other seat's turn begins
    redrawn = [c["id"] for e in replaced if e["type"] == "kingdoms-of-crusaders.DrawnCards" for c in e["data"]["cards"]]
    new = [c for c in order(game, again, deck) if c not in dealt]
    assert redrawn == new[:1] and new != old


def ended_open_table_with_a_void(client) -> tuple[dict, bytes]:
    """An open-table game (seed secret until the end): Alice shuffles and takes three, a ruling
    voids the take, Bob takes three and rolls, both agree to end; its record, as exported."""
    game = new_game(client)
    sent(client, game, "alice", {"type": "shuffle", "deck": "standard-54"})
    taken = sent(client, game, "alice", {"type": "take", "deck": "standard-54", "count": 3})
    void(client, game, "bob", taken[0]["version"])
    sent(client, game, "bob", {"type": "take", "deck": "standard-54", "count": 3})
    sent(client, game, "bob", {"type": "roll", "label": "after the void", "dice": "1d6"})
    for seat in ("alice", "bob"):
        sent(client, game, seat, {"type": "end", "outcome": {"draw": True, "reason": "a study of voids"}})
    return game, client.get(f"/games/{game['id']}/record").content


def test_a_record_with_a_void_verifies_in_herald_and_with_the_standard_library(client, tmp_path):
    """docs/record-format.md: "This page is enough to check a record without Herald"; ``herald
    replay verify`` replays the void's reshuffle from the revealed seed."""
    _, raw = ended_open_table_with_a_void(client)
    record = json.loads(raw)
    assert record["seed"] and [e[0] for e in record["events"]].count("VoidedCardsReshuffled") == 1
    assert stdlib_verifier.verify(record, client.get("/rules/open-table").json()["die_kinds"]) == []
    assert verify(decode_record(raw)).ok
    path = tmp_path / "record.json"
    path.write_bytes(raw)
    done = subprocess.run([HERALD, "replay", "verify", str(path)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr


def relinked(record: Record, events: list[RecordEvent]) -> Record:
    """``events`` numbered from 1 and hash-linked again, each salt the revealed seed's for its new
    version, the head moved and the signature dropped: a forgery every hash and salt of which holds."""
    seed = bytes.fromhex(record.seed) if record.seed else None
    prev, out = GENESIS_HASH, []
    for version, e in enumerate(events, start=1):
        salt = seals.salt(seed, record.header.game, version).hex() if e.salt and seed else e.salt
        e = msgspec.structs.replace(e, version=version, prev_hash=prev, salt=salt)
        prev = event_hash(UUID(record.header.game), version, e.type, chained_data(e), prev, e.recorded_at)
        out.append(msgspec.structs.replace(e, hash=prev))
    return msgspec.structs.replace(record, events=out, head={"version": len(out), "hash": prev}, signature=None)


def _skip_reshuffle(events: list[RecordEvent]) -> list[RecordEvent]:
    return [e for e in events if e.type != "VoidedCardsReshuffled"]


def _skip_reshuffle_and_renumber(events: list[RecordEvent]) -> list[RecordEvent]:
    """The reshuffle left out and every later draw renumbered, so the draws run on with no gap."""
    at = next(i for i, e in enumerate(events) if e.type == "VoidedCardsReshuffled")
    skipped = len(events[at].data["draws"])
    return events[:at] + [msgspec.structs.replace(e, data={**e.data, "draws": [n - skipped for n in e.data["draws"]]})
                          if isinstance(e.data.get("draws"), list) else e for e in events[at + 1:]]


def _same_cards_again(events: list[RecordEvent]) -> list[RecordEvent]:
    """Bob's take after the void (and his hand shown at the end) shows the cards Alice's voided take showed."""
    alice = next(e for e in events if e.type == "open-table.CardsTaken").data["cards"]
    bob = [e.version for e in events if e.type == "open-table.CardsTaken"][1]
    return [msgspec.structs.replace(e, data={**e.data, "cards": list(alice)})
            if e.version == bob or (e.type == "open-table.HandShown" and e.data["seat"] == "bob") else e
            for e in events]


VOID_FORGERIES = {
    "the void's reshuffle left out": _skip_reshuffle,
    "the void's reshuffle left out, later draws renumbered": _skip_reshuffle_and_renumber,
    "the voided cards dealt again": _same_cards_again,
}


@pytest.mark.parametrize("forgery", sorted(VOID_FORGERIES))
def test_a_forged_void_is_caught(client, forgery, tmp_path):
    """A record that skips the reshuffle, or deals the voided cards again, is refused by the
    verifier (the API and ``herald replay verify``) even with every hash and salt made to hold; the
    ruling's block (or the take) is named. The third party's verifier, which knows no rules, sees a
    reshuffle left out by the gap it leaves in the draws."""
    _, raw = ended_open_table_with_a_void(client)
    record = decode_record(raw)
    forged = encode_record(relinked(record, VOID_FORGERIES[forgery](list(record.events))))
    verdict = client.post("/records/verify", content=forged, headers={"Content-Type": "application/json"}).json()
    assert verdict["ok"] is False, (forgery, verdict)
    [problem] = verdict["problems"]
    if forgery == "the voided cards dealt again":
        assert "replay differs" in problem["what"] and "CardsTaken" in problem["what"], problem
    else:
        voided = next(e.version for e in record.events if e.type == "DecisionsVoided")  # the ruling's block ends there
        assert problem["version"] == voided and "replay produces 3 event(s) here; the record has 2" in problem["what"]
    path = tmp_path / "forged.json"
    path.write_bytes(forged)
    done = subprocess.run([HERALD, "replay", "verify", str(path)], capture_output=True, text=True, timeout=120)
    assert done.returncode != 0 and "Traceback" not in done.stdout + done.stderr
    if forgery == "the void's reshuffle left out":
        assert any("out of sequence" in p for p in stdlib_verifier.verify(json.loads(forged)))


# -- the domain: without the seed, under older versions ------------------------------------------------
START = datetime(2026, 3, 1, tzinfo=timezone.utc)
SEED = bytes.fromhex(SEED_HEX)


class Table:
    """A game played through the domain as the server plays it (a ruling's reshuffle included)."""

    def __init__(self, rules_id: str, version: str, seats: tuple[str, ...], scenario: str | None = None,
                 options: dict | None = None):
        rules = RULE_SYSTEMS[rules_id].at_version(version)
        scenario = scenario or next(iter(rules.scenarios))
        created = GameCreated(rules=rules_id, rules_version=version, scenario=scenario,
                              data_hash=rules.data_hash(scenario, options), options=options or {},
                              seats={s: SeatInfo(s.title()) for s in seats}, seed_commitment=commitment(SEED))
        self.id = UUID(int=30)
        self.events = create_game(self.id, created, START)
        self.game = apply(None, self.events[0])

    def record(self, typed) -> list:
        new = chain(self.id, self.game.version + 1, self.game.head, typed,
                    START + timedelta(seconds=self.game.version), server_seed=SEED)
        for event in new:
            self.game = apply(self.game, event)
        self.events += new
        return new

    def send(self, seat: str, command: dict) -> list:
        new = take_decision(self.game, seat, command, game_rng(self.game, SEED),
                            START + timedelta(seconds=self.game.version), SEED)
        for event in new:
            self.game = apply(self.game, event)
        self.events += new
        return new

    def void(self, seat: str, from_version: int) -> list:
        raised = self.record(raise_dispute(self.game, seat, from_version, "a misdeal"))
        ruled = self.record(rule_dispute(self.game, raised[0].version, "upheld", "replay it", "umpire",
                                         from_version, False, None))
        return ruled + self.record(reshuffle_after_void(self.game, game_rng(self.game, SEED)))


def face_up_table(version: str) -> Table:
    """Alice shuffles and draws three face up; a ruling voids the draw; Bob draws three face up."""
    table = Table("open-table", version, ("alice", "bob"))
    table.send("alice", {"type": "shuffle", "deck": "standard-54"})
    drawn = table.send("alice", {"type": "draw", "deck": "standard-54", "count": 3})
    table.void("bob", drawn[0].version)
    table.send("bob", {"type": "draw", "deck": "standard-54", "count": 3})
    return table


def face_up(events) -> list[list[str]]:
    return [e.data["cards"] for e in events if e.type == "open-table.CardsDrawn"]


def test_without_the_seed_the_reshuffle_is_checked_against_the_recorded_draws():
    """Before the seed is revealed the verifier replays with the recorded draws (as far as no hidden
    order is needed): a record that leaves out the void's reshuffle has a ruling that draws where
    the record holds nothing, named at the ruling."""
    table = Table("open-table", "1.1.0", ("alice", "bob"))
    table.send("alice", {"type": "shuffle", "deck": "standard-54"})
    rolled = table.send("bob", {"type": "roll", "label": "too soon", "dice": "2d6"})
    ruling = table.void("alice", rolled[0].version)
    assert [e.type for e in ruling][-1] == "VoidedCardsReshuffled"
    table.send("bob", {"type": "roll", "label": "in turn", "dice": "2d6"})
    record = build_record(table.events)
    assert record.seed is None and verify(record).ok
    verdict = verify(relinked(record, _skip_reshuffle(list(record.events))))
    assert not verdict.ok and verdict.problems[0].version == ruling[0].version
    assert "shuffle of standard-54" in verdict.problems[0].what and "no draw here" in verdict.problems[0].what


def test_open_table_1_0_0_voids_keep_the_deck_as_it_was():
    """Records made under open-table 1.0.0 replay as they were made: the void records no reshuffle,
    the next draw is the voided one (what issue 30 found), and the record verifies, also with its
    seed; a 1.0.0 record given a reshuffle it never had does not."""
    table = face_up_table("1.0.0")
    assert "VoidedCardsReshuffled" not in [e.type for e in table.events]
    alice, bob = face_up(table.events)
    assert alice == bob
    assert verify(build_record(table.events)).ok and verify(build_record(table.events, public_seed=SEED_HEX)).ok
    current = build_record(face_up_table("1.1.0").events, public_seed=SEED_HEX)
    assert verify(current).ok
    old = {**current.events[0].data, "rules_version": "1.0.0",
           "data_hash": RULE_SYSTEMS["open-table"].at_version("1.0.0").data_hash("table")}
    forged = relinked(current, [msgspec.structs.replace(current.events[0], data=old), *current.events[1:]])
    forged = msgspec.structs.replace(forged, header=msgspec.structs.replace(forged.header, rules_version="1.0.0",
                                                                                 data_hash=old["data_hash"]))
    verdict = verify(forged)
    assert not verdict.ok and "replay produces 2 event(s) here; the record has 3" in verdict.problems[0].what


def test_kingdoms_1_1_0_voids_keep_the_deck_as_it_was():
    """The Kingdoms of Crusaders 1.1.0's voids recorded no reshuffle: its records still verify."""
    table = Table("kingdoms-of-crusaders", "1.1.0", ("p1", "p2"))
    prepared = table.send("p1", {"type": "prepare"})
    first = next(e for e in prepared if e.type == "kingdoms-of-crusaders.TurnBegan").data["seat"]
    card = table.game.state.hands[first][0]
    placed = table.send(first, {"type": "place", "card": card, "sector": 1})
    ruling = table.void("p2" if first == "p1" else "p1", placed[0].version)
    assert [e.type for e in ruling] == ["DisputeRuled", "DecisionsVoided"]
    again = table.send(first, {"type": "place", "card": card, "sector": 1})
    drawn = [[c["id"] for c in e.data["cards"]] for e in (*placed, *again) if e.type.endswith(".DrawnCards")]
    assert drawn[0] == drawn[1]  # as 1.1.0 dealt it
    assert verify(build_record(table.events, public_seed=SEED_HEX)).ok


@pytest.mark.parametrize(("rules_id", "scenario", "seats", "avoid"), [
    ("kingdoms-of-crusaders", "standard", ("p1", "p2", "p3"), ()),
    ("saline", "standard", ("p1", "p2", "p3"), ()),
    ("day-of-battle", "crusaders-seljuq-turks", ("crusaders", "seljuq-turks"), ("propose-ruling", "accept-ruling")),
])
def test_every_rule_system_with_a_deck_shuffles_it_again_after_a_void_and_verifies(rules_id, scenario, seats, avoid):
    """Each rule system with hidden draws names its decks in play; a void shuffles each again (the
    Kingdoms' unit deck, Saline's œillet and event decks, Day of Battle's deck), the fold takes the
    new order without gathering any card back, and play goes on to a record that verifies."""
    rules = RULE_SYSTEMS[rules_id]
    table = Table(rules_id, rules.version, seats, scenario)
    rnd = random.Random(30)

    def play(decisions: int) -> None:
        for _ in range(decisions):
            if table.game.ended:
                return
            seat = table.game.to_act()[0]
            listed = [msgspec.to_builtins(c) for c in rules.legal_commands(table.game.state, seat)]
            listed = [c for c in listed if c["type"] not in avoid] or listed  # Day of Battle: no agreed end here
            command, _ = pick(rnd, listed, rules.legal_choices(table.game.state, seat))
            table.send(seat, command)

    play(30)
    last = max(e.version for e in table.events if e.type == "DecisionTaken")
    before = table.game.state
    ruling = table.void(seats[0], last)
    reshuffled = [(e.data["deck"], e.data["size"]) for e in ruling if e.type == "VoidedCardsReshuffled"]
    assert reshuffled and reshuffled == rules.decks_in_play(table.game.state), ruling
    assert table.game.state != before
    play(30)
    verdict = verify(build_record(table.events, public_seed=SEED_HEX))
    assert verdict.ok, verdict.problems


@pytest.mark.parametrize("dice", ["same", "fresh"])
def test_a_fork_copies_a_void_and_its_reshuffle_and_verifies(client, dice):
    """A fork takes a ruling's block whole (its reshuffle with it) and replays it from the copied
    draws; play after the fork draws from the reshuffled deck and the fork's record verifies."""
    game = new_game(client, seed=SEED_HEX)
    sent(client, game, "alice", {"type": "shuffle", "deck": "standard-54"})
    drawn = sent(client, game, "alice", {"type": "draw", "deck": "standard-54", "count": 2})
    ruling = void(client, game, "bob", drawn[0]["version"])
    fork = client.post(f"/games/{game['id']}/fork", json={"version": ruling[0]["version"], "dice": dice})
    assert fork.status_code == 201, fork.text
    forked = fork.json()
    copied = client.get(f"/games/{forked['id']}/events", params={"limit": 100}).json()["events"]
    assert [e["type"] for e in copied][-3:] == ["DisputeRuled", "DecisionsVoided", "VoidedCardsReshuffled"]
    sent(client, forked, "bob", {"type": "draw", "deck": "standard-54", "count": 2})
    raw = client.get(f"/games/{forked['id']}/record").content
    assert verify(decode_record(raw)).ok
    assert stdlib_verifier.verify(json.loads(raw), client.get("/rules/open-table").json()["die_kinds"]) == []
