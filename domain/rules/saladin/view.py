"""What clients and people see: a JSON-ready view (shaped by :mod:`.view_types`) and a text board."""

from __future__ import annotations

import functools
import hashlib
from typing import Any

import msgspec

from domain.rules.saladin import view_types as vt
from domain.rules.saladin.data import PACKAGE, SEATS
from domain.rules.saladin.rules import (
    action_cost,
    card_of,
    horns_required,
    surcharge,
    tables,
)
from domain.rules.saladin.scenarios import scenario_of
from domain.rules.saladin.state import SaladinState
from domain.rules.words import NO_NAMES, Names, plural

NAMES = {"crusaders": "Crusaders", "ayyubids": "Ayyubids"}
MARKERS = {"shield-wall": "Shield Wall", "fire": "Fire"}


def view(state: SaladinState) -> dict[str, Any]:
    """The whole board: nothing in Saladin is hidden. Built as the :mod:`.view_types` it is
    documented as, so the view's shape is written once."""
    t = tables(state)
    banners = []
    for bid in sorted(state.banners):
        b, spec = state.banners[bid], t.banner(bid)
        card = card_of(state, bid)
        lost = len(spec.track) - b.lances
        banners.append(vt.BannerView(
            id=bid, name=spec.name, side=b.side, card=b.card, card_side=_card_side(b.ordered), status=b.status,
            engaged=list(b.engaged), fate=b.fate, location=b.location,
            lances={loc: (b.lances if loc == b.location else 0) for loc in spec.locations()},
            track=[vt.TrackSlot(slot=i + 1, marker=m or None, lance=i >= lost) for i, m in enumerate(spec.track)],
            surcharge=surcharge(state, bid),
            actions=[vt.ActionView(id=a.id, name=a.name, cost=action_cost(state, bid, a), status=a.status,
                                   ordered=a.ordered) for a in card.actions],
        ))
    sides = {}
    for seat in SEATS:
        s = state.sides[seat]
        leader = t.leaders[seat]
        sides[seat] = vt.SideView(
            orders=vt.OrdersView(available=s.available, spent=s.spent, box=s.boxed, in_arsuf=s.reserve,
                                 unused=s.unused),
            losses_track=s.losses, lances_boxed=s.lances_boxed,
            leader=vt.LeaderView(id=leader.id, name=leader.name, card_side=_card_side(s.leader_ordered),
                                 used=list(s.used_once)),
            passed=s.passed,
            captured_banners=sorted(bid for bid, b in state.banners.items() if b.side != seat and b.fate == "captured"),
        )
    return msgspec.to_builtins(vt.View(
        scenario=state.scenario, turn=state.turn, phase=state.phase, to_act=state.active,
        initiative=state.initiative, banners=banners, sides=sides,
        arsuf_lances=state.arsuf_lances if scenario_of(state).lances_in_arsuf else None,
        markers=dict(sorted(state.markers.items())), horns=state.horns,
        horns_required=horns_required(state, "crusaders"), pending=state.pending, outcome=state.result,
        card_data=card_data(state),
    ))


def _card_side(ordered: bool) -> str:
    return "ordered" if ordered else "deployed"


def card_data(state: SaladinState) -> vt.CardData:
    """Which card data the game plays with: the reconstruction shipped with Herald, or the
    owner's own cards (GameCreated.options.cards); its SHA-256 is GameCreated.data_hash."""
    if state.cards is None:
        raw, source = (PACKAGE / scenario_of(state).data_file).read_bytes(), "reconstruction"
    else:
        raw, source = state.cards.encode(), "owner"
    return vt.CardData(source=source, data_hash=_digest(raw), options=state.options)


@functools.lru_cache(maxsize=32)
def _digest(raw: bytes) -> str:
    return hashlib.sha256(raw).hexdigest()


def render_text(state: SaladinState, names: Names = NO_NAMES) -> str:
    """A board a person reads at a glance, each side with its player's name."""
    v = view(state)
    name = {b["id"]: b["name"] for b in v["banners"]}

    def side(seat: str) -> str:
        return f"{NAMES[seat]} ({names[seat]})" if seat in names else NAMES[seat]

    lines = [f"Saladin — {scenario_of(state).name}, turn {state.turn}, {state.phase}"
             + (f", the {side(state.active)} to act" if state.active else "")
             + (f"; initiative: the {NAMES[state.initiative]}" if state.initiative else "")]
    for seat in SEATS:
        s = v["sides"][seat]
        o = s["orders"]
        extra = f"  in Arsuf {o['in_arsuf']}" if o["in_arsuf"] else ""
        lines.append(f"{side(seat)}: Orders available {o['available']}  spent {o['spent']}  box {o['box']}{extra}"
                     f"  | losses track {s['losses_track']}/6  | leader {s['leader']['name']}"
                     f" ({s['leader']['card_side']}){'  PASSED' if s['passed'] else ''}")
        for b in v["banners"]:
            if b["side"] != seat:
                continue
            bar = "".join(("|" if slot["lance"] else ("+" if slot["marker"] == "+1" else "."))
                          for slot in b["track"])
            tag = "O" if b["card_side"] == "ordered" else "D"
            state_txt = b["status"][0].upper() if b["fate"] == "in-play" else b["fate"].upper()
            eng = "".join(f" ~{name.get(e, e)}" for e in b["engaged"])
            lines.append(f"  [{tag}] {b['name']:<14} {state_txt:<10} {bar:<8} at {b['location']}{eng}"
                         f"{' +' + str(b['surcharge']) if b['surcharge'] else ''}")
        if s["captured_banners"]:
            lines.append(f"  holds: {', '.join(name.get(b, b) for b in s['captured_banners'])}")
    if v["arsuf_lances"] is not None:
        lines.append(f"Arsuf: {plural(v['arsuf_lances'], 'Ayyubid lance')}")
    if v["markers"]:
        lines.append("markers: " + ", ".join(f"{MARKERS.get(m, m)} at {name.get(b, b)}" for m, b in v["markers"].items()))
    if state.pending:
        p = state.pending
        lines.append(f"waiting: {name.get(p.banner, p.banner)} {p.action.replace('-', ' ')} at "
                     f"{name.get(p.target, p.target or '')} — the {side(state.active)} may react")
    if state.result:
        r = state.result
        reason = r.reason
        for seat, named in NAMES.items():
            reason = reason.replace(seat, f"the {named}")
        lines.append(f"ENDED: {'draw' if r.draw else 'the ' + side(r.winner) + ' win'} ({reason})")
    lines.append("key: [D]eployed/[O]rdered, U/C status; track from slot 1: | lance, + uncovered +1, . empty")
    return "\n".join(lines)

