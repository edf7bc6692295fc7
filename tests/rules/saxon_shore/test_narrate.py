"""Timeline narration of Saxon Shore (domain/rules/saxon_shore/narrate.py): every event type the
rule system registers reads as a line of the game, with the map's names, never a dump of its
fields or of the turn's job queue; worked examples read word for word."""

from __future__ import annotations

import random
from uuid import UUID

import msgspec
import pytest

from domain.events import EVENT_TYPES
from domain.rng import SeededRng
from domain.rules.saxon_shore.state import Job, Prompt
from projections.timeline import narrate

from .helpers import DONE, SEED, FakeRng, S, decision, new_game, position, stop, then
from .bots import choose_command

SAXON_TYPES = {name for name in EVENT_TYPES if name.startswith("saxon-shore.")}
OPTIONS = {"turn_limit": 6, "warrior_monks": True, "city_defences": True, "feeble_rulers": True}
GAMES = [(2, 11, True), (3, 12, True), (4, 13, False), (5, 14, True),
         (2, 15, False), (3, 16, True), (4, 17, True), (5, 18, False)]  # players, seed, aggressive


def lines(game, seat, command, dice, filler=None):
    """The timeline lines of one decision with chosen dice, and the game after it."""
    records, after = decision(game, seat, command, FakeRng(dice, game.next_draw, filler))
    return [narrate(S, r).text for r in records], after


def random_records(players: int, seed: int, aggressive: bool):
    rnd = random.Random(seed)
    game = new_game(players, OPTIONS, game_id=UUID(int=seed * 10 + players))
    records, used = [], {}
    while not game.ended:
        [seat] = game.to_act()
        commands = [msgspec.to_builtins(c) for c in S.legal_commands(game.state, seat)]
        command = choose_command(rnd, game.state, seat, commands, aggressive, used)
        new, game = decision(game, seat, command, SeededRng(SEED, game.id, "", game.next_draw))
        records += new
    return records


def test_every_registered_event_type_is_narrated_in_random_games():
    """Seeded random games of 2 to 5 players to the turn limit: every saxon-shore.* event gets
    its own words (describe_event answers, so the generic "Name: field=value" line is never
    used), a non-empty line without braces or brackets (no dumped lists or records), under
    160 characters; every registered type turns up."""
    assert len(SAXON_TYPES) == 10
    seen: set[str] = set()
    for players, seed, aggressive in GAMES:
        for record in random_records(players, seed, aggressive):
            if not record.type.startswith("saxon-shore."):
                continue
            text = S.describe_event(record.type, record.data)
            assert isinstance(text, str) and text.strip(), record
            assert "{" not in text and "[" not in text, (record.type, text)
            assert "=" not in text and "_" not in text, (record.type, text)
            assert len(text) <= 160, text
            assert narrate(S, record).text == text
            seen.add(record.type)
    assert seen == SAXON_TYPES, SAXON_TYPES - seen


def test_other_events_are_left_to_the_generic_line():
    assert S.describe_event("GameCreated", {}) is None
    assert S.describe_event("saxon-shore.NoSuchEvent", {"x": 1}) is None


def test_s11_example_a_4_then_a_2_is_event_42_boats():
    """§11: "you roll a 4 on the first die and a 2 on the second die, the resultant number is 42"."""
    game = position(owners={"Kent": "p1"}, **then(Job("event", "p1")))
    texts, _ = lines(game, "p1", DONE, [4, 2])
    assert texts == [
        "p1: is done with this phase",
        "random event (§11): 4 2 (2×d6)",
        "Event 42 (p1): Boats",
        "A free boat (§11 42) — p1: boat in Kent (The Channel)",
        "next: p2 in the conversion (§5) phase",
    ]


def test_s11_23_plague_in_wessex():
    """§11 23: a ravage counter and morale down in Wessex and its neighbours; units die on 5-6."""
    game = position(owners={"Wessex": "p1"}, units=[("king", "p1", "Wessex")], **then(Job("event", "p1")))
    texts, _ = lines(game, "p1", DONE, [2, 3, 6, 6, 6], filler=1)
    assert texts[2:5] == [
        "Event 23 (p1): Plague",
        "plague: random province table: 6 6 (2×d6)",
        "Hwicce: plague (§11 23) — neutral, morale normal, ravage 1",
    ]
    assert texts[-5:] == [
        "Wessex: plague (§11 23) — held by p1, morale normal, ravage 1",
        "Wessex: plague (§11 23) — held by p1, morale low, ravage 1",
        "plague (§11 23) in Wessex: units die on 5-6: 6 (1×d6)",
        "Plague (§11 23) — 1 counter removed",
        "next: p2 in the conversion (§5) phase",
    ]


