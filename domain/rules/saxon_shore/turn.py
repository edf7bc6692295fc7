"""The turn (§2.2), set-up (§10), random events before the cards (§3.1, §3.2, §3.4),
production and city trade (§4.1, §4.2), ravage removal (§6) and end of turn (§9)."""

from __future__ import annotations

import msgspec

from domain.events import Outcome
from domain.rules.saxon_shore.data import RESOURCES, Board
from domain.rules.saxon_shore.rules import Ctx, choice, job
from domain.rules.saxon_shore.state import (
    TROOP_KINDS,
    alive,
    king_of,
    nearest_friendly,
    owned,
    units_at,
    units_of,
)
from domain.rules.saxon_shore.state import Job, Options, Player, Prompt, Province, SaxonState

IRELAND_CHRISTIAN = ("Ulster", "Leinster", "Munster")
ECONOMY_PHASES = ("trade", "market", "improve", "raise", "convert")


def initial_state(seats: tuple[str, ...], options: Options, board: Board) -> SaxonState:
    """§10: game order is the order of the seats; each picks a starting province in turn."""
    state = SaxonState(
        seats=seats, order=seats, options=options,
        provinces={p: Province() for p in board.provinces},
        players={s: Player() for s in seats}, board=board,
    )
    jobs = tuple(Job("start", s) for s in seats[1:]) + (Job("mercenaries"), Job("begin_turn"))
    return msgspec.structs.replace(state, jobs=jobs, prompt=Prompt("start", seats[0], tuple(board.provinces)))


# -- set-up ----------------------------------------------------------------------------------
@job("start")
def ask_start(ctx: Ctx, j: Job) -> None:
    free = [p for p in ctx.board.provinces if ctx.prov(p).owner is None]
    ctx.ask("start", j.seat, free)


@choice("start")
def start_province(ctx: Ctx, prompt, option: str) -> None:
    """§10: castle, a normal king and one gold; Christian if starting in Ireland."""
    seat = prompt.seat
    ctx.set_owner(option, seat, "starting province (§10)")
    ctx.add_units("king", seat, option, "starting king (§10)")
    christian = option in IRELAND_CHRISTIAN
    ctx.set_player(seat, "starting gold (§10)", res=(0, 0, 0, 1, 0), christian=christian)


@job("mercenaries")
def place_mercenaries(ctx: Ctx, j: Job) -> None:
    """§10: one mercenary per player, each by a roll on the random province table."""
    for _ in ctx.state.seats:
        row, col = ctx.roll(2, "set-up mercenary: random province table (§10)")
        ctx.add_units("mercenary", None, ctx.board.table_province(row, col), "set-up mercenary (§10)")


# -- the turn ------------------------------------------------------------------------------------
@job("begin_turn")
def begin_turn(ctx: Ctx, j: Job) -> None:
    state = ctx.state
    order = [s for s in (j.args or state.order) if state.players[s].alive]
    ctx.begin_turn(state.turn + 1, order)
    for seat in order:
        if any(getattr(ctx.player(seat), f) for f in ("forced_march", "chainmail")):
            ctx.set_player(seat, "new turn", forced_march=False, chainmail=False)
    jobs = [Job("king", s) for s in order] + [Job("desert", s) for s in order] + [Job("event", s) for s in order]
    jobs += [Job("province_roll"), Job("production"), Job("city_trades")]
    jobs.append(Job("trade_round"))
    for phase in ECONOMY_PHASES[1:]:
        jobs += [Job("phase", s, args=(phase,)) for s in order]
    jobs.append(Job("ravage_recovery"))
    for stage in (1, 2):
        jobs.append(Job("movement_start", n=stage))
        jobs += [Job("phase", s, n=stage, args=("move",)) for s in order]
        jobs.append(Job("combat_start", n=stage))
        jobs += [Job("phase", s, n=stage, args=("declare",)) for s in order]
        jobs += [Job("raids", n=stage), Job("invasions", n=stage)]
    jobs.append(Job("end_turn"))
    ctx.phase, ctx.stage = "random events", 0
    ctx.push(*jobs)


@job("phase")
def open_phase(ctx: Ctx, j: Job) -> None:
    """Give a seat its part of a phase; skipped when it has nothing it may do."""
    from domain.rules.saxon_shore.phases import PHASES

    name = j.args[0]
    ctx.phase = name
    if j.n:
        ctx.stage = j.n
    if PHASES[name].wanted(ctx.state, j.seat):
        ctx.ask("phase", j.seat, (), args=(name,), n=j.n)


