"""What is legal in Saline: who acts, the checks every command goes through (set-up, the day,
the actions, event cards and favours with their answers, objectives, the end). ``legal`` and
:func:`.rules.decide` share :func:`check`, so a listed command is exactly an accepted one."""

from __future__ import annotations

from collections.abc import Iterator

from domain.rules.base import GAME_OVER, NOT_YOUR_TURN, RuleViolation, accepted
from domain.rules.saline.commands import (
    Buy, Discard, DoNothing, Draw, EndTurn, Harvest, Pass, Place, PlayCard, Prepare, Sacrifice, SalineCommand, Sell,
)
from domain.rules.saline.data import (
    CARDS_PER_TURN, COLOURS, GABELLE_MAX, GABELLE_MIN, LIARDS, MAX_OEILLETS, POSITIONS, RESPONSES, SALT_CUBES,
    SYSTEM, Effect,
)
from domain.rules.saline.events import Stated
from domain.rules.saline.state import Play, SalineState

R_COMPONENTS = "Components"
R_SETUP = "Setup"
R_DAY = "A) Turn Structure, 2) Day"
R_NIGHT = "A) Turn Structure, 3) Night"
R_EVENT = "B) Play a Card and Claim an Objective, 1) Play an Event Card"
R_FAVOUR = "B) Play a Card and Claim an Objective, 2) Play a Favour"
R_END = "End of Game and Scoring"
R_FAQ = "Foire Aux Questions (FAQ)"
FAVOUR = "favour"
CHOICES = ("target", "colour", "space", "position", "outcome")  # a play's choices (data.EFFECTS names them)
SAME_COLOUR = (0, 1, 2, 4, 8)
DIFFERENT_COLOURS = (0, 0, 3, 7, 12)


def violation(reason: str, message: str, rule: str) -> RuleViolation:
    return RuleViolation(f"{SYSTEM}.{reason}", message, rule)


def in_turn_order(state: SalineState, start: str) -> list[str]:
    i = state.seats.index(start)
    return list(state.seats[i:] + state.seats[:i])


def reserve_liards(state: SalineState) -> int:
    return LIARDS - sum(state.liards.values())


def effect_of(state: SalineState, play: Play) -> Effect:
    """The effect ``play`` names, as printed on the card played (two cards may share an effect's
    name with different numbers: each resolves with its own); a favour's from every effect."""
    own = state.cat.events.get(play.card, ()) if play.card != FAVOUR else favour_effects_named(state, play.effect)
    for effect in () if state.legacy else own:
        if effect.name == play.effect:
            return effect
    return state.cat.effects[play.effect]


def favour_effects(state: SalineState, seat: str) -> list[Effect]:
    """What ``seat``'s favour may play: its own printed effects, or (a joker) every effect."""
    own = state.cat.favour_effects.get(state.favours.get(seat) or "")
    return list(own) if own is not None else list(state.cat.effects.values())


def favour_effects_named(state: SalineState, name: str) -> tuple[Effect, ...]:
    """The favours' own printed effects called ``name`` (a favour once played is no longer held)."""
    return tuple(e for effects in state.cat.favour_effects.values() for e in effects if e.name == name)


def could_play(state: SalineState, seat: str) -> bool:
    """Whether ``seat`` may, for all anyone else knows, play a card now: an unused favour, or a card
    in hand not drawn tonight while under the two cards a day. Public: it tells nothing of a hand."""
    if state.favours.get(seat):
        return True
    playable_cards = len(state.hands.get(seat, ())) - len(state.fresh.get(seat, ()))
    return playable_cards > 0 and state.played_today.get(seat, 0) < CARDS_PER_TURN


def window_seats(state: SalineState, holder: str) -> list[str]:
    """The seats a window before ``holder``'s action or draw opens to: every other player who may
    play (:func:`could_play`), in turn order from ``holder``'s left."""
    return [s for s in in_turn_order(state, holder)[1:] if could_play(state, s)]


# -- legality ------------------------------------------------------------------------------------------
def to_act(state: SalineState) -> list[str]:
    if state.phase == "over":
        return []
    if state.phase == "preparation":
        return [state.seats[0]]
    if state.phase == "placing":
        return [s for s in in_turn_order(state, state.first) if s not in state.salines][:1]
    if state.discarding:
        return [state.discarding[0]]
    if state.pending is not None and state.asked:
        return [state.asked[0]]
    if state.sacrificing:
        return [state.sacrificing]
    if state.window is not None and state.window.waiting:
        return list(state.window.waiting)
    return [state.current] if state.current else []


