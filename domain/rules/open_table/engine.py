"""The open table: free-form decisions, named rolls of any die kind, shuffled decks, hands
of cards, and an end agreed by every seat (RULES_NOTES.md).

Everything on the table is open except the hands: a card taken into a hand is sealed for its
seat (everyone else sees the hand's size), a card played from a hand is revealed as it is
played, a card discarded face down stays sealed (its decision too), a seat may show its hand,
and the end of the game reveals every hand."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any, Literal

import msgspec

from domain.dice import STANDARD_DICE, DiceSpecError, DieKind, parse_dice
from domain.events import CardsShuffled, DecisionTaken, DiceRolled, EventData, Outcome, event_type
from domain.rng import Rng
from domain.rules.base import GAME_OVER, RuleSystem, RuleViolation, Scenario
from domain.rules.open_table import narrate
from domain.rules.words import NO_NAMES, Names, plural

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


class Take(msgspec.Struct, frozen=True, tag="take", tag_field="type", forbid_unknown_fields=True):
    """Draw ``count`` cards from the top of a deck into your hand, privately."""

    deck: str
    count: int = 1


class Play(msgspec.Struct, frozen=True, tag="play", tag_field="type", forbid_unknown_fields=True):
    """Play a card from your hand face up: it is revealed as it is played."""

    card: str


class Discard(msgspec.Struct, frozen=True, tag="discard", tag_field="type", forbid_unknown_fields=True):
    """Discard a card from your hand face down: only you know which (sealed)."""

    card: str


class ShowHand(msgspec.Struct, frozen=True, tag="show-hand", tag_field="type", forbid_unknown_fields=True):
    """Show your whole hand to everyone."""


class End(msgspec.Struct, frozen=True, tag="end", tag_field="type", forbid_unknown_fields=True):
    """Propose (or agree to) ending the game with this outcome."""

    outcome: Outcome


OpenTableCommand = Note | Roll | Shuffle | Draw | Take | Play | Discard | ShowHand | End


# -- rule events -----------------------------------------------------------------------------
@event_type("open-table.CardsDrawn")
class CardsDrawn(EventData, frozen=True):
    seat: str
    deck: str
    cards: list[str]


@event_type("open-table.HandDrawn")
class HandDrawn(EventData, frozen=True):
    """Public: a seat took ``count`` cards from a deck into its hand (which, is sealed)."""

    seat: str
    deck: str
    count: int


@event_type("open-table.CardsTaken")
class CardsTaken(EventData, frozen=True):
    """Sealed for ``seat``: the cards it took into its hand."""

    seat: str
    deck: str
    cards: list[str]


@event_type("open-table.CardPlayed")
class CardPlayed(EventData, frozen=True):
    """Public: a card played from a hand, face up."""

    seat: str
    card: str


@event_type("open-table.DiscardedFaceDown")
class DiscardedFaceDown(EventData, frozen=True):
    """Public: a seat discarded one card face down (which, is sealed)."""

    seat: str


@event_type("open-table.CardDiscarded")
class CardDiscarded(EventData, frozen=True):
    """Sealed for ``seat``: the card it discarded face down."""

    seat: str
    card: str


@event_type("open-table.HandShown")
class HandShown(EventData, frozen=True):
    """Public: a seat's whole hand, shown (at its wish, or at the end of the game)."""

    seat: str
    cards: list[str]


@event_type("open-table.EndProposed")
class EndProposed(EventData, frozen=True):
    seat: str
    outcome: Outcome


# -- state -----------------------------------------------------------------------------------
class Deck(msgspec.Struct, frozen=True):
    cards: tuple[str, ...]  # in the order before any shuffle
    shuffle: CardsShuffled | None = None
    drawn: tuple[str, ...] = ()  # drawn face up since the last shuffle, in order
    out: dict[str, int] = {}  # card -> how many of it left the deck since the last shuffle

    @property
    def left(self) -> int:
        return len(self.cards) - sum(self.out.values())


