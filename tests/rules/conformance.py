"""Issue 31, "one suite every registered rule system runs": each rule system of the registry is
held to the same checks of its contract (domain/rules/base.py), with no list of them here — a
new rule system is tested by adding it to the registry.

For a few seeded games of each (its first scenario, its fewest seats), played decision by
decision through the core (``take_decision``, ``project_game``) with uniformly random listed
commands, at every step:

- **every listed command is accepted**: ``decide`` raises no RuleViolation for any command
  ``legal_commands`` lists (base.py: "Every command ``seat`` may send now; each one
  :meth:`decide` accepts");
- **accepted-but-unlisted probes**: commands beyond the listed ones (each listed command's fields
  given every value that field took in the game, each text field a text nobody listed, and
  every command listed before) are tried; where ``listing_complete`` says the listing (with
  ``legal_choices``: a command of a type a choice describes is reached by composing it) is
  complete, ``decide`` accepts none of them outside it; a rule system that says it is incomplete is shown so at least once in its games (issue 27:
  "a ``complete`` that is true exactly when the list (with ``choices``) is everything accepted");
- **a view per seat**: ``view`` answers, JSON-ready, for every seat and for a spectator;
- **the leak check for every reader** (base.py, "The view": "A seat sees its own hand face up;
  every other hand as a count"): where the rule system deals its secrets again for rollouts, a
  seat's view and the spectator's are the same whatever the others really hold (exact: the view
  of a redealt state is byte for byte the view of the true one); elsewhere, a string an event
  sealed for some seats carries (a card drawn) and that no public event has carried so far is in
  no other seat's view, nor the spectator's (a rule system's words, such as Saline's colours,
  are in sealed and public data alike, so this weaker scan is kept for those without a redeal);
- **rollouts never see a hidden card**: where the rule system offers rollouts, two positions a
  seat cannot tell apart give it the same determinized state, so the same choice by every policy
  it plays (issue 19, "never a peek at hidden information");
- **every refusal is declared**: each RuleViolation a probe meets carries a code the rule system
  declares (``RuleSystem.violations``, or a shared one), so its problem page exists;
- **its invariants hold after every event** (``RuleSystem.invariants``: every card in one place,
  no count below zero, as the rule system declares them).

And each game's record **replays byte for byte**: its stored events, encoded and decoded again,
fold to a state whose encoding is the same as the game's, and its decisions, decided again with
the game's seed, give the same events byte for byte (DESIGN.md: "Replaying a record reproduces
it byte for byte"). The games to the end are marked slow; the bounded ones are not.
"""

from __future__ import annotations

import hashlib
import itertools
import random
from collections.abc import Iterable
from functools import cache
from typing import Any
from uuid import UUID

import msgspec
import pytest

from analysis.rollout import policies, policy_for
from domain.events import GameCreated, SeatInfo
from domain.game import Game, Recorded, create_game, project_game, take_decision
from domain.rng import SeededRng
from domain.rules.base import (
    SHARED_VIOLATIONS,
    RuleSystem,
    RuleViolation,
    check_declared,
    keeps_no_secrets,
    offers_no_rollouts,
)
from domain.rules.registry import RULE_SYSTEMS
from tests.rules.playout import Step, playout, uniform
from tests.rules.test_labels import NOW, SEED
from tests.secrets.leak import string_leaves

SYSTEMS = sorted(RULE_SYSTEMS)
PROBE_RNG = SeededRng(bytes(32), UUID(int=1), "", 0)
BOUNDED = 60  # decisions of each bounded game (the whole suite stays a few seconds)
TO_THE_END = 3_000  # decisions within which a game played to its end must end
PROBES = 150  # unlisted commands tried a step
PROBE_EVERY = 2  # steps
FRESH = "a value nobody listed"  # tried in each text field (a note's text)


def key(command: Any) -> bytes:
    return msgspec.json.encode(command, order="sorted")


def encoded(state: Any) -> bytes:
    """A state's bytes; a loaded data table it holds (Saxon Shore's map) by its type's name."""
    return msgspec.json.encode(state, enc_hook=lambda table: type(table).__name__)


def new_game(rules: RuleSystem, game: int) -> Game:
    """A game of ``rules``' first scenario at its fewest seats (two at least, so something is
    hidden from someone)."""
    scenario = next(iter(rules.scenarios.values()))
    seats = scenario.seats[:max(2, scenario.min_players)]
    created = GameCreated(rules=rules.id, rules_version=rules.version, scenario=scenario.id,
                          data_hash=rules.data_hash(scenario.id), seats={s: SeatInfo(player=f"Player {s}") for s in seats},
                          seed_commitment=hashlib.sha256(SEED).hexdigest())
    return project_game(None, create_game(UUID(int=game), created, NOW))


