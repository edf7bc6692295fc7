"""The Kingdoms of Crusaders: the rule system behind the interface of :mod:`domain.rules.base`.

What is legal and what happens live in :mod:`.rules`; armies and the comparison chain in
:mod:`.armies`; the fold in :mod:`.evolve`; the board for people and clients in :mod:`.view`;
the components in the data files (``location.json``, ``units.json``).
"""

from __future__ import annotations

import hashlib
from typing import Any, Literal

import msgspec

from domain.events import EventData, Outcome
from domain.rules.base import OwnerData, RuleSystem, Scenario, first_seats, options_as
from domain.rules.kingdoms_of_crusaders import hidden
from domain.rules.kingdoms_of_crusaders import labels, narrate, rules
from domain.rules.kingdoms_of_crusaders import view as board
from domain.rules.kingdoms_of_crusaders.commands import KingdomsOfCrusadersCommand
from domain.rules.kingdoms_of_crusaders.data import (
    DECK_SCHEMA, FIRST_PLAYER_DICE, PACKAGE, SEATS, SYSTEM, TERRITORIES, UNITS, UNITS_FILE, deck_cards,
    canonical_deck, deck_problems, validate_deck,
)
from domain.rules.kingdoms_of_crusaders.events import DrawnCards
from domain.rules.kingdoms_of_crusaders.invariants import card_conservation
from domain.rules.kingdoms_of_crusaders.policy import build_strongest
from domain.rules.kingdoms_of_crusaders.state import KingdomsOfCrusadersState
from domain.rules.kingdoms_of_crusaders.view_types import View


UNITS_SHA256_1_0_0 = "012e51a4af2c05ab67c33d304c2af678f516aad48c41d061e18e6ff3d896ade5"


class KingdomsOfCrusadersOptions(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """``points``: the points variant ("Winner by the points"); ``deck``: the printed unit deck,
    supplied by its owner in the shape of ``units.json`` (replaces the reconstruction); ``tie``:
    the reading of "the players whose numbers on the «victory markers» are greater will lose"
    (RULES_NOTES.md, reading 10)."""

    points: bool = False
    deck: Any = None
    tie: Literal["greatest-marker", "marker-sum"] = "greatest-marker"


def opening(seats: tuple[str, ...], options: KingdomsOfCrusadersOptions,
            version: str = "1.2.0") -> KingdomsOfCrusadersState:
    deck = UNITS if options.deck is None else validate_deck(options.deck)
    cards = deck_cards(deck, len(seats))
    unseen: dict[int, int] = {}
    for m in cards.values():
        unseen[m] = unseen.get(m, 0) + 1
    return KingdomsOfCrusadersState(
        seats=seats,
        points=options.points,
        tie=options.tie,
        version=version,
        cards=cards,
        deck=tuple(cards),
        unseen=dict(sorted(unseen.items())),
        hands={s: () for s in seats},
        sectors={s: ((),) * len(TERRITORIES) for s in seats},
        completed=((),) * len(TERRITORIES),
    )


class KingdomsOfCrusaders(RuleSystem[KingdomsOfCrusadersState, KingdomsOfCrusadersCommand]):
    id = SYSTEM
    version = "1.2.0"
    # Older records replay as they were played (RULES_NOTES.md, Versions): 1.0.0's points variant
    # gave places to players with no card in a territory and its owner deck hashed as listed;
    # under both, a void left the deck's order as it was (issue 30).
    older_versions = ("1.1.0", "1.0.0")
    voids_keep_order = ("1.1.0", "1.0.0")
    legal_complete = True  # every accepted command is listed (tests/rules/conformance.py)
    title = "The Kingdoms of Crusaders"
    scenarios = {
        "standard": Scenario(id="standard", title="The Kingdoms of Crusaders: 2 to 4 players", seats=SEATS,
                             min_players=2, max_players=4, data_file=UNITS_FILE),
    }
    die_kinds = FIRST_PLAYER_DICE
    command_type = KingdomsOfCrusadersCommand
    package_dir = PACKAGE
    owner_data = OwnerData("deck", DECK_SCHEMA, deck_problems)  # the owner's printed unit deck (units.json's form)
    section_fields = ("turn", "phase")
    view_type = View
    board = board  # own hand face up, other hands as counts, the deck as a count; the territories open
    labels = labels
    narration = narrate
    rollout_policy = build_strongest
    invariants = card_conservation

    def setup(self, scenario: str, seats: tuple[str, ...], options: dict[str, Any]) -> KingdomsOfCrusadersState:
        """The Location cards empty, the deck (one, or two mixed for three or four) unshuffled."""
        seated = first_seats(SYSTEM, self.scenario(scenario), seats, "Turn sequence")
        return opening(seated, options_as(SYSTEM, options, KingdomsOfCrusadersOptions, "Winner by the points"),
                       self.version)

    def data_hash(self, scenario_id: str, options: dict[str, Any] | None = None) -> str:
        """:meth:`RuleSystem.data_hash`, the owner's deck hashed in its canonical form (cards by
        number, symbols weakest first): the same deck listed in another order hashes the same.
        Version 1.0.0 hashed the deck as listed, and its built-in file as it was then."""
        deck = (options or {}).get(self.owner_data.option)
        if deck is None and self.version == "1.0.0":
            return UNITS_SHA256_1_0_0  # the same cards; the file's header then said the text gave "56"
        if deck is None or self.version == "1.0.0" or deck_problems(deck):
            return super().data_hash(scenario_id, options)
        return hashlib.sha256(msgspec.json.encode(canonical_deck(deck), order="sorted")).hexdigest()

    to_act = staticmethod(rules.to_act)  # p1 prepares the game; then the player whose turn it is
    legal_commands = staticmethod(rules.legal)
    decide = staticmethod(rules.decide)  # draws, territories won, the next turn, the end
    evolve = staticmethod(rules.evolve)

    def outcome(self, state: KingdomsOfCrusadersState) -> Outcome | None:
        """Set when the last victory marker is placed."""
        return state.result

    def decks_in_play(self, state: KingdomsOfCrusadersState) -> list[tuple[str, int]]:
        """The unit deck once shuffled, while two cards or more are left in it."""
        return [(rules.DECK, len(state.deck))] if state.shuffle is not None and len(state.deck) - state.drawn > 1 else []

    def readers(self, state: KingdomsOfCrusadersState, event: EventData) -> frozenset[str] | None:
        """A card drawn is read by the drawing seat only; everything else by everyone."""
        if isinstance(event, DrawnCards):
            return frozenset({event.seat})
        return None

    def command_readers(self, state: KingdomsOfCrusadersState, seat: str, command: Any) -> frozenset[str] | None:
        """No command is secret: a card placed is placed face up."""
        return None

    def determinize(self, state: KingdomsOfCrusadersState, seen: frozenset[str], rnd: Any) -> KingdomsOfCrusadersState:
        """The other seats' hands dealt again from the cards the reader cannot tell apart."""
        return hidden.determinize(state, seen, rnd)

