"""Timeline narration of Saxon Shore (domain/rules/saxon_shore/narrate.py): every event type the
rule system registers reads as a line of the game, built from its fields (never by parsing
prose), with the map's names, counters by kind, players by name, plurals counted; worked
examples read word for word."""

from __future__ import annotations

import random
from uuid import UUID

import msgspec
import pytest

from domain.events import EVENT_TYPES
from domain.rng import SeededRng
from domain.rules.saxon_shore import narrate as words
from projections.timeline import narrate

from .bots import choose_command
from .helpers import SEED, S, decision, new_game
from .play import Play, cell

SAXON_TYPES = {name for name in EVENT_TYPES if name.startswith("saxon-shore.")}
OPTIONS = {"turn_limit": 6, "warrior_monks": True, "city_defences": True, "feeble_rulers": True}
GAMES = [(2, 11, True), (3, 12, True), (4, 13, False), (5, 14, True),
         (2, 15, False), (3, 16, True), (4, 17, True), (5, 18, False)]  # players, seed, aggressive


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


def test_every_registered_event_type_has_its_own_words():
    assert {t.removeprefix("saxon-shore.") for t in SAXON_TYPES} == set(words.EVENTS)


def test_every_event_of_random_games_reads_as_a_line():
    """Seeded random games of 2 to 5 players to a short turn limit: every saxon-shore.* event gets
    its own words (describe_event answers, so the generic "Name: field=value" line is never
    used), a non-empty line without braces, brackets or underscores, under 160 characters."""
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
    common = {"StartingProvincePicked", "TurnBegan", "PlayerAsked", "EventDrawn", "ResourcesProduced",
              "TroopsRaised", "MovementBegan", "UnitsMoved", "RaidDeclared", "InvasionDeclared", "RaidFought",
              "BattleBegan", "BattleRoundFought", "CasualtyRemoved", "BattleEnded", "ProvinceConquered",
              "PeasantsAndBoatsRemoved", "TroopsReturned", "KingDied", "KingCrowned", "MoraleChanged"}
    assert {f"saxon-shore.{t}" for t in common} <= seen, {f"saxon-shore.{t}" for t in common} - seen


def test_other_events_are_left_to_the_generic_line():
    assert S.describe_event("GameCreated", {}) is None
    assert S.describe_event("saxon-shore.NoSuchEvent", {"x": 1}) is None


def texts(play: Play) -> list[str]:
    """The timeline lines of the last decision played."""
    return [narrate(S, r).text for r in play.stored]


def within(lines_: list[str], run: list[str]) -> bool:
    """``run`` appears in ``lines_`` as consecutive lines."""
    return any(lines_[i:i + len(run)] == run for i in range(len(lines_)))


def test_s11_example_a_4_then_a_2_is_event_42_boats():
    """§11: "you roll a 4 on the first die and a 2 on the second die, the resultant number is 42".
    Played: p1 (Kent) draws the first event of the game (its dice drawn in p2's pick of a start)."""
    play = Play("Kent", "Leinster", dice={"random event (§11)": [4, 2]})
    assert within(texts(play), [
        "random event (§11): 4 2 (2×d6)",
        "p1 draws event 42: Boats (§11)",
        "A free boat: a boat placed in Kent (The Channel) for p1 (§11 42)",
    ])


def test_s11_23_plague_in_wessex():
    """§11 23: a ravage counter and morale down in Wessex and its neighbours; units die on 5-6.
    Played: p1 (Wessex) draws the first event of the game, the table names Wessex."""
    play = Play("Wessex", "Leinster", events={"p1": [23]},
                dice={"plague: random province table": cell("Wessex"), "plague (§11 23) in Wessex": [6]})
    lines_ = texts(play)
    assert within(lines_, [
        "p1 draws event 23: Plague (§11)",
        "plague: random province table: 6 6 (2×d6)",
        "Plague: Hwicce is ravaged (§11 23)",
    ])
    assert within(lines_, [
        "Plague: Wessex is ravaged (§11 23)",
        "Plague: morale in Wessex goes from normal to low (§11 23)",
        "plague (§11 23) in Wessex: units die on 5-6: 6 (1×d6)",
        "p1's king is eliminated in Wessex: plague (§11 23)",
    ])