def accepts(rules: RuleSystem, state: Any, seat: str, command: Any, refused: set[str] | None = None) -> bool:
    """Whether ``decide`` accepts ``command``; a refusal's code is one ``rules`` declares (added
    to ``refused``)."""
    try:
        rules.decide(state, seat, rules.parse_command(command), PROBE_RNG)
    except RuleViolation as error:
        assert error.code in rules.violations or error.code in SHARED_VIOLATIONS, \
            f"{rules.id} refuses {command} with {error.code!r}, a code it does not declare (violations.json)"
        if refused is not None:
            refused.add(error.code)
        return False
    except (ValueError, KeyError, TypeError):
        return False
    return True


def differ(a: Any, b: Any) -> list[str]:
    """The fields two states of one type differ in."""
    return [f for f in getattr(a, "__struct_fields__", ()) if getattr(a, f) != getattr(b, f)]


class Tally(msgspec.Struct):
    complete: int = 0
    incomplete: int = 0
    shown_incomplete: int = 0
    leak_checks: int = 0
    refused: set[str] = msgspec.field(default_factory=set)  # the codes of the probes' refusals


class Secrets:
    """Each string an event sealed for some seats carries, by the seats that may read it, until a
    public event carries it too (a card played) — the core's own ``readers``, as
    tests/secrets/leak.py reads them from the server's stream."""

    def __init__(self, public: Iterable[str], seats: Iterable[str]):
        self.public = set(public) | set(seats)
        self.owners: dict[str, set[str]] = {}

    def add(self, events: list[Recorded]) -> None:
        for event in events:
            if event.type == "GameCreated":
                continue
            leaves = set(string_leaves(event.data))
            if event.type == "DecisionTaken":
                leaves.discard(event.data.get("command", {}).get("type"))
            if event.readers is None:
                self.public |= leaves
                for leaf in leaves:
                    self.owners.pop(leaf, None)
            else:
                for leaf in leaves - self.public:
                    self.owners.setdefault(leaf, set()).update(event.readers)

    def hidden_from(self, reader: str | None) -> set[str]:
        return {leaf for leaf, owners in self.owners.items() if reader not in owners}


def check_views(rules: RuleSystem, game: Game, secrets: Secrets, tally: Tally) -> None:
    """A view per seat and the spectator's, JSON-ready, none holding another seat's secret."""
    state = game.state
    for reader in (*game.created.seats, None):
        view = rules.view(state, reader)
        encoded = msgspec.json.encode(view)
        shown = set(string_leaves(msgspec.json.decode(encoded)))
        if type(rules).determinize in (keeps_no_secrets, offers_no_rollouts):
            leaked = shown & secrets.hidden_from(reader)
            assert not leaked, f"{rules.id}: {reader or 'a spectator'} sees {sorted(leaked)[:5]} at version {game.version}"
        else:
            seen = frozenset() if reader is None else frozenset({reader})
            for i in range(2):
                redealt = rules.determinize(state, seen, random.Random(i))
                assert msgspec.json.encode(rules.view(redealt, reader)) == encoded, \
                    f"{rules.id}: {reader or 'a spectator'}'s view changes with cards it may not see"
            tally.leak_checks += 1


def check_listing(rules: RuleSystem, state: Any, seat: str, listed: list[dict], pool: dict[str, dict[bytes, Any]],
                  before: dict[bytes, dict], rnd: random.Random, tally: Tally) -> None:
    for command in rnd.sample(listed, min(len(listed), 12)):
        assert accepts(rules, state, seat, command), f"{rules.id}: {seat} is listed {command}, and decide refuses it"
    for command in listed:
        before.setdefault(key(command), command)
        for field, value in command.items():
            pool.setdefault(field, {}).setdefault(key(value), value)
    mine = {key(c) for c in listed}
    described = {choice.get("type") for choice in rules.legal_choices(state, seat)}
    tried = list(before.values())
    for command in listed:
        tried += [{**command, field: value} for field in command if field != "type"
                  for value in (*pool[field].values(), *([FRESH] if isinstance(command[field], str) else []))]
    tried = [c for c in {key(c): c for c in tried}.values() if key(c) not in mine]
    extra = [c for c in rnd.sample(tried, min(len(tried), PROBES)) if accepts(rules, state, seat, c, tally.refused)]
    if rules.listing_complete(state, seat):
        tally.complete += 1
        unreached = [c for c in extra if c.get("type") not in described]
        assert not unreached, f"{rules.id}: complete, yet {seat} may also send {unreached[:3]}"
    else:
        tally.incomplete += 1
        tally.shown_incomplete += bool(extra)


