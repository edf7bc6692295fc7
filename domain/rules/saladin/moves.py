"""The moves every phase is made of, whatever the scenario: a :class:`Step` that folds its events
as it goes, Orders spent and boxed, lances lost, statuses changed, melees left, banners set
aside. :mod:`.play` (the phases) and :mod:`.scenarios` (each scenario's own rules) both use them."""

from __future__ import annotations

from domain.events import EventData
from domain.rules.base import Step as BaseStep
from domain.rules.saladin import events as ev
from domain.rules.saladin.data import ARSUF
from domain.rules.saladin.evolve import FOLDS, evolve
from domain.rules.saladin.position import COMMITTED, UNCOMMITTED, tables
from domain.rules.saladin.state import SaladinState


class Step(BaseStep):
    """The events of one decision (domain/rules/base.py), with this rule system's helpers."""

    fold = staticmethod(evolve)

    def emit(self, event: EventData) -> None:
        """:meth:`BaseStep.emit`, with the event's fold found straight in :data:`FOLDS` (what
        :func:`evolve` does, a call less for each of the events of every rollout, issue 19)."""
        self.events.append(event)
        fold = FOLDS.get(type(event))
        if fold is not None:
            self.state = fold(self.state, event)

    @property
    def over(self) -> bool:
        return self.state.result is not None


# -- Orders and lances ------------------------------------------------------------------------------
def box_orders(b: Step, side: str, n: int, reason: str) -> None:
    """Place ``n`` Orders in the box: from the Available pool first, then the Spent pool."""
    st = b.state.sides[side]
    a = min(n, st.available)
    s = min(n - a, st.spent)
    if a + s:
        b.emit(ev.OrdersBoxed(side=side, from_available=a, from_spent=s, reason=reason))


def spend_orders(b: Step, side: str, n: int, reason: str) -> None:
    """Move up to ``n`` Orders to the Spent pool; nothing happens with an empty Available pool."""
    n = min(n, b.state.sides[side].available)
    if n:
        b.emit(ev.OrdersSpent(side=side, count=n, reason=reason))


def lose_lances(b: Step, side: str, banner: str | None, n: int, to: str = "losses-track") -> None:
    """Eliminate lances in track order; the 6th on the Losses Track boxes them and 1 Order."""
    have = b.state.arsuf_lances if banner is None else b.state.banners[banner].lances
    n = min(n, have)
    if not n:
        return
    b.emit(ev.LancesLost(side=side, banner=banner, count=n, to=to))
    while to == "losses-track" and b.state.sides[side].losses >= 6:
        b.emit(ev.LossesTrackBoxed(side=side, lances=6))
        box_orders(b, side, 1, "6th lance lost")


# -- statuses, melees, banners set aside ----------------------------------------------------------
def set_aside(b: Step) -> None:
    """Banners left with no enemy banner to target are removed without penalty (cascading)."""
    t = tables(b.state)
    changed = True
    while changed:
        changed = False
        s = b.state  # has_any_target for every banner in play, with what may be targeted counted once
        live = {k for k, x in s.banners.items() if x.fate == "in-play"}
        if s.arsuf_lances > 0:
            live.add(ARSUF)
        target_ids = t.target_ids
        for bid in t.banner_ids:
            if bid in live and live.isdisjoint(target_ids[b.state.banners[bid].card]):
                b.emit(ev.BannerSetAside(banner=bid))
                leave_melees(b, bid, "set aside", release_two_locations=False)
                live.discard(bid)
                changed = True


def location_for(state: SaladinState, banner_id: str, status: str) -> str:
    """Where the lances of a banner with this status stand."""
    if tables(state).banner(banner_id).status_rule == "two-locations":
        return status
    return state.banners[banner_id].location


def change_status(b: Step, banner_id: str, status: str) -> None:
    """Set the status and move the lances to its location; at the Horns, Lusignan "will have
    the same status as the Banner of Saladin" (Hattin — Statuses)."""
    banner = b.state.banners[banner_id]
    if banner.status != status:
        b.emit(ev.StatusChanged(banner=banner_id, status=status, location=location_for(b.state, banner_id, status)))
    for fid in tables(b.state).followers.get(banner_id, ()):  # every banner following this one, sorted
        f = b.state.banners[fid]
        if f.in_play and f.location == "horns" and f.status != status:
            b.emit(ev.StatusChanged(banner=fid, status=status, location="horns"))


def pair(state: SaladinState, one: str, other: str) -> dict[str, str]:
    """The two banners of a melee by side."""
    first = state.banners[one]
    return {"crusader": one, "ayyubid": other} if first.side == "crusaders" else {"crusader": other, "ayyubid": one}


def leave_melees(b: Step, banner_id: str, reason: str, release_two_locations: bool) -> None:
    """The banner stops fighting every enemy it was in melee with. An enemy left in melee with
    nobody goes back to Uncommitted if its status came from its enemies (a single-location
    banner: "the same as the one of the Crusaders Banner that targets them"; Lusignan at the
    Horns) or, on a Regroup, if it has two locations ("This change therefore involves changing
    the status of the enemy Banner"). An enemy still in melee with another stays Committed."""
    for enemy in b.state.banners[banner_id].engaged:
        b.emit(ev.MeleeLeft(**pair(b.state, banner_id, enemy), reason=reason))
        e = b.state.banners[enemy]
        if not e.in_play or e.engaged or e.status != COMMITTED:
            continue
        rule = tables(b.state).banner(enemy).status_rule
        if rule == "follows-target" or (rule == "two-locations" and release_two_locations):
            change_status(b, enemy, UNCOMMITTED)
        elif rule == "camp-then-horns":
            saladin = b.state.banners.get(tables(b.state).banner(enemy).follows or "")
            if saladin is None or not saladin.in_play or saladin.status != COMMITTED:
                b.emit(ev.StatusChanged(banner=enemy, status=UNCOMMITTED, location=e.location))