def test_s8_1_a_raid_on_a_city_with_a_resource_for_trade():
    """§8.1: a successful raid destroys the city; the raider takes the traded resource and one of
    choice. Played: event 61 founds a city in neutral Surrey; p2 (Sussex) places iron there for
    trade; p1 (Kent) raises a regular and raids Surrey with it and the king."""
    play = Play("Kent", "Sussex", events={"p1": [61]}, dice={"city founded: random province table": cell("Surrey")})
    play.to("market", "p2").act("p2", {"type": "place-trade", "province": "Surrey", "resource": "iron"})
    play.to("raise", "p1").act("p1", {"type": "raise-regular", "province": "Kent", "pay": ["iron", "gold"]})
    play.to("move", "p1").move("p1", play.ids("p1"), ["Surrey"]).to("declare", "p1")
    play.act("p1", {"type": "declare", "province": "Surrey", "action": "raid"}, {"raid on Surrey": [6, 1]})
    assert texts(play) == [
        "p1: declares a raid on Surrey",
        "p1 declares a raid on Surrey (§8)",
        "raid on Surrey: raider's die (§8.1): 6 (1×d6)",
        "raid on Surrey: defender's die (§8.1): 1 (1×d6)",
        "p1 raids Surrey: attack 10 against defence 3, the raiders win (§8.1)",
        "p1 destroys the city of Surrey and takes 1 iron (§8.1)",
        "Next: p1 to choose a resource (§8.1)",
    ]
    play.choose("p1", "gold")
    assert texts(play)[:2] == [
        "p1: chooses gold",
        "p1 gains 1 gold: spoils of the raid (§8.1)",
    ]


NAMES = {"p1": "Aelle", "p2": "Cerdic", "p3": "Vortigern"}


