"""Saline: the rule system behind the interface of :mod:`domain.rules.base`.

What is legal lives in :mod:`.legality`; what happens in :mod:`.rules`; the fold in :mod:`.evolve`;
the board for people and clients in :mod:`.view`; the components in ``cards.json`` (a labelled
reconstruction, replaceable by the owner's printed data: option ``cards``).
"""

from __future__ import annotations

from typing import Any, Literal

import msgspec

from domain.dice import DieKind
from domain.events import EventData, Outcome
from domain.rules.base import OwnerData, RuleSystem, Scenario, Window, first_seats, options_as
from domain.rules.saline import hidden
from domain.rules.saline import labels, legality, narrate, rules
from domain.rules.saline import view as board
from domain.rules.saline.commands import Discard, SalineCommand
from domain.rules.saline.data import (
    CATALOGUE, DATA_FILE, DIE_KINDS, FIRST_PLAYER_DICE, PACKAGE, SCHEMA, SEATS, SYSTEM, catalogue, problems, validate,
)
from domain.rules.saline.evolve import evolve
from domain.rules.saline.invariants import conservation
from domain.rules.saline.events import DrawnEventCards, EventCardDiscarded, SecretObjectiveDealt
from domain.rules.saline.policy import move_on
from domain.rules.saline.state import SalineState
from domain.rules.saline.view_types import View


class SalineOptions(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """``cards``: the printed components, supplied by their owner in the shape of ``cards.json``;
    ``collections``: "both" (every œillet counts in both kinds of collection, the default) or "one"
    (each counts in one only; RULES_NOTES.md, "Scoring")."""

    cards: Any = None
    collections: Literal["both", "one"] = "both"


def opening(seats: tuple[str, ...], options: SalineOptions, legacy: bool = False) -> SalineState:
    cat = CATALOGUE if options.cards is None else catalogue(validate(options.cards))
    state = SalineState(seats=seats, cat=cat, legacy=legacy, collections=options.collections)
    given = set(rules.greens(state).values())
    return msgspec.structs.replace(
        state,
        oeillet_deck=tuple(o for o in sorted(cat.oeillets) if o not in given),
        event_deck=tuple(sorted(cat.events)),
        hands={s: () for s in seats},
        fresh={s: () for s in seats},
        claimed={s: () for s in seats},
        played_today={s: 0 for s in seats},
    )


class Saline(RuleSystem[SalineState, SalineCommand]):
    """Saline 1.1.0: cards bearing the triangle and the favour are played out of turn too, in a
    window before each action and draw resolves (RULES_NOTES.md, "Out of turn"). 1.0.0 records
    (no windows) still replay: :meth:`at_version`."""

    id = SYSTEM
    version = "1.2.0"
    older_versions = ("1.1.0", "1.0.0")
    voids_keep_order = ("1.1.0", "1.0.0")  # a void left the decks' order as it was (issue 30)
    legacy = False
    legal_complete = True  # every accepted command is listed (tests/rules/conformance.py)
    title = "Saline"
    scenarios = {
        "standard": Scenario(id="standard", title="Saline: 3 and 4 players (2 allowed)", seats=SEATS,
                             min_players=2, max_players=4, data_file=DATA_FILE),
    }
    die_kinds = DIE_KINDS
    command_type = SalineCommand
    package_dir = PACKAGE
    owner_data = OwnerData("cards", SCHEMA, problems)  # the owner's printed components
    section_fields = ("day", "phase")
    view_type = View
    board = board
    labels = labels
    narration = narrate
    rollout_policy = move_on
    invariants = conservation

    def game_die_kinds(self, options: dict[str, Any] | None) -> dict[str, DieKind]:
        """The météo dice printed in the owner's cards (option ``cards``) when given."""
        cards = (options or {}).get("cards")
        if cards is None:
            return self.die_kinds
        return {**catalogue(validate(cards)).die_kinds(), **FIRST_PLAYER_DICE}

    def setup(self, scenario: str, seats: tuple[str, ...], options: dict[str, Any]) -> SalineState:
        seated = first_seats(SYSTEM, self.scenario(scenario), seats, "Foire Aux Questions (FAQ)")
        return opening(seated, options_as(SYSTEM, options, SalineOptions, "Components"), legacy=self.legacy)

    def at_version(self, version: str) -> RuleSystem:
        """1.0.0 has an engine of its own (no windows); 1.1.0 plays as 1.2.0 but for its voids."""
        return SALINE_1_0 if version == SALINE_1_0.version else super().at_version(version)

    def window(self, state: SalineState) -> Window | None:
        return state.window

    to_act = staticmethod(legality.to_act)
    legal_commands = staticmethod(legality.legal)

    def listing_complete(self, state: SalineState, seat: str) -> bool:
        """Complete, unless the owner's cards print an instruction (``as_printed``): its play is listed
        stated to change nothing, and any other stated outcome is accepted too."""
        cat = state.cat
        printed = [*cat.effects.values(), *(e for own in cat.favour_effects.values() for e in own)]
        return not any(e.effect == "as_printed" for e in printed)

    def recorded_command(self, command: SalineCommand) -> dict[str, Any]:
        """Every field, but a play's ``outcome`` only when stated: the plays of games without an owner's
        printed instruction are recorded as before it existed."""
        out = msgspec.to_builtins(command)
        if out.get("outcome", 0) is None:
            del out["outcome"]
        return out

    decide = staticmethod(rules.decide)
    evolve = staticmethod(evolve)

    def outcome(self, state: SalineState) -> Outcome | None:
        return state.result

    def decks_in_play(self, state: SalineState) -> list[tuple[str, int]]:
        """The œillet deck and the event deck once shuffled, while two cards or more are left in
        each (the objectives are all dealt at set-up: none is drawn later)."""
        return rules.decks_in_play(state)

    def readers(self, state: SalineState, event: EventData) -> frozenset[str] | None:
        """The cards a player draws or discards and their secret objective: that player only."""
        if isinstance(event, DrawnEventCards | SecretObjectiveDealt | EventCardDiscarded):
            return frozenset({event.seat})
        return None

    def command_readers(self, state: SalineState, seat: str, command: Any) -> frozenset[str] | None:
        """A discard to the hand limit is secret (the card goes face down on the discards)."""
        return frozenset({seat}) if isinstance(command, Discard) else None

    def determinize(self, state: SalineState, seen: frozenset[str], rnd: Any) -> SalineState:
        """The other seats' hands, the undrawn event cards and the unclaimed secret objectives
        dealt again from what the reader cannot tell apart."""
        return hidden.determinize(state, seen, rnd)



class Saline10(Saline):
    """Saline as 1.0.0 recorded it: every card played in its player's own turn (or as an answer to a
    card just played), effects looked up by name. Kept to replay the records made then."""

    version = "1.0.0"
    older_versions = ()
    legacy = True


SALINE_1_0 = Saline10()
