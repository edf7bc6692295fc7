"""Issue 31: "Saladin's scenarios as data plus named hooks". Hattin and Arsuf are each a
:class:`~domain.rules.saladin.scenarios.ScenarioRules`: the rulebook's Special rules, Statuses
and cards as tables that the data files agree with, and a hook for each place where the
scenario plays otherwise, each quoting the paragraph it implements. No phase asks a
scenario's name."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from domain.rules.saladin import scenarios
from domain.rules.saladin.data import PACKAGE, TABLES
from domain.rules.saladin.rules import horns_required, leader_action_usable
from domain.rules.saladin.scenarios import ARSUF_1191, HATTIN_1187, SCENARIOS
from tests.rules.saladin.helpers import (below_five_with_the_leader_ordered, finish_turn, last_order_at_arsuf,
                                         new_game, start)

RULEBOOK = " ".join((Path(__file__).parent / "rulebook.txt").read_text(encoding="utf-8").split())


@pytest.mark.parametrize("scenario", sorted(SCENARIOS))
def test_each_scenario_is_what_its_data_file_sets_up(scenario):
    """Special rules: Hattin "Crusaders — Hattin pieces and Banner cards, 12 available Orders",
    "Initiative in case of a tie — Ayyubids"; Arsuf "11 available Orders + 1 in Arsuf",
    "Initiative in case of a tie — Crusaders", "the two Ayyubids Lances in Arsuf"; the Statuses
    paragraph banner by banner; the Leader cards of Game Contents."""
    rules, data = SCENARIOS[scenario], TABLES[scenario].data
    assert rules.id == scenario and rules.data_file == f"{scenario}.json" and (PACKAGE / rules.data_file).is_file()
    assert {s: (o.available, o.reserve) for s, o in data.orders.items()} == rules.orders
    assert (data.initiative_tie, data.arsuf_lances) == (rules.initiative_tie, rules.lances_in_arsuf)
    assert {b.id: (b.side, b.status_rule, b.name) for b in data.banners} == rules.statuses
    assert {b.id for b in data.banners if b.horns_card} == rules.horns_banners
    assert {leader.side: leader.id for leader in data.leaders} == rules.leaders
    for seat in ("crusaders", "ayyubids"):
        assert sum(1 for c in data.cards if rules.statuses[_owner(data, c.id)][0] == seat) == rules.banner_cards
    assert set(rules.leader_actions) <= {a.id for leader in data.leaders for a in leader.actions if a.once}


def _owner(data, card_id: str) -> str:
    return next(b.id for b in data.banners if card_id in (b.card, b.horns_card))


def test_the_rulebook_numbers_of_the_two_scenarios():
    """"28 Banner cards — 14 for the Ayyubids (8 for the Hattin scenario and 6 for the Arsuf
    scenario)"; "Crusaders — Arsuf pieces and Banner cards, 11 available Orders + 1 in Arsuf";
    "Cards — the Banners of Lusignan, Châtillon, Saladin and Manguras each have two cards"."""
    assert (HATTIN_1187.banner_cards, ARSUF_1191.banner_cards) == (8, 6)
    assert ARSUF_1191.orders["crusaders"] == (11, 1) and HATTIN_1187.orders["crusaders"] == (12, 0)
    assert HATTIN_1187.horns_banners == {"lusignan", "chatillon", "saladin", "manguras"}
    assert not ARSUF_1191.horns_banners and not ARSUF_1191.leader_actions


def hooks() -> list:
    """Every hook a scenario sets that is not the base game's."""
    found = {}
    for rules in SCENARIOS.values():
        for hook in (rules.horns_required, rules.after_eliminations, rules.after_leader):
            if hook not in (scenarios.nothing, scenarios.never):
                found[hook.__name__] = hook
        for own in rules.leader_actions.values():
            found[own.usable.__name__], found[own.play.__name__] = own.usable, own.play
    return [found[name] for name in sorted(found)]


@pytest.mark.parametrize("hook", hooks(), ids=lambda h: h.__name__)
def test_every_hook_quotes_the_rulebook_paragraph_it_implements(hook):
    """Each quotation in a hook's docstring is the rulebook's, word for word; a hook that quotes
    none implements a reading of RULES_NOTES.md and says so."""
    doc = " ".join((hook.__doc__ or "").split())
    quotes = re.findall(r'"([^"]+)"', doc)
    assert quotes or "RULES_NOTES.md" in doc, f"{hook.__name__} cites nothing"
    for quote in quotes:
        assert quote in RULEBOOK, f"{hook.__name__}: {quote!r} is not the rulebook's"


@pytest.mark.parametrize("scenario", sorted(SCENARIOS))
def test_the_horns_are_hattins_alone(scenario):
    """Hattin — Lusignan (Leader): "This Action becomes mandatory as soon as the sum of the
    Orders in the Available Orders Pool and the Spent Orders Pool of the Crusaders player is
    strictly less than 5". Arsuf has no such action: below 5 Orders the Crusaders owe nothing."""
    # by play: the Crusaders below 5 Orders with Lusignan's card Deployed (Hattin, turn 3), and
    # with 1 Order left (Arsuf, turn 3)
    game = start(finish_turn(below_five_with_the_leader_ordered()), "crusaders") if scenario == "hattin" \
        else last_order_at_arsuf()
    state = game.state
    assert state.sides["crusaders"].orders < 5
    assert horns_required(state, "crusaders") is (scenario == "hattin")
    assert horns_required(state, "ayyubids") is False
    assert leader_action_usable(state, "crusaders", "horns") is (scenario == "hattin")
    assert leader_action_usable(state, "ayyubids", "order-loss") is False  # Châtillon stands


PHASES = ("rules.py", "play.py", "moves.py", "position.py", "view.py", "labels.py", "narrate.py", "evolve.py")


@pytest.mark.parametrize("module", PHASES)
def test_no_phase_asks_the_scenarios_name(module):
    """scalachess's variants are overrides, not tests of the variant's name: where play differs,
    the phases ask the scenario's hooks (``state.scenario`` is only a key to look them up)."""
    tree = ast.parse((PACKAGE / module).read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            assert not any(isinstance(s, ast.Attribute) and s.attr == "scenario" for s in sides), \
                f"{module}:{node.lineno} compares a scenario"
        if isinstance(node, ast.Constant):
            assert node.value != "hattin", f"{module}:{node.lineno} names Hattin"
