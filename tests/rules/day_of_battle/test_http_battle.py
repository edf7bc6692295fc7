"""A battle recorded over HTTP (real uvicorn, real SQLite file) by two clients, each holding only
its own seat token and sending only commands it read from GET /legal-commands: rank and command
draws, fire exchanges, a charge and its reaction, a dismount, then the end by agreement. Once the
seed is revealed every die and every card is recomputed here from it (HMAC-SHA256 as DESIGN.md
states it), and the record verifies."""

from __future__ import annotations

from uuid import UUID

import httpx

from domain.randomness import shuffled, uniform
from domain.rules.day_of_battle.data import DECK
from tests.rules.day_of_battle.helpers import SEATS, battle_over_http


def test_a_battle_recorded_by_two_clients_over_http(live_server):
    http = httpx.Client(base_url=live_server.url, timeout=30)
    rules = http.get("/rules/day-of-battle").json()
    assert {s["id"] for s in rules["scenarios"]} >= {"crusaders-seljuq-turks", "byzantines-seljuq-turks"}
    assert rules["owner_data"]["option"] == "armies"
    created = http.post("/games", json={"rules": "day-of-battle", "scenario": "crusaders-seljuq-turks",
                                        "seats": {s: {"player": p} for s, p in SEATS.items()}})
    assert created.status_code == 201, created.text
    game = created.json()
    gid = game["id"]
    done = battle_over_http(live_server.url, game)
    summary = http.get(f"/games/{gid}").json()
    assert summary["status"] == "ended", (done, summary["view"]["move"])
    assert summary["outcome"]["winner"] == "crusaders"
    seed = bytes.fromhex(summary["seed"])

    page = http.get(f"/games/{gid}/events", params={"limit": 1000}).json()
    events = page["events"]
    assert page["next"] is None
    kinds = [e["type"] for e in events]
    for needed in ("day-of-battle.SocialRankDrawn", "day-of-battle.CommandCardsDrawn", "day-of-battle.VolleyFired",
                   "day-of-battle.ChargeDeclared", "day-of-battle.KnightsDismounted", "day-of-battle.BattleEnded"):
        assert needed in kinds, needed
    rolled, cards = recompute(UUID(gid), seed, events)
    assert rolled >= 8 and cards >= 3 * 7 + 6 + 2  # seven cards a leader (six for Bohemond, whose rank is fixed), command cards

    record = http.get(f"/games/{gid}/record").json()
    verdict = http.post("/records/verify", json=record).json()
    assert verdict["ok"], verdict["problems"]


CARD_FIELDS = {
    "day-of-battle.SocialRankDrawn": lambda d: d["cards"],
    "day-of-battle.LeaderAttributesDrawn": lambda d: [d["esteem_card"], d["motivation_card"], *d["skill_cards"].values()],
    "day-of-battle.CommandCardsDrawn": lambda d: d["cards"],
    "day-of-battle.ScoutingResolved": lambda d: list(d["cards"].values()),
}


def recompute(gid: UUID, seed: bytes, events: list[dict]) -> tuple[int, int]:
    """Every d20 face and every card drawn, from the seed alone: a die shows 1 + uniform(20) on its
    draw; a shuffle is DESIGN.md's; a card is the first of the current order not yet out (a card
    drawn across a reshuffle comes from the order before it)."""
    dice = cards = 0
    order: list[int] = []
    out: set[str] = set()
    before = None
    for e in events:
        data = e["data"]
        assert "sealed" not in data, e  # the seed is revealed: every reader reads every event
        if e["type"] == "DecisionTaken":
            before = None
        elif e["type"] == "DiceRolled":
            assert data["faces"] == [1 + uniform(seed, gid, "", n, 20) for n in data["draws"]], e
            dice += len(data["faces"])
        elif e["type"] == "CardsShuffled":
            values = [uniform(seed, gid, "", n, i + 1) for n, i in zip(data["draws"], range(data["size"] - 1, 0, -1))]
            before = (order, out) if order else None
            order, out = shuffled(range(data["size"]), values), set()
        elif e["type"] in CARD_FIELDS:
            taken: list[str] = []
            for card in CARD_FIELDS[e["type"]](data):
                new = next(DECK[i] for i in order if DECK[i] not in out | set(taken))
                old = next((DECK[i] for i in before[0] if DECK[i] not in before[1] | set(taken)), None) if before else None
                assert card in (new, old), (e["version"], card, new, old)
                taken.append(card)
            out |= set(taken)
            cards += len(taken)
    return dice, cards
