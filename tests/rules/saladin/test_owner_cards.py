"""Owner-supplied card data (issue 14; RULES_NOTES.md, "Owner-supplied card data"): a game
plays with the owner's own cards, checked against the published JSON Schema and the rulebook's
constraints; the record carries the cards and their hash, so it replays anywhere."""

from __future__ import annotations

import copy
import hashlib
import json
import subprocess
import sys
from uuid import UUID

import msgspec
import pytest

from domain.events import GameCreated, SeatInfo
from domain.game import IncompatibleRecord, create_game, project_game, rule_system_for
from domain.rules.base import RuleViolation
from domain.rules.saladin import owner_cards
from domain.rules.saladin.data import PACKAGE
from replays.record import build_record
from replays.verify import verify
from tests.rules.saladin.helpers import (
    NOW, SALADIN, SEATS, act, banner_view, drive, full, legal, play, start, view,
)

S = "stroke"


def reconstruction(scenario: str) -> dict:
    return json.loads((PACKAGE / f"{scenario}.json").read_text(encoding="utf-8"))


def stripped(data):
    """The owner's file without the reconstruction's header and citations (both optional)."""
    if isinstance(data, dict):
        return {k: stripped(v) for k, v in data.items() if k not in ("basis", "_header")}
    if isinstance(data, list):
        return [stripped(x) for x in data]
    return data


def owners_arsuf() -> dict:
    """An owner's Arsuf cards that differ from the reconstruction: Henry II's Loose rolls 2 dice."""
    data = stripped(reconstruction("arsuf"))
    henry = next(c for c in data["cards"] if c["id"] == "henry-ii")
    next(a for a in henry["actions"] if a["id"] == "loose")["red"] = 2
    return data


def owner_game(data: dict, scenario: str = "arsuf", game_id: int = 1):
    created = GameCreated(rules="saladin", rules_version=SALADIN.version, scenario=scenario,
                          data_hash=SALADIN.data_hash(scenario, {"cards": data}),
                          seats={s: SeatInfo(player=s) for s in SEATS}, seed_commitment="0" * 64,
                          options={"cards": data})
    records = create_game(UUID(int=game_id), created, NOW)
    return project_game(None, records), records


@pytest.mark.parametrize("scenario", ["arsuf", "hattin"])
def test_the_reconstruction_passes_the_checks_with_or_without_its_citations(scenario):
    assert owner_cards.problems(reconstruction(scenario), scenario) == []
    assert owner_cards.problems(stripped(reconstruction(scenario)), scenario) == []
    assert "the file is for" in owner_cards.problems(reconstruction(scenario), "hattin" if scenario == "arsuf"
                                                     else "arsuf")[0]


def test_every_problem_is_listed_with_the_rule_it_breaks():
    """Counts, names, statuses, targets and lance totals, all at once."""
    data = stripped(reconstruction("arsuf"))
    data["banners"] = [b for b in data["banners"] if b["id"] != "naplouse"]  # a banner missing
    sable = next(b for b in data["banners"] if b["id"] == "sable")
    sable["status_rule"] = "follows-target"  # Statuses
    sable["name"] = "Sable"
    lusignan = next(b for b in data["banners"] if b["id"] == "lusignan")
    lusignan["track"] = [""] * 40 + ["give"]  # beyond the box's 56 Crusader lances
    henry = next(c for c in data["cards"] if c["id"] == "henry-ii")
    henry["targets"].append({"banner": "richard", "modes": ["uncommitted"]})  # a friend
    next(a for a in henry["actions"] if a["id"] == "loose")["red"] = 4  # 3 dice a side
    aslam = next(c for c in data["cards"] if c["id"] == "aslam")
    aslam["actions"].append({"id": "charge", "name": "Charge", "cost": 2, "status": "uncommitted", "ordered": False,
                             "red": 0, "green": 2, "change": "commit", "target": "enemy", "effect": None})
    data["orders"]["crusaders"]["available"] = 12
    found = owner_cards.problems(data, "arsuf")
    expected = [
        "banners: naplouse is missing (Statuses)",
        "status_rule: two-locations (Statuses)",
        "name: 'Sablé', as the rulebook prints it",
        "crusaders lances set up; the box holds 56 (Game Contents)",
        "card henry-ii.targets: richard is not an enemy banner",
        "card henry-ii.actions[loose]: 0 to 3 dice of each colour (Game Contents)",
        "card aslam.actions[charge]: aslam can never be Committed (Statuses)",
        "orders.crusaders: 11 available and 1 in Arsuf (Special rules)",
        "cards[5] (naplouse): no banner uses this card",
    ]
    for text in expected:
        assert any(text in p for p in found), (text, found)


def test_schema_problems_are_listed_field_by_field():
    data = stripped(reconstruction("hattin"))
    data["banners"][0]["track"] = 5
    data["cards"][2]["actions"][0]["cost"] = "free"
    del data["leaders"]
    found = owner_cards.problems(data, "hattin")
    assert any("banners[0]" in p and "$.track" in p for p in found)
    assert any("cards[2]" in p and "$.actions[0].cost" in p for p in found)
    assert any("leaders: missing" in p for p in found)