# -- §3.1 the king ---------------------------------------------------------------------------------
def king_quality(ctx: Ctx, seat: str) -> int:
    """§3.1 quality roll: 1-4 normal, 5 +1, 6 roll again (1-4 +1, 5-6 +2); §12.3 a 1 is -1."""
    first = ctx.d6("quality of the new king (§3.1)", seat)
    if first == 1 and ctx.state.options.feeble_rulers:
        return -1
    if first <= 4:
        return 0
    if first == 5:
        return 1
    second = ctx.d6("new king: roll again on a 6 (§3.1)", seat)
    return 1 if second <= 4 else 2


@job("king")
def king_step(ctx: Ctx, j: Job) -> None:
    """§3.1: on 5 or 6 the king dies; a kingdom with no king crowns one (RULES_NOTES.md)."""
    seat = j.seat
    king = king_of(ctx.state, seat)
    if king is not None:
        if ctx.d6("does the king die? (§3.1)", seat) < 5:
            return
        ctx.remove_units([king.id], "the king dies (§3.1)")
    quality = king_quality(ctx, seat)
    crown(ctx, seat, quality, "a new king (§3.1)")


def crown(ctx: Ctx, seat: str, quality: int, why: str) -> None:
    """Place a new king in a friendly province of the player's choice."""
    mine = owned(ctx.state, seat)
    if len(mine) == 1:
        ctx.add_units("king", seat, mine[0], why, quality=quality)
    elif mine:
        ctx.ask("king_place", seat, mine, n=quality, args=(why,))


@choice("king_place")
def place_king(ctx: Ctx, prompt, option: str) -> None:
    ctx.add_units("king", prompt.seat, option, prompt.args[0], quality=prompt.n)


# -- §3.2 desertion ----------------------------------------------------------------------------------
@job("desert")
def desertion(ctx: Ctx, j: Job) -> None:
    mercs = units_of(ctx.state, j.seat, ("mercenary",))
    if not mercs:
        return
    faces = ctx.roll(len(mercs), "mercenary desertion, 5-6 deserts (§3.2)", j.seat)
    ctx.remove_units([m.id for m, f in zip(mercs, faces) if f >= 5], "mercenary deserts (§3.2)")


# -- §3.4 the random province improvement ------------------------------------------------------
@job("province_roll")
def province_roll(ctx: Ctx, j: Job) -> None:
    ctx.phase = "random events"
    row, col = ctx.roll(2, "random province improvement: random province table (§3.4)")
    prov = ctx.board.table_province(row, col)
    if ctx.prov(prov).owner is not None:
        ctx.add_units("mercenary", None, prov, "a mercenary for hire (§3.4)")
        return
    result = ctx.d6(f"improvement in neutral {prov} (§3.4)")
    p = ctx.prov(prov)
    why = f"random improvement {result} (§3.4)"
    if result == 1:
        ctx.add_units("mercenary", None, prov, why)
    elif result == 2:
        ctx.add_units("regular", None, prov, why)
    elif result == 3:
        ctx.morale(prov, +1, why)
    elif result == 4 and not p.road:
        ctx.set_prov(prov, why, road=True)
    elif result == 5 and not p.wall:
        ctx.set_prov(prov, why, wall=True)
    elif result == 6 and not p.monastery:
        ctx.set_prov(prov, why, monastery=True, morale=1)


# -- §4.1 production ---------------------------------------------------------------------------------
@job("production")
def production(ctx: Ctx, j: Job) -> None:
    ctx.phase = "resources"
    for seat in alive(ctx.state):
        gained: dict[str, int] = {}
        for prov in owned(ctx.state, seat):
            for name in ctx.board.produces[prov]:
                gained[name] = gained.get(name, 0) + 1
        ctx.gain(seat, gained, "production (§4.1)")
        if ctx.player(seat).bumper:
            ctx.set_player(seat, "bumper year used", bumper=False)
            kinds = sorted(gained, key=RESOURCES.index)
            if len(kinds) == 1:
                ctx.gain(seat, {kinds[0]: 1}, "bumper year (§11 33)")
            elif kinds:
                ctx.push(Job("ask", seat, args=("bumper", *kinds)))