def playable(state: SalineState, seat: str, card: str) -> list[Effect]:
    """The effects ``seat`` may choose from ``card`` (its event card or its favour)."""
    if card == FAVOUR:
        if state.favours.get(seat) is None:
            raise violation("favour_used", "your favour card can be used only once during the game", R_FAVOUR)
        return favour_effects(state, seat)
    if card not in state.hands.get(seat, ()):
        raise violation("card_not_in_hand", f"{card!r} is not in your hand", R_EVENT)
    if card in state.fresh.get(seat, ()):
        raise violation("drawn_tonight", "drawing event cards indicates the end of the player's turn: a card "
                        "drawn in the night phase is not played this turn", R_FAQ)
    if state.played_today.get(seat, 0) >= CARDS_PER_TURN:
        raise violation("two_cards", "during the game turn, you may play one, or even two, event cards", R_EVENT)
    return list(state.cat.events[card])


def named_effect(state: SalineState, seat: str, command: PlayCard) -> Effect:
    """The effect ``command`` names on the card (or favour) ``seat`` plays, if it may play it."""
    effect = next((e for e in playable(state, seat, command.card) if e.name == command.effect), None)
    if effect is None:
        raise violation("no_such_effect", f"{command.card} has no effect {command.effect!r}", R_EVENT)
    return effect


def not_an_answer(effect: Effect) -> Effect:
    """``effect``, unless it only answers a card just played (and none is)."""
    if effect.effect in RESPONSES:
        raise violation("nothing_to_answer", f"{effect.name} answers a card just played", R_FAQ)
    return effect


def check_choices(state: SalineState, seat: str, effect: Effect, cmd: PlayCard, extra_cost: int = 0) -> None:
    """The choices of a play of ``effect`` by ``seat``: exactly the ones it takes, each possible."""
    needs = effect.needs()
    given = {k for k in CHOICES if getattr(cmd, k) is not None}
    if given != needs:
        raise violation("choices", f"{effect.name} takes {', '.join(sorted(needs)) or 'no choices'}", R_EVENT)
    if cmd.outcome is not None:
        check_stated(state, cmd.outcome)
    if cmd.target is not None and (cmd.target not in state.seats or cmd.target == seat):
        raise violation("target", "the target is an opponent", R_EVENT)
    if cmd.colour is not None and cmd.colour not in COLOURS:
        raise violation("colour", f"the colours are {', '.join(COLOURS)}", R_COMPONENTS)
    cost = effect.cost + extra_cost
    if effect.effect == "extra_buy":
        cost += check_buy(state, seat, cmd.space, cmd.position)
    if state.liards[seat] < cost:
        raise violation("cannot_pay", f"{effect.name} costs {cost} liards; you have {state.liards[seat]}", R_EVENT)
    if effect.effect == "smuggle" and state.mulons[seat] == 0:
        raise violation("no_salt", "there is no salt on your mulon to sell", R_DAY)


def check_buy(state: SalineState, seat: str, space: int | None, position: str | None) -> int:
    """The price of buying the œillet on ``space`` and placing it at ``position``."""
    if space is None or not 1 <= space <= len(state.market) or state.market[space - 1] is None:
        raise violation("no_oeillet", f"market space {space} holds no œillet", R_DAY)
    if len(state.salines[seat]) >= MAX_OEILLETS:
        raise violation("eight_oeillets", "the maximum number of œillets per player is 8", R_FAQ)
    if position not in POSITIONS or position in state.salines[seat]:
        raise violation("position", f"place the œillet on a free place around your mulon ({', '.join(POSITIONS)})",
                        R_DAY)
    price = state.cat.prices[space - 1]
    if state.liards[seat] < price:
        raise violation("cannot_pay", f"the œillet costs {price} liards; you have {state.liards[seat]}", R_DAY)
    return price


def cannot_pay_gabelle(state: SalineState, seat: str) -> bool:
    if seat in state.exempt:
        return False
    return state.liards[seat] + min(state.mulons[seat], reserve_liards(state)) < state.gabelle