def test_s8_1_a_raid_on_a_city_with_a_resource_for_trade():
    """§8.1: a successful raid destroys the city; the raider takes the traded resource and one of choice."""
    game = position(owners={"Kent": "p1"}, units=[("king", "p1", "Surrey"), ("regular", "p1", "Surrey")],
                    provinces={"Surrey": {"city": True, "trade_seat": "p2", "trade_res": "iron"}},
                    prompt=Prompt("phase", "p1", args=("declare",)),
                    jobs=(Job("raids", n=1), Job("invasions", n=1), stop()))
    texts, game = lines(game, "p1", {"type": "declare", "province": "Surrey", "action": "raid"}, [6, 1])
    assert texts == [
        "p1: declares raid in Surrey",
        "p1 declares a raid on Surrey (§8)",
        "raid on Surrey: raider's die (§8.1): 6 (1×d6)",
        "raid on Surrey: defender's die (§8.1): 1 (1×d6)",
        "p1 raids Surrey (§8.1): attack 10 against defence 3 — the raiders pillage",
        "Surrey: city destroyed (raid, §8.1) — neutral, morale normal",
        "p1: the resource traded in the city (§8.1) — holds 1 iron",
        "next: p1 to choose a resource",
    ]
    texts, _ = lines(game, "p1", {"type": "choose", "option": "gold"}, [])
    assert texts == [
        "p1: chooses gold",
        "p1: a resource of choice (§4.2) — holds 1 iron, 1 gold",
        "next: p2 in the conversion (§5) phase",
    ]


@pytest.mark.parametrize("event_type,data,text", [
    ("saxon-shore.Declared", {"declared": [["p1", "Sussex", "hold"], ["p2", "Kent", "raid"]]},
     "p2 declares a raid on Kent (§8)"),
    ("saxon-shore.Declared", {"declared": []}, "Combat (§8): declarations open"),
    ("saxon-shore.BattleSet", {"battle": None}, "The battle is over"),
    ("saxon-shore.UnitsSet", {"units": [{"id": 8, "kind": "boat", "owner": "p1", "loc": "Suffolk",
                                         "coast": "North Sea"},
                                        {"id": 5, "kind": "king", "owner": "p1", "loc": "Suffolk"}],
                              "removed": [], "why": "moves Norfolk to Suffolk (§7)"},
     "p1 moves boat and king from Norfolk to Suffolk (§7)"),
    ("saxon-shore.UnitsSet", {"units": [{"id": 3, "kind": "mercenary", "owner": "p2", "loc": "Kent"},
                                        {"id": 4, "kind": "mercenary", "owner": "p2", "loc": "Kent"}],
                              "removed": [], "why": "hired (§4.6.1)"},
     "Hired (§4.6.1) — p2: 2 mercenaries in Kent"),
    ("saxon-shore.UnitsSet", {"units": [], "removed": [17], "why": "p2's king assassinated (§11 52)"},
     "p2's king assassinated (§11 52) — 1 counter removed"),
    ("saxon-shore.Resolved", {"what": "the defender wins (§8.2)", "seat": None, "province": "Munster", "detail": {}},
     "Munster: the militia beat off the invaders (§8.2)"),
    ("saxon-shore.EventDrawn", {"seat": "p2", "number": 23, "title": "Plague"}, "Event 23 (p2): Plague"),
    ("saxon-shore.TurnBegan", {"turn": 2, "order": ["p2", "p3", "p1"]}, "Turn 2 begins — order of play: p2, p3, p1"),
    ("saxon-shore.BattleSet", {"battle": {"prov": "Gwent", "mode": "rebels", "attacker": "rebels", "defender": "p3",
                                          "militia_strength": 1, "rebels": 2}},
     "Rebellion in Gwent: 2 rebels against p3"),
    ("saxon-shore.Resolved", {"what": "rebels win (§11 64)", "seat": "p3", "province": "Gwent", "detail": {}},
     "Gwent: the rebels beat p3 (§11 64) and the province is neutral"),
    ("saxon-shore.PlayerSet", {"seat": "p2", "player": {"alive": False}, "why": "eliminated: no provinces left"},
     "p2 is eliminated: no provinces left"),
    ("saxon-shore.Flow", {"phase": "move", "stage": 1, "jobs": [{"kind": "combat_start", "n": 1}],
                          "prompt": {"kind": "conquest", "seat": "p1", "prov": "Kent",
                                     "options": ["destroy", "ravage", "spare"], "args": ["p2"]},
                          "storms": [], "won": None},
     "next: p1 to destroy, ravage or spare conquered Kent"),
    ("saxon-shore.Flow", {"phase": "combat", "stage": 2, "jobs": [], "prompt": None, "storms": [],
                          "won": {"winner": "p1", "draw": False, "reason": "built four cities"}},
     "p1 wins: built four cities"),
    ("saxon-shore.GameDecided", {"outcome": {"winner": None, "draw": True,
                                             "reason": "turn limit (30): tied for most provinces"}},
     "Game over — Draw: turn limit (30): tied for most provinces"),
])
def test_single_events(event_type, data, text):
    assert S.describe_event(event_type, data) == text


def test_commands_read_in_words():
    assert S.describe_command({"type": "offer", "to": "p2", "give": {"wheat": 2}, "take": {"gold": 1}}) == \
        "offers p2 2 wheat for 1 gold"
    assert S.describe_command({"type": "improve", "province": "Kent", "improvement": "wall",
                               "pay": ["iron", "wool"]}) == "pays iron and wool for a wall in Kent"
    assert S.describe_command({"type": "raise-boats", "places": [{"province": "Kent", "sea": "The Channel"}],
                               "pay": "wool"}) == "raises boats in Kent (The Channel), paying wool"
