"""What is legal and what happens: preparation, the turn (draw, then place), territories won
at once, the end and the winner. ``legal`` and ``decide`` share :func:`check`, so a listed
command is exactly an accepted one."""

from __future__ import annotations

from domain.events import EventData, Outcome
from domain.rng import Rng
from domain.rules.base import GAME_OVER, NOT_YOUR_TURN, RuleViolation, Step as BaseStep
from domain.rules.kingdoms_of_crusaders import events as ev
from domain.rules.kingdoms_of_crusaders.armies import can_still_beat, strength
from domain.rules.kingdoms_of_crusaders.commands import KingdomsOfCrusadersCommand, Place, Prepare
from domain.rules.kingdoms_of_crusaders.data import (
    FIRST_PLAYER_DICE, HAND, SECTOR_CAPACITY, SYSTEM, TERRITORIES, symbols,
)
from domain.rules.kingdoms_of_crusaders.evolve import evolve
from domain.rules.kingdoms_of_crusaders.state import KingdomsOfCrusadersState

R_PREPARATION = "Preparation for a game"
R_TURN = "Turn sequence"
R_LOCATION = "Location card"
R_END = "End of a game and a Winner"
DECK = "units"


def violation(reason: str, message: str, rule: str) -> RuleViolation:
    return RuleViolation(f"{SYSTEM}.{reason}", message, rule)


def card(state: KingdomsOfCrusadersState, card_id: str) -> ev.Card:
    return ev.Card(id=card_id, symbols=symbols(state.cards[card_id]))


def room(state: KingdomsOfCrusadersState, seat: str) -> list[int]:
    """The seat's sectors that still hold fewer than four cards."""
    return [n for n in TERRITORIES if len(state.sectors[seat][n - 1]) < SECTOR_CAPACITY]


# -- legality ------------------------------------------------------------------------------------------
def to_act(state: KingdomsOfCrusadersState) -> list[str]:
    if state.phase == "preparation":
        return [state.seats[0]]
    return [state.current] if state.phase == "play" and state.current else []


def check(state: KingdomsOfCrusadersState, seat: str, command: KingdomsOfCrusadersCommand) -> None:
    """Raise the RuleViolation that refuses ``command`` from ``seat`` now, if any."""
    if state.phase == "over":
        raise RuleViolation(GAME_OVER, "the game has ended", R_END)
    if seat not in to_act(state):
        raise RuleViolation(NOT_YOUR_TURN, f"{seat} may not act now", R_TURN)
    match command:
        case Prepare():
            if state.phase != "preparation":
                raise violation("already_prepared", "the game is already prepared", R_PREPARATION)
        case Place(card=card_id, sector=sector):
            if state.phase != "play":
                raise violation("not_prepared", "prepare the game first: shuffle and deal", R_PREPARATION)
            if card_id not in state.hands[seat]:
                raise violation("card_not_in_hand", f"{card_id!r} is not in your hand", R_TURN)
            if sector not in TERRITORIES:
                raise violation("no_such_sector", f"sectors are numbered 1 to {len(TERRITORIES)}, not {sector}",
                                R_LOCATION)
            if len(state.sectors[seat][sector - 1]) >= SECTOR_CAPACITY:
                raise violation("sector_full", f"your sector {sector} already holds {SECTOR_CAPACITY} cards",
                                R_LOCATION)


def legal(state: KingdomsOfCrusadersState, seat: str) -> list[KingdomsOfCrusadersCommand]:
    """Every command ``seat`` may send now."""
    if state.phase == "over" or seat not in to_act(state):
        return []
    if state.phase == "preparation":
        return [Prepare()]
    return [Place(card=c, sector=n) for c in sorted(set(state.hands[seat])) for n in room(state, seat)]


# -- what happens -----------------------------------------------------------------------------------
class Step(BaseStep):
    """The events of one decision (domain/rules/base.py), with this rule system's helpers."""

    fold = staticmethod(evolve)

    def draw(self, seat: str, count: int) -> None:
        """Draw ``count`` cards from the top of the deck: the first cards in the shuffle's order
        that are still in the deck (the order is computed here and never stored)."""
        s = self.state
        out = {c for h in s.hands.values() for c in h} | {c for p in s.seats for x in s.sectors[p] for c in x}
        top = []
        for i in self.rng.order(s.shuffle):
            if s.deck[i] not in out:
                top.append(s.deck[i])
                if len(top) == count:
                    break
        self.emit(ev.CardsDrawn(seat=seat, count=count))
        self.emit(ev.DrawnCards(seat=seat, cards=[card(s, c) for c in top]))


def decide(state: KingdomsOfCrusadersState, seat: str, command: KingdomsOfCrusadersCommand,
           rng: Rng) -> list[EventData]:
    check(state, seat, command)
    step = Step(state, rng)
    match command:
        case Prepare():
            prepare(step)
        case Place(card=card_id, sector=sector):
            place(step, seat, card_id, sector)
    return step.events


def prepare(step: Step) -> None:
    """Shuffle the deck; determine who moves first at random; five cards each from the top,
    the first player first; then the first player's turn begins."""
    s = step.state
    step.emit(step.rng.shuffle(DECK, len(s.deck), purpose="before each game you have to shuffle the deck"))
    die = FIRST_PLAYER_DICE[f"first-player-{len(s.seats)}"]
    step.emit(step.rng.roll(die, 1, purpose="who moves first"))
    first = step.state.first
    for seat in in_turn_order(step.state, first):
        step.draw(seat, HAND)
    begin_turn(step, first)


def in_turn_order(state: KingdomsOfCrusadersState, start: str) -> list[str]:
    i = state.seats.index(start)
    return list(state.seats[i:] + state.seats[:i])