@job("ask")
def ask_later(ctx: Ctx, j: Job) -> None:
    """A queued question: args = (prompt kind, *options)."""
    ctx.ask(j.args[0], j.seat, j.args[1:], prov=j.prov, n=j.n)


@choice("bumper")
def bumper(ctx: Ctx, prompt, option: str) -> None:
    ctx.gain(prompt.seat, {option: 1}, "bumper year (§11 33)")


# -- §4.2 city trade ----------------------------------------------------------------------------------
@job("city_trades")
def city_trades(ctx: Ctx, j: Job) -> None:
    order = alive(ctx.state)
    placed = [(order.index(p.trade_seat) if p.trade_seat in order else 99, ctx.board.index[name], name)
              for name, p in ctx.state.provinces.items() if p.trade_res]
    ctx.push(*[Job("city_trade", prov=name) for _, _, name in sorted(placed)], Job("famine_clear"))


@job("city_trade")
def city_trade(ctx: Ctx, j: Job) -> None:
    p = ctx.prov(j.prov)
    seat = p.trade_seat
    if not p.trade_res or seat is None:
        return
    if not ctx.state.players[seat].alive or not p.city:
        ctx.set_prov(j.prov, "trade lapses", trade_seat=None, trade_res=None)
        return
    trade_roll(ctx, j.prov, famine=p.famine)


def trade_roll(ctx: Ctx, prov: str, famine: bool) -> None:
    """§4.2: the traded resource is lost; roll with modifiers; a natural 1 always fails."""
    p = ctx.prov(prov)
    seat = p.trade_seat
    ctx.set_prov(prov, "resource traded (§4.2)", trade_seat=None, trade_res=None, traded=True)
    if famine:
        ctx.note("trade fails: famine (§11 25)", seat, prov)
        return
    natural = ctx.d6(f"city trade in {prov} (§4.2)", seat)
    total = natural - (not p.traded) + p.road + p.monastery + ctx.player(seat).christian
    ctx.note("city trade (§4.2)", seat, prov, roll=natural, total=total)
    if natural == 1 or total <= 2:
        return
    if total == 3:
        random_resources(ctx, seat, 1)
    elif total in (4, 5):
        ctx.push(Job("ask", seat, args=("trade_gain", *RESOURCES)))
    elif total == 6:
        random_resources(ctx, seat, 2)
    else:
        ctx.push(Job("ask", seat, args=("trade_gain", *RESOURCES)), Job("ask", seat, args=("trade_gain", *RESOURCES)))


def random_resources(ctx: Ctx, seat: str, count: int) -> None:
    """A random resource: one die, 1 wheat 2 wool 3 iron 4 gold 5 slaves, 6 roll again."""
    for _ in range(count):
        face = 6
        while face == 6:
            face = ctx.d6("a random resource: 1 wheat 2 wool 3 iron 4 gold 5 slaves 6 again", seat)
        ctx.gain(seat, {RESOURCES[face - 1]: 1}, "a random resource (§4.2)")


@choice("trade_gain")
def trade_gain(ctx: Ctx, prompt, option: str) -> None:
    ctx.gain(prompt.seat, {option: 1}, "a resource of choice (§4.2)")


@job("famine_clear")
def famine_clear(ctx: Ctx, j: Job) -> None:
    for prov in ctx.board.provinces:
        if ctx.prov(prov).famine:
            ctx.set_prov(prov, "famine passes", famine=False)


# -- §6 ravage removal --------------------------------------------------------------------------------
@job("ravage_recovery")
def ravage_recovery(ctx: Ctx, j: Job) -> None:
    ctx.phase = "population recovery"
    ravaged = [p for p in ctx.board.provinces if ctx.prov(p).ravage > 0]
    if not ravaged:
        return
    faces = ctx.roll(len(ravaged), "ravage removal: 4-6 removes one (§6)")
    for prov, face in zip(ravaged, faces):
        if face >= 4:
            ctx.set_prov(prov, "ravage removed (§6)", ravage=ctx.prov(prov).ravage - 1)


