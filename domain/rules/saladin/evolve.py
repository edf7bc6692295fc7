"""The fold: every Saladin event assigns what it carries. Nothing here decides."""

from __future__ import annotations

from msgspec.structs import replace

from domain.events import EventData
from domain.rules.saladin import events as ev
from domain.rules.saladin.data import ARSUF, TRUE_CROSS
from domain.rules.saladin.state import Pending, SaladinState


def _side(state: SaladinState, side: str, **changes) -> SaladinState:
    return replace(state, sides={**state.sides, side: replace(state.sides[side], **changes)})


def _banner(state: SaladinState, banner_id: str, **changes) -> SaladinState:
    return replace(state, banners={**state.banners, banner_id: replace(state.banners[banner_id], **changes)})


def evolve(state: SaladinState, event: EventData) -> SaladinState:
    """Fold one event into the state (events of the core that change nothing pass through)."""
    match event:
        case ev.TurnBegan(turn=turn):
            return replace(state, turn=turn)
        case ev.OrdersBoxed(side=side, from_available=a, from_spent=s):
            st = state.sides[side]
            return _side(state, side, available=st.available - a, spent=st.spent - s, boxed=st.boxed + a + s)
        case ev.OrdersSpent(side=side, count=n):
            st = state.sides[side]
            return _side(state, side, available=st.available - n, spent=st.spent + n)
        case ev.OrdersRecovered(side=side, count=n, source=source):
            st = state.sides[side]
            if source == "spent":
                return _side(state, side, available=st.available + n, spent=st.spent - n)
            if source == "box":
                return _side(state, side, available=st.available + n, boxed=st.boxed - n)
            return _side(state, side, available=st.available + n, reserve=st.reserve - n)
        case ev.InitiativeDetermined(holder=holder, phase=phase, active=active):
            return replace(state, initiative=holder, phase=phase, active=active)
        case ev.LeaderActivated(side=side, action=action, once=once):
            st = state.sides[side]
            used = st.used_once + (action,) if once else st.used_once
            return replace(_side(state, side, leader_ordered=True, used_once=used), activations=state.activations + 1)
        case ev.ActivationBegan(first=first):
            return replace(state, phase="activation", active=first)
        case ev.ActionDeclared(side=side, banner=banner, action=action, target=target):
            pending = Pending(side=side, banner=banner, action=action, target=target)
            return replace(state, pending=pending, activations=state.activations + 1)
        case ev.ReactionOffered(side=side):
            return replace(state, phase="reaction", active=side)
        case ev.ReactionDeclared() | ev.ReactionDeclined():
            return replace(state, phase="activation")
        case ev.LancesLost(side=side, banner=banner, count=n, to=to):
            if banner is None:
                state = replace(state, arsuf_lances=state.arsuf_lances - n)
            else:
                state = _banner(state, banner, lances=state.banners[banner].lances - n)
            st = state.sides[side]
            if to == "box":
                return _side(state, side, lances_boxed=st.lances_boxed + n)
            return _side(state, side, losses=st.losses + n)
        case ev.LossesTrackBoxed(side=side, lances=n):
            st = state.sides[side]
            return _side(state, side, losses=st.losses - n, lances_boxed=st.lances_boxed + n)
        case ev.LancePlaced(banner=banner, onto=onto):
            state = _banner(state, banner, lances=state.banners[banner].lances - 1)
            if onto == ARSUF:
                return replace(state, arsuf_lances=state.arsuf_lances + 1)
            return _banner(state, onto, lances=state.banners[onto].lances + 1)
        case ev.StatusChanged(banner=banner, status=status, location=location):
            return _banner(state, banner, status=status, location=location)
        case ev.MeleeJoined(crusader=c, ayyubid=a):
            state = _banner(state, c, engaged=tuple(sorted({*state.banners[c].engaged, a})))
            return _banner(state, a, engaged=tuple(sorted({*state.banners[a].engaged, c})))
        case ev.MeleeLeft(crusader=c, ayyubid=a):
            state = _banner(state, c, engaged=tuple(x for x in state.banners[c].engaged if x != a))
            return _banner(state, a, engaged=tuple(x for x in state.banners[a].engaged if x != c))
        case ev.SpecialRuleApplied(rule=rule):
            if rule == TRUE_CROSS:
                st = state.sides["ayyubids"]
                return _side(state, "ayyubids", used_once=st.used_once + ("order-loss",))
            return state
        case ev.BannerOrdered(banner=banner):
            return _banner(state, banner, ordered=True)
        case ev.BannerEliminated(banner=banner, given_to=given_to):
            return _banner(state, banner, fate="captured" if given_to else "boxed")
        case ev.BannerSetAside(banner=banner):
            return _banner(state, banner, fate="set-aside")
        case ev.MarkerPlaced(marker=marker, banner=banner):
            return replace(state, markers={**state.markers, marker: banner})
        case ev.MarkerRemoved(marker=marker):
            return replace(state, markers={k: v for k, v in state.markers.items() if k != marker})
        case ev.FireFed():
            return replace(state, fire_fed=True)
        case ev.MovedToHorns(cards=cards):
            banners = dict(state.banners)
            for banner_id, card in cards.items():
                banners[banner_id] = replace(banners[banner_id], card=card)
            return replace(state, banners=banners, horns=True)
        case ev.ActivationEnded(next=nxt):
            return replace(state, pending=None, phase="activation", active=nxt)
        case ev.Passed(side=side, next=nxt):
            return replace(_side(state, side, passed=True), active=nxt)
        case ev.Redeployed(returned=returned):
            banners = {k: (replace(b, ordered=False) if b.ordered else b) for k, b in state.banners.items()}
            sides = {
                k: replace(s, available=s.available + returned.get(k, 0), spent=s.spent - returned.get(k, 0),
                           leader_ordered=False, passed=False)
                for k, s in state.sides.items()
            }
            return replace(state, banners=banners, sides=sides, fire_fed=False, pending=None, active=None)
        case ev.GameDecided(outcome=outcome):
            return replace(state, result=outcome, phase="over", active=None, pending=None)
    return state