def begin_turn(step: Step, seat: str) -> None:
    step.emit(ev.TurnBegan(seat=seat, turn=step.state.turn + 1))
    step.draw(seat, 1)


def place(step: Step, seat: str, card_id: str, sector: int) -> None:
    s = step.state
    completed = len(s.sectors[seat][sector - 1]) == SECTOR_CAPACITY - 1
    step.emit(ev.CardPlaced(seat=seat, card=card(s, card_id), sector=sector, completed=completed))
    for territory in [sector] + [t for t in TERRITORIES if t != sector]:
        if step.state.winner_of(territory) is None:
            winner = dominates(step.state, territory)
            if winner is not None:
                step.emit(ev.TerritoryWon(seat=winner, sector=territory, marker=len(step.state.markers) + 1))
    if len(step.state.markers) == len(TERRITORIES):
        s = step.state
        step.emit(ev.HandsShown(hands={p: [card(s, c) for c in s.hands[p]] for p in s.seats}))
        step.emit(ev.GameDecided(outcome=final_outcome(step.state)))
        return
    nxt = next((p for p in in_turn_order(step.state, seat)[1:] + [seat] if room(step.state, p)), None)
    if nxt is None:  # pragma: no cover - every sector full means every territory is won
        raise AssertionError("every sector is full but a territory is not won")
    begin_turn(step, nxt)


def army(state: KingdomsOfCrusadersState, seat: str, territory: int) -> list[int]:
    return [state.cards[c] for c in state.sectors[seat][territory - 1]]


def best_complete(state: KingdomsOfCrusadersState, territory: int) -> tuple[str, int] | None:
    """The best complete army in the territory (the one completed first among equals)."""
    best: tuple[str, int] | None = None
    for seat in state.completed[territory - 1]:
        power = strength(army(state, seat, territory))
        if best is None or power > best[1]:
            best = (seat, power)
    return best


def dominates(state: KingdomsOfCrusadersState, territory: int) -> str | None:
    """The player who wins the territory at once, if any: a complete army that no other player
    can still beat there from the cards not yet seen (RULES_NOTES.md, "Can still beat")."""
    best = best_complete(state, territory)
    if best is None:
        return None
    seat, power = best
    for other in state.seats:
        if other != seat and len(state.sectors[other][territory - 1]) < SECTOR_CAPACITY:
            if can_still_beat(army(state, other, territory), state.unseen, power):
                return None
    return seat


# -- the end -----------------------------------------------------------------------------------------
def standing(state: KingdomsOfCrusadersState, territory: int) -> list[list[str]]:
    """Every army in the territory, best first, as places (seats sharing a place are equal):
    the chain, then who completed first; an army never completed comes after complete equals."""
    order = state.completed[territory - 1]

    def key(seat: str) -> tuple[int, int]:
        done = order.index(seat) if seat in order else len(order)
        return (-strength(army(state, seat, territory)), done)

    places: list[list[str]] = []
    last = None
    for seat in sorted(state.seats, key=lambda p: (key(p), state.seats.index(p))):
        k = key(seat)
        if k == last and k[1] == len(order):  # equal armies, neither completed: a shared place
            places[-1].append(seat)
        else:
            places.append([seat])
        last = k
    return places


def has_army(state: KingdomsOfCrusadersState, seat: str, territory: int) -> bool:
    """Whether the player has an army in the territory to rank: at least one card there
    (RULES_NOTES.md, reading 11). Version 1.0.0 ranked every player, cards or none."""
    return state.version == "1.0.0" or bool(state.sectors[seat][territory - 1])


def final_outcome(state: KingdomsOfCrusadersState) -> Outcome:
    """Most victory markers wins; with equal quantities, "the players whose numbers on the
    «victory markers» are greater will lose", as the game's ``tie`` option reads it (RULES_NOTES.md,
    reading 10). With the points variant, points first."""
    markers = {p: sorted((m.number for m in state.markers if m.seat == p), reverse=True) for p in state.seats}
    if state.points:
        points = {p: 0 for p in state.seats}
        for territory in TERRITORIES:
            winner = state.winner_of(territory).seat
            points[winner] += 3
            others = [[p for p in place if has_army(state, p, territory)]
                      for place in standing(state, territory) if winner not in place]
            for award, place in zip((2, 1), [place for place in others if place]):
                for p in place:
                    points[p] += award
        scores = {p: float(points[p]) for p in state.seats}
    else:
        scores = {p: float(len(markers[p])) for p in state.seats}

    def greater(p: str) -> tuple:
        # the marker numbers that lose: greatest first ("greatest-marker"), or their sum ("marker-sum")
        return (sum(markers[p]),) if state.tie == "marker-sum" else tuple(markers[p])

    def rank(p: str) -> tuple:
        # more is better for scores and marker counts; smaller marker numbers are better
        return (-scores[p], -len(markers[p]), greater(p))

    ranking = sorted(state.seats, key=lambda p: (rank(p), state.seats.index(p)))
    top = [p for p in ranking if rank(p) == rank(ranking[0])]
    what = "points" if state.points else "victory markers"
    if len(top) > 1:
        return Outcome(draw=True, reason=f"equal {what} and marker numbers", scores=scores, ranking=ranking)
    winner, second = ranking[0], ranking[1]
    if scores[winner] != scores[second]:
        reason = f"most {what}"
    elif len(markers[winner]) != len(markers[second]):
        reason = f"equal points with {second}; more victory markers"
    else:
        reason = f"equal {what} with {second}, whose victory markers carry greater numbers"
    return Outcome(winner=winner, reason=reason, scores=scores, ranking=ranking)