def check_rollouts_blind(rules: RuleSystem, state: Any, seat: str, listed: list[Any]) -> None:
    """Two positions ``seat`` cannot tell apart (the truth, and the truth dealt again for it)
    give the same determinized state, so the same policy choice."""
    if not rules.offers_rollouts or not listed:
        return
    seen = frozenset({seat})
    twin = rules.determinize(state, seen, random.Random("twin"))
    for name in policies(rules):
        policy = policy_for(rules, name)
        for i in range(2):
            a = rules.determinize(state, seen, random.Random(i))
            b = rules.determinize(twin, seen, random.Random(i))
            assert a == b, f"{rules.id}: {seat}'s redeal reads the truth: {differ(a, b)}"
            assert key(policy(rules, a, seat, listed, random.Random(i))) == \
                key(policy(rules, b, seat, listed, random.Random(i)))


@cache
def played(system_id: str, game_number: int, decisions: int, habit: bool = False) -> tuple[Game, list[Recorded], Tally]:
    """One seeded game of ``system_id`` played for at most ``decisions`` decisions (to its end
    if sooner), every step checked; the game, its stored events, what the checks counted.
    Uniform among the listed commands; ``habit``: by the rule system's heuristic rollout policy
    where it has one (a game that heads for its end: Saxon Shore's random games outlast 12,000
    decisions)."""
    rules = RULE_SYSTEMS[system_id]
    policy = policy_for(rules, "heuristic") if habit and rules.rollout_policy is not None else None
    game = new_game(rules, game_number)
    secrets = Secrets(string_leaves(msgspec.to_builtins(rules.view(game.state, None))), game.created.seats)
    tally = Tally()
    pool: dict[str, dict[bytes, Any]] = {}
    before: dict[bytes, dict] = {}

    def check(step: Step) -> None:
        check_views(rules, step.game, secrets, tally)
        if step.number % PROBE_EVERY == 0:
            check_listing(rules, step.state, step.seat, step.listed, pool, before, step.rnd, tally)
            check_rollouts_blind(rules, step.state, step.seat, step.commands)

    def pick(step: Step) -> dict:
        if policy is None:
            return uniform(step)
        return msgspec.to_builtins(policy(rules, step.state, step.seat, step.commands, step.rnd))

    played = playout(rules, game, random.Random(f"{system_id}|{game_number}"), decisions=decisions, seed=SEED,
                     now=NOW, must_end=False, pick=pick, before=check,
                     after_decision=lambda step, _: secrets.add(step.events))
    return played.game, create_game(game.id, game.created, NOW) + played.events, tally


def replayed(stored: list[Recorded]) -> Game:
    """The game folded again from its events, each encoded and decoded as a record stores it."""
    again = [msgspec.json.decode(msgspec.json.encode(e), type=Recorded) for e in stored]
    assert [msgspec.json.encode(e) for e in again] == [msgspec.json.encode(e) for e in stored]
    return project_game(None, again)


def redecided(game: Game, stored: list[Recorded]) -> None:
    """Each recorded decision decided again with the game's seed gives the same events, byte for
    byte (what a replay with the revealed seed checks)."""
    again = project_game(None, stored[:1])
    starts = [i for i, e in enumerate(stored) if e.type == "DecisionTaken"] + [len(stored)]
    for i, j in itertools.pairwise(starts):
        decision = stored[i].typed()
        events = take_decision(again, decision.seat, decision.command,
                               SeededRng(SEED, again.id, "", again.next_draw), NOW, SEED)
        assert [msgspec.json.encode(e) for e in events] == [msgspec.json.encode(e) for e in stored[i:j]], \
            f"{game.created.rules}: the decision at version {stored[i].originator_version} decides otherwise again"
        again = project_game(again, events)
    assert again.head == game.head


# -- the contract by declaration ------------------------------------------------------------

@pytest.mark.parametrize("system_id", SYSTEMS)
def test_every_rule_system_declares_what_a_rollout_may_not_see(system_id):
    """base.py, "Rollouts": "every rule system declares :meth:`RuleSystem.determinize`, and there
    is no default that sees everything"; a rule system with a rollout policy deals its secrets again."""
    rules = RULE_SYSTEMS[system_id]
    assert check_declared(rules) is rules
    hide = type(rules).determinize
    assert hide is not RuleSystem.determinize
    if rules.rollout_policy is not None:
        assert hide is not offers_no_rollouts, f"{system_id} has a rollout policy and refuses rollouts"
        assert policies(rules) == ("random", "heuristic")
    if rules.has_secrets:
        assert hide is not keeps_no_secrets


