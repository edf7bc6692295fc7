"""The open table: free-form decisions, named rolls of any die kind, shuffled decks, hands
of cards, and an end agreed by every seat (RULES_NOTES.md).

Everything on the table is open except the hands: a card taken into a hand is sealed for its
seat (everyone else sees the hand's size), a card played from a hand is revealed as it is
played, a card discarded face down stays sealed (its decision too), a seat may show its hand,
and the end of the game reveals every hand.

What the table checks and records lives in :mod:`.rules`; the fold in :mod:`.evolve`; the board for
people and clients in :mod:`.view`; the standard deck in ``standard-54.json`` (:mod:`.data`)."""

from __future__ import annotations

from typing import Any

from domain.dice import STANDARD_DICE
from domain.events import EventData, Outcome
from domain.rules.base import RuleSystem, Scenario, offers_no_rollouts
from domain.rules.open_table import labels, narrate, rules
from domain.rules.open_table import view as board
from domain.rules.open_table.commands import OpenTableCommand
from domain.rules.open_table.data import MAX_SEATS, PACKAGE, SYSTEM
from domain.rules.open_table.evolve import evolve
from domain.rules.open_table.state import OpenTableState
from domain.rules.open_table.view_types import View


class OpenTable(RuleSystem[OpenTableState, OpenTableCommand]):
    id = SYSTEM
    version = "1.1.0"
    # 1.0.0's voids left the decks as they were (issue 30): its records replay so
    older_versions = ("1.0.0",)
    determinize = offers_no_rollouts  # its hands are secret; no policy plays it
    voids_keep_order = ("1.0.0",)
    title = "Open table: any game played at a real table"
    scenarios = {
        "table": Scenario(
            id="table",
            title="Any game: 1 to 8 named seats",
            seats=tuple(f"p{i}" for i in range(1, MAX_SEATS + 1)),
            min_players=1,
            max_players=MAX_SEATS,
        )
    }
    die_kinds = STANDARD_DICE
    command_type = OpenTableCommand
    flexible_seats = True
    package_dir = PACKAGE
    section_fields = (None, None)  # no turns, no phases: the move list is one section
    view_type = View
    # everything on the table is open but the hands: a seat sees its own hand, every other hand is a
    # count, until the end reveals them all; deck orders are never in the state
    board = board
    labels = labels
    narration = narrate

    def setup(self, scenario: str, seats: tuple[str, ...], options: dict[str, Any]) -> OpenTableState:
        """Seats as named; the standard deck plus any custom dice and decks in ``options``."""
        self.scenario(scenario)
        return rules.setup(seats, options)

    to_act = staticmethod(rules.to_act)  # every seat, at any time until the game ends
    legal_commands = staticmethod(rules.legal)  # one ready-to-post example of each command form
    decide = staticmethod(rules.decide)  # record the command; roll, shuffle or draw as it asks
    evolve = staticmethod(evolve)

    def decks_in_play(self, state: OpenTableState) -> list[tuple[str, int]]:
        """Every shuffled deck with two cards or more left, by name: a void shuffles each again."""
        return rules.decks_in_play(state)

    def readers(self, state: OpenTableState, event: EventData) -> frozenset[str] | None:
        """A card taken into a hand or discarded face down is its seat's alone."""
        return rules.readers(state, event)

    def command_readers(self, state: OpenTableState, seat: str, command: OpenTableCommand) -> frozenset[str] | None:
        """Which card a seat discards face down is its own secret: so is the decision."""
        return rules.command_readers(state, seat, command)

    def outcome(self, state: OpenTableState) -> Outcome | None:
        """The outcome every seat agreed on, once they all have."""
        return state.ended

