"""What happens: set-up, the morning (market, météo, production), the day actions, cards and their
answers resolved in the rulebook's order (gabelle, cost, effect), the night draw, objectives
claimed as soon as met, the end of the game and the scoring. Every decision goes through
:func:`decide`, which checks it first (:func:`.legality.check`)."""

from __future__ import annotations

import itertools

from domain.events import EventData, Outcome
from domain.rng import Rng
from domain.rules.base import Step as BaseStep
from domain.rules.saline import events as ev
from domain.rules.saline.commands import (
    Buy, Discard, DoNothing, Draw, EndTurn, Harvest, Pass, Place, PlayCard, Prepare, Sacrifice, SalineCommand, Sell,
)
from domain.rules.saline.data import (
    COLOURS, DIE_KINDS, END_LIARDS, GABELLE_MAX, GABELLE_MIN, HAND_LIMIT, MAX_OEILLETS, MULON_MAX, RAIN_RESET,
    START_LIARDS, START_SALT, TURNED, Effect, weather_face,
)
from domain.rules.saline.evolve import RESERVE, evolve
from domain.rules.saline.legality import (
    DIFFERENT_COLOURS, SAME_COLOUR, check, effect_of, in_turn_order, reserve_liards, window_seats,
)
from domain.rules.saline.state import Held, Play, SalineState


def card_of(state: SalineState, card: str) -> ev.Card:
    return ev.Card(id=card, effects=[e.name for e in state.cat.events[card]])


def objective_of(state: SalineState, objective: str) -> ev.ObjectiveCard:
    o = state.cat.objectives[objective]
    return ev.ObjectiveCard(id=objective, name=o.name, cells=dict(o.cells))


def meets(state: SalineState, seat: str, objective: str, either_way: bool) -> bool:
    """Whether ``seat``'s saline meets the objective's placement criteria, read in the player's own
    direction (and, for the secret objective, turned round too)."""
    saline = state.salines.get(seat, {})
    cells = state.cat.objectives[objective].cells

    def fits(turn: bool) -> bool:
        for position, colour in cells.items():
            oeillet = saline.get(TURNED[position] if turn else position)
            if oeillet is None or (colour != "any" and state.colour(oeillet) != colour):
                return False
        return True

    return fits(False) or (either_way and fits(True))


class Step(BaseStep):
    """The events of one decision (domain/rules/base.py), with this rule system's helpers."""

    fold = staticmethod(evolve)

    # -- money and salt: never more than there is ------------------------------------------------
    def pay(self, payer: str, payee: str, liards: int, reason: str) -> int:
        have = reserve_liards(self.state) if payer == RESERVE else self.state.liards[payer]
        n = min(liards, have)
        if n > 0:
            self.emit(ev.LiardsPaid(payer=payer, payee=payee, liards=n, reason=reason))
        return n

    def move_salt(self, source: str, destination: str, salt: int, reason: str) -> None:
        if salt > 0:
            self.emit(ev.SaltMoved(source=source, destination=destination, salt=salt, reason=reason))

    def onto_mulon(self, seat: str, source: str, salt: int, reason: str) -> None:
        """Salt onto a mulon; what would take it over 10 is removed (to the reserve), so a mulon
        never holds more than 10."""
        fits = min(salt, MULON_MAX - self.state.mulons[seat])
        self.move_salt(source, seat, fits, reason)
        self.move_salt(source, RESERVE, salt - fits, "excess")

    def gabelle(self, step: int, by: str) -> None:
        value = max(GABELLE_MIN, min(GABELLE_MAX, self.state.gabelle + step))
        if step and value != self.state.gabelle:
            self.emit(ev.GabelleMoved(step=step, value=value, by=by))

    # -- decks -----------------------------------------------------------------------------------
    def reveal_oeillets(self, count: int) -> list[str]:
        s = self.state
        out = []
        if count and s.oeillet_shuffle is not None:
            for i in self.rng.order(s.oeillet_shuffle):
                if s.oeillet_deck[i] not in s.oeillets_drawn:
                    out.append(s.oeillet_deck[i])
                    if len(out) == count:
                        break
        return out

    def draw_events(self, seat: str, count: int, night: bool) -> None:
        """Draw from the top of the event deck: the first cards in the shuffle's order still in it;
        an empty deck is the discards shuffled again (RULES_NOTES.md)."""
        top: list[str] = []
        while len(top) < count:
            s = self.state
            left = [s.event_deck[i] for i in self.rng.order(s.event_shuffle)
                    if s.event_deck[i] not in s.events_drawn and s.event_deck[i] not in top]
            top += left[:count - len(top)]
            if len(top) < count:
                if not s.event_discard:
                    break
                if top:  # the cards already drawn leave the old pile first
                    self.emit(ev.EventCardsDrawn(seat=seat, count=len(top)))
                    self.emit(ev.DrawnEventCards(seat=seat, cards=[card_of(s, c) for c in top], night=night))
                    count -= len(top)
                    top = []
                self.emit(self.rng.shuffle("events", len(self.state.event_discard),
                                           purpose="the event deck is empty: the discards are shuffled"))
        if top:
            self.emit(ev.EventCardsDrawn(seat=seat, count=len(top)))
            self.emit(ev.DrawnEventCards(seat=seat, cards=[card_of(self.state, c) for c in top], night=night))


