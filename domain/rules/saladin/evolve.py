"""The fold: every Saladin event assigns what it carries. Nothing here decides.

One small function per event type, found by the event's type in :data:`FOLDS` (one dict
look-up per event: the fold runs for every event of every rollout, issue 19)."""

from __future__ import annotations

from collections.abc import Callable

from msgspec.structs import replace

from domain.events import EventData
from domain.rules.saladin import events as ev
from domain.rules.saladin.data import ARSUF, TRUE_CROSS
from domain.rules.saladin.state import Pending, SaladinState


def _side(state: SaladinState, side: str, **changes) -> SaladinState:
    return replace(state, sides={**state.sides, side: replace(state.sides[side], **changes)})


def _banner(state: SaladinState, banner_id: str, **changes) -> SaladinState:
    return replace(state, banners={**state.banners, banner_id: replace(state.banners[banner_id], **changes)})


def turn_began(state: SaladinState, e: ev.TurnBegan) -> SaladinState:
    return replace(state, turn=e.turn)


def orders_boxed(state: SaladinState, e: ev.OrdersBoxed) -> SaladinState:
    st = state.sides[e.side]
    return _side(state, e.side, available=st.available - e.from_available, spent=st.spent - e.from_spent,
                 boxed=st.boxed + e.from_available + e.from_spent)


def orders_spent(state: SaladinState, e: ev.OrdersSpent) -> SaladinState:
    st = state.sides[e.side]
    return _side(state, e.side, available=st.available - e.count, spent=st.spent + e.count)


def orders_recovered(state: SaladinState, e: ev.OrdersRecovered) -> SaladinState:
    st, n = state.sides[e.side], e.count
    if e.source == "spent":
        return _side(state, e.side, available=st.available + n, spent=st.spent - n)
    if e.source == "box":
        return _side(state, e.side, available=st.available + n, boxed=st.boxed - n)
    return _side(state, e.side, available=st.available + n, reserve=st.reserve - n)


def initiative_determined(state: SaladinState, e: ev.InitiativeDetermined) -> SaladinState:
    return replace(state, initiative=e.holder, phase=e.phase, active=e.active)


def leader_activated(state: SaladinState, e: ev.LeaderActivated) -> SaladinState:
    st = state.sides[e.side]
    used = st.used_once + (e.action,) if e.once else st.used_once
    return replace(_side(state, e.side, leader_ordered=True, used_once=used), activations=state.activations + 1)


def activation_began(state: SaladinState, e: ev.ActivationBegan) -> SaladinState:
    return replace(state, phase="activation", active=e.first)


def action_declared(state: SaladinState, e: ev.ActionDeclared) -> SaladinState:
    pending = Pending(side=e.side, banner=e.banner, action=e.action, target=e.target)
    return replace(state, pending=pending, activations=state.activations + 1)


def reaction_offered(state: SaladinState, e: ev.ReactionOffered) -> SaladinState:
    return replace(state, phase="reaction", active=e.side)


def reaction_answered(state: SaladinState, e: ev.ReactionDeclared | ev.ReactionDeclined) -> SaladinState:
    return replace(state, phase="activation")


def lances_lost(state: SaladinState, e: ev.LancesLost) -> SaladinState:
    n = e.count
    if e.banner is None:
        state = replace(state, arsuf_lances=state.arsuf_lances - n)
    else:
        state = _banner(state, e.banner, lances=state.banners[e.banner].lances - n)
    st = state.sides[e.side]
    if e.to == "box":
        return _side(state, e.side, lances_boxed=st.lances_boxed + n)
    return _side(state, e.side, losses=st.losses + n)


def losses_track_boxed(state: SaladinState, e: ev.LossesTrackBoxed) -> SaladinState:
    st = state.sides[e.side]
    return _side(state, e.side, losses=st.losses - e.lances, lances_boxed=st.lances_boxed + e.lances)


def lance_placed(state: SaladinState, e: ev.LancePlaced) -> SaladinState:
    state = _banner(state, e.banner, lances=state.banners[e.banner].lances - 1)
    if e.onto == ARSUF:
        return replace(state, arsuf_lances=state.arsuf_lances + 1)
    return _banner(state, e.onto, lances=state.banners[e.onto].lances + 1)


def status_changed(state: SaladinState, e: ev.StatusChanged) -> SaladinState:
    return _banner(state, e.banner, status=e.status, location=e.location)


def melee_joined(state: SaladinState, e: ev.MeleeJoined) -> SaladinState:
    c, a = e.crusader, e.ayyubid
    state = _banner(state, c, engaged=tuple(sorted({*state.banners[c].engaged, a})))
    return _banner(state, a, engaged=tuple(sorted({*state.banners[a].engaged, c})))


