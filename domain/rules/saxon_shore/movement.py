"""§7 movement: two movement points, roads, wild provinces, border types, stopping in
non-friendly provinces, boats carrying two units over sea zones, storms (§11 51), paths
(§11 12-15) and forced march (§11 54)."""

from __future__ import annotations

import msgspec

from domain.rules.saxon_shore.data import PATH_TYPES
from domain.rules.saxon_shore.events import ForcedMarchMade, LostAtSea, MovementBegan, UnitsMoved
from domain.rules.saxon_shore.rules import Ctx, counters, job, violation
from domain.rules.saxon_shore.state import capacity, units_at, units_of
from domain.rules.saxon_shore.commands import Done, ForcedMarch, Move
from domain.rules.saxon_shore.state import Job, SaxonState, Unit
from domain.rules.saxon_shore.phases import PHASES, Phase

RULE = "7"


def slots(unit: Unit) -> int:
    """Boat space a unit takes: a mounted knight counts as two (§11 11)."""
    return 2 if unit.kind == "knight" else 1


@job("movement_start")
def movement_start(ctx: Ctx, j: Job) -> None:
    """Each movement phase every unit has two movement points (§7)."""
    ctx.phase, ctx.stage = "move", j.n
    ctx.emit(MovementBegan(stage=j.n))


class Plan(msgspec.Struct, frozen=True):
    """The checked result of a move: per step the (from, to, cost); paths used; final loc."""

    steps: list[tuple[str, str, int]]
    coasts: list[str | None]  # the coast the group's boats lie on after each step (None at sea)
    paths_used: tuple[int, int, int]
    halted: bool


def plan_move(state: SaxonState, seat: str, c: Move) -> Plan:
    """Validate a group move along ``path``; raise a violation or return the plan."""
    if not c.units or len(set(c.units)) != len(c.units):
        raise violation("bad_group", "name one or more distinct units", RULE)
    if not c.path:
        raise violation("bad_path", "a path names at least one step", RULE)
    units = []
    for uid in c.units:
        u = state.units.get(uid)
        if u is None or u.owner != seat:
            raise violation("not_your_unit", f"unit {uid} is not one of {seat}'s units", RULE)
        units.append(u)
    here = units[0].loc
    if any(u.loc != here for u in units):
        raise violation("bad_group", "units moving together start in the same place", RULE)
    boats = [u for u in units if u.kind == "boat"]
    riders = [u for u in units if u.kind != "boat"]
    if any(u.mp < 0 for u in units):
        raise violation("halted", "units that entered a non-friendly province must stop (§7)", RULE)
    mp = min(u.mp for u in units)
    paths = list(state.players[seat].paths)
    steps: list[tuple[str, str, int]] = []
    coasts: list[str | None] = []
    halted = False
    coast = boats[0].coast if boats else None
    if boats:
        if sum(slots(u) for u in riders) > 2 * len(boats):
            raise violation("boat_full", "a boat carries two units (a mounted knight counts as two)", RULE)
        if state.board.is_sea(here):
            coast = here
        elif any(b.coast != coast for b in boats):
            raise violation("bad_group", "boats moving together lie on the same coast", RULE)
    elif state.board.is_sea(here):
        raise violation("needs_boat", "troops at sea move only with boats", RULE)
    for i, nxt in enumerate(c.path):
        last = i == len(c.path) - 1
        if halted:
            raise violation("must_stop", f"units entering non-friendly {steps[-1][1]} must stop there (§7)", RULE)
        if boats:
            if state.board.is_sea(here):
                if not (nxt in state.board.sea_links[here] or here in state.board.shore(nxt)):
                    raise violation("not_adjacent", f"boats cannot sail from {here} to {nxt}", RULE)
                coast = None if state.board.is_sea(nxt) else here
            else:
                if nxt == coast:
                    coast = None
                elif state.board.share_coastline(here, nxt) and coast in state.board.shore(nxt):
                    pass
                else:
                    raise violation("not_adjacent", f"boats move from {here} only to their sea zone or along a "
                                                    f"shared coastline, not to {nxt}", RULE)
            cost = 1
        else:
            if (here, nxt) not in state.board.border:
                raise violation("not_adjacent", f"{nxt} does not border {here}", RULE)
            kind = state.board.border[(here, nxt)]
            if kind != "normal":
                k = PATH_TYPES.index(kind)
                if paths[k] < 1:
                    raise violation("blocked_border", f"the {kind} border between {here} and {nxt} is impassable "
                                                      f"without a {kind} path (§7, §11 12)", RULE)
                paths[k] -= 1
            if nxt in state.board.wild:
                k = PATH_TYPES.index(state.board.wild_terrain[nxt])
                if paths[k] < 2:
                    raise violation("wild_province", f"{nxt} is a wild province: troops may not enter it (§7)", RULE)
                if last:
                    raise violation("wild_province", f"troops may only pass through {nxt} (§11 12)", RULE)
                paths[k] -= 2
            cost = 0 if here in state.provinces and state.provinces[here].road else 1
        if mp < cost:
            raise violation("no_movement_points", "not enough movement points (§7)", RULE)
        mp -= cost
        steps.append((here, nxt, cost))
        coasts.append(coast)
        if nxt in state.provinces and state.provinces[nxt].owner != seat and capacity(state, nxt) > 0:
            halted = True
        here = nxt
    if boats and here in state.board.wild:
        raise violation("wild_province", f"boat units cannot end their movement in a wild province ({here}, §7)",
                        RULE)
    start = units[0].loc
    if state.board.is_sea(start):
        left = [u for u in units_at(state, start, seat) if u.id not in c.units]
        if sum(slots(u) for u in left if u.kind != "boat") > 2 * sum(1 for u in left if u.kind == "boat"):
            raise violation("boat_full", "troops at sea cannot be left without boats to carry them", RULE)
    if state.board.is_sea(here):
        there = [u for u in units_at(state, here, seat)]
        total_riders = sum(slots(u) for u in there if u.kind != "boat") + sum(slots(u) for u in riders)
        if total_riders > 2 * (len(boats) + sum(1 for u in there if u.kind == "boat")):
            raise violation("boat_full", "not enough boats at sea for these troops", RULE)
    used = tuple(a - b for a, b in zip(state.players[seat].paths, paths))
    return Plan(steps=steps, coasts=coasts, paths_used=used, halted=halted)  # type: ignore[arg-type]


