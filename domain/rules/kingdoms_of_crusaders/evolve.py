"""The fold: every Kingdoms of Crusaders event assigns what it carries. Nothing here decides."""

from __future__ import annotations

from msgspec.structs import replace

from domain.events import CardsShuffled, DiceRolled, EventData
from domain.rules.kingdoms_of_crusaders import events as ev
from domain.rules.kingdoms_of_crusaders.data import FIRST_PLAYER_DICE
from domain.rules.kingdoms_of_crusaders.state import KingdomsOfCrusadersState, Marker


def evolve(state: KingdomsOfCrusadersState, event: EventData) -> KingdomsOfCrusadersState:
    """Fold one event into the state (core events that change nothing pass through)."""
    match event:
        case CardsShuffled(deck="units"):
            return replace(state, shuffle=event)
        case DiceRolled(kind=kind, faces=[first]) if kind in FIRST_PLAYER_DICE:
            return replace(state, first=str(first), phase="play")
        case ev.DrawnCards(seat=seat, cards=cards):  # (CardsDrawn, its public count, changes nothing more)
            hands = {**state.hands, seat: state.hands[seat] + tuple(c.id for c in cards)}
            return replace(state, hands=hands, drawn=state.drawn + len(cards))
        case ev.TurnBegan(seat=seat, turn=turn):
            return replace(state, current=seat, turn=turn)
        case ev.CardPlaced(seat=seat, card=card, sector=sector, completed=completed):
            hand = list(state.hands[seat])
            hand.remove(card.id)
            mine = list(state.sectors[seat])
            mine[sector - 1] = mine[sector - 1] + (card.id,)
            unseen = dict(state.unseen)
            unseen[state.cards[card.id]] -= 1
            done = state.completed
            if completed:
                done = tuple(d + (seat,) if i == sector - 1 else d for i, d in enumerate(done))
            return replace(state, hands={**state.hands, seat: tuple(hand)},
                           sectors={**state.sectors, seat: tuple(mine)}, unseen=unseen, completed=done)
        case ev.TerritoryWon(seat=seat, sector=sector, marker=number):
            return replace(state, markers=state.markers + (Marker(number, sector, seat),))
        case ev.HandsShown():
            return replace(state, shown=True)
        case ev.GameDecided(outcome=outcome):
            return replace(state, result=outcome, phase="over", current=None)
    return state
