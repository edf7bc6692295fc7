"""Game Contents, Key Game Terms and the scenarios' Special rules, checked against the
reconstructed card data (arsuf.json, hattin.json)."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
import json

import pytest

from domain.rules.saladin import build_cards
from domain.rules.saladin.data import PACKAGE, TABLES
from tests.rules.saladin.helpers import SALADIN, SEATS

BOTH = ("arsuf", "hattin")


def cards_of(side: str, scenario: str | None = None) -> list[str]:
    out = []
    for s in ([scenario] if scenario else BOTH):
        t = TABLES[s]
        for b in t.data.banners:
            if b.side == side:
                out.append(b.card)
                if b.horns_card:
                    out.append(b.horns_card)
    return out


@pytest.mark.parametrize("side", SEATS)
def test_game_contents_fourteen_banner_cards_per_side_eight_hattin_six_arsuf(side):
    """Game Contents: 28 Banner cards, 14 per side — 8 for Hattin and 6 for Arsuf."""
    assert len(cards_of(side)) == 14
    assert len(cards_of(side, "hattin")) == 8
    assert len(cards_of(side, "arsuf")) == 6


def test_game_contents_four_leader_cards_two_per_side():
    """Game Contents: 2 Saladin cards (Hattin, Arsuf), Richard the Lionheart, Guy de Lusignan."""
    leaders = sorted((leader.side, leader.name) for s in BOTH for leader in TABLES[s].data.leaders)
    assert leaders == [("ayyubids", "Saladin"), ("ayyubids", "Saladin"),
                       ("crusaders", "Guy de Lusignan"), ("crusaders", "Richard the Lionheart")]
    assert TABLES["arsuf"].leaders["crusaders"].id == "richard-lionheart"
    assert TABLES["hattin"].leaders["crusaders"].id == "guy-de-lusignan"


@pytest.mark.parametrize("scenario", BOTH)
def test_game_contents_each_scenario_sets_up_the_boxs_59_ayyubid_and_56_crusader_lances(scenario):
    """Game Contents: "115 wooden bars representing Lances — 59 for the Ayyubids, 56 for the
    Crusaders"; the box holds one battle at a time, and each scenario uses all of them
    (RULES_NOTES.md, Lances)."""
    totals = {s: 0 for s in SEATS}
    for b in TABLES[scenario].data.banners:
        totals[b.side] += len(b.track)
    totals["ayyubids"] += TABLES[scenario].data.arsuf_lances
    assert totals == {"crusaders": 56, "ayyubids": 59}


@pytest.mark.parametrize("scenario", BOTH)
def test_game_contents_thirteen_order_tokens_per_side(scenario):
    """Game Contents: 13 Order tokens per side; the scenario puts some in play (RULES_NOTES.md)."""
    state = SALADIN.setup(scenario, SEATS, {})
    for seat in SEATS:
        s = state.sides[seat]
        assert s.available + s.spent + s.reserve + s.boxed + s.unused == 13


def test_special_rules_orders_hattin_twelve_each_arsuf_eleven_plus_one_and_twelve():
    """Hattin and Arsuf — Special rules: the Orders each side starts with."""
    h, a = SALADIN.setup("hattin", SEATS, {}), SALADIN.setup("arsuf", SEATS, {})
    assert (h.sides["crusaders"].available, h.sides["ayyubids"].available) == (12, 12)
    assert (a.sides["crusaders"].available, a.sides["crusaders"].reserve) == (11, 1)
    assert a.sides["ayyubids"].available == 12 and a.arsuf_lances == 2


RULES = {
    "hattin": {
        "never-committed": {"ridefort", "husam-lulu"},
        "two-locations": {"d-ibelin", "naplouse", "chatillon", "raymond-iii", "saladin"},
        "follows-target": {"keukburi", "saphadin", "manguras", "taqui-al-din"},
        "camp-then-horns": {"lusignan"},
    },
    "arsuf": {
        "never-committed": {"lusignan", "henry-ii", "aslam", "saladin"},
        "two-locations": {"sable", "bourgogne", "richard", "naplouse"},
        "follows-target": {"saphadin", "ala-afdal", "ala-al-din", "soulayman"},
    },
}


@pytest.mark.parametrize("scenario", BOTH)
def test_special_rules_statuses_banner_lists(scenario):
    """Hattin / Arsuf — Special rules, Statuses: which banners are never Committed, have two
    locations, or one location whose status follows the enemy banner."""
    got: dict[str, set[str]] = {}
    for b in TABLES[scenario].data.banners:
        got.setdefault(b.status_rule, set()).add(b.id)
    assert got == RULES[scenario]


def test_hattin_cards_lusignan_chatillon_saladin_manguras_have_horns_variants():
    """Hattin — Special rules, Cards: four banners have a second card with the Horns symbol."""
    t = TABLES["hattin"]
    assert sorted(b.id for b in t.data.banners if b.horns_card) == ["chatillon", "lusignan", "manguras", "saladin"]
    assert all(t.card(b.horns_card).horns and not t.card(b.card).horns for b in t.data.banners if b.horns_card)
    assert not any(b.horns_card for b in TABLES["arsuf"].data.banners)


@pytest.mark.parametrize("scenario", BOTH)
def test_every_card_has_a_zero_cost_action_usable_in_any_status(scenario):
    """Activation — Special cases: a player may always choose the 0-cost action; it is the one
    forced when the pool is empty. It is not on the Ordered side (RULES_NOTES.md: this is what
    makes every Activation phase end)."""
    for card in TABLES[scenario].data.cards:
        zero = [a for a in card.actions if a.cost == 0]
        assert zero and all(a.status == "any" and a.target == "none" and not a.ordered for a in zero), card.id
        assert all(not a.ordered for a in card.actions if a.cost == 0)


@pytest.mark.parametrize("scenario", BOTH)
def test_only_two_location_banners_change_status_themselves(scenario):
    """Key Game Terms — Status: banners that are never Committed, or whose status follows an
    enemy banner, print no status change."""
    t = TABLES[scenario]
    for b in t.data.banners:
        cards = [t.card(b.card)] + ([t.card(b.horns_card)] if b.horns_card else [])
        changes = {a.change for c in cards for a in c.actions} - {None}
        if b.status_rule != "two-locations":
            assert not changes, b.id


@pytest.mark.parametrize("scenario", BOTH)
def test_card_data_is_consistent(scenario):
    """Key Game Terms — Action / Reaction: targets are enemy banners (or Arsuf); reactions name
    enemy actions that can reach them; never more than the 3 dice of a side."""
    t = TABLES[scenario]
    banners = {b.id: b for b in t.data.banners}
    card_side = {}
    for b in t.data.banners:
        card_side[b.card] = b.side
        if b.horns_card:
            card_side[b.horns_card] = b.side
    for card in t.data.cards:
        side = card_side[card.id]
        for target in card.targets:
            if target.banner == "arsuf":
                assert scenario == "arsuf" and side == "crusaders"
                continue
            assert banners[target.banner].side != side, (card.id, target.banner)
            assert set(target.modes) <= {"uncommitted", "committed", "reaction"} and target.modes
        for action in card.actions:
            assert 0 <= action.red <= 3 and 0 <= action.green <= 3
            if action.target == "friendly":
                assert all(banners[f].side == side for f in action.friendly)
        for reaction in card.reactions:
            reachers = [t.banner for t in card.targets if "reaction" in t.modes]
            assert reachers, card.id
            enemy_actions = {a.id for c in t.data.cards if card_side[c.id] != side for a in c.actions}
            assert set(reaction.against) <= enemy_actions


def test_card_examples_ala_al_din_and_richard():
    """Key Game Terms — Action / Reaction examples: Ala al Din targets two banners and is
    targeted by three; Richard "can target a Banner if its status is Committed or Uncommitted"
    and "can be targeted by one Banner in Reaction, and by another in Reaction or if Committed".
    A Reaction answers only an action that targets the reacting banner, so Richard also targets
    Saladin (RULES_NOTES.md, "Richard's card")."""
    t = TABLES["arsuf"]
    ala = t.card("ala-al-din")
    assert len(ala.targets) == 2
    targeting = lambda b: sorted(c.id for c in t.data.cards for x in c.targets if x.banner == b)  # noqa: E731
    assert targeting("ala-al-din") == ["bourgogne", "lusignan", "richard"]
    richard = t.card("richard")
    assert [(x.banner, sorted(x.modes)) for x in richard.targets] == [("ala-al-din", ["committed", "uncommitted"]),
                                                                       ("saladin", ["uncommitted"])]
    modes = {c.id: sorted(x.modes) for c in t.data.cards for x in c.targets if x.banner == "richard"}
    assert modes == {"saladin": ["reaction"], "ala-al-din": ["committed", "reaction"]}


def test_worked_example_cards():
    """The worked examples' cards: Henry II's Loose (1 Order, 1 die), Naplouse's Charge
    (2 Orders, Sulaymân its only target), Sulaymân's Evade (1 die each, against a Charge),
    Sablé's Regroup (1 Order, +1 uncovered by its 2nd lance, no dice), Saladin targeting only
    Richard and Bourgogne."""
    t = TABLES["arsuf"]
    loose = t.card("henry-ii").action("loose")
    assert (loose.cost, loose.red, loose.green, loose.target) == (1, 1, 0, "enemy")
    assert t.banner("henry-ii").track[0] == ""
    charge = t.card("naplouse").action("charge")
    assert (charge.cost, charge.change) == (2, "commit")
    assert [x.banner for x in t.card("naplouse").targets] == ["soulayman"]
    evade = t.card("soulayman").reaction("evade")
    assert (evade.red, evade.green, evade.against) == (1, 1, ("charge",))
    regroup = t.card("sable").action("regroup")
    assert (regroup.cost, regroup.red, regroup.green, regroup.change) == (1, 0, 0, "withdraw")
    assert "+1" in t.banner("sable").track[:-1]
    assert sorted(x.banner for x in t.card("saladin").targets) == ["bourgogne", "richard"]


def test_hattin_lusignan_at_the_horns_is_targeted_only_by_saladin():
    """Hattin — Statuses: at the Horns, Saladin is the only banner that can target Lusignan."""
    t = TABLES["hattin"]
    horns_cards = {b.id: (t.card(b.horns_card) if b.horns_card else t.card(b.card)) for b in t.data.banners}
    assert [bid for bid, c in sorted(horns_cards.items()) if c.target_modes("lusignan")] == ["saladin"]


def test_husam_lulu_has_no_give_marker():
    """Hattin — Husam Lulu is not given to the Crusaders: its track has no cross."""
    t = TABLES["hattin"]
    assert not t.banner("husam-lulu").gives
    assert all(b.gives for b in t.data.banners if b.id != "husam-lulu")
    assert all(b.gives for b in TABLES["arsuf"].data.banners)


@pytest.mark.parametrize("scenario", BOTH)
def test_data_file_is_a_documented_reconstruction_pinned_by_hash(scenario):
    """DESIGN.md: the card data is a documented reconstruction whose hash a game records."""
    path = PACKAGE / SALADIN.scenarios[scenario].data_file
    raw = json.loads(path.read_text())
    assert raw["_header"].startswith("RECONSTRUCTION")
    assert SALADIN.data_hash(scenario) == hashlib.sha256(path.read_bytes()).hexdigest()


def test_data_files_are_what_build_cards_writes():
    """The committed data files are the output of build_cards.py (STYLE.md: generated data is
    committed with the script that generates it)."""
    for scenario in BOTH:
        doc = build_cards.document(scenario, getattr(build_cards, scenario)())
        text = json.dumps(doc, indent=1, ensure_ascii=False) + "\n"
        assert (PACKAGE / f"{scenario}.json").read_text(encoding="utf-8") == text


RULEBOOK = " ".join((Path(__file__).parent / "rulebook.txt").read_text(encoding="utf-8").split())
QUOTED = re.compile(r'"([^"]+)"')
ACTION_VALUES = {"name", "cost", "status", "ordered", "dice"}


def cited(basis: str) -> bool:
    """A basis quotes the rulebook word for word (every quoted passage is in the text), or says
    it is a free choice."""
    quotes = QUOTED.findall(basis)
    assert all(" ".join(q.split()) in RULEBOOK for q in quotes), [q for q in quotes if q not in RULEBOOK]
    return bool(quotes) or "free choice" in basis


@pytest.mark.parametrize("scenario", BOTH)
def test_every_value_cites_its_sentence_or_says_it_is_a_free_choice(scenario):
    """Issue 14: the reconstruction follows from the rulebook alone — each value of the data
    files names the sentence or example it comes from (quoted exactly), or says it is a free
    choice; nothing is there for balance."""
    data = TABLES[scenario].data
    assert set(data.basis) == {"order_tokens_per_side", "orders", "initiative_tie", "arsuf_lances"}
    assert all(cited(v) for v in data.basis.values())
    for b in data.banners:
        assert set(b.basis) == {"lances", "track", "give", "status_rule"}, b.id
        assert all(cited(v) for v in b.basis.values()), b.id
    for card in data.cards:
        for t in card.targets:
            assert cited(t.basis), (card.id, t.banner)
        for a in card.actions:
            assert ACTION_VALUES <= set(a.basis), (card.id, a.id)
            if a.change:
                assert "change" in a.basis
            assert all(cited(v) for v in a.basis.values()), (card.id, a.id)
        for r in card.reactions:
            assert {"against", "dice", "cost"} <= set(r.basis), (card.id, r.id)
            assert all(cited(v) for v in r.basis.values()), (card.id, r.id)
    for leader in data.leaders:
        assert all(cited(a.basis) for a in leader.actions), leader.id
    assert "balance" not in (PACKAGE / f"{scenario}.json").read_text(encoding="utf-8").lower()