def decks_in_play(state: SalineState) -> list[tuple[str, int]]:
    """The œillet and event decks once shuffled, with two cards or more still in each."""
    decks = (("oeillets", state.oeillet_shuffle, state.oeillet_deck, state.oeillets_drawn),
             ("events", state.event_shuffle, state.event_deck, state.events_drawn))
    return [(name, len(cards)) for name, shuffle, cards, drawn in decks
            if shuffle is not None and sum(c not in drawn for c in cards) > 1]


def decide(state: SalineState, seat: str, command: SalineCommand, rng: Rng) -> list[EventData]:
    check(state, seat, command)
    step = Step(state, rng)
    match command:
        case Prepare():
            prepare(step)
        case Place(position=position):
            place_green(step, seat, position)
        case PlayCard():
            play = Play(seat, command.card, command.effect, command.target, command.colour, command.space,
                        command.position)
            answering = step.state.pending.card if step.state.pending is not None else None
            step.emit(ev.CardPlayed(seat=seat, card=command.card, effect=command.effect, target=command.target,
                                    colour=command.colour, space=command.space, position=command.position,
                                    answering=answering))
            if command.outcome is not None:
                step.emit(ev.OutcomeStated(seat=seat, card=command.card, outcome=command.outcome))
            if answering is not None and effect_of(step.state, play).effect == "cancel":
                close_window(step, cancelled_by=play)
        case Pass():
            step.emit(ev.ResponsePassed(seat=seat))
        case Buy(space=space, position=position):
            announce(step, Held(seat, "buy", space=space, position=position))
        case Harvest(colour=colour):
            announce(step, Held(seat, "harvest", colour=colour))
        case Sell(sacrifice=sacrifice):
            announce(step, Held(seat, "sell", sacrifice=sacrifice))
        case DoNothing():
            announce(step, Held(seat, "nothing"))
        case EndTurn():
            step.emit(ev.TurnEnded(seat=seat, phase="day"))
        case Draw():
            announce(step, Held(seat, "draw"))
        case Discard(card=card):
            step.emit(ev.EventCardDiscarded(seat=seat, card=card))
        case Sacrifice(position=position):
            sacrifice_oeillet(step, seat, position)
    settle(step)
    return step.events


# -- actions, and the window before each (issue 26) ----------------------------------------------------
def announce(step: Step, held: Held) -> None:
    """A day action or the night draw: under saline 1.1.0 it waits while the other players may play
    cards bearing the triangle or their favour ("at any time"; the Night's Nota bene: "even after
    drawing your end-of-turn card"), then resolves when every one of them has passed; at once when
    nobody may play (or in a 1.0.0 game)."""
    seats = [] if step.state.legacy else window_seats(step.state, held.seat)
    if not seats:
        take(step, held)
        return
    step.emit(ev.ActionAnnounced(seat=held.seat, action=held.action, space=held.space, position=held.position,
                                 colour=held.colour, sacrifice=held.sacrifice))
    step.emit(ev.WindowOpened(seat=held.seat, action=held.action, seats=seats))