def move_check(state: SaxonState, seat: str, c: Move) -> None:
    plan_move(state, seat, c)


def move_apply(ctx: Ctx, seat: str, c: Move) -> None:
    plan = plan_move(ctx.state, seat, c)
    used = [kind for kind, n in zip(PATH_TYPES, plan.paths_used) for _ in range(n)]
    ids = list(c.units)
    units = [ctx.state.units[u] for u in ids]
    stormy = [z for z in ctx.state.storms if stormy_voyage(ctx.board, plan, z)]
    if stormy and any(u.kind == "boat" for u in units):
        ids = storm(ctx, seat, units, stormy)
        if not ids:
            return
    # one event for the whole path: units are never recorded inside a wild province they pass through
    ctx.emit(UnitsMoved(seat=seat, units=counters((ctx.state.units[x] for x in ids), owners=False),
                        start=plan.steps[0][0], path=[nxt for _, nxt, _ in plan.steps],
                        points=sum(cost for _, _, cost in plan.steps), halted=plan.halted,
                        coast=plan.coasts[-1] if any(ctx.state.units[x].kind == "boat" for x in ids) else None,
                        paths_used=used))


def stormy_voyage(board, plan: Plan, zone: str) -> bool:
    """§11 51: a boat "attempting to move from a province adjacent to that sea zone, or into
    that sea zone" (any step of its move)."""
    return any(nxt == zone or zone in board.shore(here) for here, nxt, _ in plan.steps)