@pytest.mark.parametrize("event_type,data,text", [
    ("saxon-shore.RaidDeclared", {"seat": "p2", "province": "Kent", "section": "8"},
     "Cerdic declares a raid on Kent (§8)"),
    ("saxon-shore.UnitsMoved", {"seat": "p1", "units": [{"unit": 8, "kind": "boat"}, {"unit": 5, "kind": "king"},
                                                        {"unit": 6, "kind": "regular"}, {"unit": 7, "kind": "regular"}],
                                "start": "Norfolk", "path": ["Suffolk"], "points": 1, "coast": "North Sea",
                                "section": "7"},
     "Aelle moves a boat, a king and 2 regulars from Norfolk to Suffolk (§7)"),
    ("saxon-shore.UnitsMoved", {"seat": "p3", "units": [{"unit": 2, "kind": "peasant"}], "start": "Kent",
                                "path": ["The Weald", "Sussex"], "points": 2, "halted": True,
                                "paths_used": ["forest", "forest"], "section": "7"},
     "Vortigern moves a peasant from Kent to Sussex via The Weald, using a woodland trail and a woodland trail, "
     "and must stop there (§7)"),
    ("saxon-shore.MercenaryHired", {"seat": "p2", "unit": 3, "province": "Kent", "paid": "wool", "section": "4.6.1"},
     "Cerdic hires the mercenary in Kent for wool (§4.6.1)"),
    ("saxon-shore.KingDied", {"seat": "p2", "unit": 17, "province": "Kent", "section": "11 52", "by": "p1"},
     "Aelle has Cerdic's king assassinated in Kent (§11 52)"),
    ("saxon-shore.UnitsDeserted", {"units": [{"unit": 3, "kind": "mercenary", "owner": "p3"},
                                             {"unit": 4, "kind": "mercenary", "owner": "p3"},
                                             {"unit": 9, "kind": "regular", "owner": None}], "section": "11 26"},
     "Vortigern's 2 mercenaries and the neutral regular desert: rebellion (§11 26)"),
    ("saxon-shore.BattleEnded", {"province": "Munster", "won_by": "defender", "winner": None, "section": "8.2"},
     "The militia of Munster beat off the attackers (§8.2)"),
    ("saxon-shore.BattleBegan", {"province": "Gwent", "mode": "rebels", "attacker": "rebels", "defender": "p3",
                                 "militia": 1, "militia_strength": 1, "rebels": 2, "section": "11 64"},
     "2 rebels rise against Vortigern in Gwent, who stands with 1 militia of strength 1 (§11 64)"),
    ("saxon-shore.ProvinceBecameNeutral", {"province": "Gwent", "former": "p3", "section": "11 64"},
     "The rebels take Gwent from Vortigern: the province is neutral (§11 64)"),
    ("saxon-shore.PlayerEliminated", {"seat": "p2", "units": [], "section": "1"},
     "Cerdic is eliminated: no provinces left (§1)"),
    ("saxon-shore.EventDrawn", {"seat": "p2", "number": 23, "name": "Plague", "section": "11"},
     "Cerdic draws event 23: Plague (§11)"),
    ("saxon-shore.TurnBegan", {"turn": 2, "order": ["p2", "p3", "p1"]},
     "Turn 2 begins; order of play: Cerdic, Vortigern and Aelle"),
    ("saxon-shore.PromptOpened", {"seat": "p1", "kind": "conquest", "options": ["destroy", "ravage", "spare"],
                                  "province": "Kent", "section": "8.2"},
     "Next: Aelle to destroy, ravage or spare conquered Kent (§8.2)"),
    ("saxon-shore.PromptOpened", {"seat": "p3", "kind": "phase", "phase": "move", "stage": 2, "section": "7"},
     "Next: Vortigern in the movement (§7) phase, stage 2"),
    ("saxon-shore.KingMovedTroops", {"seat": "p1", "province": "Kent", "side": "attacker",
                                     "moves": [{"kind": "peasant", "box": 1, "step": 2}], "section": "8.2"},
     "Aelle's king moves a peasant from box 1 to box 3 (up) (§8.2)"),
    ("saxon-shore.TradeOffered", {"seat": "p1", "to": "p2", "give": {"wheat": 2}, "take": {"slaves": 1},
                                  "section": "4.3"},
     "Aelle offers Cerdic 2 wheat for 1 slave (§4.3)"),
    ("saxon-shore.ProvinceRavaged", {"province": "Kent", "section": "8.1", "by": "p2", "spoils": {"iron": 1}},
     "Cerdic ravages Kent and takes 1 iron (§8.1)"),
    ("saxon-shore.GameDecided", {"outcome": {"winner": None, "draw": True,
                                             "reason": "turn limit (house rule, 30 turns): tied for most provinces"}},
     "Game over, a draw: turn limit (house rule, 30 turns): tied for most provinces"),
])
def test_single_events_speak_like_a_person(event_type, data, text):
    assert S.describe_event(event_type, data, NAMES) == text


def test_without_names_the_seats_stand_in():
    assert S.describe_event("saxon-shore.RaidDeclared", {"seat": "p2", "province": "Kent", "section": "8"}) == \
        "p2 declares a raid on Kent (§8)"


def test_commands_read_in_words():
    assert S.describe_command({"type": "offer", "to": "p2", "give": {"wheat": 2}, "take": {"gold": 1}}) == \
        "offers p2 2 wheat for 1 gold"
    assert S.describe_command({"type": "improve", "province": "Kent", "improvement": "wall",
                               "pay": ["iron", "wool"]}) == "pays iron and wool for a wall in Kent"
    assert S.describe_command({"type": "raise-boats", "places": [{"province": "Kent", "sea": "The Channel"}],
                               "pay": "wool"}) == "raises boats in Kent (The Channel), paying wool"
    assert S.describe_command({"type": "choose", "option": "spend_grain"}) == "chooses spend grain"
    assert S.describe_command({"type": "choose", "option": "wheat=2,gold=1"}) == "chooses 2 wheat and 1 gold"
    assert S.describe_command({"type": "choose", "option": "up regular@3, peasant@1"}) == \
        "chooses up one box: the regular in box 3 and the peasant in box 1"
