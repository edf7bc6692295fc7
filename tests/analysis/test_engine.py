"""Issue 19, the analysis engine: seeded rollouts are deterministic however they are split,
the Wilson interval narrows with more rollouts, a position whose winner is forced gets
probability 1, and determinization never looks at the cards a reader may not see."""

from __future__ import annotations

import random

import msgspec
import pytest
from msgspec.structs import replace

from analysis import engine
from analysis.engine import Position, Unit, run_unit, wilson
from analysis.hidden import determinize
from analysis.rollout import play_out, policy_for
from domain.rules.registry import RULE_SYSTEMS
from tests.rules.kingdoms_of_crusaders import helpers as koc
from tests.rules.saladin.helpers import SALADIN

SEATS = ("crusaders", "ayyubids")


def opening():
    return SALADIN.setup("arsuf", SEATS, {})


def unit(state, start, stop, policy="random", key="k"):
    return Unit("saladin", SALADIN.version, state, 0, None, policy, key, start, stop)


def width(tally, seat):
    n = sum(tally.values())
    low, high = wilson(tally.get(seat, 0), n)
    return high - low


def test_rollouts_are_the_same_however_they_are_split():
    """Rollout i is seeded by its key and i alone: one unit of 40 or two of 20 tally alike."""
    whole = run_unit(unit(opening(), 0, 40))
    a, b = run_unit(unit(opening(), 0, 20)), run_unit(unit(opening(), 20, 40))
    assert whole == {k: a.get(k, 0) + b.get(k, 0) for k in set(a) | set(b)}
    assert sum(whole.values()) == 40


def test_the_interval_narrows_with_more_rollouts():
    """Convergence: 16, 64 then 256 rollouts from the Arsuf opening; the 95 % interval of the
    Crusaders' chance shrinks each time (about as 1/sqrt(n)) and holds the larger estimate."""
    tallies = [run_unit(unit(opening(), 0, n, key="converge")) for n in (16, 64, 256)]
    widths = [width(t, "crusaders") for t in tallies]
    assert widths[0] > widths[1] > widths[2]
    assert widths[2] < 0.13
    big = tallies[2].get("crusaders", 0) / 256
    low, high = wilson(tallies[1].get("crusaders", 0), 64)
    assert low <= big <= high


def forced_win() -> object:
    """Arsuf, Activation phase: the Crusaders have passed holding their last Order; every
    Ayyubid card is on its Ordered side and all their Orders are spent, so the Ayyubids can
    only pass. The turn ends and Chaos boxes the Crusaders' last Order: the Ayyubids win."""
    s = opening()
    banners = {k: (replace(b, ordered=True) if b.side == "ayyubids" else b) for k, b in s.banners.items()}
    sides = dict(s.sides)
    sides["crusaders"] = replace(s.sides["crusaders"], available=1, spent=0, reserve=0, passed=True,
                                 unused=s.sides["crusaders"].unused + s.sides["crusaders"].available
                                 + s.sides["crusaders"].reserve - 1)
    sides["ayyubids"] = replace(s.sides["ayyubids"], leader_ordered=True, available=0,
                                spent=s.sides["ayyubids"].available)
    return replace(s, banners=banners, sides=sides, phase="activation", active="ayyubids", initiative="ayyubids")


@pytest.mark.parametrize("policy", ["random", "heuristic"])
def test_a_forced_winner_has_probability_one(policy):
    state = forced_win()
    assert [msgspec.to_builtins(c) for c in SALADIN.legal_commands(state, "ayyubids")] == [{"type": "pass"}]
    tally = run_unit(unit(state, 0, 200, policy))
    assert tally == {"ayyubids": 200}
    point = engine.point(Position(5, state, 0), SEATS, tally)
    assert point["win"] == {"crusaders": 0.0, "ayyubids": 1.0, "draw": 0.0}
    assert point["low"]["ayyubids"] > 0.98 and point["high"]["crusaders"] < 0.02


def test_the_last_board_of_an_ended_game_is_certain():
    s = forced_win()
    after = SALADIN.play(s, "ayyubids", SALADIN.parse_command({"type": "pass"}),
                         __import__("analysis.rollout", fromlist=["RolloutRng"]).RolloutRng(random.Random(1)))[1]
    assert SALADIN.outcome(after).winner == "ayyubids"
    assert play_out(SALADIN, after, policy_for(SALADIN, "random"), random.Random(2)) == "ayyubids"


def test_swings_name_the_decision_that_moved_the_chances():
    boards = [Position(3, None, 0, 4, "crusaders", {"type": "pass"}), Position(9, None, 0, 10, "ayyubids",
              {"type": "pass"}), Position(12, None, 0)]
    tallies = [{"crusaders": 5, "ayyubids": 5}, {"crusaders": 9, "ayyubids": 1}, {"crusaders": 10}]
    result = engine.game_analysis(SALADIN, boards, tallies, "random", 10, SEATS)
    assert [p["version"] for p in result["points"]] == [3, 9, 12]
    first = result["swings"][0]
    assert (first["version"], first["from"], first["to"], first["seat"]) == (4, 3, 9, "crusaders")
    assert first["change"]["crusaders"] == pytest.approx(0.4) and first["size"] == pytest.approx(0.4)
    assert result["swings"][1]["version"] == 10


def koc_midgame():
    """A three-player game of the Kingdoms of Crusaders a few turns in: hands of five cards."""
    r = random.Random(5)
    g = koc.new_game(3, game_id=41)
    for _ in range(8):
        seat = g.to_act()[0]
        g = koc.play(g, seat, msgspec.to_builtins(r.choice(koc.KOC.legal_commands(g.state, seat))))
    return g.state


