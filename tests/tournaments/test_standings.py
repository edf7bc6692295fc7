"""Points and tie-breaks of NOTES.md, on tournaments built from events alone (pure domain)."""

from __future__ import annotations

from datetime import datetime, timezone
from uuid import NAMESPACE_URL, UUID, uuid5

import pytest

from domain.events import Outcome
from domain.tournaments.events import TournamentCreated
from domain.tournaments.model import (
    Tournament,
    decide_adjust,
    decide_create,
    decide_forfeit,
    decide_register,
    decide_result,
    plan_round,
    project_tournament,
    record_round,
)
from domain.tournaments.standings import game_results, standings

NOW = datetime(2026, 1, 1, tzinfo=timezone.utc)
WIN1, WIN2, DRAW = Outcome(winner="p1"), Outcome(winner="p2"), Outcome(draw=True)


def tournament(players: int, **created) -> Tournament:
    spec = {"name": "t", "rules": "open-table", "scenarios": ["table"], "format": "swiss", "rounds": 3, **created}
    t = project_tournament(None, decide_create(UUID(int=7), TournamentCreated(**spec), NOW))
    for i in range(players):
        t = project_tournament(t, decide_register(t, f"P{i}", None, NOW))
    return t


def play_round(t: Tournament, outcomes: list[Outcome]) -> Tournament:
    plan = plan_round(t)
    assert plan == plan_round(t), "pairing is a pure function of the events"
    games = {x.table: str(uuid5(NAMESPACE_URL, f"{plan.round}/{x.table}")) for x in plan.tables}
    t = project_tournament(t, record_round(t, plan, games, NOW))
    for x, outcome in zip(plan.tables, outcomes):
        t = project_tournament(t, decide_result(t, games[x.table], outcome, 9, "h" * 64, NOW))
    return t


def test_head_to_head_separates_players_tied_on_points_buchholz_and_sonneborn_berger():
    t = tournament(5, format="round-robin", rounds=0)
    results = [WIN1, WIN1, DRAW, WIN2, WIN2, WIN1, WIN1, WIN2, DRAW, WIN2]
    for number in range(5):
        t = play_round(t, results[2 * number: 2 * number + 2])
    table = standings(t)
    second, third = table[1], table[2]
    assert (second.player, third.player) == ("P2", "P1")  # seed order alone would put P1 first
    assert (second.points, second.buchholz, second.sonneborn_berger) == \
        (third.points, third.buchholz, third.sonneborn_berger) == (2.5, 7.5, 4.25)
    assert (second.head_to_head, third.head_to_head) == (1.0, 0.0)


def test_rule_system_margin_breaks_the_remaining_ties():
    t = tournament(4, rounds=1)
    t = play_round(t, [Outcome(draw=True, scores={"p1": 1.0, "p2": 1.0}),
                       Outcome(draw=True, scores={"p1": 2.0, "p2": 6.0})])
    order = [(s.player, s.margin) for s in standings(t)]
    seats = {p: s for x in t.rounds[0].tables for s, p in x.seats.items()}
    assert order[0][1] == 4.0 and order[-1][1] == -4.0 and {m for _, m in order[1:3]} == {0.0}
    assert seats[order[0][0]] == "p2"


def test_ranking_points_at_a_four_player_table():
    t = tournament(4, table_size=4, min_table=3, rounds=2)
    t = play_round(t, [Outcome(winner="p3", ranking=["p3", "p1", "p4", "p2"])])
    seats = t.rounds[0].tables[0].seats
    points = {s.player: s.points for s in standings(t)}
    assert [points[seats[s]] for s in ("p3", "p1", "p4", "p2")] == pytest.approx([1, 2 / 3, 1 / 3, 0])
    t = play_round(t, [Outcome(winner="p1")])  # a winner only: the rest tie below
    (result,) = [r for r in game_results(t) if r.round == 2]
    assert sorted(result.points.values()) == pytest.approx([1 / 3, 1 / 3, 1 / 3, 1])


def test_forfeits_and_adjustments_count_for_points_only():
    t = tournament(4, rounds=2)
    plan = plan_round(t)
    games = {x.table: f"g{x.table}" for x in plan.tables}
    t = project_tournament(t, record_round(t, plan, games, NOW))
    one, two = t.rounds[0].tables
    t = project_tournament(t, decide_forfeit(t, "g1", [one.seats["p1"]], "no show", NOW))
    t = project_tournament(t, decide_forfeit(t, "g2", list(two.seats.values()), "both late", NOW))
    t = project_tournament(t, decide_adjust(t, "P3", -0.5, "unsporting conduct", 1, NOW))
    by = {s.player: s for s in standings(t)}
    assert by[one.seats["p2"]].points == 1 and by[one.seats["p1"]].points == 0
    assert all(by[p].points == (-0.5 if p == "P3" else 0) for p in two.seats.values())
    assert all(s.buchholz == 0 and s.sonneborn_berger == 0 for s in by.values())
    assert t.unfinished(1) == [] and plan_round(t).round == 2


def test_a_drawn_multi_player_table_ties_only_equal_scores():
    t = tournament(4, table_size=4, min_table=3, rounds=1)
    t = play_round(t, [Outcome(draw=True, reason="turn limit (30): tied for most provinces",
                               scores={"p1": 3.0, "p2": 3.0, "p3": 0.0, "p4": 2.0}, ranking=["p1", "p2", "p4"])])
    seats = t.rounds[0].tables[0].seats
    points = {s.player: s.points for s in standings(t)}
    assert [points[seats[s]] for s in ("p1", "p2", "p4", "p3")] == pytest.approx([5 / 6, 5 / 6, 1 / 3, 0])
