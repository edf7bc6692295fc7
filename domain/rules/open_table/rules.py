"""What the open table checks and records (RULES_NOTES.md): the set-up with its custom dice and
decks, who may act, the commands open to a seat, and what each command records. Everything else is
left to the players."""

from __future__ import annotations

from collections import Counter
from typing import Any

import msgspec

from domain.dice import STANDARD_DICE, DiceSpecError, DieKind, parse_dice
from domain.events import EventData, Outcome
from domain.rng import Rng
from domain.rules.base import GAME_OVER, RuleViolation, options_as
from domain.rules.open_table.commands import (
    Discard,
    Draw,
    End,
    Note,
    OpenTableCommand,
    Play,
    Roll,
    ShowHand,
    Shuffle,
    Take,
)
from domain.rules.open_table.data import (
    MAX_DRAW,
    MAX_TEXT,
    NAME,
    STANDARD_CARDS,
    STANDARD_DECK,
)
from domain.rules.open_table.events import (
    CardDiscarded,
    CardPlayed,
    CardsDrawn,
    CardsTaken,
    DiscardedFaceDown,
    EndProposed,
    HandDrawn,
    HandShown,
)
from domain.rules.open_table.evolve import evolve
from domain.rules.open_table.state import Deck, OpenTableState, cards_in_hand