def test_a_game_with_the_owners_cards_plays_them_and_its_record_replays_anywhere():
    """The hash of the owner's cards is GameCreated.data_hash; the record carries the cards; a
    verifier that never saw them replays it; the view says which card data the game used."""
    data = owners_arsuf()
    game, records = owner_game(data)
    created = records[0].typed()
    assert created.options["cards"] == data
    assert created.data_hash == hashlib.sha256(msgspec.json.encode(data, order="sorted")).hexdigest()
    assert created.data_hash != SALADIN.data_hash("arsuf")
    game = start(game, "crusaders")
    game = play(game, "crusaders", act("henry-ii", "loose", "ala-afdal"), [S, S])  # the owner's 2 dice
    assert banner_view(game, "ala-afdal")["lances"] == {"field": full("arsuf", "ala-afdal") - 2}
    assert view(game)["card_data"] == {"source": "owner", "data_hash": created.data_hash, "options": {}}
    verdict = verify(build_record(records))
    assert verdict.ok, verdict.problems


def test_a_record_whose_cards_were_changed_is_refused():
    data = owners_arsuf()
    _, records = owner_game(data)
    created = records[0].typed()
    changed = msgspec.structs.replace(created, options={"cards": stripped(reconstruction("arsuf"))})
    with pytest.raises(IncompatibleRecord):
        rule_system_for(changed)


def test_bad_cards_refuse_the_game_with_every_problem():
    data = owners_arsuf()
    data["initiative_tie"] = "ayyubids"
    data["arsuf_lances"] = 3
    with pytest.raises(RuleViolation) as error:
        SALADIN.setup("arsuf", SEATS, {"cards": data})
    assert error.value.code == "saladin.bad_cards"
    assert error.value.problems == [
        "initiative_tie: crusaders (Special rules: Initiative in case of a tie)",
        "arsuf_lances: 2 (Arsuf — Special rules: the two Ayyubid Lances in Arsuf)",
        "lances: 60 ayyubids lances set up; the box holds 59 (Game Contents)",
    ]
    assert "3 rule(s)" in error.value.message


def test_the_json_schema_is_published_and_the_data_files_follow_it():
    """GET /rules/saladin publishes it (api tests); the committed copy is current."""
    published = json.loads((PACKAGE / "cards.schema.json").read_text(encoding="utf-8"))
    assert published == json.loads(json.dumps(owner_cards.SCHEMA))
    assert SALADIN.owner_data.schema == owner_cards.SCHEMA


def test_herald_rules_check_offline(tmp_path):
    """``herald rules check FILE``: exit 0 and the data hash for a usable file; 1 and every
    problem, one a line, otherwise."""
    good = tmp_path / "arsuf-cards.json"
    good.write_text(json.dumps(owners_arsuf()))
    ok = subprocess.run([sys.executable, "-m", "api.cli", "rules", "check", str(good), "--scenario", "arsuf"],
                        capture_output=True, text=True)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert "usable as saladin cards" in ok.stdout and SALADIN.data_hash("arsuf", {"cards": owners_arsuf()}) in ok.stdout
    bad_data = copy.deepcopy(owners_arsuf())
    bad_data["order_tokens_per_side"] = 12
    bad_data["banners"][0]["side"] = "ayyubids"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(bad_data))
    refused = subprocess.run([sys.executable, "-m", "api.cli", "rules", "check", str(bad)],
                             capture_output=True, text=True)
    assert refused.returncode == 1
    lines = [line for line in refused.stdout.splitlines() if line.startswith("  - ")]
    assert len(lines) >= 2 and any("order_tokens_per_side" in line for line in lines)


