"""Seeded random-legal games to the end (STYLE.md, "A fuzzer plays random legal actions"):
invariants after every event, legality both ways, replay from the record, and both sides win.

Victory Conditions, Key Game Terms — Order and Lance: checked after every event."""

from __future__ import annotations

import random

import msgspec
import pytest

from domain.events import DecisionTaken, DiceRolled
from domain.game import project_game, take_decision
from domain.rng import RecordedRng, SeededRng
from domain.rules.base import RuleViolation
from domain.rules.saladin.data import TABLES
from tests.rules.playout import Step, nobody_else_acts, one_seat, playout
from tests.rules.saladin.helpers import NOW, SALADIN, SEATS, new_game

GAMES = {"arsuf": 150, "hattin": 150}  # and 400 more each in the slow test; 2,000 in bench/
CHECK_ALL_LEGAL = 12  # games per scenario in which every listed command is tried
TOKENS = 13


def lance_totals(scenario: str) -> dict[str, int]:
    t = TABLES[scenario]
    out = {s: 0 for s in SEATS}
    for b in t.data.banners:
        out[b.side] += len(b.track)
    out["ayyubids"] += t.data.arsuf_lances
    return out


def check_invariants(state, totals, settled: bool = False) -> None:
    """After every event; ``settled`` adds what holds once a whole decision is folded."""
    for seat in SEATS:
        s = state.sides[seat]
        counts = (s.available, s.spent, s.reserve, s.boxed, s.unused, s.losses, s.lances_boxed)
        assert min(counts) >= 0, counts
        assert s.available + s.spent + s.reserve + s.boxed + s.unused == TOKENS
        board = sum(b.lances for b in state.banners.values() if b.side == seat)
        if seat == "ayyubids":
            board += state.arsuf_lances
        assert board + s.losses + s.lances_boxed == totals[seat]
    assert 0 <= state.arsuf_lances <= TABLES[state.scenario].data.arsuf_lances
    for b in state.banners.values():
        rule = TABLES[state.scenario].banner(b.id).status_rule
        assert 0 <= b.lances <= len(TABLES[state.scenario].banner(b.id).track)
        if settled:
            assert (b.lances == 0) == (b.fate in ("captured", "boxed")), b
            check_statuses(state, b, rule)
        if b.status == "committed":
            assert rule != "never-committed"


def check_statuses(state, b, rule) -> None:
    """Key Game Terms — Status and the scenarios' Statuses paragraphs, once a decision is folded:
    a single-location banner is Committed exactly when a Committed enemy targets it (fights it in
    melee); a two-location banner's lances sit on the location of its status; melee is mutual,
    between Committed banners in play; Lusignan at the Horns has Saladin's status."""
    if not b.in_play:
        assert b.engaged == () or b.fate != "in-play"
        return
    for enemy in b.engaged:
        e = state.banners[enemy]
        assert e.in_play and e.side != b.side and b.id in e.engaged, (b, e)
        assert e.status == b.status == "committed", (b, e)
    if rule == "follows-target":
        assert (b.status == "committed") == any(
            state.banners[e].in_play and state.banners[e].status == "committed" for e in b.engaged), b
    elif rule == "two-locations":
        assert b.location == b.status, b
    elif rule == "camp-then-horns":
        if b.location == "camp":
            assert b.status == "uncommitted", b
        else:
            saladin = state.banners["saladin"]
            assert saladin.in_play and b.status == saladin.status, (b, saladin)
    else:
        assert b.status == "uncommitted" and not b.engaged, b


def random_command(r: random.Random, state) -> dict:
    """A command drawn from the whole vocabulary, mostly illegal."""
    t = TABLES[state.scenario]
    names = sorted(t.banners) + ["arsuf", "nobody"]
    actions = sorted({a.id for c in t.data.cards for a in c.actions}) + ["fly"]
    kind = r.choice(["activate", "activate", "leader", "react", "pass", "decline-reaction", "decline-seize",
                     "choose-first"])
    if kind == "activate":
        return {"type": kind, "banner": r.choice(names), "action": r.choice(actions),
                "target": r.choice(names + [None])}
    if kind == "leader":
        return {"type": kind, "action": r.choice(["recover-order", "seize-initiative", "horns", "order-loss", "x"])}
    if kind == "react":
        return {"type": kind, "banner": r.choice(names), "reaction": r.choice(["evade", "counter-charge",
                                                                               "open-ranks", "x"])}
    if kind == "choose-first":
        return {"type": kind, "seat": r.choice(list(SEATS) + ["x"])}
    return {"type": kind}


