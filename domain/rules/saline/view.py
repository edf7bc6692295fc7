"""What a seat (or a spectator) sees: the village square (market track, gabelle, rain scale, face-up
objectives), every saline around its mulon with the salt on each œillet, liards, favours and claimed
objectives face up; its own hand and secret objective face up, every other hand as a count and every
other secret objective as "one face down"; the decks as counts. Everything is shown at the end."""

from __future__ import annotations

import functools
from typing import Any

import msgspec

from domain.rules.saline.data import LIARDS, POSITIONS, SALT_CUBES
from domain.rules.saline.legality import reserve_liards, to_act
from domain.rules.saline.state import SalineState
from domain.rules.words import NO_NAMES, Names, plural, seat_name, with_names


def _objective(state: SalineState, oid: str) -> dict[str, Any]:
    o = state.cat.objectives[oid]
    return {"id": oid, "name": o.name, "cells": dict(o.cells)}


def _card(state: SalineState, cid: str) -> dict[str, Any]:
    return {"id": cid, "effects": [msgspec.to_builtins(e) for e in state.cat.events[cid]]}


def view(state: SalineState, seat: str | None, everything: bool = False) -> dict[str, Any]:
    """The game from ``seat``'s chair (None: a spectator); ``everything``: every hand and
    secret objective shown, as once the seed is revealed."""
    players = {}
    for p in state.seats:
        saline = state.salines.get(p, {})
        held = state.hands.get(p, ())
        sees = p == seat or state.shown or everything
        secret = state.secrets.get(p)
        claimed = state.claimed.get(p, ())
        players[p] = {
            "mulon": state.mulons.get(p, 0),
            "liards": state.liards.get(p, 0),
            "saline": {pos: {"id": saline[pos], "colour": state.colour(saline[pos]),
                             "capacity": state.cat.capacity[state.colour(saline[pos])], "salt": state.salt[saline[pos]]}
                       for pos in POSITIONS if pos in saline},
            "oeillets": len(saline),
            "favour": state.favours.get(p),
            "hand": {"count": len(held), "cards": [_card(state, c) for c in held] if sees else None},
            "secret_objective": (_objective(state, secret) if secret and (sees or secret in claimed)
                                 else ({"face_down": True} if secret else None)),
            "claimed": [_objective(state, o) for o in claimed],
            "cards_played_today": state.played_today.get(p, 0),
        }
    pending = state.pending
    return {
        "phase": state.phase,
        "seats": list(state.seats),
        "day": state.day,
        "first": state.first,
        "to_act": next(iter(to_act(state)), None),
        "current": state.current,
        "gabelle": state.gabelle,
        "rain": state.rain,
        "market": [{"space": i + 1, "price": price, "oeillet": o, "colour": state.colour(o) if o else None}
                   for i, (price, o) in enumerate(zip(state.cat.prices, state.market))],
        "objectives": [_objective(state, o) for o in state.public_objectives],
        "players": players,
        "pending": ({"seat": pending.seat, "card": pending.card, "effect": pending.effect, "target": pending.target,
                     "answers": [{"seat": a.seat, "effect": a.effect} for a in state.responses],
                     "asked": list(state.asked)} if pending else None),
        "window": ({"seat": state.window.holder, "action": state.window.step, "seats": list(state.window.seats),
                    "waiting": list(state.window.waiting)} if state.window else None),
        "sacrificing": state.sacrificing,
        "discarding": list(state.discarding),
        "decks": {"oeillets": len(state.oeillet_deck) - len(state.oeillets_drawn),
                  "events": len(state.event_deck) - len(state.events_drawn),
                  "event_discards": len(state.event_discard)},
        "reserve": {"salt": max(0, state.salt_reserve), "stand_ins": max(0, -state.salt_reserve),
                    "salt_cubes": SALT_CUBES, "liards": reserve_liards(state), "liards_total": LIARDS},
        "outcome": msgspec.to_builtins(state.result),
    }


def render_text(state: SalineState, names: Names = NO_NAMES, everything: bool = False) -> str:
    """The game a person reads at a glance, players by name: hands as counts until the end, or
    once the seed is revealed (``everything``) every hand and secret objective by name."""
    v = view(state, None, everything)
    who = functools.partial(seat_name, names)
    head = f"Saline — {v['phase']}, day {v['day']}, gabelle {v['gabelle']}, rain {v['rain']}/3"
    if v["to_act"]:
        head += f", {who(v['to_act'])} to act"
    lines = [head, "market: " + "  ".join(f"[{m['price']}] {m['colour'] or '-'}" for m in v["market"]),
             "objectives: " + ", ".join(o["name"] for o in v["objectives"])]
    for p, d in v["players"].items():
        ring = " ".join(f"{pos}:{o['colour'][0]}{o['salt']}" for pos, o in d["saline"].items())
        lines.append(f"{who(p)}: mulon {d['mulon']}, {plural(d['liards'], 'liard')}, hand {d['hand']['count']}, "
                     f"objectives {len(d['claimed'])}, favour {'yes' if d['favour'] else 'used'} | {ring}")
        if d["hand"]["cards"] is not None:
            cards = ", ".join(f"{c['id']} ({' / '.join(e['name'] for e in c['effects'])})" for c in d["hand"]["cards"])
            lines.append(f"   {who(p)}'s hand: {cards or 'none'}")
        secret = d["secret_objective"]
        if secret and "name" in secret:
            lines.append(f"   {who(p)}'s secret objective: {secret['name']}")
    if state.result:
        r = state.result
        lines.append(f"ENDED: {'draw' if r.draw else who(r.winner) + ' wins'} ({with_names(r.reason, names)}); scores "
                     + ", ".join(f"{who(p)} {int(s)}" for p, s in r.scores.items()))
    return "\n".join(lines)
