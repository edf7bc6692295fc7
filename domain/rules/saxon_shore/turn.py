"""The turn (§2.2), set-up (§10), random events before the cards (§3.1, §3.2, §3.4),
production and city trade (§4.1, §4.2), ravage removal (§6) and end of turn (§9)."""

from __future__ import annotations

import msgspec

from domain.events import Outcome
from domain.rules.saxon_shore.data import RESOURCES, Board
from domain.rules.saxon_shore.events import (
    CityTradeFailed,
    ImprovementBuilt,
    CityTradeRolled,
    GameDecided,
    KingCrowned,
    KingDied,
    PeasantsAndBoatsRemoved,
    PlayerEliminated,
    RavageRemoved,
    ResourcesGained,
    ResourcesProduced,
    StartingProvincePicked,
    TroopsReturned,
    TurnBegan,
    UnitsDeserted,
    UnitsEliminated,
    UnitsPlaced,
)
from domain.rules.saxon_shore.rules import Ctx, choice, counters, job
from domain.rules.saxon_shore.state import (
    TROOP_KINDS,
    Job,
    Options,
    Player,
    Prompt,
    Province,
    SaxonState,
    alive,
    king_of,
    nearest_friendly,
    owned,
    turn_steps,
    units_at,
    units_of,
)

IRELAND_CHRISTIAN = ("Ulster", "Leinster", "Munster")


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
    [king] = ctx.new_ids(1)
    religion = "christian" if option in IRELAND_CHRISTIAN else "pagan"
    ctx.emit(StartingProvincePicked(seat=seat, province=option, king=king, religion=religion))


@job("mercenaries")
def place_mercenaries(ctx: Ctx, j: Job) -> None:
    """§10: one mercenary per player, each by a roll on the random province table."""
    for _ in ctx.state.seats:
        row, col = ctx.roll(2, "set-up mercenary: random province table (§10)")
        place(ctx, "mercenary", ctx.board.table_province(row, col), "10")


def place(ctx: Ctx, kind: str, province: str, section: str, owner: str | None = None, count: int = 1,
          coast: str | None = None) -> None:
    """Counters placed by the rules (UnitsPlaced)."""
    ctx.emit(UnitsPlaced(kind=kind, province=province, units=ctx.new_ids(count), section=section, owner=owner,
                         coast=coast))


# -- the turn ------------------------------------------------------------------------------------
@job("begin_turn")
def begin_turn(ctx: Ctx, j: Job) -> None:
    state = ctx.state
    order = [s for s in (j.args or state.order) if state.players[s].alive]
    ctx.emit(TurnBegan(turn=state.turn + 1, order=order))
    ctx.phase, ctx.stage = "random events", 0
    ctx.push(*turn_steps(order))


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
        ctx.emit(KingDied(seat=seat, unit=king.id, province=king.loc, section="3.1"))
    quality = king_quality(ctx, seat)
    crown(ctx, seat, quality, "3.1")


def crown(ctx: Ctx, seat: str, quality: int, section: str) -> None:
    """Place a new king in a friendly province of the player's choice."""
    mine = owned(ctx.state, seat)
    if len(mine) == 1:
        crowned(ctx, seat, mine[0], quality, section)
    elif mine:
        ctx.ask("king_place", seat, mine, section=section, n=quality, args=(section,))


def crowned(ctx: Ctx, seat: str, province: str, quality: int, section: str) -> None:
    [unit] = ctx.new_ids(1)
    ctx.emit(KingCrowned(seat=seat, unit=unit, province=province, quality=quality, section=section))


@choice("king_place")
def place_king(ctx: Ctx, prompt, option: str) -> None:
    crowned(ctx, prompt.seat, option, prompt.n, prompt.args[0])


# -- §3.2 desertion ----------------------------------------------------------------------------------
@job("desert")
def desertion(ctx: Ctx, j: Job) -> None:
    mercs = units_of(ctx.state, j.seat, ("mercenary",))
    if not mercs:
        return
    faces = ctx.roll(len(mercs), "mercenary desertion, 5-6 deserts (§3.2)", j.seat)
    gone = [m for m, f in zip(mercs, faces) if f >= 5]
    if gone:
        ctx.emit(UnitsDeserted(units=counters(gone), section="3.2"))


