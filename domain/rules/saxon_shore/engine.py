"""Saxon Shore (Kershaw and Harrington): 2 to 5 kingdoms in Dark Ages Britain.

The engine is a job queue: every turn (§2.2) is a list of jobs; automatic jobs (dice,
production, end of turn) run inside ``decide`` after the command that triggers them, and a job
that needs a decision leaves one open :class:`Prompt`. The record holds what happened, in the
rulebook's words (events.py), and the queue as it changes (events.PlayerAsked, evolve.py).
``legal_commands`` and ``decide`` share the per-phase check functions (see ``phases.py``)."""

from __future__ import annotations

from typing import Any

import msgspec

from domain.dice import STANDARD_DICE
from domain.events import EventData, Outcome
from domain.rng import Rng
from domain.rules.base import OwnerData, RuleSystem, RuleViolation, Scenario, keeps_no_secrets, options_as, refused_data
from domain.rules.words import NO_NAMES, Names
from domain.rules.saxon_shore import combat, movement, narrate, random_events, turn  # noqa: F401 - register their jobs
from domain.rules.saxon_shore import choice_types, labels
from domain.rules.saxon_shore.data import BOARD, MAP_FILE, MAP_SCHEMA, PACKAGE, Board, problems
from domain.rules.saxon_shore import older
from domain.rules.saxon_shore.evolve import evolve
from domain.rules.saxon_shore.invariants import counts_and_counters
from domain.rules.saxon_shore.commands import Choose, SaxonCommand
from domain.rules.saxon_shore.phases import PHASES, hires, legal_in_phase
from domain.rules.saxon_shore.rules import decide, option_ok
from domain.rules.saxon_shore.state import CONTROL_DERIVED, VERSION, Options, SaxonState
from domain.rules.saxon_shore.choices import choices
from domain.rules.saxon_shore.policy import expand
from domain.rules.saxon_shore.view_types import View
from domain.rules.saxon_shore.view import render_text, view

SEATS = ("p1", "p2", "p3", "p4", "p5")
MAP_SHA256_2_0_0 = "8f535e1702b6fcf603476371cf3f6a47261814726ca8307b0dab52bebdb07a43"