def check(state: SalineState, seat: str, command: SalineCommand) -> None:
    """Raise the RuleViolation that refuses ``command`` from ``seat`` now, if any."""
    if state.phase == "over":
        raise RuleViolation(GAME_OVER, "the game has ended", R_END)
    if seat not in to_act(state):
        raise RuleViolation(NOT_YOUR_TURN, f"{seat} may not act now", R_DAY)
    if state.phase == "preparation":
        if not isinstance(command, Prepare):
            raise violation("set_up_first", "set the game up first", R_SETUP)
        return
    if isinstance(command, Prepare):
        raise violation("already_set_up", "the game is already set up", R_SETUP)
    if state.phase == "placing":
        if not isinstance(command, Place):
            raise violation("place_green", "place your green œillet around your mulon first", R_SETUP)
        if command.position not in POSITIONS:
            raise violation("position", f"the places around the mulon are {', '.join(POSITIONS)}", R_SETUP)
        return
    if state.discarding:
        if not isinstance(command, Discard):
            raise violation("discard", "discard down to the hand limit of 2 cards first", R_NIGHT)
        if command.card not in state.hands[seat]:
            raise violation("card_not_in_hand", f"{command.card!r} is not in your hand", R_NIGHT)
        return
    if state.sacrificing:
        if not isinstance(command, Sacrifice):
            raise violation("sacrifice", "you cannot pay the gabelle: sacrifice 1 œillet of your choice first", R_FAQ)
        if command.position not in state.salines[seat]:
            raise violation("position", "name the position of one of your œillets", R_FAQ)
        return
    if state.pending is not None:
        check_answer(state, seat, command)
        return
    if state.window is not None:
        check_out_of_turn(state, seat, command)
        return
    match command:
        case PlayCard():
            effect = not_an_answer(named_effect(state, seat, command))
            phases = ("day", "any") if state.phase == "day" else ("night", "any")
            if effect.phase not in phases:
                raise violation("wrong_phase", f"{effect.name} is a {effect.phase} card; it is the {state.phase}",
                                R_EVENT)
            check_choices(state, seat, effect, command)
        case Buy(space=space, position=position):
            day_action(state)
            check_buy(state, seat, space, position)
        case Harvest(colour=colour):
            day_action(state)
            if colour not in COLOURS or not any(state.colour(o) == colour for o in state.salines[seat].values()):
                raise violation("colour", "choose a colour of œillet that you own", R_DAY)
        case Sell(sacrifice=sacrifice):
            day_action(state)
            if state.mulons[seat] == 0:
                raise violation("no_salt", "there is no salt on your mulon to sell", R_DAY)
            must = cannot_pay_gabelle(state, seat) and bool(state.salines[seat])
            if must and sacrifice not in state.salines[seat]:
                raise violation("sacrifice", "you cannot pay the gabelle: sacrifice 1 œillet of your choice "
                                "(its position), but keep your liards", R_FAQ)
            if not must and sacrifice is not None:
                raise violation("no_sacrifice", "an œillet is sacrificed only when the gabelle cannot be paid", R_FAQ)
        case DoNothing():
            day_action(state)
        case EndTurn():
            if state.phase != "day" or not state.acted:
                raise violation("action_first", "take one action (buy, harvest, sell or do nothing) first", R_DAY)
        case Draw():
            if state.phase != "night":
                raise violation("not_night", "event cards are drawn in the night phase", R_NIGHT)
        case _:
            raise violation("not_now", f"{type(command).__name__.lower()} is not possible now", R_DAY)


def day_action(state: SalineState) -> None:
    if state.phase != "day":
        raise violation("not_day", "actions are taken in the day phase", R_DAY)
    if state.acted:
        raise violation("one_action", "each player takes one action", R_DAY)


def check_out_of_turn(state: SalineState, seat: str, command: SalineCommand) -> None:
    """While another player's action or draw waits (its window): pass, or play a card bearing the
    triangle ("may be played at any time") or the favour ("to be used at any moment")."""
    if isinstance(command, Pass):
        return
    held = state.window.step
    if not isinstance(command, PlayCard):
        raise violation("out_of_turn", f"{state.window.holder}'s {held} waits: play a card bearing the triangle, "
                        "or your favour, or pass", R_EVENT)
    effect = not_an_answer(named_effect(state, seat, command))
    if effect.phase != "any":
        raise violation("triangle_only", f"out of your turn only cards bearing the triangle symbol (or your "
                        f"favour) may be played: 'Cards bearing the triangle symbol may be played at any time'; "
                        f"{effect.name} is a {effect.phase} card", R_EVENT)
    check_choices(state, seat, effect, command)


