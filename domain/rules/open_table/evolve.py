"""The fold of the open table: count decisions and rolls, move cards, gather end proposals."""

from __future__ import annotations

import msgspec

from domain.events import CardsShuffled, DecisionTaken, DiceRolled, EventData, Outcome, VoidedCardsReshuffled
from domain.rules.open_table.events import (
    CardDiscarded,
    CardPlayed,
    CardsDrawn,
    CardsTaken,
    EndProposed,
)
from domain.rules.open_table.state import Deck, OpenTableState


def evolve(state: OpenTableState, event: EventData) -> OpenTableState:
    """Count decisions and rolls, move cards, gather end proposals."""
    match event:
        case DecisionTaken():
            return msgspec.structs.replace(state, decisions=state.decisions + 1)
        case DiceRolled():
            return msgspec.structs.replace(state, rolls=state.rolls + 1)
        case VoidedCardsReshuffled(deck=name):  # after a void: a new order, the same cards out
            decks = {**state.decks, name: msgspec.structs.replace(state.decks[name], shuffle=event)}
            return msgspec.structs.replace(state, decks=decks)
        case CardsShuffled(deck=name):  # every card of the deck comes back but those in hands
            held: dict[str, int] = {}
            for hand in state.hands.values():
                for deck_name, card in hand:
                    if deck_name == name:
                        held[card] = held.get(card, 0) + 1
            decks = {**state.decks, name: Deck(state.decks[name].cards, shuffle=event, out=held)}
            return msgspec.structs.replace(state, decks=decks)
        case CardsDrawn(deck=name, cards=cards):
            deck = taken(state.decks[name], cards)
            decks = {**state.decks, name: msgspec.structs.replace(deck, drawn=deck.drawn + tuple(cards))}
            return msgspec.structs.replace(state, decks=decks)
        case CardsTaken(seat=seat, deck=name, cards=cards):
            decks = {**state.decks, name: taken(state.decks[name], cards)}
            hands = {**state.hands, seat: state.hands.get(seat, ()) + tuple((name, c) for c in cards)}
            return msgspec.structs.replace(state, decks=decks, hands=hands)
        case CardPlayed(seat=seat, card=card):
            return msgspec.structs.replace(state, hands=without(state.hands, seat, card),
                                           played=state.played + ((seat, card),))
        case CardDiscarded(seat=seat, card=card):
            face_down = {**state.face_down, seat: state.face_down.get(seat, 0) + 1}
            return msgspec.structs.replace(state, hands=without(state.hands, seat, card), face_down=face_down)
        case EndProposed(seat=seat, outcome=outcome):
            proposals = {**state.proposals, seat: outcome}
            agreed = len(proposals) == len(state.seats) and len(set(map(agreement_key, proposals.values()))) == 1
            return msgspec.structs.replace(state, proposals=proposals, ended=outcome if agreed else None)
    return state


def taken(deck: Deck, cards: list[str]) -> Deck:
    out = dict(deck.out)
    for card in cards:
        out[card] = out.get(card, 0) + 1
    return msgspec.structs.replace(deck, out=out)



def without(hands: dict[str, tuple[tuple[str, str], ...]], seat: str, card: str) -> dict[str, tuple[tuple[str, str], ...]]:
    hand = list(hands[seat])
    hand.pop(next(i for i, (_, c) in enumerate(hand) if c == card))
    return {**hands, seat: tuple(hand)}



def agreement_key(outcome: Outcome) -> bytes:
    return msgspec.json.encode(outcome, order="sorted")