class OpenTableOptions(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    dice: dict[str, list[int | str]] = {}
    decks: dict[str, list[str]] = {}


def setup(seats: tuple[str, ...], options: dict[str, Any]) -> OpenTableState:
    """Seats as named; the standard deck plus any custom dice and decks in ``options``."""
    opts = options_as("open-table", options, OpenTableOptions, "open table: options")
    dice = dict(STANDARD_DICE)
    for name, faces in opts.dice.items():
        if not NAME.match(name) or name in STANDARD_DICE or not 2 <= len(faces) <= 1000:
            raise RuleViolation(
                "open-table.bad_option",
                f"custom die {name!r}: a new lowercase name and 2 to 1000 faces",
                "open table: options",
            )
        dice[name] = DieKind(name, tuple(faces), "custom die")
    decks = {STANDARD_DECK: Deck(STANDARD_CARDS)}
    for name, cards in opts.decks.items():
        if not NAME.match(name) or name == STANDARD_DECK or not 1 <= len(cards) <= 1000:
            raise RuleViolation(
                "open-table.bad_option",
                f"custom deck {name!r}: a new lowercase name and 1 to 1000 cards",
                "open table: options",
            )
        decks[name] = Deck(tuple(cards))
    return OpenTableState(seats=seats, dice=dice, decks=decks)


def to_act(state: OpenTableState) -> list[str]:
    """Every seat may record at any time until the game ends."""
    return [] if state.ended else list(state.seats)


def legal(state: OpenTableState, seat: str) -> list[OpenTableCommand]:
    """One ready-to-post example of each command form open to ``seat`` now."""
    if state.ended or seat not in state.seats:
        return []
    commands: list[OpenTableCommand] = [Note(text=""), Roll(label="", dice="1d6")]
    for name, deck in sorted(state.decks.items()):
        commands.append(Shuffle(deck=name))
        if deck.left:
            commands.append(Draw(deck=name, count=1))
            commands.append(Take(deck=name, count=1))
    hand = cards_in_hand(state, seat)
    for card in sorted(set(hand)):
        commands += [Play(card=card), Discard(card=card)]
    if hand:
        commands.append(ShowHand())
    commands.append(End(outcome=state.proposals.get(seat) or Outcome(draw=True, reason="agreed")))
    return commands


def decide(state: OpenTableState, seat: str, command: OpenTableCommand, rng: Rng) -> list[EventData]:
    """Record the command; roll, shuffle or draw as it asks."""
    if state.ended:
        raise RuleViolation(GAME_OVER, "the game has ended", "open table: end")
    match command:
        case Note(text=text):
            check_text(text, "note")
            return []
        case Roll(label=label, dice=spec):
            check_text(label, "roll label")
            try:
                count, kind = parse_dice(spec, state.dice)
            except DiceSpecError as error:
                raise RuleViolation("open-table.bad_dice", str(error), "open table: roll") from None
            return [rng.roll(kind, count, purpose=label or spec, seat=seat)]
        case Shuffle(deck=name):
            deck = deck_named(state, name)
            return [rng.shuffle(name, len(deck.cards), purpose=f"{seat} shuffles {name}")]
        case Draw(deck=name, count=count):
            deck = deck_named(state, name)
            return [CardsDrawn(seat=seat, deck=name, cards=top(deck, name, count, rng))]
        case Take(deck=name, count=count):
            deck = deck_named(state, name)
            cards = top(deck, name, count, rng)
            return [HandDrawn(seat=seat, deck=name, count=count), CardsTaken(seat=seat, deck=name, cards=cards)]
        case Play(card=card):
            in_hand(state, seat, card, "play")
            return [CardPlayed(seat=seat, card=card)]
        case Discard(card=card):
            in_hand(state, seat, card, "discard")
            return [DiscardedFaceDown(seat=seat), CardDiscarded(seat=seat, card=card)]
        case ShowHand():
            if not state.hands.get(seat):
                raise RuleViolation("open-table.empty_hand", f"{seat} has no cards in hand", "open table: hands")
            return [HandShown(seat=seat, cards=cards_in_hand(state, seat))]
        case End(outcome=outcome):
            check_outcome(state, outcome)
            proposed = EndProposed(seat=seat, outcome=outcome)
            if evolve(state, proposed).ended is None:
                return [proposed]
            # the end reveals every hand
            return [proposed] + [HandShown(seat=s, cards=cards_in_hand(state, s))
                                 for s in state.seats if state.hands.get(s)]
    raise AssertionError(f"unhandled command {command!r}")  # pragma: no cover


def decks_in_play(state: OpenTableState) -> list[tuple[str, int]]:
    """Every shuffled deck (an unshuffled one's order is public) with two cards or more left."""
    return [(name, len(deck.cards)) for name, deck in sorted(state.decks.items())
            if deck.shuffle is not None and deck.left > 1]


def readers(state: OpenTableState, event: EventData) -> frozenset[str] | None:
    """A card taken into a hand or discarded face down is its seat's alone."""
    if isinstance(event, (CardsTaken, CardDiscarded)):
        return frozenset({event.seat})
    return None

def command_readers(state: OpenTableState, seat: str, command: OpenTableCommand) -> frozenset[str] | None:
    """Which card a seat discards face down is its own secret: so is the decision."""
    return frozenset({seat}) if isinstance(command, Discard) else None


def top(deck: Deck, name: str, count: int, rng: Rng) -> list[str]:
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


def in_hand(state: OpenTableState, seat: str, card: str, what: str) -> None:
    if card not in cards_in_hand(state, seat):
        raise RuleViolation("open-table.not_in_hand", f"{seat} has no {card} in hand to {what}", "open table: hands")



def check_text(text: str, what: str) -> None:
    if len(text) > MAX_TEXT:
        raise RuleViolation("open-table.text_too_long", f"a {what} is at most {MAX_TEXT} characters", "open table")


def deck_named(state: OpenTableState, name: str) -> Deck:
    try:
        return state.decks[name]
    except KeyError:
        raise RuleViolation(
            "open-table.unknown_deck", f"no deck {name!r}; decks: {', '.join(sorted(state.decks))}", "open table: decks"
        ) from None


def check_outcome(state: OpenTableState, outcome: Outcome) -> None:
    named = [outcome.winner] if outcome.winner else []
    named += list(outcome.ranking) + list(outcome.scores)
    unknown = sorted({s for s in named if s not in state.seats})
    if unknown:
        raise RuleViolation("open-table.unknown_seat_in_outcome", f"no such seat(s): {', '.join(unknown)}", "open table: end")
    if outcome.draw == (outcome.winner is not None):
        raise RuleViolation(
            "open-table.bad_outcome", "an outcome names a winner or says draw, not both nor neither", "open table: end"
        )
    check_text(outcome.reason, "reason")
