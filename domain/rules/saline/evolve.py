"""The fold: every Saline event applies what it carries. Nothing here decides."""

from __future__ import annotations

from msgspec.structs import replace

from domain.events import CardsShuffled, DiceRolled, EventData, VoidedCardsReshuffled
from domain.rules.saline import events as ev
from domain.rules.base import Window
from domain.rules.saline.state import Held, Play, SalineState

RESERVE = "reserve"


def _add(d: dict, key: str, n: int) -> dict:
    return {**d, key: d[key] + n}


def _salt(state: SalineState, place: str, n: int) -> SalineState:
    """``n`` cubes onto ``place`` (negative: taken off)."""
    if place == RESERVE:
        return replace(state, salt_reserve=state.salt_reserve + n)
    if place in state.mulons:
        return replace(state, mulons=_add(state.mulons, place, n))
    return replace(state, salt=_add(state.salt, place, n))


def evolve(state: SalineState, event: EventData) -> SalineState:
    """Fold one event into the state (core events that change nothing pass through)."""
    match event:
        case VoidedCardsReshuffled(deck="oeillets"):  # after a void: a new order, the same cards drawn
            return replace(state, oeillet_shuffle=event)
        case VoidedCardsReshuffled(deck="events"):
            return replace(state, event_shuffle=event)
        case CardsShuffled(deck="objectives"):
            return replace(state, objective_shuffle=event)
        case CardsShuffled(deck="oeillets"):
            return replace(state, oeillet_shuffle=event)
        case CardsShuffled(deck="events"):
            if state.event_shuffle is None:
                return replace(state, event_shuffle=event)
            return replace(state, event_shuffle=event, event_deck=tuple(sorted(state.event_discard)),
                           event_discard=(), events_drawn=frozenset())
        case DiceRolled(kind=kind, faces=[first]) if kind.startswith("saline-first-player"):
            return replace(state, first=str(first), current=str(first), phase="placing")
        case ev.ObjectivesRevealed(objectives=objectives):
            return replace(state, public_objectives=tuple(o.id for o in objectives))
        case ev.SecretObjectiveDealt(seat=seat, objective=objective):
            return replace(state, secrets={**state.secrets, seat: objective.id})
        case ev.FavoursGiven(favours=favours, liards=liards, salt=salt):
            return replace(state, favours=dict(favours), liards={s: liards for s in state.seats},
                           mulons={s: salt for s in state.seats},
                           salt_reserve=state.salt_reserve - salt * len(state.seats))
        case ev.MarketReplenished(market=market, revealed=revealed):
            return replace(state, market=tuple(m.oeillet for m in market),
                           oeillets_drawn=state.oeillets_drawn | set(revealed))
        case ev.DrawnEventCards(seat=seat, cards=cards, night=night):
            ids = tuple(c.id for c in cards)
            fresh = {**state.fresh, seat: state.fresh.get(seat, ()) + ids} if night else state.fresh
            return replace(state, hands=_add(state.hands, seat, ids), events_drawn=state.events_drawn | set(ids),
                           fresh=fresh)
        case ev.GreenOeilletPlaced(seat=seat, oeillet=oeillet, position=position):
            return replace(state, salines={**state.salines, seat: {position: oeillet}},
                           salt={**state.salt, oeillet: 0})
        case ev.DayBegan(day=day, first=first):
            return replace(state, day=day, first=first, current=first, phase="day", claimed_today=frozenset(),
                           played_today={s: 0 for s in state.seats}, exempt=frozenset(), drew=frozenset(),
                           fresh={s: () for s in state.seats}, acted=False)
        case ev.WeatherRead(rain=rain):
            return replace(state, rain=rain)
        case ev.GabelleMoved(value=value):
            return replace(state, gabelle=value)
        case ev.SaltProduced(salt=salt):
            on = dict(state.salt)
            for oeillet, n in salt.items():
                on[oeillet] += n
            return replace(state, salt=on, salt_reserve=state.salt_reserve - sum(salt.values()))
        case ev.SaltMoved(source=source, destination=destination, salt=n):
            return _salt(_salt(state, source, -n), destination, n)
        case ev.LiardsPaid(payer=payer, payee=payee, liards=n):
            liards = dict(state.liards)
            if payer != RESERVE:
                liards[payer] -= n
            if payee != RESERVE:
                liards[payee] += n
            return replace(state, liards=liards)
        case ev.OeilletBought(seat=seat, oeillet=oeillet, space=space, position=position):
            market = tuple(None if i == space - 1 else m for i, m in enumerate(state.market))
            return replace(state, market=market, salines={**state.salines, seat: {**state.salines[seat], position: oeillet}},
                           salt={**state.salt, oeillet: 0})
        case ev.ActionTaken():
            return replace(state, acted=True)
        case ev.OeilletSacrificed(seat=seat, oeillet=oeillet, position=position):
            salt = dict(state.salt)
            del salt[oeillet]
            saline = {p: o for p, o in state.salines[seat].items() if p != position}
            return replace(state, salt=salt, salines={**state.salines, seat: saline}, sacrificing=None)
        case ev.CardPlayed(seat=seat, card=card, answering=answering):
            play = Play(seat=seat, card=card, effect=event.effect, target=event.target, colour=event.colour,
                        space=event.space, position=event.position)
            if card == "favour":
                state = replace(state, favours={**state.favours, seat: None})
            else:
                hand = list(state.hands[seat])
                hand.remove(card)
                state = replace(state, hands={**state.hands, seat: tuple(hand)},
                                played_today=_add(state.played_today, seat, 1),
                                event_discard=state.event_discard + (card,))
            if answering is None:
                i = state.seats.index(seat)
                others = state.seats[i + 1:] + state.seats[:i]
                return replace(state, pending=play, asked=others, responses=())
            return replace(state, asked=state.asked[1:], responses=state.responses + (play,))
        case ev.OutcomeStated(outcome=outcome):  # the play just folded: an answer, or the card answered
            if state.responses:
                return replace(state, responses=state.responses[:-1] + (replace(state.responses[-1], outcome=outcome),))
            return replace(state, pending=replace(state.pending, outcome=outcome))
        case ev.ResponsePassed(seat=seat):
            if state.pending is None and state.window is not None:
                return replace(state, window=state.window.passed(seat))
            return replace(state, asked=state.asked[1:])
        case ev.ActionAnnounced(seat=seat, action=action):
            return replace(state, held=Held(seat, action, event.space, event.position, event.colour, event.sacrifice))
        case ev.WindowOpened(seat=seat, action=action, seats=seats):
            return replace(state, window=Window.open(seat, action, seats))
        case ev.WindowClosed():
            return replace(state, window=None, held=None)
        case ev.SacrificeOwed(seat=seat):
            return replace(state, sacrificing=seat)
        case ev.CardResolved(copy=False):
            return replace(state, pending=None, asked=(), responses=())
        case ev.SalesExempt(seat=seat):
            return replace(state, exempt=state.exempt | {seat})
        case ev.TurnBegan(seat=seat, phase=phase):
            return replace(state, current=seat, phase=phase, acted=False)
        case ev.TurnEnded(seat=seat, phase="night"):
            return replace(state, drew=state.drew | {seat})
        case ev.HandLimitDiscard(seat=seat):
            return replace(state, discarding=state.discarding + (seat,))
        case ev.EventCardDiscarded(seat=seat, card=card):
            hand = list(state.hands[seat])
            hand.remove(card)
            rest = list(state.discarding)
            rest.remove(seat)
            return replace(state, hands={**state.hands, seat: tuple(hand)}, discarding=tuple(rest),
                           event_discard=state.event_discard + (card,))
        case ev.ObjectiveClaimed(seat=seat, objective=objective):
            return replace(state, claimed=_add(state.claimed, seat, (objective.id,)),
                           claimed_today=state.claimed_today | {seat},
                           public_objectives=tuple(o for o in state.public_objectives if o != objective.id))
        case ev.HandsShown():
            return replace(state, shown=True)
        case ev.GameDecided(outcome=outcome):
            return replace(state, result=outcome, phase="over", current=None, pending=None, asked=(), window=None,
                           held=None)
    return state