def probe(step: Step, seed: bytes) -> None:
    """Random commands: accepted exactly when listed, state unchanged (every listed command
    accepted: tests/rules/conformance.py)."""
    game, seat, r = step.game, step.seat, step.rnd
    for _ in range(4):
        raw = random_command(r, game.state)
        before = game.state
        try:
            parsed = SALADIN.parse_command(raw)
        except RuleViolation as violation:
            assert violation.code == "unknown_command"
            continue
        listed = msgspec.to_builtins(parsed) in step.listed
        try:
            SALADIN.decide(game.state, seat, parsed, SeededRng(seed, game.id, "", game.next_draw))
            assert listed, raw
        except RuleViolation as violation:
            assert not listed and violation.code.startswith("saladin.") and violation.rule, raw
        assert game.state == before


def play_random(scenario: str, n: int, thorough: bool):
    """One seeded random game through take_decision (tests/rules/playout.py); returns (game,
    records, decisions)."""
    seed = bytes([n % 256]) * 32
    totals = lance_totals(scenario)

    def before(step: Step) -> None:
        nobody_else_acts(step)
        if thorough:
            probe(step, seed)

    def settled(step: Step, game) -> None:
        state = game.state
        assert all(state.sides[s].losses < 6 for s in SEATS)  # the 6th lance empties the track
        check_invariants(state, totals, settled=True)

    played = playout(SALADIN, new_game(scenario, game_id=n + 1), random.Random(f"{scenario}-{n}"), decisions=2999,
                     seed=seed, now=NOW, seat=one_seat, before=before,
                     after_event=lambda _, game: check_invariants(game.state, totals), after_decision=settled)
    return played.game, played.events, len(played.decisions)


def replay(records, scenario: str, n: int):
    """Run decide again over the recorded decisions with the recorded dice."""
    game = new_game(scenario, game_id=n + 1)
    typed = [r.typed() for r in records]
    i = 0
    while i < len(typed):
        decision = typed[i]
        assert isinstance(decision, DecisionTaken)
        j = i + 1
        while j < len(typed) and not isinstance(typed[j], DecisionTaken):
            j += 1
        rng = RecordedRng([e for e in typed[i + 1:j] if isinstance(e, DiceRolled)], game.next_draw)
        again = take_decision(game, decision.seat, decision.command, rng, NOW, None)
        assert [(x.type, x.data) for x in again if x.type != "SeedRevealed"] == \
               [(x.type, x.data) for x in records[i:j] if x.type != "SeedRevealed"]
        game = project_game(game, again)
        i = j
    return game


@pytest.mark.parametrize("scenario", ["arsuf", "hattin"])
def test_random_games_end_with_a_valid_outcome_and_both_sides_win(scenario):
    """Victory Conditions: every random-legal game ends; each side can win (how often is
    reported by bench/bench_saladin_sim.py, not tested: the cards are not tuned for balance)."""
    wins = {"crusaders": 0, "ayyubids": 0, None: 0}
    for n in range(GAMES[scenario]):
        game, records, _ = play_random(scenario, n, thorough=n < CHECK_ALL_LEGAL)
        outcome = game.outcome
        assert outcome.reason
        assert outcome.draw == (outcome.winner is None)
        assert outcome.winner in (None, *SEATS)
        loser = [s for s in SEATS if game.state.sides[s].orders == 0]
        assert loser, "the game ends only when an Order pool runs dry"
        if outcome.winner is not None and len(loser) == 1:
            assert loser == [s for s in SEATS if s != outcome.winner]
        wins[outcome.winner] += 1
        if n < 5:
            replayed = replay(records, scenario, n)
            assert replayed.state == game.state
    assert wins["crusaders"] and wins["ayyubids"], wins


@pytest.mark.slow
@pytest.mark.parametrize("scenario", ["arsuf", "hattin"])
def test_many_random_games(scenario):
    """Victory Conditions: 400 more games per scenario (550 with the test above; the cards of
    version 2 make games about 1.6 times longer, and `make test` keeps to about ten minutes:
    bench/bench_saladin_sim.py plays 2,000), invariants after every event."""
    wins = {"crusaders": 0, "ayyubids": 0, None: 0}
    for n in range(1000, 1400):
        game, _, _ = play_random(scenario, n, thorough=False)
        wins[game.outcome.winner] += 1
    assert wins["crusaders"] and wins["ayyubids"], wins