class OpenTableState(msgspec.Struct, frozen=True):
    seats: tuple[str, ...]
    dice: dict[str, DieKind]
    decks: dict[str, Deck]
    decisions: int = 0
    rolls: int = 0
    proposals: dict[str, Outcome] = {}
    ended: Outcome | None = None
    hands: dict[str, tuple[tuple[str, str], ...]] = {}  # seat -> its (deck, card)s; views redact
    played: tuple[tuple[str, str], ...] = ()  # (seat, card) face up, in order
    face_down: dict[str, int] = {}  # seat -> cards it discarded face down


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
    flexible_seats = True
    package_dir = PACKAGE

    def setup(self, scenario: str, seats: tuple[str, ...], options: dict[str, Any]) -> OpenTableState:
        """Seats as named; the standard deck plus any custom dice and decks in ``options``."""
        self.scenario(scenario)
        try:
            opts = msgspec.convert(options, OpenTableOptions)
        except msgspec.ValidationError as error:
            raise RuleViolation("open-table.bad_option", f"options: {error}", "open table: options") from None
        dice = dict(STANDARD_DICE)
        for name, faces in opts.dice.items():
            if not _NAME.match(name) or name in STANDARD_DICE or not 2 <= len(faces) <= 1000:
                raise RuleViolation(
                    "open-table.bad_option",
                    f"custom die {name!r}: a new lowercase name and 2 to 1000 faces",
                    "open table: options",
                )
            dice[name] = DieKind(name, tuple(faces), "custom die")
        decks = {STANDARD_DECK: Deck(STANDARD_CARDS)}
        for name, cards in opts.decks.items():
            if not _NAME.match(name) or name == STANDARD_DECK or not 1 <= len(cards) <= 1000:
                raise RuleViolation(
                    "open-table.bad_option",
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
            if deck.left:
                commands.append(Draw(deck=name, count=1))
                commands.append(Take(deck=name, count=1))
        hand = _cards(state, seat)
        for card in sorted(set(hand)):
            commands += [Play(card=card), Discard(card=card)]
        if hand:
            commands.append(ShowHand())
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
                    raise RuleViolation("open-table.bad_dice", str(error), "open table: roll") from None
                return [rng.roll(kind, count, purpose=label or spec, seat=seat)]
            case Shuffle(deck=name):
                deck = _deck(state, name)
                return [rng.shuffle(name, len(deck.cards), purpose=f"{seat} shuffles {name}")]
            case Draw(deck=name, count=count):
                deck = _deck(state, name)
                return [CardsDrawn(seat=seat, deck=name, cards=_top(deck, name, count, rng))]
            case Take(deck=name, count=count):
                deck = _deck(state, name)
                cards = _top(deck, name, count, rng)
                return [HandDrawn(seat=seat, deck=name, count=count), CardsTaken(seat=seat, deck=name, cards=cards)]
            case Play(card=card):
                _in_hand(state, seat, card, "play")
                return [CardPlayed(seat=seat, card=card)]
            case Discard(card=card):
                _in_hand(state, seat, card, "discard")
                return [DiscardedFaceDown(seat=seat), CardDiscarded(seat=seat, card=card)]
            case ShowHand():
                if not state.hands.get(seat):
                    raise RuleViolation("open-table.empty_hand", f"{seat} has no cards in hand", "open table: hands")
                return [HandShown(seat=seat, cards=_cards(state, seat))]
            case End(outcome=outcome):
                _check_outcome(state, outcome)
                proposed = EndProposed(seat=seat, outcome=outcome)
                if self.evolve(state, proposed).ended is None:
                    return [proposed]
                # the end reveals every hand
                return [proposed] + [HandShown(seat=s, cards=_cards(state, s))
                                     for s in state.seats if state.hands.get(s)]
        raise AssertionError(f"unhandled command {command!r}")  # pragma: no cover

    def evolve(self, state: OpenTableState, event: EventData) -> OpenTableState:
        """Count decisions and rolls, move cards, gather end proposals."""
        match event:
            case DecisionTaken():
                return msgspec.structs.replace(state, decisions=state.decisions + 1)
            case DiceRolled():
                return msgspec.structs.replace(state, rolls=state.rolls + 1)
            case CardsShuffled(deck=name):  # every card of the deck comes back but those in hands
                held: dict[str, int] = {}
                for hand in state.hands.values():
                    for deck_name, card in hand:
                        if deck_name == name:
                            held[card] = held.get(card, 0) + 1
                decks = {**state.decks, name: Deck(state.decks[name].cards, shuffle=event, out=held)}
                return msgspec.structs.replace(state, decks=decks)
            case CardsDrawn(deck=name, cards=cards):
                deck = _taken(state.decks[name], cards)
                decks = {**state.decks, name: msgspec.structs.replace(deck, drawn=deck.drawn + tuple(cards))}
                return msgspec.structs.replace(state, decks=decks)
            case CardsTaken(seat=seat, deck=name, cards=cards):
                decks = {**state.decks, name: _taken(state.decks[name], cards)}
                hands = {**state.hands, seat: state.hands.get(seat, ()) + tuple((name, c) for c in cards)}
                return msgspec.structs.replace(state, decks=decks, hands=hands)
            case CardPlayed(seat=seat, card=card):
                return msgspec.structs.replace(state, hands=_without(state.hands, seat, card),
                                               played=state.played + ((seat, card),))
            case CardDiscarded(seat=seat, card=card):
                face_down = {**state.face_down, seat: state.face_down.get(seat, 0) + 1}
                return msgspec.structs.replace(state, hands=_without(state.hands, seat, card), face_down=face_down)
            case EndProposed(seat=seat, outcome=outcome):
                proposals = {**state.proposals, seat: outcome}
                agreed = len(proposals) == len(state.seats) and len(set(map(_key, proposals.values()))) == 1
                return msgspec.structs.replace(state, proposals=proposals, ended=outcome if agreed else None)
        return state

    def readers(self, state: OpenTableState, event: EventData) -> frozenset[str] | None:
        """A card taken into a hand or discarded face down is its seat's alone."""
        if isinstance(event, (CardsTaken, CardDiscarded)):
            return frozenset({event.seat})
        return None

    def command_readers(self, state: OpenTableState, seat: str, command: OpenTableCommand) -> frozenset[str] | None:
        """Which card a seat discards face down is its own secret: so is the decision."""
        return frozenset({seat}) if isinstance(command, Discard) else None

    def outcome(self, state: OpenTableState) -> Outcome | None:
        """The outcome every seat agreed on, once they all have."""
        return state.ended

    def view(self, state: OpenTableState, seat: str | None) -> dict[str, Any]:
        """Everything on the table is open but the hands: ``seat`` sees its own hand, every
        other hand is a count, until the end reveals them all. Deck orders are never in the state."""
        return {
            "seats": list(state.seats),
            "decisions": state.decisions,
            "rolls": state.rolls,
            "dice": sorted(state.dice),
            "decks": {
                name: {"size": len(d.cards), "left": d.left, "drawn": list(d.drawn),
                       "shuffled": d.shuffle is not None}
                for name, d in sorted(state.decks.items())
            },
            "hands": {s: _cards(state, s) if s == seat or state.ended else len(h)
                      for s, h in sorted(state.hands.items())},
            "played": [{"seat": s, "card": c} for s, c in state.played],
            "face_down": dict(sorted(state.face_down.items())),
            "end_proposals": {s: msgspec.to_builtins(o) for s, o in sorted(state.proposals.items())},
            "ended": msgspec.to_builtins(state.ended),
        }

    def render_text(self, state: OpenTableState) -> str:
        lines = [f"Open table — seats: {', '.join(state.seats)}",
                 f"decisions: {state.decisions}   rolls: {state.rolls}"]
        for name, d in sorted(state.decks.items()):
            shown = " ".join(d.drawn[-10:]) or "-"
            lines.append(f"deck {name}: {d.left}/{len(d.cards)} left; last drawn face up: {shown}")
        for seat, hand in sorted(state.hands.items()):  # a spectator's board: hands as counts
            shown = " ".join(_cards(state, seat)) if state.ended else plural(len(hand), "card")
            lines.append(f"{seat}'s hand: {shown}; face down: {state.face_down.get(seat, 0)}")
        if state.played:
            lines.append("played: " + " ".join(f"{s}:{c}" for s, c in state.played[-10:]))
        for seat, outcome in sorted(state.proposals.items()):
            lines.append(f"{seat} proposes to end: {_describe_outcome(outcome)}")
        if state.ended:
            lines.append(f"ENDED: {_describe_outcome(state.ended)}")
        return "\n".join(lines)

    def describe_command(self, command: dict[str, Any], names: Names = NO_NAMES) -> str:
        return narrate.describe_command(command, names)

    def describe_event(self, event_type: str, data: dict[str, Any], names: Names = NO_NAMES) -> str | None:
        return narrate.describe_event(event_type, data, names)


def _top(deck: Deck, name: str, count: int, rng: Rng) -> list[str]:
    """The top ``count`` cards: the first positions in the shuffle's order (or the deck's own
    order, unshuffled) still in the deck. In the game itself that is the next ``count`` of the
    order; in a fork with fresh dice it is a fresh order of the cards left (domain/rules/base.py)."""
    if not 1 <= count <= min(deck.left, MAX_DRAW):
        raise RuleViolation(
            "open-table.not_enough_cards",
            f"{name} has {deck.left} card(s) left; draw 1 to {min(deck.left, MAX_DRAW)}",
            "open table: draw",
        )
    order = rng.order(deck.shuffle) if deck.shuffle else range(len(deck.cards))
    gone = len(deck.cards) - deck.left
    head = [deck.cards[i] for i in order[: gone + count]]
    if dict.__eq__(Counter(head[:gone]), deck.out):
        # the cards gone are the first ones of the order (as in the game itself): the top is
        # what follows them; the same cards the walk below gives, without a Python-level pass
        # over the whole deck per draw (issue 11: a 1,000-card deck drawn card by card)
        return head[gone:]
    skip, top = dict(deck.out), []
    for i in order:
        card = deck.cards[i]
        if skip.get(card):
            skip[card] -= 1  # of a card that appears k times, the first k in the order are gone
            continue
        top.append(card)
        if len(top) == count:
            break
    return top


def _taken(deck: Deck, cards: list[str]) -> Deck:
    out = dict(deck.out)
    for card in cards:
        out[card] = out.get(card, 0) + 1
    return msgspec.structs.replace(deck, out=out)


def _cards(state: OpenTableState, seat: str) -> list[str]:
    """The cards in ``seat``'s hand, in the order taken."""
    return [card for _, card in state.hands.get(seat, ())]


def _in_hand(state: OpenTableState, seat: str, card: str, what: str) -> None:
    if card not in _cards(state, seat):
        raise RuleViolation("open-table.not_in_hand", f"{seat} has no {card} in hand to {what}", "open table: hands")


def _without(hands: dict[str, tuple[tuple[str, str], ...]], seat: str, card: str) -> dict[str, tuple[tuple[str, str], ...]]:
    hand = list(hands[seat])
    hand.pop(next(i for i, (_, c) in enumerate(hand) if c == card))
    return {**hands, seat: tuple(hand)}


def _check_text(text: str, what: str) -> None:
    if len(text) > MAX_TEXT:
        raise RuleViolation("open-table.text_too_long", f"a {what} is at most {MAX_TEXT} characters", "open table")


def _deck(state: OpenTableState, name: str) -> Deck:
    try:
        return state.decks[name]
    except KeyError:
        raise RuleViolation(
            "open-table.unknown_deck", f"no deck {name!r}; decks: {', '.join(sorted(state.decks))}", "open table: decks"
        ) from None


def _check_outcome(state: OpenTableState, outcome: Outcome) -> None:
    named = [outcome.winner] if outcome.winner else []
    named += list(outcome.ranking) + list(outcome.scores)
    unknown = sorted({s for s in named if s not in state.seats})
    if unknown:
        raise RuleViolation("open-table.unknown_seat_in_outcome", f"no such seat(s): {', '.join(unknown)}", "open table: end")
    if outcome.draw == (outcome.winner is not None):
        raise RuleViolation(
            "open-table.bad_outcome", "an outcome names a winner or says draw, not both nor neither", "open table: end"
        )
    _check_text(outcome.reason, "reason")


def _key(outcome: Outcome) -> bytes:
    return msgspec.json.encode(outcome, order="sorted")


def _describe_outcome(outcome: Outcome) -> str:
    result = "draw" if outcome.draw else f"{outcome.winner} wins"
    return f"{result} ({outcome.reason})" if outcome.reason else result
