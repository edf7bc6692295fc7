"""Day of Battle, First Crusade: the rule system behind the interface of :mod:`domain.rules.base`.

What is legal and what happens live in :mod:`.rules` (fire in :mod:`.fire`, the table in
:mod:`.table`); the fold in :mod:`.evolve`; what each seat sees in :mod:`.view`; the armies and
charts in the data files (``armies.json``, ``charts.json``, ``scenarios.json``).
"""

from __future__ import annotations

import hashlib
from typing import Any

import msgspec

from domain.events import DiceRolled, EventData, Outcome
from domain.rules.base import UNKNOWN_COMMAND, OwnerData, RuleSystem, RuleViolation, Scenario, offers_no_rollouts, options_as
from domain.rules.day_of_battle import events as ev
from domain.rules.day_of_battle import choice_types, labels, narrate, rules
from domain.rules.day_of_battle import view as board
from domain.rules.day_of_battle.commands import DayOfBattleCommand, beyond_1, recorded
from domain.rules.day_of_battle.data import (
    ARMIES, ARMIES_FILE, ARMY_SCHEMA, CHARTS_FILE, D20, DECK, DECK_NAME, PACKAGE, SCENARIOS, SCENARIOS_FILE, SYSTEM,
    WEAPONS, Armies,
    armies_problems, validate_armies,
)
from domain.rules.day_of_battle.state import DayOfBattleState

SECRET = (ev.LeaderAttributesDrawn, ev.InitiativeChecked, ev.CommandCardsDrawn)


def seat_armies(scenario: str) -> dict[str, str]:
    """Each seat of ``scenario`` and the army (its id in an armies file) it fields."""
    return {x.seat: x.army for x in SCENARIOS[scenario].seats}


def profiles_problems(data: Any, scenario_id: str | None) -> list[str]:
    """Every way the profiles break the schema or the rules (points, Note 8, Eastern spearmen…)
    for ``scenario_id``'s seats; with no scenario, none when some scenario takes them and
    otherwise what every scenario refuses (the profiles, or the seats none is fought by)."""
    if scenario_id is not None:
        return armies_problems(data, seat_armies(scenario_id))
    if any(not armies_problems(data, seat_armies(s)) for s in SCENARIOS):
        return []
    problems = armies_problems(data)
    if problems:
        return problems
    fought_by = "; ".join(f"{s} ({', '.join(x.seat for x in spec.seats)})" for s, spec in SCENARIOS.items())
    return [(f"armies: one profile for each seat of a scenario, not for {', '.join(sorted(data)) or 'none'}; "
             f"the scenarios' seats: {fought_by}")]