def test_determinization_keeps_what_the_reader_sees_and_redeals_the_rest():
    state = koc_midgame()
    seen = frozenset({"p1"})
    dealt = [determinize(RULE_SYSTEMS["kingdoms-of-crusaders"], state, seen, random.Random(i)) for i in range(10)]
    for d in dealt:
        assert d.hands["p1"] == state.hands["p1"]  # its own hand
        assert d.sectors == state.sectors and d.unseen == state.unseen  # the table, the counts
        assert {s: len(h) for s, h in d.hands.items()} == {s: len(h) for s, h in state.hands.items()}
        held = [c for h in d.hands.values() for c in h]
        assert len(held) == len(set(held))
    assert len({d.hands["p2"] for d in dealt}) > 1  # the others' hands vary
    assert determinize(RULE_SYSTEMS["kingdoms-of-crusaders"], state, None, random.Random(0)) is state  # sees everything


def test_determinization_never_reads_the_hidden_cards():
    """Two positions p1 cannot tell apart (p2's and p3's hands swapped with cards of the deck)
    give exactly the same rollouts: the true hidden cards never steer them."""
    state = koc_midgame()
    out = {c for h in state.hands.values() for c in h} | {c for p in state.seats for x in state.sectors[p] for c in x}
    deck = [c for c in state.deck if c not in out]
    other = dict(state.hands)
    other["p2"], rest = tuple(deck[:len(state.hands["p2"])]), deck[len(state.hands["p2"]):]
    other["p3"] = tuple(rest[:len(state.hands["p3"])])
    twin = replace(state, hands=other)
    assert twin.hands["p2"] != state.hands["p2"]
    seen = frozenset({"p1"})
    for i in range(5):
        assert determinize(RULE_SYSTEMS["kingdoms-of-crusaders"], state, seen, random.Random(i)) == \
            determinize(RULE_SYSTEMS["kingdoms-of-crusaders"], twin, seen, random.Random(i))
    rollouts = [Unit("kingdoms-of-crusaders", koc.KOC.version, s, 10_000, seen, "random", "twin", 0, 6)
                for s in (state, twin)]
    assert run_unit(rollouts[0]) == run_unit(rollouts[1])


def test_every_rule_system_that_plays_itself_has_both_policies():
    for system in ("saladin", "kingdoms-of-crusaders", "saline", "saxon-shore"):
        assert system in RULE_SYSTEMS
        policy_for(RULE_SYSTEMS[system], "random"), policy_for(RULE_SYSTEMS[system], "heuristic")
    with pytest.raises(KeyError):
        policy_for(RULE_SYSTEMS["open-table"], "random")


def test_saline_determinization_never_reads_the_hidden_cards():
    """Saline: p1 cannot tell p2's hand from the undrawn event cards, nor p2's and p3's secret
    objectives from the objectives nobody holds: boards differing only there give the same
    redeal, and p1's own hand and objective stay."""
    from tests.rules.saline import helpers as saline

    state = saline.started(3).state
    undrawn = [c for c in state.event_deck if c not in state.events_drawn]
    old = state.hands["p2"]
    new = tuple(undrawn[:len(old)])
    claimed = {o for got in state.claimed.values() for o in got}
    spare = sorted(set(state.cat.objectives) - set(state.public_objectives) - claimed - set(state.secrets.values()))
    twin = replace(state, hands={**state.hands, "p2": new}, fresh={**state.fresh, "p2": ()} if "p2" in state.fresh
                   else state.fresh,
                   events_drawn=(state.events_drawn - set(old)) | set(new),
                   secrets={**state.secrets, "p2": spare[0]})
    state = replace(state, fresh={**state.fresh, "p2": ()} if "p2" in state.fresh else state.fresh)
    assert twin.hands["p2"] != state.hands["p2"] and twin.secrets["p2"] != state.secrets["p2"]
    seen = frozenset({"p1"})
    for i in range(5):
        a = determinize(RULE_SYSTEMS["saline"], state, seen, random.Random(i))
        assert a == determinize(RULE_SYSTEMS["saline"], twin, seen, random.Random(i))
        assert a.hands["p1"] == state.hands["p1"] and a.secrets["p1"] == state.secrets["p1"]
        assert {s: len(h) for s, h in a.hands.items()} == {s: len(h) for s, h in state.hands.items()}


def test_a_game_recorded_under_an_older_version_is_analysed_under_that_version():
    """A record made under Saline 1.0.0 (tests/rules/saline/records) is analysed by the rules it
    was recorded under, as it replays (``rules_at``): every unit names 1.0.0 and is played by
    Saline 1.0.0's engine, not by the current version's."""
    from uuid import UUID

    from domain.rules.registry import rules_at
    from domain.rules.saline.engine import SALINE_1_0
    from replays.record import from_record_event
    from replays.record_format import decode_record
    from tests.rules.saline.test_windows import RECORDS

    record = decode_record((RECORDS / "saline_1_0_0.json").read_bytes())
    events = [from_record_event(UUID(record.header.game), e) for e in record.events]
    boards = engine.positions(events)
    rules = rules_at("saline", record.header.rules_version)
    assert rules is SALINE_1_0 and RULE_SYSTEMS["saline"].version != "1.0.0"
    units = engine.game_units(rules, boards[-40:-30], None, "random", 2, "old")
    assert {u.rules_version for _, u in units} == {"1.0.0"}
    assert all(u.system() is SALINE_1_0 for _, u in units)
    tally = run_unit(units[0][1])
    assert sum(tally.values()) == 2
    commands, ranked = engine.command_units(rules, boards[-35], None, "random", 1, "old")
    assert commands == [msgspec.to_builtins(c) for c in SALINE_1_0.legal_commands(boards[-35].state, boards[-35].seat)]
    assert {u.rules_version for _, u in ranked} == {"1.0.0"}
