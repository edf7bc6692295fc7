"""Saladin (Hattin and Arsuf): the rule system behind the interface of :mod:`domain.rules.base`.

The phases live in :mod:`.rules` (what is legal) and :mod:`.play` (what happens); the fold in
:mod:`.evolve`; the board for people and clients in :mod:`.view`; the cards in the data files.
"""

from __future__ import annotations

from typing import Any

import msgspec

from domain.dice import STANDARD_DICE
from domain.events import EventData, Outcome
from domain.rng import Rng
from domain.rules.base import OwnerData, RuleSystem, RuleViolation, Scenario, keeps_no_secrets, refused_data
from domain.rules.saladin import labels, narrate, owner_cards
from domain.rules.saladin import view as board
from domain.rules.saladin.commands import SaladinCommand
from domain.rules.saladin.data import DATA_FILES, PACKAGE, SEATS, TABLES
from domain.rules.saladin.evolve import evolve
from domain.rules.saladin.play import Step, execute, initiative
from domain.rules.saladin.policy import attack
from domain.rules.saladin.rules import check, legal
from domain.rules.saladin.state import BannerState, Options, SaladinState, SideState
from domain.rules.saladin.view_types import View
from domain.rules.words import NO_NAMES, Names


def opening(scenario: str, options: Options = Options(), cards: str | None = None,
            version: str = "2.1.0") -> SaladinState:
    """The position of the scenario's setup diagram, at turn 1's Initiative phase."""
    t = TABLES[scenario] if cards is None else owner_cards.tables(cards)
    banners = {}
    for b in sorted(t.data.banners, key=lambda x: x.id):
        location = {"two-locations": "uncommitted", "camp-then-horns": "camp"}.get(b.status_rule, "field")
        banners[b.id] = BannerState(id=b.id, side=b.side, card=b.card, lances=len(b.track), location=location)
    sides = {}
    for seat in SEATS:
        o = t.data.orders[seat]
        sides[seat] = SideState(available=o.available, spent=0, reserve=o.reserve,
                                unused=t.data.order_tokens_per_side - o.available - o.reserve)
    state = SaladinState(scenario=scenario, turn=1, phase="seize", active=None, initiative=None,
                         banners=banners, sides=sides, arsuf_lances=t.data.arsuf_lances, options=options,
                         cards=cards, version=version)
    holder, phase, active, _ = initiative(state)
    return msgspec.structs.replace(state, initiative=holder, phase=phase, active=active)


class Saladin(RuleSystem[SaladinState, SaladinCommand]):
    id = "saladin"
    version = "2.1.0"
    # 2.0.0's records replay as they were played (RULES_NOTES.md, Versions): true_cross's
    # default was leader-action; a Committed banner's every action brought its target into melee;
    # the twelfth Order came back from Arsuf even to a side that had just boxed its last.
    older_versions = ("2.0.0",)
    determinize = keeps_no_secrets  # every block and card is on the table
    legal_complete = True  # every accepted command is listed (tests/rules/conformance.py)
    title = "Saladin: the battles of Hattin (1187) and Arsuf (1191)"
    scenarios = {
        "arsuf": Scenario(id="arsuf", title="The Battle of Arsuf — 1191", seats=SEATS, min_players=2,
                          max_players=2, data_file=DATA_FILES["arsuf"]),
        "hattin": Scenario(id="hattin", title="The Battle of Hattin — 1187", seats=SEATS, min_players=2,
                           max_players=2, data_file=DATA_FILES["hattin"]),
    }
    die_kinds = {"saladin-combat": STANDARD_DICE["saladin-combat"]}
    command_type = SaladinCommand
    package_dir = PACKAGE
    # the owner's printed cards (arsuf.json's and hattin.json's form), checked for the scenario
    owner_data = OwnerData("cards", owner_cards.SCHEMA, owner_cards.problems)
    section_fields = ("turn", "phase")
    view_type = View
    labels = labels
    narration = narrate
    rollout_policy = attack

    def setup(self, scenario: str, seats: tuple[str, ...], options: dict[str, Any]) -> SaladinState:
        """The scenario's opening position; the seats are always crusaders and ayyubids."""
        self.scenario(scenario)
        if sorted(seats) != sorted(SEATS):
            raise RuleViolation("saladin.bad_seats", f"Saladin is played by exactly {' and '.join(SEATS)}", "Setup")
        options = dict(options)
        cards = options.pop("cards", None)
        if cards is not None:
            found = owner_cards.problems(cards, scenario)
            if found:
                raise refused_data("saladin.bad_cards", f"the card data breaks {len(found)} rule(s)", found,
                                   "Owner-supplied card data (RULES_NOTES.md)")
            cards = owner_cards.canonical(cards)
        if self.version == "2.0.0":
            options.setdefault("true_cross", "leader-action")
        try:
            chosen = msgspec.convert(options, Options)
        except msgspec.ValidationError as error:
            raise RuleViolation("saladin.bad_option", f"game options: {error} (RULES_NOTES.md, Game options: "
                                "true_cross automatic|leader-action, taqui_al_din automatic|reaction)",
                                "Setup") from None
        return opening(scenario, chosen, cards, self.version)

    def to_act(self, state: SaladinState) -> list[str]:
        """The one seat with a decision, or nobody once the game is over."""
        return [] if state.result is not None or state.active is None else [state.active]

    legal_commands = staticmethod(legal)  # each exactly one that decide accepts

    def decide(self, state: SaladinState, seat: str, command: SaladinCommand, rng: Rng) -> list[EventData]:
        """Check the command, then play it out (dice, automatic phases) as events."""
        return self.play(state, seat, command, rng)[0]

    def play(self, state: SaladinState, seat: str, command: SaladinCommand, rng: Rng) -> tuple[list[EventData], SaladinState]:
        """:meth:`decide`, with the state its Step has already folded."""
        check(state, seat, command)
        return self.play_listed(state, seat, command, rng)

    def play_listed(self, state: SaladinState, seat: str, command: SaladinCommand,
                     rng: Rng) -> tuple[list[EventData], SaladinState]:
        """:meth:`play` without checking the command again: :meth:`legal_commands` lists only
        commands :func:`check` accepts (tests/rules/saladin/test_speed_keeps_records.py)."""
        step = Step(state, rng)
        execute(step, seat, command)
        return step.events, step.state

    evolve = staticmethod(evolve)

    def outcome(self, state: SaladinState) -> Outcome | None:
        """Set when a side placed its last Order in the box."""
        return state.result

    def view(self, state: SaladinState, seat: str | None) -> dict[str, Any]:
        """Everything in Saladin is open: the same board for every seat."""
        return board.view(state)

    def render_text(self, state: SaladinState, names: Names = NO_NAMES, everything: bool = False) -> str:
        """The board as text: Order pools, lance tracks, markers, who acts."""
        return board.render_text(state, names)