# -- §9 end of turn -------------------------------------------------------------------------------------
@job("end_turn")
def end_turn(ctx: Ctx, j: Job) -> None:
    ctx.phase, ctx.stage = "end of turn", 0
    gone = [u.id for u in ctx.state.units.values() if u.kind in ("peasant", "boat")]
    ctx.remove_units(gone, "peasants and boats removed (§9.1)")
    for prov in ctx.board.provinces:
        if ctx.prov(prov).peasants or ctx.prov(prov).morale_bought:
            ctx.set_prov(prov, "new turn", peasants=False, morale_bought=False)
    ctx.storms = []
    jobs = [Job("home_all", s) for s in alive(ctx.state)] + [Job("turn_over")]
    ctx.push(*jobs)


@job("home_all")
def home_all(ctx: Ctx, j: Job) -> None:
    """§9.2: every troop of the player in a non-friendly province goes to the nearest friendly one."""
    locations = sorted({u.loc for u in units_of(ctx.state, j.seat) if u.kind in TROOP_KINDS
                        and (u.loc not in ctx.state.provinces or ctx.prov(u.loc).owner != j.seat)}, key=ctx.board.order_key)
    ctx.push(*[Job("send_home", j.seat, prov=loc, args=("end of turn (§9.2)",)) for loc in locations])


@job("send_home")
def send_home(ctx: Ctx, j: Job) -> None:
    """Move the player's troops at ``prov`` (only ids in args[1:] when given) to the nearest
    friendly province; n=1: one free of enemy units (§8.1). None: they are eliminated."""
    ids = {int(a) for a in j.args[1:]}
    troops = [u for u in units_at(ctx.state, j.prov, j.seat) if u.kind in TROOP_KINDS and (not ids or u.id in ids)]
    if not troops:
        return
    targets = nearest_friendly(ctx.state, j.seat, j.prov, free_of_enemies=bool(j.n))
    if not targets:
        ctx.remove_units([u.id for u in troops], f"no friendly province to return to: eliminated ({j.args[0]})")
    elif len(targets) == 1:
        move_home(ctx, troops, targets[0], j.args[0])
    else:
        ctx.ask("home", j.seat, targets, prov=j.prov, args=tuple(j.args[:1]) + tuple(str(u.id) for u in troops))


@choice("home")
def choose_home(ctx: Ctx, prompt, option: str) -> None:
    ids = {int(a) for a in prompt.args[1:]}
    troops = [u for u in units_at(ctx.state, prompt.prov, prompt.seat) if u.id in ids]
    move_home(ctx, troops, option, prompt.args[0])


def move_home(ctx: Ctx, troops: list, target: str, why: str) -> None:
    ctx.update_units([msgspec.structs.replace(u, loc=target, coast=None, mp=0) for u in troops],
                     f"to the nearest friendly province: {target} ({why})")


@job("turn_over")
def turn_over(ctx: Ctx, j: Job) -> None:
    """§9.3: the first player goes last. A house-rule turn limit, when a group sets one, ends
    the game here: the most provinces (then cities) wins, marked as no rulebook victory."""
    state = ctx.state
    limit = state.options.turn_limit
    if limit is not None and state.turn >= limit:
        counts = {s: len(owned(state, s)) for s in alive(state)}
        best = max(counts.values())
        leaders = [s for s in alive(state) if counts[s] == best]
        if len(leaders) > 1:
            cities = {s: sum(ctx.prov(p).city for p in owned(state, s)) for s in leaders}
            top = max(cities.values())
            leaders = [s for s in leaders if cities[s] == top]
        ranking = sorted(alive(state), key=lambda s: -counts[s])
        scores = {s: float(len(owned(state, s))) for s in state.seats}
        reason = f"turn limit (house rule, {limit} turns): " + ("most provinces" if len(leaders) == 1
                                                                 else "tied for most provinces")
        ctx.decided(Outcome(winner=leaders[0] if len(leaders) == 1 else None, draw=len(leaders) > 1, reason=reason,
                            scores=scores, ranking=ranking))
        return
    order = list(alive(state))
    ctx.push(Job("begin_turn", args=tuple(order[1:] + order[:1])))


def eliminate_if_empty(ctx: Ctx) -> None:
    """A player with no province left is out of the game; their units leave the map."""
    for seat in alive(ctx.state):
        if not owned(ctx.state, seat):
            ctx.remove_units([u.id for u in units_of(ctx.state, seat)], f"{seat} is eliminated")
            ctx.set_player(seat, "eliminated: no provinces left", alive=False)