def melee_left(state: SaladinState, e: ev.MeleeLeft) -> SaladinState:
    c, a = e.crusader, e.ayyubid
    state = _banner(state, c, engaged=tuple(x for x in state.banners[c].engaged if x != a))
    return _banner(state, a, engaged=tuple(x for x in state.banners[a].engaged if x != c))


def special_rule_applied(state: SaladinState, e: ev.SpecialRuleApplied) -> SaladinState:
    if e.rule == TRUE_CROSS:
        st = state.sides["ayyubids"]
        return _side(state, "ayyubids", used_once=st.used_once + ("order-loss",))
    return state


def banner_ordered(state: SaladinState, e: ev.BannerOrdered) -> SaladinState:
    return _banner(state, e.banner, ordered=True)


def banner_eliminated(state: SaladinState, e: ev.BannerEliminated) -> SaladinState:
    return _banner(state, e.banner, fate="captured" if e.given_to else "boxed")


def banner_set_aside(state: SaladinState, e: ev.BannerSetAside) -> SaladinState:
    return _banner(state, e.banner, fate="set-aside")


def marker_placed(state: SaladinState, e: ev.MarkerPlaced) -> SaladinState:
    return replace(state, markers={**state.markers, e.marker: e.banner})


def marker_removed(state: SaladinState, e: ev.MarkerRemoved) -> SaladinState:
    return replace(state, markers={k: v for k, v in state.markers.items() if k != e.marker})


def fire_fed(state: SaladinState, e: ev.FireFed) -> SaladinState:
    return replace(state, fire_fed=True)


def moved_to_horns(state: SaladinState, e: ev.MovedToHorns) -> SaladinState:
    banners = dict(state.banners)
    for banner_id, card in e.cards.items():
        banners[banner_id] = replace(banners[banner_id], card=card)
    return replace(state, banners=banners, horns=True)


def activation_ended(state: SaladinState, e: ev.ActivationEnded) -> SaladinState:
    return replace(state, pending=None, phase="activation", active=e.next)


def passed(state: SaladinState, e: ev.Passed) -> SaladinState:
    return replace(_side(state, e.side, passed=True), active=e.next)


def redeployed(state: SaladinState, e: ev.Redeployed) -> SaladinState:
    returned = e.returned
    banners = {k: (replace(b, ordered=False) if b.ordered else b) for k, b in state.banners.items()}
    sides = {
        k: replace(s, available=s.available + returned.get(k, 0), spent=s.spent - returned.get(k, 0),
                   leader_ordered=False, passed=False)
        for k, s in state.sides.items()
    }
    return replace(state, banners=banners, sides=sides, fire_fed=False, pending=None, active=None)


def game_decided(state: SaladinState, e: ev.GameDecided) -> SaladinState:
    return replace(state, result=e.outcome, phase="over", active=None, pending=None)


FOLDS: dict[type, Callable[[SaladinState, EventData], SaladinState]] = {
    ev.TurnBegan: turn_began,
    ev.OrdersBoxed: orders_boxed,
    ev.OrdersSpent: orders_spent,
    ev.OrdersRecovered: orders_recovered,
    ev.InitiativeDetermined: initiative_determined,
    ev.LeaderActivated: leader_activated,
    ev.ActivationBegan: activation_began,
    ev.ActionDeclared: action_declared,
    ev.ReactionOffered: reaction_offered,
    ev.ReactionDeclared: reaction_answered,
    ev.ReactionDeclined: reaction_answered,
    ev.LancesLost: lances_lost,
    ev.LossesTrackBoxed: losses_track_boxed,
    ev.LancePlaced: lance_placed,
    ev.StatusChanged: status_changed,
    ev.MeleeJoined: melee_joined,
    ev.MeleeLeft: melee_left,
    ev.SpecialRuleApplied: special_rule_applied,
    ev.BannerOrdered: banner_ordered,
    ev.BannerEliminated: banner_eliminated,
    ev.BannerSetAside: banner_set_aside,
    ev.MarkerPlaced: marker_placed,
    ev.MarkerRemoved: marker_removed,
    ev.FireFed: fire_fed,
    ev.MovedToHorns: moved_to_horns,
    ev.ActivationEnded: activation_ended,
    ev.Passed: passed,
    ev.Redeployed: redeployed,
    ev.GameDecided: game_decided,
}


def evolve(state: SaladinState, event: EventData) -> SaladinState:
    """Fold one event into the state (events of the core that change nothing pass through)."""
    fold = FOLDS.get(type(event))
    return state if fold is None else fold(state, event)
