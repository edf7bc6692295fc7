"""Executing checked commands: each phase appends events to a :class:`Step`, which folds
them as it goes so later rules read the position as it now stands. Dice come from the rng."""

from __future__ import annotations

from domain.dice import STANDARD_DICE
from domain.events import Outcome
from domain.rules.saladin import commands as cmd
from domain.rules.saladin import events as ev
from domain.rules.saladin.data import ARSUF, SEATS, TAQUI_AL_DIN, Reaction
from domain.rules.saladin.moves import (
    Step,
    box_orders,
    change_status,
    leave_melees,
    lose_lances,
    pair,
    set_aside,
    spend_orders,
)
from domain.rules.saladin.position import COMMITTED, UNCOMMITTED, opponent, tables
from domain.rules.saladin.rules import (
    action_cost,
    automatic_answer,
    card_of,
    joins_melee,
    orders,
    reaction_options,
)
from domain.rules.saladin.scenarios import scenario_of
from domain.rules.saladin.state import SaladinState

DIE = STANDARD_DICE["saladin-combat"]
HITS = {"stroke": 1, "double": 2}


# -- dice -----------------------------------------------------------------------------------------------
def roll_and_apply(b: Step, acting_side: str, acting: str, target: str | None, red: int, green: int,
                   purpose: str) -> None:
    """Roll red (Crusader) dice against the Ayyubid banner and green (Ayyubid) dice against the
    Crusader banner, then apply both results together."""
    ayy = acting if acting_side == "ayyubids" else target
    cru = acting if acting_side == "crusaders" else target
    results: dict[str, tuple[int, int]] = {}
    for colour, count, seat in (("red", red, "crusaders"), ("green", green, "ayyubids")):
        if count <= 0:
            continue
        rolled = b.rng.roll(DIE, count, f"{purpose} ({colour})", seat)
        b.emit(rolled)
        hits = slashes = 0
        for face in rolled.faces:
            if face == "slash":
                slashes += 1
            else:
                hits += HITS.get(face, 0)
        results[colour] = (hits, slashes)
    red_hits, red_slashes = results.get("red", (0, 0))
    green_hits, green_slashes = results.get("green", (0, 0))
    spend_orders(b, "ayyubids", red_slashes, "slash")
    spend_orders(b, "crusaders", green_slashes, "slash")
    if ayy is not None:
        lose_lances(b, "ayyubids", None if ayy == ARSUF else ayy, red_hits)
    if cru is not None:
        lose_lances(b, "crusaders", cru, green_hits)


# -- consequences -------------------------------------------------------------------------------------
def eliminations(b: Step) -> None:
    """Banners with no lance left are given to the opponent (or boxed); then the scenario's own
    rules (Arsuf: the twelfth Order once Arsuf falls; Hattin: the True Cross)."""
    t = tables(b.state)
    for bid in t.banner_ids:
        banner = b.state.banners[bid]
        if banner.lances == 0 and banner.fate == "in-play":
            given = opponent(banner.side) if t.banner(bid).gives else None
            b.emit(ev.BannerEliminated(banner=bid, given_to=given))
            leave_melees(b, bid, "eliminated", release_two_locations=False)
    scenario_of(b.state).after_eliminations(b)


def join_melee(b: Step, acting: str, target: str) -> None:
    """An action that leaves its banner Committed by changing its status: "This change therefore
    involves changing the status of the enemy Banner" — the target is Committed too (a
    two-location banner's lances move), and the two fight in melee; or any Committed Crusader
    banner's action against a single-location Ayyubid banner, whose "status is the same as the
    one of the Crusaders Banner that targets them" (Statuses)."""
    if not (b.state.banners[acting].in_play and b.state.banners[target].in_play):
        return
    if b.state.banners[acting].status != COMMITTED:
        return
    change_status(b, target, COMMITTED)
    if target not in b.state.banners[acting].engaged:
        b.emit(ev.MeleeJoined(**pair(b.state, acting, target)))


def settle(b: Step, before: dict[str, int]) -> bool:
    """End the game when a side has placed its last Order in the box (Victory Conditions)."""
    if b.over:
        return True
    out = [s for s in SEATS if b.state.sides[s].orders == 0]
    if not out:
        return False
    scores = {s: float(before[s]) for s in SEATS}
    if len(out) == 1:
        winner, reason = opponent(out[0]), f"{out[0]} placed their last Order in the box"
    else:
        lances = lances_on_board(b.state)
        if before["crusaders"] != before["ayyubids"]:
            winner = max(SEATS, key=lambda s: before[s])
            reason = "both sides lost their last Order together; most Orders just before"
        elif lances["crusaders"] != lances["ayyubids"]:
            winner = max(SEATS, key=lambda s: lances[s])
            reason = "both sides lost their last Order together with as many Orders; most lances on the board"
        else:
            winner, reason = None, "both sides lost their last Order together with as many Orders and lances"
    outcome = Outcome(winner=winner, draw=winner is None, reason=reason, scores=scores,
                      ranking=[winner, opponent(winner)] if winner else [])
    b.emit(ev.GameDecided(outcome=outcome))
    return True