class DayOfBattleOptions(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """``armies``: the players' own Army Profiles, one per seat (replace ``armies.json``'s)."""

    armies: Any = None


class DayOfBattle(RuleSystem[DayOfBattleState, DayOfBattleCommand]):
    id = SYSTEM
    version = "2.1.0"
    older_versions = ("2.0.0", "1.0.0")
    determinize = offers_no_rollouts  # its leaders' cards are secret; no policy plays it
    voids_keep_order = ("2.0.0", "1.0.0")  # a void left the deck's order as it was (issue 30)
    edition = 2  # the rules' edition the state carries (RULES_NOTES.md, "Versions")
    title = "Day of Battle: The First Crusade"
    scenarios = {
        s.id: Scenario(id=s.id, title=s.title, seats=tuple(x.seat for x in s.seats), min_players=len(s.seats),
                       max_players=len(s.seats), data_file="armies.json")
        for s in SCENARIOS.values()
    }
    die_kinds = {"d20": D20}
    command_type = DayOfBattleCommand
    view_type = board.DayOfBattleView
    choice_type = choice_types.Choice
    board = board  # its view() and open_view() give the view as builtins
    labels = labels
    narration = narrate
    package_dir = PACKAGE
    owner_data = OwnerData("armies", ARMY_SCHEMA, profiles_problems)  # the players' Army Profiles

    def at_version(self, version: str) -> RuleSystem:
        """2.0.0 (issue 25) records the melee, every response to a charge and positions; a 1.0.0
        record replays under the 1.0.0 rules (``DayOfBattleState.edition`` 1), as it was made."""
        return DAY_OF_BATTLE_1 if version == DayOfBattle1.version else super().at_version(version)

    def data_hash(self, scenario_id: str, options: dict[str, Any] | None = None) -> str:
        """SHA-256 over the data the battle is fought with: the armies (the players' profiles as
        canonical JSON, else ``armies.json``), then ``charts.json`` and ``scenarios.json``, so a
        record pins the charts it was resolved by as well as its armies."""
        owned = (options or {}).get(self.owner_data.option)
        digest = hashlib.sha256(msgspec.json.encode(owned, order="sorted") if owned is not None
                                else (PACKAGE / ARMIES_FILE).read_bytes())
        for name in (CHARTS_FILE, SCENARIOS_FILE):
            digest.update((PACKAGE / name).read_bytes())
        return digest.hexdigest()

    def setup(self, scenario: str, seats: tuple[str, ...], options: dict[str, Any]) -> DayOfBattleState:
        """The armies (the players' profiles or ours), the table sized by 1-1, nothing drawn."""
        spec = self.scenario(scenario)
        if tuple(sorted(seats)) != tuple(sorted(spec.seats)):
            raise RuleViolation(f"{SYSTEM}.bad_seats", f"{scenario} is fought by {', '.join(spec.seats)}", "1-1")
        opts = options_as(SYSTEM, options, DayOfBattleOptions, "1-1")
        data = SCENARIOS[scenario]
        if opts.armies is None:
            armies = Armies({x.seat: ARMIES[x.army] for x in data.seats}, WEAPONS)
        else:
            armies = validate_armies(opts.armies, seat_armies(scenario))
        return rules.opening(scenario, spec.seats, {x.seat: x.edge for x in data.seats}, armies, self.edition)

    to_act = staticmethod(rules.to_act)
    # positions and ranges are a large space: legal_choices describes them
    legal_commands = staticmethod(rules.legal)

    def legal_choices(self, state: DayOfBattleState, seat: str) -> list[dict[str, Any]]:
        return rules.choices(state, seat)

    def listing_complete(self, state: DayOfBattleState, seat: str) -> bool:
        """Complete only while a ruling awaits the seat's answer (accept or reject, listed):
        otherwise a ruling of the seat's own words may be proposed, and units placed anywhere."""
        return state.ruling is not None

    def recorded_command(self, command: DayOfBattleCommand) -> dict[str, Any]:
        return recorded(command, self.edition)

    decide = staticmethod(rules.decide)
    evolve = staticmethod(rules.evolve)

    def outcome(self, state: DayOfBattleState) -> Outcome | None:
        return state.result

    def decks_in_play(self, state: DayOfBattleState) -> list[tuple[str, int]]:
        """The deck once shuffled, while two cards or more are left in it: a void shuffles it again."""
        return [(DECK_NAME, len(DECK))] if state.shuffle is not None and len(DECK) - len(state.out) > 1 else []

    def readers(self, state: DayOfBattleState, event: EventData) -> frozenset[str] | None:
        """A leader's attribute cards, his initiative die and his command cards are his seat's."""
        if isinstance(event, SECRET):
            return frozenset({event.seat})
        if isinstance(event, DiceRolled) and event.seat is not None:
            return frozenset({event.seat})
        return None

    def view(self, state: DayOfBattleState, seat: str | None) -> dict[str, Any]:
        return msgspec.to_builtins(board.view(state, seat))

    def section(self, state: DayOfBattleState) -> tuple[int | None, str | None]:
        """The game move once the battle begins (the view's ``turn``), and the phase."""
        return (state.move if state.phase in ("battle", "over") else None), state.phase

    def open_view(self, state: DayOfBattleState) -> dict[str, Any]:
        return msgspec.to_builtins(board.view(state, None, everything=True))


class DayOfBattle1(DayOfBattle):
    """Day of Battle as recorded under 1.0.0: kept so that its records fold and replay as made
    (and a game of 1.0.0 plays on by 1.0.0's commands only)."""

    version = "1.0.0"
    edition = 1

    def parse_command(self, raw: Any) -> DayOfBattleCommand:
        command = super().parse_command(raw)
        beyond = beyond_1(command)
        if beyond is not None:
            raise RuleViolation(UNKNOWN_COMMAND, f"{beyond} is not in {SYSTEM} 1.0.0, which this game is played by")
        return command


DAY_OF_BATTLE_1 = DayOfBattle1()
