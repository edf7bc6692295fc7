"""The open table: free-form decisions, named rolls of any die kind, shuffled decks,
and an end agreed by every seat. Everything on the table is open (RULES_NOTES.md)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Literal

import msgspec

from domain.dice import STANDARD_DICE, DiceSpecError, DieKind, parse_dice
from domain.events import CardsShuffled, DecisionTaken, DiceRolled, EventData, Outcome, event_type
from domain.rng import Rng
from domain.rules.base import GAME_OVER, RuleSystem, RuleViolation, Scenario

PACKAGE = Path(__file__).parent
STANDARD_DECK = "standard-54"
STANDARD_CARDS = tuple(json.loads((PACKAGE / "standard-54.json").read_text())["cards"])
MAX_SEATS = 8
MAX_TEXT = 2_000
MAX_DRAW = 54
_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,39}$")


# -- commands (the wire forms of DESIGN.md) -----------------------------------------------
class Note(msgspec.Struct, frozen=True, tag="note", tag_field="type", forbid_unknown_fields=True):
    """A free-form decision: a short text and an optional JSON payload."""

    text: str
    payload: Any = None


class Roll(msgspec.Struct, frozen=True, tag="roll", tag_field="type", forbid_unknown_fields=True):
    """A named roll: ``dice`` is ``"3d6"`` or ``"2xsaladin-combat"``."""

    label: str
    dice: str


class Shuffle(msgspec.Struct, frozen=True, tag="shuffle", tag_field="type", forbid_unknown_fields=True):
    """Gather every card of a deck and shuffle it."""

    deck: str


class Draw(msgspec.Struct, frozen=True, tag="draw", tag_field="type", forbid_unknown_fields=True):
    """Draw ``count`` cards from the top of a deck, face up."""

    deck: str
    count: int = 1


class End(msgspec.Struct, frozen=True, tag="end", tag_field="type", forbid_unknown_fields=True):
    """Propose (or agree to) ending the game with this outcome."""

    outcome: Outcome


OpenTableCommand = Note | Roll | Shuffle | Draw | End


# -- rule events -----------------------------------------------------------------------------
@event_type("open-table.CardsDrawn")
class CardsDrawn(EventData, frozen=True):
    seat: str
    deck: str
    cards: list[str]


@event_type("open-table.EndProposed")
class EndProposed(EventData, frozen=True):
    seat: str
    outcome: Outcome


# -- state -----------------------------------------------------------------------------------
class Deck(msgspec.Struct, frozen=True):
    cards: tuple[str, ...]  # in the order before any shuffle
    shuffle: CardsShuffled | None = None
    drawn: tuple[str, ...] = ()


class OpenTableState(msgspec.Struct, frozen=True):
    seats: tuple[str, ...]
    dice: dict[str, DieKind]
    decks: dict[str, Deck]
    decisions: int = 0
    rolls: int = 0
    proposals: dict[str, Outcome] = {}
    ended: Outcome | None = None


class OpenTableOptions(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    dice: dict[str, list[int | str]] = {}
    decks: dict[str, list[str]] = {}


class OpenTable(RuleSystem[OpenTableState, OpenTableCommand]):
    id = "open-table"
    version = "1.0.0"
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
    state_type = OpenTableState
    flexible_seats = True
    package_dir = PACKAGE

    def setup(self, scenario: str, seats: tuple[str, ...], options: dict[str, Any]) -> OpenTableState:
        """Seats as named; the standard deck plus any custom dice and decks in ``options``."""
        self.scenario(scenario)
        try:
            opts = msgspec.convert(options, OpenTableOptions)
        except msgspec.ValidationError as error:
            raise RuleViolation("open_table.bad_option", f"options: {error}", "open table: options") from None
        dice = dict(STANDARD_DICE)
        for name, faces in opts.dice.items():
            if not _NAME.match(name) or name in STANDARD_DICE or not 2 <= len(faces) <= 1000:
                raise RuleViolation(
                    "open_table.bad_option",
                    f"custom die {name!r}: a new lowercase name and 2 to 1000 faces",
                    "open table: options",
                )
            dice[name] = DieKind(name, tuple(faces), "custom die")
        decks = {STANDARD_DECK: Deck(STANDARD_CARDS)}
        for name, cards in opts.decks.items():
            if not _NAME.match(name) or name == STANDARD_DECK or not 1 <= len(cards) <= 1000:
                raise RuleViolation(
                    "open_table.bad_option",
                    f"custom deck {name!r}: a new lowercase name and 1 to 1000 cards",
                    "open table: options",
                )
            decks[name] = Deck(tuple(cards))
        return OpenTableState(seats=seats, dice=dice, decks=decks)

    def to_act(self, state: OpenTableState) -> list[str]:
        """Every seat may record at any time until the game ends."""
        return [] if state.ended else list(state.seats)

    def legal_commands(self, state: OpenTableState, seat: str) -> list[OpenTableCommand]:
        """One ready-to-post example of each command form open to ``seat`` now."""
        if state.ended or seat not in state.seats:
            return []
        commands: list[OpenTableCommand] = [Note(text=""), Roll(label="", dice="1d6")]
        for name, deck in sorted(state.decks.items()):
            commands.append(Shuffle(deck=name))
            if len(deck.drawn) < len(deck.cards):
                commands.append(Draw(deck=name, count=1))
        commands.append(End(outcome=state.proposals.get(seat) or Outcome(draw=True, reason="agreed")))
        return commands

    def decide(self, state: OpenTableState, seat: str, command: OpenTableCommand, rng: Rng) -> list[EventData]:
        """Record the command; roll, shuffle or draw as it asks."""
        if state.ended:
            raise RuleViolation(GAME_OVER, "the game has ended", "open table: end")
        match command:
            case Note(text=text):
                _check_text(text, "note")
                return []
            case Roll(label=label, dice=spec):
                _check_text(label, "roll label")
                try:
                    count, kind = parse_dice(spec, state.dice)
                except DiceSpecError as error:
                    raise RuleViolation("open_table.bad_dice", str(error), "open table: roll") from None
                return [rng.roll(kind, count, purpose=label or spec, seat=seat)]
            case Shuffle(deck=name):
                deck = _deck(state, name)
                return [rng.shuffle(name, len(deck.cards), purpose=f"{seat} shuffles {name}")]
            case Draw(deck=name, count=count):
                deck = _deck(state, name)
                left = len(deck.cards) - len(deck.drawn)
                if not 1 <= count <= min(left, MAX_DRAW):
                    raise RuleViolation(
                        "open_table.not_enough_cards",
                        f"{name} has {left} card(s) left; draw 1 to {min(left, MAX_DRAW)}",
                        "open table: draw",
                    )
                order = rng.order(deck.shuffle) if deck.shuffle else range(len(deck.cards))
                top = [deck.cards[i] for i in order[len(deck.drawn) : len(deck.drawn) + count]]
                return [CardsDrawn(seat=seat, deck=name, cards=top)]
            case End(outcome=outcome):
                _check_outcome(state, outcome)
                return [EndProposed(seat=seat, outcome=outcome)]
        raise AssertionError(f"unhandled command {command!r}")  # pragma: no cover

    def evolve(self, state: OpenTableState, event: EventData) -> OpenTableState:
        """Count decisions and rolls, move cards, gather end proposals."""
        match event:
            case DecisionTaken():
                return msgspec.structs.replace(state, decisions=state.decisions + 1)
            case DiceRolled():
                return msgspec.structs.replace(state, rolls=state.rolls + 1)
            case CardsShuffled(deck=name):
                decks = {**state.decks, name: Deck(state.decks[name].cards, shuffle=event)}
                return msgspec.structs.replace(state, decks=decks)
            case CardsDrawn(deck=name, cards=cards):
                deck = state.decks[name]
                decks = {**state.decks, name: msgspec.structs.replace(deck, drawn=deck.drawn + tuple(cards))}
                return msgspec.structs.replace(state, decks=decks)
            case EndProposed(seat=seat, outcome=outcome):
                proposals = {**state.proposals, seat: outcome}
                agreed = len(proposals) == len(state.seats) and len(set(map(_key, proposals.values()))) == 1
                return msgspec.structs.replace(state, proposals=proposals, ended=outcome if agreed else None)
        return state

    def outcome(self, state: OpenTableState) -> Outcome | None:
        """The outcome every seat agreed on, once they all have."""
        return state.ended

    def view(self, state: OpenTableState, seat: str | None) -> dict[str, Any]:
        """Everything on an open table is open; deck orders are never in the state."""
        return {
            "seats": list(state.seats),
            "decisions": state.decisions,
            "rolls": state.rolls,
            "dice": sorted(state.dice),
            "decks": {
                name: {"size": len(d.cards), "left": len(d.cards) - len(d.drawn), "drawn": list(d.drawn),
                       "shuffled": d.shuffle is not None}
                for name, d in sorted(state.decks.items())
            },
            "end_proposals": {s: msgspec.to_builtins(o) for s, o in sorted(state.proposals.items())},
            "ended": msgspec.to_builtins(state.ended),
        }

    def render_text(self, state: OpenTableState) -> str:
        lines = [f"Open table — seats: {', '.join(state.seats)}",
                 f"decisions: {state.decisions}   rolls: {state.rolls}"]
        for name, d in sorted(state.decks.items()):
            shown = " ".join(d.drawn[-10:]) or "-"
            lines.append(f"deck {name}: {len(d.cards) - len(d.drawn)}/{len(d.cards)} left; last drawn: {shown}")
        for seat, outcome in sorted(state.proposals.items()):
            lines.append(f"{seat} proposes to end: {_describe_outcome(outcome)}")
        if state.ended:
            lines.append(f"ENDED: {_describe_outcome(state.ended)}")
        return "\n".join(lines)

    def describe_command(self, command: dict[str, Any]) -> str:
        kind = command.get("type")
        if kind == "note":
            return f"note: {command.get('text', '')}"
        if kind == "roll":
            return f"roll {command.get('dice')} for {command.get('label') or 'no label'}"
        if kind == "draw":
            return f"draw {command.get('count', 1)} from {command.get('deck')}"
        if kind == "shuffle":
            return f"shuffle {command.get('deck')}"
        return str(kind)


def _check_text(text: str, what: str) -> None:
    if len(text) > MAX_TEXT:
        raise RuleViolation("open_table.text_too_long", f"a {what} is at most {MAX_TEXT} characters", "open table")


def _deck(state: OpenTableState, name: str) -> Deck:
    try:
        return state.decks[name]
    except KeyError:
        raise RuleViolation(
            "open_table.unknown_deck", f"no deck {name!r}; decks: {', '.join(sorted(state.decks))}", "open table: decks"
        ) from None


def _check_outcome(state: OpenTableState, outcome: Outcome) -> None:
    named = [outcome.winner] if outcome.winner else []
    named += list(outcome.ranking) + list(outcome.scores)
    unknown = sorted({s for s in named if s not in state.seats})
    if unknown:
        raise RuleViolation("open_table.unknown_seat_in_outcome", f"no such seat(s): {', '.join(unknown)}", "open table: end")
    if outcome.draw == (outcome.winner is not None):
        raise RuleViolation(
            "open_table.bad_outcome", "an outcome names a winner or says draw, not both nor neither", "open table: end"
        )
    _check_text(outcome.reason, "reason")


def _key(outcome: Outcome) -> bytes:
    return msgspec.json.encode(outcome, order="sorted")


def _describe_outcome(outcome: Outcome) -> str:
    result = "draw" if outcome.draw else f"{outcome.winner} wins"
    return f"{result} ({outcome.reason})" if outcome.reason else result