# -- §3.4 the random province improvement ------------------------------------------------------
@job("province_roll")
def province_roll(ctx: Ctx, j: Job) -> None:
    ctx.phase = "random events"
    row, col = ctx.roll(2, "random province improvement: random province table (§3.4)")
    prov = ctx.board.table_province(row, col)
    if ctx.prov(prov).owner is not None:
        place(ctx, "mercenary", prov, "3.4")
        return
    result = ctx.d6(f"improvement in neutral {prov} (§3.4)")
    p = ctx.prov(prov)
    if result == 1:
        place(ctx, "mercenary", prov, "3.4")
    elif result == 2:
        place(ctx, "regular", prov, "3.4")
    elif result == 3:
        ctx.morale(prov, +1, "3.4")
    elif result == 4 and not p.road:
        ctx.emit(ImprovementBuilt(province=prov, improvement="road", section="3.4"))
    elif result == 5 and not p.wall:
        ctx.emit(ImprovementBuilt(province=prov, improvement="wall", section="3.4"))
    elif result == 6 and not p.monastery:
        ctx.emit(ImprovementBuilt(province=prov, improvement="monastery", section="3.4"))
        ctx.set_morale(prov, 1, "3.4")


# -- §4.1 production ---------------------------------------------------------------------------------
@job("production")
def production(ctx: Ctx, j: Job) -> None:
    ctx.phase = "resources"
    for seat in alive(ctx.state):
        gained: dict[str, int] = {}
        for prov in owned(ctx.state, seat):
            for name in ctx.board.produces[prov]:
                gained[name] = gained.get(name, 0) + 1
        bumper = ctx.player(seat).bumper
        if gained or bumper:
            ctx.emit(ResourcesProduced(seat=seat, gained=dict(sorted(gained.items(), key=lambda kv: RESOURCES.index(kv[0])))))
        if bumper:
            kinds = sorted(gained, key=RESOURCES.index)
            if len(kinds) == 1:
                ctx.emit(ResourcesGained(seat=seat, gained={kinds[0]: 1}, section="11 33"))
            elif kinds:
                ctx.push(Job("ask", seat, args=("bumper", *kinds)))


@job("ask")
def ask_later(ctx: Ctx, j: Job) -> None:
    """A queued question: args = (prompt kind, *options)."""
    ctx.ask(j.args[0], j.seat, j.args[1:], prov=j.prov, n=j.n)


@choice("bumper")
def bumper(ctx: Ctx, prompt, option: str) -> None:
    ctx.emit(ResourcesGained(seat=prompt.seat, gained={option: 1}, section="11 33"))


# -- §4.2 city trade ----------------------------------------------------------------------------------
@job("city_trades")
def city_trades(ctx: Ctx, j: Job) -> None:
    order = alive(ctx.state)
    placed = [(order.index(p.trade_seat) if p.trade_seat in order else 99, ctx.board.index[name], name)
              for name, p in ctx.state.provinces.items() if p.trade_res]
    ctx.push(*[Job("city_trade", prov=name) for _, _, name in sorted(placed)])


@job("city_trade")
def city_trade(ctx: Ctx, j: Job) -> None:
    p = ctx.prov(j.prov)
    seat = p.trade_seat
    if not p.trade_res or seat is None:
        return
    if not ctx.state.players[seat].alive or not p.city:
        reason = "eliminated" if not ctx.state.players[seat].alive else "no city"
        ctx.emit(CityTradeFailed(seat=seat, province=j.prov, resource=p.trade_res, reason=reason, section="4.2"))
        return
    trade_roll(ctx, j.prov, famine=p.famine)