def check_stated(state: SalineState, stated: Stated) -> None:
    """What the players state a printed instruction does: players of this game, numbers the game's
    components can hold (what is not there is not moved, as for every effect)."""
    for name, moves, most in (("salt", stated.salt, SALT_CUBES), ("liards", stated.liards, LIARDS)):
        if any(p not in state.seats for p in moves) or any(abs(n) > most for n in moves.values()):
            raise violation("outcome", f"the outcome's {name} names players of this game, at most {most} "
                            "each way", R_COMPONENTS)
    if abs(stated.gabelle) > GABELLE_MAX - GABELLE_MIN:
        raise violation("outcome", f"the gabelle die moves at most {GABELLE_MAX - GABELLE_MIN} either way",
                        R_COMPONENTS)


def check_answer(state: SalineState, seat: str, command: SalineCommand) -> None:
    """While a card waits for answers: pass, or answer with Souverain, Courtisane or Gabelou."""
    if isinstance(command, Pass):
        return
    if not isinstance(command, PlayCard):
        raise violation("answer_first", "a card was just played: answer it or pass", R_EVENT)
    effect = named_effect(state, seat, command)
    pending = state.pending
    if effect.effect not in RESPONSES:
        raise violation("answer_only", "only a card that answers (Souverain, Courtisane, Gabelou) may be played now",
                        R_EVENT)
    if effect.effect == "collect_gabelle":
        if effect_of(state, pending).effect != "smuggle":
            raise violation("gabelou", "play Gabelou just after a Faux-saunier is placed", R_FAQ)
        if any(effect_of(state, r).effect == "collect_gabelle" for r in state.responses):
            raise violation("gabelou", "the gabelle of this sale is already claimed", R_FAQ)
    if effect.effect == "copy":
        check_choices(state, seat, effect_of(state, pending), command, extra_cost=effect.cost)
    elif any(getattr(command, k) is not None for k in CHOICES):
        raise violation("choices", f"{effect.name} takes no choices", R_EVENT)
    elif state.liards[seat] < effect.cost:
        raise violation("cannot_pay", f"{effect.name} costs {effect.cost} liards", R_EVENT)


def candidates(state: SalineState, seat: str) -> Iterator[SalineCommand]:
    """Every command worth asking :func:`check` about."""
    if state.phase == "preparation":
        yield Prepare()
        return
    if state.phase == "placing":
        yield from (Place(position=p) for p in POSITIONS)
        return
    if state.discarding:
        yield from (Discard(card=c) for c in sorted(set(state.hands[seat])))
        return
    if state.sacrificing:
        yield from (Sacrifice(position=p) for p in POSITIONS)
        return
    cards = sorted(set(state.hands[seat])) + ([FAVOUR] if state.favours.get(seat) else [])
    opponents = [s for s in state.seats if s != seat]
    for card in cards:
        effects = favour_effects(state, seat) if card == FAVOUR else list(state.cat.events[card])
        for effect in effects:
            if state.pending is not None and effect.effect == "copy":
                shape = effect_of(state, state.pending)
            else:
                shape = effect
            needs = shape.needs()
            for target in (opponents if "target" in needs else [None]):
                for colour in (COLOURS if "colour" in needs else (None,)):
                    if "space" in needs:
                        for space in range(1, len(state.market) + 1):
                            for position in POSITIONS:
                                yield PlayCard(card, effect.name, target, colour, space, position)
                    else:  # a printed instruction listed as stated to change nothing (listing_complete)
                        yield PlayCard(card, effect.name, target, colour,
                                       outcome=Stated() if "outcome" in needs else None)
    if state.pending is not None or state.window is not None:
        yield Pass()
        return
    if state.phase == "day":
        for space in range(1, len(state.market) + 1):
            for position in POSITIONS:
                yield Buy(space=space, position=position)
        yield from (Harvest(colour=c) for c in COLOURS)
        yield Sell()
        yield from (Sell(sacrifice=p) for p in POSITIONS)
        yield DoNothing()
        yield EndTurn()
    else:
        yield Draw()


def legal(state: SalineState, seat: str) -> list[SalineCommand]:
    """Every command ``seat`` may send now."""
    if state.phase == "over" or seat not in to_act(state):
        return []
    return accepted(check, state, seat, candidates(state, seat))