def test_a_rule_system_with_secrets_that_declares_nothing_is_refused():
    """base.py, "Rollouts": :func:`check_declared` "refuses a rule system that keeps secrets ... and
    declares neither its own ``determinize`` nor ``offers_no_rollouts``": at registration, and on
    first use its rollouts fail loudly rather than read the true hands."""
    base = RULE_SYSTEMS["kingdoms-of-crusaders"]

    class Declared(RuleSystem):
        violations: dict = {}
        section_fields = (None, None)
        board = base.board

    class Forgetful(Declared):
        id = "forgetful"
        readers = type(base).readers  # it keeps hands secret ...

    class SaysOpen(Forgetful):
        determinize = keeps_no_secrets  # ... and claims a rollout may read them

    class Open(Declared):
        id = "open"

    for undeclared in (Forgetful(), SaysOpen(), Open()):
        with pytest.raises(TypeError, match=undeclared.id):
            check_declared(undeclared)
    with pytest.raises(NotImplementedError, match="determinize"):
        Forgetful().determinize(None, frozenset({"p1"}), random.Random(0))
    Open.determinize = keeps_no_secrets
    assert check_declared(Open()).determinize("state", frozenset(), random.Random(0)) == "state"


def test_a_rule_system_that_leaves_out_a_declaration_is_refused():
    """base.py, "The contract": the codes of its refusals, its turn and phase (``section_fields`` or
    ``section``) and its rollout policy are declarations; :func:`check_declared` names what is missing."""

    class Bare(RuleSystem):
        id = "bare"
        determinize = keeps_no_secrets
        board = RULE_SYSTEMS["kingdoms-of-crusaders"].board

    class Silent(Bare):
        section_fields = ("turn", "phase")

    class Borrows(Silent):
        violations = {"saladin.bad_seats": RULE_SYSTEMS["saladin"].violations["saladin.bad_seats"]}

    class Refuses(Silent):
        violations: dict = {}
        determinize = offers_no_rollouts
        rollout_policy = RULE_SYSTEMS["saladin"].rollout_policy
        readers = RULE_SYSTEMS["kingdoms-of-crusaders"].readers

    for bare, missing in ((Bare(), "violations"), (Silent(), "violations"), (Borrows(), "outside its own codes"),
                          (Refuses(), "rollout policy")):
        with pytest.raises(TypeError, match=missing):
            check_declared(bare)
    Bare.violations = {}
    with pytest.raises(TypeError, match="section"):
        check_declared(Bare())


# -- the games ------------------------------------------------------------------------------

@pytest.mark.parametrize("system_id", SYSTEMS)
@pytest.mark.parametrize("game_number", [1, 2])
def test_a_bounded_game_keeps_the_contract_at_every_step(system_id, game_number):
    game, _, tally = played(system_id, game_number, BOUNDED)
    assert game.version > 1
    assert tally.refused, f"{system_id}: no probe was refused, so no refusal's code was checked"
    if RULE_SYSTEMS[system_id].has_secrets and type(RULE_SYSTEMS[system_id]).determinize is not offers_no_rollouts:
        assert tally.leak_checks, f"{system_id}: no view was checked against a redeal"


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_a_record_replays_byte_for_byte(system_id):
    """DESIGN.md: "Replaying a record reproduces it byte for byte"."""
    game, stored, _ = played(system_id, 1, BOUNDED)
    again = replayed(stored)
    assert again.version == game.version and again.head == game.head
    assert again.state == game.state and encoded(again.state) == encoded(game.state)
    redecided(game, stored)


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_complete_is_true_exactly_when_nothing_unlisted_is_accepted(system_id):
    """Issue 27 point 2: "a ``complete`` that is true exactly when the list (with ``choices``) is
    everything accepted": a claim of incompleteness is backed, once at least, by a command
    ``decide`` accepts that is not listed."""
    tallies = [played(system_id, n, BOUNDED)[2] for n in (1, 2)]
    if not any(t.incomplete for t in tallies):
        assert any(t.complete for t in tallies)
    else:
        assert any(t.shown_incomplete for t in tallies), \
            f"{system_id} says its listing is incomplete, and nothing unlisted was accepted"


@pytest.mark.slow
@pytest.mark.parametrize("system_id", SYSTEMS)
def test_a_seeded_game_is_played_to_its_end(system_id):
    """Each rule system's random-legal game reaches its own end within the bound, every step
    checked, and its record replays byte for byte."""
    game, stored, _ = played(system_id, 3, TO_THE_END, habit=True)
    assert game.ended, f"{system_id}: not ended within {TO_THE_END} decisions (version {game.version})"
    again = replayed(stored)
    assert again.state == game.state and encoded(again.state) == encoded(game.state)