def storm(ctx: Ctx, seat: str, units: list[Unit], zones: list[str]) -> list[int]:
    """§11 51: each boat "must roll a die: on a roll of 4, 5, or 6, the boat and any troops in it
    are destroyed": one roll per boat per move, however many steps or storms it meets; riders
    fill the boats in id order, two places each (move boats one by one to choose who rides where)."""
    boats = [u for u in units if u.kind == "boat"]
    riders = [u for u in units if u.kind != "boat"]
    faces = ctx.roll(len(boats), f"storm in {' and '.join(zones)}: a boat sinks on 4-6 (§11 51)", seat)
    lost: list[int] = []
    seats_left = {b.id: 2 for b in boats}
    carried: dict[int, list[int]] = {b.id: [] for b in boats}
    for r in riders:
        for b in boats:
            if seats_left[b.id] >= slots(r):
                seats_left[b.id] -= slots(r)
                carried[b.id].append(r.id)
                break
    for b, f in zip(boats, faces):
        if f >= 4:
            lost += [b.id, *carried[b.id]]
    if lost:
        ctx.emit(LostAtSea(seat=seat, units=counters((u for u in units if u.id in lost), owners=False), seas=zones))
    return [u.id for u in units if u.id not in lost]


def forced_check(state: SaxonState, seat: str, c: ForcedMarch) -> None:
    if not state.players[seat].forced_march:
        raise violation("no_forced_march", "you hold no forced march this turn (§11 54)", "11")
    if not [u for u in units_at(state, c.location, seat) if u.mp >= 0]:
        raise violation("no_units", f"{seat} has no units able to move at {c.location}", "11")


def forced_apply(ctx: Ctx, seat: str, c: ForcedMarch) -> None:
    units = [u.id for u in units_at(ctx.state, c.location, seat) if u.mp >= 0]
    ctx.emit(ForcedMarchMade(seat=seat, location=c.location, units=units))


def _destinations(state: SaxonState, u: Unit) -> list[str]:
    if u.kind == "boat" or state.board.is_sea(u.loc):
        if state.board.is_sea(u.loc):
            return sorted({*state.board.sea_links[u.loc], *state.board.sea_provinces[u.loc]}, key=state.board.order_key)
        return [u.coast] + [n for n in state.board.land_neighbours.get(u.loc, ()) if n in state.board.coasts and state.board.share_coastline(u.loc, n)
                            and u.coast in state.board.coasts[n]]
    return [n for n in state.board.land_neighbours.get(u.loc, ()) if n not in state.board.wild]


def move_candidates(state: SaxonState, seat: str):
    yield Done()
    mine = [u for u in units_of(state, seat) if u.mp >= 0]
    by_loc: dict[str, list[Unit]] = {}
    for u in mine:
        by_loc.setdefault(u.loc, []).append(u)
    for loc in sorted(by_loc, key=state.board.order_key):
        group = by_loc[loc]
        boats = [u for u in group if u.kind == "boat"]
        riders = [u for u in group if u.kind != "boat"]
        for u in riders if not state.board.is_sea(loc) else []:
            for d in _destinations(state, u):
                yield Move(units=[u.id], path=[d])
        if len(riders) > 1 and not state.board.is_sea(loc):
            for d in _destinations(state, riders[0]):
                yield Move(units=[u.id for u in riders], path=[d])
        for b in boats:
            for d in _destinations(state, b):
                yield Move(units=[b.id], path=[d])
                load, room = [], 2
                for r in riders:
                    if slots(r) <= room:
                        load.append(r.id)
                        room -= slots(r)
                if load:
                    yield Move(units=[b.id, *load], path=[d])
        if riders and not state.board.is_sea(loc):
            for n in state.board.land_neighbours.get(loc, ()):
                if n in state.board.wild:
                    for m in state.board.land_neighbours[n]:
                        if m != loc and m not in state.board.wild:
                            yield Move(units=[riders[0].id], path=[n, m])
        if state.players[seat].forced_march:
            yield ForcedMarch(location=loc)


PHASES["move"] = Phase(
    "move", RULE, wanted=lambda s, seat: bool(units_of(s, seat)),
    candidates=move_candidates,
    checks={Move: move_check, ForcedMarch: forced_check},
    applies={Move: move_apply, ForcedMarch: forced_apply},
)