def lances_on_board(state: SaladinState) -> dict[str, int]:
    """Lances on the board, set-aside banners and the Arsuf lances included."""
    out = {s: 0 for s in SEATS}
    for bid in sorted(state.banners):
        banner = state.banners[bid]
        if banner.fate in ("in-play", "set-aside"):
            out[banner.side] += banner.lances
    out["ayyubids"] += state.arsuf_lances
    return out


def next_activation(b: Step, side: str) -> None:
    """Alternate: the opponent activates next unless they have passed."""
    nxt = side if b.state.sides[opponent(side)].passed else opponent(side)
    b.emit(ev.ActivationEnded(side=side, next=nxt))


# -- Activation ---------------------------------------------------------------------------------------
def activate(b: Step, seat: str, c: cmd.Activate) -> None:
    """Choose the action, spend the Orders, choose the target, then ask for a reaction."""
    action = card_of(b.state, c.banner).action(c.action)
    cost = action_cost(b.state, c.banner, action)  # as check_activate found it
    b.emit(ev.ActionDeclared(side=seat, banner=c.banner, action=c.action, target=c.target, cost=cost))
    if cost:
        b.emit(ev.OrdersSpent(side=seat, count=cost, reason=f"{action.name}: {c.banner}"))
    answer = automatic_answer(b.state, b.state.pending)
    if answer is not None:
        b.emit(ev.SpecialRuleApplied(rule=TAQUI_AL_DIN, banner=c.target, against=c.banner))
        resolve_action(b, answer)
        return
    if reaction_options(b.state, b.state.pending):
        b.emit(ev.ReactionOffered(side=opponent(seat), banner=c.target))
        return
    resolve_action(b)


def resolve_action(b: Step, special: Reaction | None = None) -> None:
    """Apply the declared action's effects and dice, move lances, turn the card. ``special``:
    Taqui al Din's paragraph, whose effects take the place of the Charge's dice."""
    p = b.state.pending
    seat, acting, target = p.side, p.banner, p.target
    action = card_of(b.state, acting).action(p.action)
    before = orders(b.state)
    melee = action.target == "enemy" and (joins_melee(b.state, b.state.banners[acting], action)
                                          or tables(b.state).status_rule[target] == "follows-target")
    purpose = f"{action.name}: {acting}" + (f" at {target}" if target else "")
    effect = action.effect
    if effect == "sacrifice":
        spend_orders(b, "crusaders", 1, f"{action.name}: {acting}")
    elif effect == "set-fire":
        b.emit(ev.MarkerPlaced(marker="fire", banner=acting))
        spend_orders(b, "crusaders", 1, f"{action.name}: {acting}")
    elif effect == "feed-fire":
        b.emit(ev.FireFed(banner=acting))
        spend_orders(b, "crusaders", 1, f"{action.name}: {acting}")
    elif effect == "shield-wall":
        b.emit(ev.MarkerPlaced(marker="shield-wall", banner=acting))
    elif effect == "reinforce":
        b.emit(ev.LancePlaced(side=seat, banner=acting, onto=target))
    elif effect == "reinforce-arsuf":
        b.emit(ev.LancePlaced(side=seat, banner=acting, onto=ARSUF))
    red, green = (special.red, special.green) if special else (action.red, action.green)
    if seat == "ayyubids" and target is not None and b.state.markers.get("shield-wall") == target:
        green = max(0, green - 1)
    enemy = target if action.target in ("enemy", "arsuf") else None
    roll_and_apply(b, seat, acting, enemy, red, green, purpose)
    if special is not None and special.effect == "two-lances-to-box":
        lose_lances(b, seat, acting, 2, to="box")
    eliminations(b)
    if action.change == "commit" and b.state.banners[acting].in_play:
        change_status(b, acting, COMMITTED)
    elif action.change == "withdraw" and b.state.banners[acting].in_play:
        change_status(b, acting, UNCOMMITTED)
        leave_melees(b, acting, "regroup", release_two_locations=True)
    if melee:
        join_melee(b, acting, target)
    if b.state.banners[acting].in_play and not b.state.banners[acting].ordered:
        b.emit(ev.BannerOrdered(banner=acting))
    set_aside(b)
    if not settle(b, before):
        next_activation(b, seat)


def react(b: Step, seat: str, c: cmd.React) -> None:
    """The reaction resolves instead of the action; the acting card still turns Ordered."""
    reaction = card_of(b.state, c.banner).reaction(c.reaction)
    b.emit(ev.ReactionDeclared(side=seat, banner=c.banner, reaction=c.reaction, cost=reaction.cost))
    if reaction.cost:
        b.emit(ev.OrdersSpent(side=seat, count=reaction.cost, reason=f"{reaction.name}: {c.banner}"))
    answer_action(b, c.banner, reaction)