def test_a_game_with_the_owners_cards_over_http(client):
    """POST /games with ``options.cards``: 201; the cards and their hash are in GameCreated; the
    game is played to its end through legal-commands and commands; its portable record verifies
    offline. Bad cards: 422 problem+json listing every problem; nothing recorded."""
    import random

    from replays.record_format import decode_record

    rules = client.get("/rules/saladin").json()
    assert rules["owner_data"] == {"option": "cards", "schema": json.loads(json.dumps(owner_cards.SCHEMA))}
    seats = {"crusaders": {"player": "Richard"}, "ayyubids": {"player": "Saladin"}}
    bad = owners_arsuf()
    bad["initiative_tie"] = "ayyubids"
    bad["banners"][2]["status_rule"] = "never-committed"
    refused = client.post("/games", json={"rules": "saladin", "scenario": "arsuf", "seats": seats,
                                          "options": {"cards": bad}})
    assert refused.status_code == 422 and refused.headers["content-type"].startswith("application/problem+json")
    problem = refused.json()
    assert problem["code"] == "saladin.bad_cards" and len(problem["problems"]) >= 2
    assert any("initiative_tie" in p for p in problem["problems"])
    assert any("banners[2] (sable).status_rule" in p for p in problem["problems"])
    assert client.get("/games", params={"rules": "saladin"}).json()["games"] == []

    cards = owners_arsuf()
    made = client.post("/games", json={"rules": "saladin", "scenario": "arsuf", "seats": seats,
                                       "options": {"cards": cards}})
    assert made.status_code == 201, made.text
    game = made.json()
    created = client.get(f"/games/{game['id']}/events").json()["events"][0]["data"]
    assert created["options"]["cards"] == cards
    assert created["data_hash"] == SALADIN.data_hash("arsuf", {"cards": cards})
    r = random.Random(14)
    while True:
        summary = client.get(f"/games/{game['id']}").json()
        if summary["status"] == "ended":
            break
        seat = summary["to_act"][0]
        listed = client.get(f"/games/{game['id']}/legal-commands", params={"seat": seat}).json()
        posted = client.post(f"/games/{game['id']}/commands",
                             headers={"Authorization": f"Bearer {game['seat_tokens'][seat]}"},
                             json={"seat": seat, "command": r.choice(listed["commands"]),
                                   "expected_version": listed["version"]})
        assert posted.status_code == 201, posted.text
    assert summary["view"]["card_data"]["source"] == "owner"
    record = decode_record(client.get(f"/games/{game['id']}/record").content)
    assert record.header.data_hash == created["data_hash"]
    verdict = verify(record)
    assert verdict.ok, verdict.problems


# -- issue 26 point 12: what the book prints is accepted; a reaction that can never trigger is not ------
def card(data: dict, card_id: str) -> dict:
    return next(c for c in data["cards"] if c["id"] == card_id)


def test_a_zero_cost_action_on_the_ordered_side_with_a_status_and_a_target_is_accepted():
    """Activation — Special cases: "If a player's Available Orders Pool is empty and one of their
    Banners is still on their Ordered side, they must activate it using the Action with a cost of
    0." The book prints a 0-cost action usable on the Ordered side, and says nothing of its status
    or target: a card whose 0-cost action has the dot, a status colour and a target is accepted."""
    data = stripped(reconstruction("arsuf"))
    hold = next(a for a in card(data, "richard")["actions"] if a["id"] == "hold")
    hold.update(ordered=True, status="uncommitted", target="enemy", green=1)
    assert owner_cards.problems(data, "arsuf") == []


def test_a_deployed_banner_that_can_take_no_action_does_not_keep_its_player_from_passing():
    """Sequence of Play: "A player can pass only if all their Banners and Leader cards are on
    their Ordered side", read with a cost-0 action an owner's card prints with a status: a
    Deployed banner that can take no action does not make a phase that can never end
    (RULES_NOTES.md, Owner-supplied card data). Sablé's only 0-cost action needs it Committed.
    By play from the opening: Richard the Lionheart's card turned, Richard Holds, and the Crusaders
    spend their 11 Orders on Looses that hit nothing (blank dice) with every other banner, the
    Ayyubids doing the least they may in between."""
    data = stripped(reconstruction("arsuf"))
    next(a for a in card(data, "sable")["actions"] if a["id"] == "hold")["status"] = "committed"
    assert owner_cards.problems(data, "arsuf") == []
    game, _ = owner_game(data)
    game = start(game, "crusaders")
    game = drive(game, "crusaders", [({"type": "leader", "action": "recover-order"}, []), (act("richard", "hold"), []),
                                     (act("henry-ii", "loose", "ala-afdal"), []),
                                     (act("bourgogne", "loose", "ala-al-din"), []),
                                     (act("naplouse", "loose", "soulayman"), [])]
                 + [(act("lusignan", "loose", "aslam"), [])] * 8)
    sable = banner_view(game, "sable")
    assert (sable["card_side"], sable["status"]) == ("deployed", "uncommitted")
    assert view(game)["sides"]["crusaders"]["orders"]["available"] == 0 and game.to_act() == ["crusaders"]
    assert legal(game, "crusaders") == [{"type": "pass"}]


def test_player_aid_symbols_may_stand_on_any_card():
    """Player Aid — Symbols used on the cards: "Red slashed token | Spend 1 Crusaders Order" is a
    symbol of the cards, not of one banner: an Ayyubid card other than Saladin's may print it."""
    data = stripped(reconstruction("arsuf"))
    loose = next(a for a in card(data, "ala-afdal")["actions"] if a["id"] == "loose")
    loose["effect"] = "sacrifice"
    assert owner_cards.problems(data, "arsuf") == []


def test_a_reaction_to_an_action_that_never_targets_its_banner_is_refused():
    """Key Game Terms — Action / Reaction: "A Reaction is used to counter an adverse Action"; and
    Activating a Banner: "Ask if the targeted Banner performs a Reaction". Ala al Din's Evade
    against Richard's Regroup (which targets nobody) could never be used."""
    data = stripped(reconstruction("arsuf"))
    evade = card(data, "ala-al-din")["reactions"][0]
    evade["against"] = ["regroup"]
    found = owner_cards.problems(data, "arsuf")
    assert any("reactions[evade].against" in p and "regroup" in p for p in found), found