def trade_roll(ctx: Ctx, prov: str, famine: bool) -> None:
    """§4.2: the traded resource is lost; roll with modifiers; a natural 1 always fails."""
    p = ctx.prov(prov)
    seat = p.trade_seat
    if famine:
        ctx.emit(CityTradeFailed(seat=seat, province=prov, resource=p.trade_res, reason="famine", section="11 25"))
        return
    natural = ctx.d6(f"city trade in {prov} (§4.2)", seat)
    total = natural - (not p.traded) + p.road + p.monastery + ctx.player(seat).christian
    ctx.emit(CityTradeRolled(seat=seat, province=prov, resource=p.trade_res, roll=natural, total=total))
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
        ctx.emit(ResourcesGained(seat=seat, gained={RESOURCES[face - 1]: 1}, section="4.2"))


@choice("trade_gain")
def trade_gain(ctx: Ctx, prompt, option: str) -> None:
    """A resource of choice: of a city trade (§4.2) or the spoils of a raid (§8.1, args)."""
    ctx.emit(ResourcesGained(seat=prompt.seat, gained={option: 1}, section=prompt.args[0] if prompt.args else "4.2"))


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
            ctx.emit(RavageRemoved(province=prov, section="6"))


# -- §9 end of turn -------------------------------------------------------------------------------------
@job("end_turn")
def end_turn(ctx: Ctx, j: Job) -> None:
    ctx.phase, ctx.stage = "end of turn", 0
    gone = sorted(u.id for u in ctx.state.units.values() if u.kind in ("peasant", "boat"))
    if gone:
        ctx.emit(PeasantsAndBoatsRemoved(units=gone))
    jobs = [Job("home_all", s) for s in alive(ctx.state)] + [Job("turn_over")]
    ctx.push(*jobs)


@job("home_all")
def home_all(ctx: Ctx, j: Job) -> None:
    """§9.2: "In game order, all troops in non-friendly provinces are moved to the nearest friendly
    province." Then the player is looked at again: a mercenary hired "at any time" (§4.6.1) while
    his troops were being sent home, in a non-friendly province, goes home too (records of 2.0.0
    replay without this second look)."""
    locations = sorted({u.loc for u in units_of(ctx.state, j.seat) if u.kind in TROOP_KINDS
                        and (u.loc not in ctx.state.provinces or ctx.prov(u.loc).owner != j.seat)}, key=ctx.board.order_key)
    again = [Job("home_all", j.seat)] if locations and ctx.state.version != "2.0.0" else []
    ctx.push(*[Job("send_home", j.seat, prov=loc, args=("9.2",)) for loc in locations], *again)


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
        ctx.emit(UnitsEliminated(units=counters(troops), section=j.args[0], province=j.prov))
    elif len(targets) == 1:
        move_home(ctx, troops, targets[0], j.args[0])
    else:
        ctx.ask("home", j.seat, targets, section=j.args[0], prov=j.prov,
                args=tuple(j.args[:1]) + tuple(str(u.id) for u in troops))


@choice("home")
def choose_home(ctx: Ctx, prompt, option: str) -> None:
    ids = {int(a) for a in prompt.args[1:]}
    troops = [u for u in units_at(ctx.state, prompt.prov, prompt.seat) if u.id in ids]
    move_home(ctx, troops, option, prompt.args[0])


def move_home(ctx: Ctx, troops: list, target: str, section: str) -> None:
    ctx.emit(TroopsReturned(seat=troops[0].owner, units=counters(troops, owners=False), start=troops[0].loc, to=target,
                            section=section))


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
        ctx.emit(GameDecided(outcome=Outcome(winner=leaders[0] if len(leaders) == 1 else None, draw=len(leaders) > 1, reason=reason,
                                     scores=scores, ranking=ranking)))
        return
    order = list(alive(state))
    ctx.push(Job("begin_turn", args=tuple(order[1:] + order[:1])))


def eliminate_if_empty(ctx: Ctx) -> None:
    """A player with no province left is out of the game; their units leave the map."""
    for seat in alive(ctx.state):
        if not owned(ctx.state, seat):
            ctx.emit(PlayerEliminated(seat=seat, units=counters(units_of(ctx.state, seat), owners=False)))