def answer_action(b: Step, banner: str, reaction: Reaction) -> None:
    """A reaction (or Taqui al Din's automatic answer) resolves instead of the declared action,
    which is cancelled; the acting card still turns Ordered."""
    p = b.state.pending
    seat = opponent(p.side)
    before = orders(b.state)
    green = reaction.green
    if seat == "ayyubids" and b.state.markers.get("shield-wall") == p.banner:
        green = max(0, green - 1)
    roll_and_apply(b, seat, banner, p.banner, reaction.red, green, f"{reaction.name}: {banner} against {p.banner}")
    if reaction.effect == "two-lances-to-box":
        lose_lances(b, p.side, p.banner, 2, to="box")
    eliminations(b)
    if b.state.banners[p.banner].in_play and not b.state.banners[p.banner].ordered:
        b.emit(ev.BannerOrdered(banner=p.banner))
    set_aside(b)
    if not settle(b, before):
        next_activation(b, p.side)


def decline(b: Step, seat: str) -> None:
    """No reaction: the declared action resolves."""
    b.emit(ev.ReactionDeclined(side=seat, banner=b.state.pending.target))
    resolve_action(b)


def leader(b: Step, seat: str, c: cmd.Leader) -> None:
    """A Leader action; the card turns to its Ordered side."""
    spec = next(a for a in tables(b.state).leaders[seat].actions if a.id == c.action)
    lead = tables(b.state).leaders[seat].id
    before = orders(b.state)
    b.emit(ev.LeaderActivated(side=seat, leader=lead, action=c.action, once=spec.once))
    if c.action == "seize-initiative":
        b.emit(ev.InitiativeDetermined(holder=seat, reason="seized by the Leader", phase="choose-first",
                                       active=seat))
        return
    scenario = scenario_of(b.state)
    own = scenario.leader_actions.get(c.action)
    if c.action == "recover-order":
        if b.state.sides[seat].spent:
            b.emit(ev.OrdersRecovered(side=seat, count=1, source="spent", reason=spec.name))
    elif own is not None:  # the scenario's own Leader action (Hattin: the Horns, the Order loss)
        own.play(b, seat, spec)
    scenario.after_leader(b)
    if not settle(b, before):
        next_activation(b, seat)


def pass_(b: Step, seat: str) -> None:
    """The seat passes; when both have, the turn ends."""
    other = opponent(seat)
    both = b.state.sides[other].passed
    b.emit(ev.Passed(side=seat, next=None if both else other))
    if both:
        end_turn(b)


# -- Redeployment, Chaos, Initiative -------------------------------------------------------------------
def end_turn(b: Step) -> None:
    """Redeployment, then the next turn's Chaos and Initiative phases."""
    s = b.state
    if "shield-wall" in s.markers:
        b.emit(ev.MarkerRemoved(marker="shield-wall"))
    if "fire" in s.markers and not s.fire_fed:
        b.emit(ev.MarkerRemoved(marker="fire"))
    b.emit(ev.Redeployed(returned={side: s.sides[side].spent for side in SEATS}))
    b.emit(ev.TurnBegan(turn=s.turn + 1))
    before = orders(b.state)
    for side in SEATS:
        captured = sum(1 for x in b.state.banners.values() if x.side == side and x.fate == "captured")
        box_orders(b, side, 1 + captured, "Chaos")
    if settle(b, before):
        return
    holder, phase, active, reason = initiative(b.state)
    b.emit(ev.InitiativeDetermined(holder=holder, reason=reason, phase=phase, active=active))


def initiative(state: SaladinState) -> tuple[str, str, str, str]:
    """(holder, next phase, seat to act, reason): fewest Available Orders, else the scenario."""
    a, c = state.sides["ayyubids"].available, state.sides["crusaders"].available
    if a != c:
        holder, reason = ("ayyubids", "fewest Available Orders") if a < c else ("crusaders", "fewest Available Orders")
    else:
        holder, reason = tables(state).data.initiative_tie, "tie: the scenario decides"
    other = opponent(holder)
    seizer = tables(state).leaders[other]
    if any(x.id == "seize-initiative" for x in seizer.actions) and not state.sides[other].leader_ordered:
        return holder, "seize", other, reason
    return holder, "choose-first", holder, reason


def execute(b: Step, seat: str, c) -> None:
    """Play out a command that :func:`rules.check` accepted (or that :func:`rules.legal` listed)."""
    match c:
        case cmd.Activate():
            activate(b, seat, c)
        case cmd.Leader():
            leader(b, seat, c)
        case cmd.Pass():
            pass_(b, seat)
        case cmd.React():
            react(b, seat, c)
        case cmd.DeclineReaction():
            decline(b, seat)
        case cmd.DeclineSeize():
            holder = b.state.initiative
            b.emit(ev.InitiativeDetermined(holder=holder, reason="not seized", phase="choose-first", active=holder))
        case cmd.ChooseFirst(seat=first):
            b.emit(ev.ActivationBegan(first=first))