def take(step: Step, held: Held) -> None:
    """The action (or draw) resolves."""
    seat = held.seat
    if held.action == "draw":
        night_draw(step, seat, 1)
        return
    step.emit(ev.ActionTaken(seat=seat, action=held.action))
    match held.action:
        case "buy":
            buy(step, seat, held.space, held.position)
        case "harvest":
            harvest(step, seat, held.colour)
        case "sell":
            sell(step, seat, held.sacrifice)
        case "nothing":
            step.pay(RESERVE, seat, 1, "nothing")


def possible(state: SalineState, held: Held) -> bool:
    """Whether a held action can still be taken once the cards played before it have resolved (a
    purchase the player can no longer pay for cannot)."""
    match held.action:
        case "buy":
            return valid_buy(state, held.seat, held.space, held.position)
        case "sell":
            return state.mulons[held.seat] > 0
        case "harvest":
            return any(state.colour(o) == held.colour for o in state.salines[held.seat].values())
    return True


def out_of_turn(step: Step) -> None:
    """The window before a held action: opened again (to whoever may play now) after a card played in
    it has resolved; closed when nobody waits, the held action then resolving."""
    s = step.state
    if s.window is None or s.pending is not None:
        return
    if any(isinstance(e, ev.CardResolved) and not e.copy for e in step.events):
        step.emit(ev.WindowOpened(seat=s.held.seat, action=s.held.action, seats=window_seats(s, s.held.seat)))
    s = step.state
    if s.window.closed:
        held = s.held
        can = possible(s, held)
        step.emit(ev.WindowClosed(seat=held.seat, action=held.action, possible=can))
        if can:
            take(step, held)


# -- set-up --------------------------------------------------------------------------------------------
def prepare(step: Step) -> None:
    """Setup, in the rulebook's order: objectives face up by player count and one face down each;
    a favour, 3 liards and a mulon with 3 salt each; the œillet deck shuffled with 4 on the market;
    2 event cards each; a first player at random. (The gabelle is at 1 and the rain at 0.)"""
    s = step.state
    n = len(s.seats)
    objectives = sorted(s.cat.objectives)
    step.emit(step.rng.shuffle("objectives", len(objectives), purpose="shuffle the objectives"))
    order = [objectives[i] for i in step.rng.order(step.state.objective_shuffle)]
    public = order[:s.cat.public_objectives[str(n)]]
    step.emit(ev.ObjectivesRevealed(objectives=[objective_of(s, o) for o in public]))
    step.emit(ev.SecretObjectivesDealt(seats=list(s.seats)))
    for seat, objective in zip(s.seats, order[len(public):]):
        step.emit(ev.SecretObjectiveDealt(seat=seat, objective=objective_of(s, objective)))
    step.emit(ev.FavoursGiven(favours=dict(zip(s.seats, s.cat.favours)), liards=START_LIARDS, salt=START_SALT))
    step.emit(step.rng.shuffle("oeillets", len(s.oeillet_deck), purpose="shuffle the œillet cards"))
    market(step)
    step.emit(step.rng.shuffle("events", len(s.event_deck), purpose="shuffle the event cards"))
    for seat in s.seats:
        step.draw_events(seat, 2, night=False)
    step.emit(step.rng.roll(DIE_KINDS[f"saline-first-player-{n}"], 1, purpose="a first player at random"))


def greens(state: SalineState) -> dict[str, str]:
    """The green œillet each player receives at set-up (the first greens of the data, by seat)."""
    ids = [o for o, c in sorted(state.cat.oeillets.items()) if c == "green"]
    return dict(zip(state.seats, ids))


def place_green(step: Step, seat: str, position: str) -> None:
    step.emit(ev.GreenOeilletPlaced(seat=seat, oeillet=greens(step.state)[seat], position=position))
    if len(step.state.salines) == len(step.state.seats):
        morning(step, step.state.first, step.state.day + 1)