class SaxonShore(RuleSystem[SaxonState, SaxonCommand]):
    id = "saxon-shore"
    version = VERSION
    # Older records replay as they were played (RULES_NOTES.md, Versions): 2.1.0's and 2.0.0's
    # leave the turn's control out (older.py folds them); 2.0.0's §9.2 did not send home a
    # mercenary hired while the player's troops were being sent home.
    older_versions = ("2.1.0", "2.0.0")
    determinize = keeps_no_secrets  # the map, the troops and the treasuries are open
    title = "Saxon Shore: the game of Dark Ages Britain"
    scenarios = {
        "standard": Scenario(id="standard", title="Britain and Ireland, 2 to 5 kingdoms", seats=SEATS,
                             min_players=2, max_players=5, data_file=MAP_FILE),
    }
    die_kinds = {"d6": STANDARD_DICE["d6"]}
    command_type = SaxonCommand
    package_dir = PACKAGE
    owner_data = OwnerData("map", MAP_SCHEMA, problems)  # the owner's printed map (map.json's form)
    legal_complete = True  # every accepted command is listed or described (tests/rules/saxon_shore/test_legal_complete.py)
    section_fields = ("turn", "phase")  # the view's, without building the whole board
    view_type = View
    choice_type = choice_types.Choice
    labels = labels
    narration = narrate
    rollout_policy = expand
    invariants = counts_and_counters

    def setup(self, scenario: str, seats: tuple[str, ...], options: dict[str, Any]) -> SaxonState:
        """§10: seats in game order pick starting provinces; options are §12 and the turn limit."""
        self.scenario(scenario)
        if not 2 <= len(seats) <= 5 or len(set(seats)) != len(seats) or any(s not in SEATS for s in seats):
            raise RuleViolation("saxon-shore.bad_seats", "Saxon Shore takes 2 to 5 of the seats p1..p5", "1")
        opts = options_as("saxon-shore", options, Options, "12")
        if opts.turn_limit is not None and not 1 <= opts.turn_limit <= 1000:
            raise RuleViolation("saxon-shore.bad_option", "turn_limit (a house rule) is 1..1000 turns, or null", "1")
        state = turn.initial_state(tuple(seats), opts, self.board(opts.map))
        return state if self.version == state.version else msgspec.structs.replace(state, version=self.version)

    def data_hash(self, scenario_id: str, options: dict[str, Any] | None = None) -> str:
        """:meth:`RuleSystem.data_hash`; under 2.0.0 the built-in map's hash as it was then: the
        same map, whose header named the owner's option ``options.data`` (issue 26 point 9)."""
        if self.version == "2.0.0" and not (options or {}).get(self.owner_data.option):
            return MAP_SHA256_2_0_0
        return super().data_hash(scenario_id, options)

    def board(self, data: dict[str, Any] | None) -> Board:
        """Our reconstructed map, or the owner's printed one (``options.map``), checked
        against every fact the rulebook states; a bad map is refused listing every problem."""
        if data is None:
            return BOARD
        found = problems(data)
        if found:
            raise refused_data("saxon-shore.bad_map", f"the map breaks {len(found)} rule(s)", found, "1")
        return Board(data)

    def to_act(self, state: SaxonState) -> list[str]:
        """The one seat the open prompt waits for."""
        if state.prompt is None or self.outcome(state) is not None:
            return []
        return [state.prompt.seat]

    def legal_commands(self, state: SaxonState, seat: str) -> list[SaxonCommand]:
        """The prompt's options as ``choose``, or in a free phase every command its checks
        accept; and, whatever the seat is asked, the mercenaries it may hire (§4.6.1)."""
        if seat not in self.to_act(state):
            return []
        prompt = state.prompt
        if prompt.kind != "phase":
            listed: list = [Choose(option=o) for o in prompt.options if option_ok(state, prompt, o)]
        else:
            listed = legal_in_phase(state, seat, PHASES[prompt.args[0]])
        return listed + hires(state, seat)  # type: ignore[return-value]

    def legal_choices(self, state: SaxonState, seat: str) -> list[dict[str, Any]]:
        """The commands too many to list, as choices to compose (RULES_NOTES.md, "legal-commands")."""
        if seat not in self.to_act(state):
            return []
        return choices(state, seat)

    def decide(self, state: SaxonState, seat: str, command: SaxonCommand, rng: Rng) -> list[EventData]:
        """Check the command against the open prompt, apply it, then run the turn on to the
        next decision (rules.decide); the question then open is recorded as PromptOpened."""
        return decide(state, seat, command, rng).events

    def play(self, state: SaxonState, seat: str, command: SaxonCommand, rng: Rng) -> tuple[list[EventData], SaxonState]:
        """:meth:`decide` and the state it leaves, control included, without folding its events
        again (a rollout's path)."""
        ctx = decide(state, seat, command, rng)
        return ctx.events, msgspec.structs.replace(ctx.state, jobs=tuple(ctx.jobs), prompt=ctx.prompt,
                                                   phase=ctx.phase, stage=ctx.stage, pending=None)

    def evolve(self, state: SaxonState, event: EventData) -> SaxonState:
        """The fold: what each event changes, and the control the record says (evolve.py); a
        2.1.0 or 2.0.0 record's, which derives the control, in older.py."""
        return older.evolve(state, event) if state.version in CONTROL_DERIVED else evolve(state, event)

    def outcome(self, state: SaxonState) -> Outcome | None:
        """A victory of §1, read off the board (evolve keeps it); or the turn-limit result (a house rule)."""
        return state.ended or state.won

    def view(self, state: SaxonState, seat: str | None) -> dict[str, Any]:
        return view(state, seat)

    def render_text(self, state: SaxonState, names: Names = NO_NAMES, everything: bool = False) -> str:
        return render_text(state, names)