# -- the day ------------------------------------------------------------------------------------------
def market(step: Step) -> None:
    """Slide the remaining œillets toward the lowest price, then reveal new ones on the empty spaces."""
    s = step.state
    remaining = [m for m in s.market if m is not None]
    revealed = step.reveal_oeillets(len(s.market) - len(remaining))
    slots = (remaining + revealed + [None] * len(s.market))[:len(s.market)]
    if tuple(slots) != s.market:
        step.emit(ev.MarketReplenished(
            market=[ev.MarketSpace(price=p, oeillet=o, colour=s.colour(o) if o else None)
                    for p, o in zip(s.cat.prices, slots)],
            revealed=revealed))


def morning(step: Step, first: str, day: int) -> None:
    """Morning: replenish the market; the first player rolls the 2 météo dice, everyone benefits."""
    step.emit(ev.DayBegan(day=day, first=first))
    market(step)
    while True:
        faces = []
        dice = step.state.cat.weather
        for die in dice:  # one roll of both dice when alike, else one roll of each
            rolled = step.rng.roll(die, 2 // len(dice), purpose="the météo dice", seat=first)
            step.emit(rolled)
            faces += [str(f) for f in rolled.faces]
        read = [weather_face(f) for f in faces]
        for face, (_, move) in zip(faces, read):
            step.gabelle(move, face)
        kinds = {k for k, _ in read}
        if "rain" in kinds:
            rain = step.state.rain + 1
            again = rain >= RAIN_RESET
            step.emit(ev.WeatherRead(faces=faces, production="none", rain=0 if again else rain, roll_again=again))
            if again:
                continue
            break
        double = {"wind", "sun"} <= kinds
        step.emit(ev.WeatherRead(faces=faces, production="double" if double else "single", rain=step.state.rain,
                                 roll_again=False))
        produce(step, list(step.state.seats), 2 if double else 1)
        break
    claim_objectives(step)
    step.emit(ev.TurnBegan(seat=first, phase="day"))


def produce(step: Step, seats: list[str], per_oeillet: int) -> None:
    s = step.state
    added = {}
    for seat in seats:
        for oeillet in s.salines[seat].values():
            room = s.cat.capacity[s.colour(oeillet)] - s.salt[oeillet]
            if min(per_oeillet, room) > 0:
                added[oeillet] = min(per_oeillet, room)
    if added:
        step.emit(ev.SaltProduced(salt=dict(sorted(added.items())), seats=seats))


def buy(step: Step, seat: str, space: int, position: str) -> None:
    s = step.state
    oeillet = s.market[space - 1]
    price = s.cat.prices[space - 1]
    step.pay(seat, RESERVE, price, "price")
    step.emit(ev.OeilletBought(seat=seat, oeillet=oeillet, colour=s.colour(oeillet), space=space, price=price,
                               position=position))


def harvest(step: Step, seat: str, colour: str) -> None:
    """All the salt on the seat's œillets of that colour onto the mulon; the excess over 10 removed."""
    s = step.state
    for position, oeillet in sorted(s.salines[seat].items()):
        if s.colour(oeillet) == colour:
            step.onto_mulon(seat, oeillet, s.salt[oeillet], "harvest")


def sell(step: Step, seat: str, sacrifice: str | None) -> None:
    """Sell the mulon's salt (1 salt = 1 liard), then pay the gabelle to the sovereign; unable to
    pay it, sacrifice 1 œillet and keep the liards (FAQ)."""
    salt = step.state.mulons[seat]
    step.move_salt(seat, RESERVE, salt, "sale")
    step.pay(RESERVE, seat, salt, "sale")
    if seat in step.state.exempt:
        return
    if step.state.liards[seat] >= step.state.gabelle:
        step.pay(seat, RESERVE, step.state.gabelle, "gabelle")
    elif sacrifice is not None and sacrifice in step.state.salines[seat]:
        sacrifice_oeillet(step, seat, sacrifice)
    elif not step.state.legacy and step.state.salines[seat]:  # the gabelle rose while the sale was announced
        step.emit(ev.SacrificeOwed(seat=seat))


def sacrifice_oeillet(step: Step, seat: str, position: str) -> None:
    oeillet = step.state.salines[seat][position]
    step.move_salt(oeillet, RESERVE, step.state.salt[oeillet], "sacrifice")
    step.emit(ev.OeilletSacrificed(seat=seat, oeillet=oeillet, position=position))


def night_draw(step: Step, seat: str, count: int) -> None:
    """Draw event cards: the end of the player's turn; a hand over 2 discards the excess."""
    step.draw_events(seat, count, night=True)
    step.emit(ev.TurnEnded(seat=seat, phase="night"))
    for _ in range(len(step.state.hands[seat]) - HAND_LIMIT):
        step.emit(ev.HandLimitDiscard(seat=seat))


# -- cards --------------------------------------------------------------------------------------------
def close_window(step: Step, cancelled_by: Play | None = None) -> None:
    """Everyone has answered the card just played (or a Souverain cancelled it): resolve it, then
    each Courtisane's copy right after it."""
    s = step.state
    pending, answers = s.pending, s.responses
    effect = effect_of(s, pending)
    if cancelled_by is not None:
        step.gabelle(effect_of(s, cancelled_by).gabelle, cancelled_by.effect)
        cost_of(step, cancelled_by, effect_of(s, cancelled_by))
        step.emit(ev.CardResolved(seat=pending.seat, card=pending.card, effect=pending.effect, cancelled=True))
        for answer in answers:
            if answer is not cancelled_by and effect_of(s, answer).effect == "copy":
                step.emit(ev.CardResolved(seat=answer.seat, card=answer.card, effect=pending.effect, cancelled=True,
                                          copy=True))
        return
    gabelou = next((a for a in answers if effect_of(s, a).effect == "collect_gabelle"), None)
    if gabelou is not None:
        step.gabelle(effect_of(s, gabelou).gabelle, gabelou.effect)
        cost_of(step, gabelou, effect_of(s, gabelou))
    resolve(step, pending, effect, gabelou=gabelou.seat if gabelou else None)
    step.emit(ev.CardResolved(seat=pending.seat, card=pending.card, effect=pending.effect))
    for answer in answers:
        if effect_of(s, answer).effect == "copy":
            courtisane = effect_of(s, answer)
            step.gabelle(courtisane.gabelle, courtisane.name)
            cost_of(step, answer, courtisane)
            copy = Play(answer.seat, answer.card, pending.effect, answer.target, answer.colour, answer.space,
                        answer.position, answer.outcome)
            resolve(step, copy, effect)
            step.emit(ev.CardResolved(seat=answer.seat, card=answer.card, effect=pending.effect, copy=True))


def cost_of(step: Step, play: Play, effect: Effect) -> None:
    if effect.cost:
        payee = play.target if effect.cost_to == "target" and play.target else RESERVE
        step.pay(play.seat, payee, effect.cost, "cost")


def resolve(step: Step, play: Play, effect: Effect, gabelou: str | None = None) -> None:
    """A: the gabelle die's modification; B: the card's cost; C: its effect (and, for a printed text
    that says more, each further effect it lists, in order: ``also``)."""
    step.gabelle(effect.gabelle, effect.name)
    cost_of(step, play, effect)
    for kind, amount in ((effect.effect, effect.amount), *((a.effect, a.amount) for a in effect.also)):
        apply_effect(step, play, kind, amount, gabelou)


def apply_effect(step: Step, play: Play, kind: str, n: int, gabelou: str | None) -> None:
    """C: one effect of kind ``kind`` with its number ``n``."""
    s = step.state
    me, target = play.seat, play.target
    opponents = [p for p in in_turn_order(s, me) if p != me]
    match kind:
        case "gain_salt":
            step.move_salt(RESERVE, me, min(n, MULON_MAX - s.mulons[me]), "effect")
        case "gain_liards":
            step.pay(RESERVE, me, n, "effect")
        case "fill_colour":
            added = {o: s.cat.capacity[play.colour] - s.salt[o] for o in s.salines[me].values()
                     if s.colour(o) == play.colour and s.salt[o] < s.cat.capacity[play.colour]}
            if added:
                step.emit(ev.SaltProduced(salt=dict(sorted(added.items())), seats=[me]))
        case "produce" | "microclimate":
            produce(step, [me], n)
        case "harvest":
            harvest(step, me, play.colour)
        case "dry_colour" | "dry_all":
            for o in sorted(s.salines[target].values()):
                if kind == "dry_all" or s.colour(o) == play.colour:
                    step.move_salt(o, RESERVE, s.salt[o], "effect")
        case "storm_opponents":
            for p in opponents:
                for o in sorted(s.salines[p].values()):
                    step.move_salt(o, RESERVE, min(n, s.salt[o]), "effect")
        case "steal_salt":
            step.onto_mulon(me, target, min(n, s.mulons[target]), "effect")
        case "lose_salt":
            step.move_salt(target, RESERVE, min(n, s.mulons[target]), "effect")
        case "halve_mulon":
            step.move_salt(target, RESERVE, s.mulons[target] // 2, "effect")
        case "steal_liards":
            step.pay(target, me, n, "effect")
        case "fine_liards":
            step.pay(target, RESERVE, n, "effect")
        case "opponents_pay":
            for p in opponents:
                step.pay(p, RESERVE, n, "effect")
        case "exempt":
            step.emit(ev.SalesExempt(seat=me))
        case "as_printed":  # an owner's printed instruction: what the players stated, never more than there is
            stated = play.outcome or ev.Stated()
            for p, salt in sorted(stated.salt.items()):
                if salt > 0:
                    step.onto_mulon(p, RESERVE, salt, "effect")
                else:
                    step.move_salt(p, RESERVE, min(-salt, step.state.mulons[p]), "effect")
            for p, liards in sorted(stated.liards.items()):
                if liards > 0:
                    step.pay(RESERVE, p, liards, "effect")
                else:
                    step.pay(p, RESERVE, -liards, "effect")
            step.gabelle(stated.gabelle, play.effect)
        case "extra_buy":
            if valid_buy(s, me, play.space, play.position):
                buy(step, me, play.space, play.position)
        case "smuggle":
            salt = s.mulons[me]
            step.move_salt(me, RESERVE, salt, "sale")
            step.pay(RESERVE, me, salt, "sale")
            if gabelou is not None:
                step.pay(me, gabelou, step.state.gabelle, "gabelle")
        case "draw":
            if me not in s.drew:
                night_draw(step, me, n)
            else:  # a Courtisane's copy after its own night draw: the cards, the hand limit
                step.draw_events(me, n, night=True)
                for _ in range(len(step.state.hands[me]) - HAND_LIMIT):
                    step.emit(ev.HandLimitDiscard(seat=me))


def valid_buy(state: SalineState, seat: str, space: int, position: str) -> bool:
    return (state.market[space - 1] is not None and len(state.salines[seat]) < MAX_OEILLETS
            and position not in state.salines[seat] and state.liards[seat] >= state.cat.prices[space - 1])


# -- after every decision -------------------------------------------------------------------------------
def settle(step: Step) -> None:
    """Resolve a card everyone has answered; claim objectives met; move the day on."""
    s = step.state
    if s.phase in ("preparation", "placing", "over"):
        return
    if s.pending is not None and not s.asked:
        close_window(step)
    out_of_turn(step)
    claim_objectives(step)
    s = step.state
    if s.pending is not None or s.discarding or s.window is not None or s.sacrificing:
        return
    if s.phase == "day":
        if s.current in {e.seat for e in step.events if isinstance(e, ev.TurnEnded) and e.phase == "day"}:
            order = in_turn_order(s, s.first)
            nxt = order.index(s.current) + 1
            if nxt < len(order):
                step.emit(ev.TurnBegan(seat=order[nxt], phase="day"))
            else:
                step.emit(ev.TurnBegan(seat=s.first, phase="night"))
                skip_drawn(step)
    elif s.phase == "night" and s.current in s.drew:
        skip_drawn(step)


def skip_drawn(step: Step) -> None:
    """The next night turn, past the players who have already drawn; the end of the day after the last."""
    s = step.state
    if s.current not in s.drew:
        return
    rest = [p for p in in_turn_order(s, s.first) if p not in s.drew]
    if rest:
        step.emit(ev.TurnBegan(seat=rest[0], phase="night"))
    else:
        end_of_day(step)


def claim_objectives(step: Step) -> None:
    """As soon as a saline meets an objective, its player takes it: one per turn."""
    for seat in in_turn_order(step.state, step.state.first):
        s = step.state
        if seat in s.claimed_today:
            continue
        found = next((o for o in s.public_objectives if meets(s, seat, o, either_way=False)), None)
        secret = s.secrets.get(seat)
        is_secret = False
        if found is None and secret and secret not in s.claimed.get(seat, ()) and meets(s, seat, secret, True):
            found, is_secret = secret, True
        if found is not None:
            step.emit(ev.ObjectiveClaimed(seat=seat, objective=objective_of(s, found), secret=is_secret))


def end_of_day(step: Step) -> None:
    """The game ends after a day in which a player completed their saline (8 œillets) or ends it with
    20 liards or more; else the first-player token passes left and a new day begins."""
    s = step.state
    ended_by = [p for p in s.seats if len(s.salines[p]) >= MAX_OEILLETS or s.liards[p] >= END_LIARDS]
    if ended_by:
        step.emit(ev.HandsShown(hands={p: [card_of(s, c) for c in s.hands[p]] for p in s.seats},
                                secrets={p: objective_of(s, o) for p, o in s.secrets.items()}))
        points = {p: score(s, p) for p in s.seats}
        step.emit(ev.GameDecided(outcome=final_outcome(s, points), ended_by=ended_by, points=points))
        return
    morning(step, in_turn_order(s, s.first)[1], s.day + 1)


def collections(colours: list[str], reading: str = "both") -> tuple[int, int]:
    """Points of the same-colour collections (1, 2, 4, 8; a fifth card of a colour starts a new one)
    and of the different-colour collections (0, 3, 7, 12). ``reading`` "both": every œillet counts in
    both kinds (RULES_NOTES.md, "Scoring"); "one": each œillet counts in one collection only, split
    between the two kinds as scores best for its player (option ``collections``)."""
    counts = [colours.count(c) for c in COLOURS]
    if reading == "one":
        return max(((_same(split), _different([n - k for n, k in zip(counts, split)]))
                    for split in itertools.product(*(range(n + 1) for n in counts))), key=sum)
    return _same(counts), _different(counts)


def _same(counts: list[int] | tuple[int, ...]) -> int:
    return sum(8 * (n // 4) + SAME_COLOUR[n % 4] for n in counts)


def _different(counts: list[int] | tuple[int, ...]) -> int:
    return sum(DIFFERENT_COLOURS[sum(1 for n in counts if n >= k)] for k in range(1, max(counts, default=0) + 1))


def score(state: SalineState, seat: str) -> dict[str, int]:
    same, different = collections([state.colour(o) for o in state.salines[seat].values()], state.collections)
    out = {"same_colour": same, "different_colours": different, "liards": state.liards[seat],
           "objectives": 2 * len(state.claimed.get(seat, ())), "favour": 3 if state.favours.get(seat) else 0}
    out["total"] = sum(out.values())
    return out


def final_outcome(state: SalineState, points: dict[str, dict[str, int]]) -> Outcome:
    scores = {p: float(points[p]["total"]) for p in state.seats}
    ranking = sorted(state.seats, key=lambda p: (-scores[p], state.seats.index(p)))
    top = [p for p in ranking if scores[p] == scores[ranking[0]]]
    if len(top) > 1:
        return Outcome(draw=True, reason=f"equal prestige points: {', '.join(top)}", scores=scores, ranking=ranking)
    return Outcome(winner=ranking[0], reason="most prestige points", scores=scores, ranking=ranking)
