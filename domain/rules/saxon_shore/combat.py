"""§8 combat: declarations (raid or invade, the invasion cost), raids (§8.1) with their
results and spoils, invasions (§8.2) on the battle matrix with king bonuses, militia by
morale, casualty choices, battles between several invaders, conquest; widespread rebellion
(§11 64), wildmen and vikings (§11 32, 34) and city defences (§12.2)."""

from __future__ import annotations

from domain.rules.saxon_shore.data import RESOURCES
from domain.rules.saxon_shore.events import (
    BattleBegan,
    BattleEnded,
    BattleRoundFought,
    BoxMove,
    CasualtyRemoved,
    CityAssaulted,
    CityLeftUnassaulted,
    ImprovementDestroyed,
    InvasionDeclared,
    KingMovedTroops,
    OutsidersRaid,
    ProvinceBecameNeutral,
    ProvinceConquered,
    ProvinceRavaged,
    RaidDeclared,
    RaidersRepulsed,
    RaidFought,
    RetreatedIntoCity,
)
from domain.rules.saxon_shore.rules import Ctx, choice, counters, job, violation
from domain.rules.saxon_shore.state import (
    REGULAR_KINDS,
    TROOP_KINDS,
    alive,
    capacity,
    held,
    is_christian_province,
    owned,
    units_at,
)
from domain.rules.saxon_shore.random_events import IMPROVEMENTS
from domain.rules.saxon_shore.turn import eliminate_if_empty
from domain.rules.saxon_shore.commands import Declare, Done
from domain.rules.saxon_shore.state import Battle, Job, Prompt, SaxonState, Unit
from domain.rules.saxon_shore.phases import PHASES, Phase

RULE = "8"
CASUALTY_ORDER = ("militia", "peasant", "mercenary", "monk", "regular", "berserker", "knight", "king")


# -- strengths ---------------------------------------------------------------------------------------
def raid_strength(u: Unit, foe_christian: bool, chainmail: bool) -> int:
    """§8.1 raid strength (§11 11 knights and berserkers 4; §12.1 monks; §12.3 -1 king 1; §11 55 +1)."""
    base = {"peasant": 1, "regular": 2, "mercenary": 2, "knight": 4, "berserker": 4}.get(u.kind)
    if u.kind == "king":
        base = 2 + u.quality
    elif u.kind == "monk":
        base = 1 if foe_christian else 3
    return base + chainmail


def combat_strength(u: Unit, foe_christian: bool, chainmail: bool) -> int:
    """§8.2 combat strength (knights 4, berserkers 3 with two rolls, monks 1/3, -1 king 1; chainmail +1)."""
    base = {"peasant": 1, "regular": 3, "mercenary": 3, "knight": 4, "berserker": 3}.get(u.kind)
    if u.kind == "king":
        base = 1 if u.quality < 0 else 3 + u.quality
    elif u.kind == "monk":
        base = 1 if foe_christian else 3
    return base + chainmail


def troops(state: SaxonState, prov: str, seat: str | None) -> list[Unit]:
    """A side's fighting units in a province: a seat's troops, or a neutral province's regulars."""
    if seat is None:
        return units_at(state, prov, None, REGULAR_KINDS)
    return units_at(state, prov, seat, TROOP_KINDS)


def religion(state: SaxonState, side: str | None, prov: str) -> bool:
    if side is None or side == "rebels":
        return is_christian_province(state, prov)
    return state.players[side].christian


# -- declarations ---------------------------------------------------------------------------------------
@job("combat_start")
def combat_start(ctx: Ctx, j: Job) -> None:
    ctx.phase, ctx.stage = "combat", j.n


def to_declare(state: SaxonState, seat: str, declared) -> list[str]:
    """The non-friendly provinces where the seat's troops must still be declared RAID or INVADE
    (§8). A province of capacity zero cannot be raided, so there the only answer is INVADE; with
    nothing to pay for it the troops are not engaged at all, as §7 lets troops pass through such
    a province without stopping (RULES_NOTES.md)."""
    done = {(s, p) for s, p, _ in declared}
    broke = not held(state.players[seat])
    return sorted({u.loc for u in state.units.values() if u.owner == seat and u.kind in TROOP_KINDS
                   and u.loc in state.provinces and state.provinces[u.loc].owner != seat
                   and (seat, u.loc) not in done and not (broke and capacity(state, u.loc) <= 0)},
                  key=state.board.order_key)


def declare_check(state: SaxonState, seat: str, c: Declare) -> None:
    if c.province not in to_declare(state, seat, state.declared):
        raise violation("nothing_to_declare", f"{seat} has no undeclared troops in non-friendly {c.province}", RULE)
    if c.action == "raid" and capacity(state, c.province) <= 0:
        raise violation("cannot_raid", "provinces with a carrying capacity of zero cannot be raided", RULE)
    if c.action == "invade":
        if c.pay is None or c.pay not in held(state.players[seat]):
            raise violation("invasion_cost", "an invasion costs one resource of any kind", RULE)
    elif c.pay is not None:
        raise violation("bad_declaration", "only an invasion is paid for", RULE)


def declare_apply(ctx: Ctx, seat: str, c: Declare) -> None:
    if c.action == "invade":
        ctx.emit(InvasionDeclared(seat=seat, province=c.province, paid=c.pay))
    else:
        ctx.emit(RaidDeclared(seat=seat, province=c.province))
    if not to_declare(ctx.state, seat, ctx.state.declared):
        ctx.prompt = None


def declare_done(state: SaxonState, seat: str) -> None:
    left = to_declare(state, seat, state.declared)
    if left:
        raise violation("must_declare", f"state whether your troops in {', '.join(left)} RAID or INVADE", RULE)


def declare_candidates(state: SaxonState, seat: str):
    """``done`` (accepted only once nothing is left to declare: a hire "at any time", §4.6.1, may
    spend the last resource while the seat's troops stand in a province of capacity zero, which
    then needs no declaration: RULES_NOTES.md, §8), then each declaration."""
    yield Done()
    for prov in to_declare(state, seat, state.declared):
        yield Declare(province=prov, action="raid")
        for r in held(state.players[seat]):
            yield Declare(province=prov, action="invade", pay=r)


PHASES["declare"] = Phase(
    "declare", RULE, wanted=lambda s, seat: bool(to_declare(s, seat, s.declared)),
    candidates=declare_candidates, checks={Declare: declare_check}, applies={Declare: declare_apply},
    done_check=declare_done,
)


# -- raids ------------------------------------------------------------------------------------------------
@job("raids")
def raids(ctx: Ctx, j: Job) -> None:
    """Raids first, in game order (§8)."""
    order = alive(ctx.state)
    todo = sorted(((order.index(s), ctx.board.index[p], s, p) for s, p, a in ctx.state.declared if a == "raid" and s in order))
    ctx.push(*[Job("raid", s, prov=p) for _, _, s, p in todo])


@job("raid")
def raid(ctx: Ctx, j: Job) -> None:
    """§8.1: raid strengths plus a die each; the higher wins."""
    state, seat, prov = ctx.state, j.seat, j.prov
    attackers = troops(state, prov, seat)
    owner = state.provinces[prov].owner
    if not attackers or owner == seat or capacity(state, prov) <= 0:
        return
    chain = state.players[seat].chainmail
    foe = is_christian_province(state, prov)
    att = sum(raid_strength(u, foe, chain) for u in attackers)
    dfn = defence_strength(state, prov, religion(state, seat, prov))
    a_roll = ctx.d6(f"raid on {prov}: raider's die (§8.1)", seat)
    d_roll = ctx.d6(f"raid on {prov}: defender's die (§8.1)", owner)
    result = raid_result(att + a_roll, dfn + d_roll)
    ctx.emit(RaidFought(province=prov, raider=seat, defender=owner, attack=att + a_roll, defence=dfn + d_roll,
                        result=result))
    if result == "defender":
        repulsed(ctx, seat, prov, attackers)
    elif result == "attacker":
        pillage(ctx, seat, prov, "8.1")


def raid_result(attack: int, defence: int) -> str:
    """§8.1: "the highest raid strength wins"; equal: a draw."""
    return "attacker" if attack > defence else "defender" if defence > attack else "draw"


def defence_strength(state: SaxonState, prov: str, foe_christian: bool) -> int:
    owner = state.provinces[prov].owner
    chain = bool(owner) and state.players[owner].chainmail
    p = state.provinces[prov]
    return (sum(raid_strength(u, foe_christian, chain) for u in troops(state, prov, owner))
            + capacity(state, prov) + p.road + 3 * p.wall)


def repulsed(ctx: Ctx, seat: str, prov: str, attackers: list[Unit]) -> None:
    """Defender wins a raid: a die per attacking troop, survivors go home (§8.1)."""
    faces = ctx.roll(len(attackers), f"losses of the repulsed raiders at {prov} (§8.1)", seat)
    dead, freed, home = [], [], []
    for u, f in zip(attackers, faces):
        if u.kind == "king":
            (dead if f == 1 else home).append(u)
        elif u.kind == "peasant":
            (dead if f <= 4 else home).append(u)
        elif u.kind == "mercenary":
            (dead if f == 1 else freed if f <= 4 else home).append(u)
        else:
            (dead if f <= 2 else home).append(u)
    ctx.emit(RaidersRepulsed(seat=seat, province=prov, eliminated=counters(dead, owners=False),
                             freed=counters(freed, owners=False)))
    if home:
        ctx.push(Job("send_home", seat, prov=prov, n=1, args=("8.1", *(str(u.id) for u in home))))


def pillage(ctx: Ctx, seat: str | None, prov: str, section: str, mode: str = "raid") -> None:
    """§8.1: one improvement destroyed in order (monastery, wall, road, city) with its spoils,
    or, with none left, a ravage marker with a slave or the province's resource. A conquering
    army (§8.2) may choose ``mode`` "destroy" or "ravage" itself."""
    p = ctx.prov(prov)
    standing = [imp for imp in IMPROVEMENTS if getattr(p, imp)]
    if standing and mode != "ravage":
        destroy(ctx, seat, prov, standing[0], section)
    else:
        ravage(ctx, seat, prov, section)


def destroy(ctx: Ctx, seat: str | None, prov: str, imp: str, section: str) -> None:
    """§8.1 spoils: a monastery one gold, a wall or road one grain, a city the resource traded
    there and one resource of any kind (the raider chooses)."""
    p = ctx.prov(prov)
    spoils: dict[str, int] = {}
    if seat is not None:
        if imp == "monastery":
            spoils = {"gold": 1}
        elif imp in ("wall", "road"):
            spoils = {"wheat": 1}
        elif p.trade_res:
            spoils = {p.trade_res: 1}
    ctx.emit(ImprovementDestroyed(province=prov, improvement=imp, section=section, by=seat, spoils=spoils))
    if seat is not None and imp == "city":
        ctx.ask("trade_gain", seat, RESOURCES, section="8.1", args=("8.1",))


def ravage(ctx: Ctx, seat: str | None, prov: str, section: str) -> None:
    """§8.1: a ravage marker; the raider gains a slave, or the resource the province produces
    (either of Kent's, his choice)."""
    kinds = ctx.board.produces[prov]
    spoils = {} if seat is None or len(kinds) > 1 else {kinds[0] if kinds else "slaves": 1}
    ctx.emit(ProvinceRavaged(province=prov, section=section, by=seat, spoils=spoils))
    if seat is not None and len(kinds) > 1:
        ctx.ask("trade_gain", seat, kinds, section="8.1", args=("8.1",))


def outsider_raid(ctx: Ctx, raid: OutsidersRaid, seat: str) -> None:
    """Wildmen or vikings raid a province (§11 32, 34): no spoils, they leave afterwards."""
    ctx.emit(raid)
    prov, who = raid.province, raid.who
    if capacity(ctx.state, prov) <= 0:  # §8 "Provinces with a carrying capacity of zero cannot be raided"
        return
    dfn = defence_strength(ctx.state, prov, False)
    a_roll = ctx.d6(f"{who} raid {prov}: raiders' die", seat)
    owner = ctx.prov(prov).owner
    d_roll = ctx.d6(f"{who} raid {prov}: defender's die", owner)
    result = raid_result(raid.strength + a_roll, dfn + d_roll)
    ctx.emit(RaidFought(province=prov, raider=None, defender=owner, attack=raid.strength + a_roll,
                        defence=dfn + d_roll, result=result, section=raid.section))
    if result == "attacker":
        pillage(ctx, None, prov, raid.section)


# -- invasions ----------------------------------------------------------------------------------------------
@job("invasions")
def invasions(ctx: Ctx, j: Job) -> None:
    order = alive(ctx.state)
    by_prov: dict[str, list[str]] = {}
    for s, p, a in ctx.state.declared:
        if a == "invade" and s in order:
            by_prov.setdefault(p, []).append(s)
    keyed = sorted((min(order.index(s) for s in ss), ctx.board.index[p], p) for p, ss in by_prov.items())
    ctx.push(*[Job("invade", prov=p, args=tuple(sorted(by_prov[p], key=order.index))) for _, _, p in keyed])


@job("invade")
def invade(ctx: Ctx, j: Job) -> None:
    """§8.2: several invaders fight each other first, in game order; the survivor invades."""
    state, prov = ctx.state, j.prov
    invaders = [s for s in j.args if state.players[s].alive and troops(state, prov, s)
                and state.provinces[prov].owner != s]
    if not invaders:
        return
    if len(invaders) >= 2:
        first, second, rest = invaders[0], invaders[1], tuple(invaders[2:])
        start_battle(ctx, BattleBegan(province=prov, mode="invaders", attacker=second, defender=first), rest)
        return
    seat = invaders[0]
    owner = state.provinces[prov].owner
    morale = state.provinces[prov].morale
    start_battle(ctx, BattleBegan(province=prov, mode="invasion", attacker=seat, defender=owner,
                                  militia=capacity(state, prov), militia_strength=morale + 2), ())


def start_battle(ctx: Ctx, battle: BattleBegan, rest: tuple[str, ...]) -> None:
    ctx.emit(battle)
    ctx.push(Job("battle_round", prov=battle.province), Job("battle_end", prov=battle.province, args=rest))


@job("rebels")
def rebels(ctx: Ctx, j: Job) -> None:
    """§11 64: one die of rebels (strength 2) fight the owner's troops and militia."""
    prov = j.prov
    owner = ctx.prov(prov).owner
    if owner is None or len(owned(ctx.state, owner)) <= 1:
        return
    count = ctx.d6(f"rebels in {prov} (§11 64)", j.seat)
    start_battle(ctx, BattleBegan(province=prov, mode="rebels", attacker="rebels", defender=owner, rebels=count,
                                  militia=capacity(ctx.state, prov), militia_strength=ctx.prov(prov).morale + 2,
                                  section="11 64"), ())


def side_units(state: SaxonState, b: Battle, side: str) -> list[Unit]:
    if side == "att":
        return [] if b.attacker == "rebels" else troops(state, b.prov, b.attacker)
    return troops(state, b.prov, b.defender)


def side_count(state: SaxonState, b: Battle, side: str) -> int:
    if side == "att":
        if b.attacker == "rebels":
            return b.rebels
        return len([u for u in side_units(state, b, side) if not b.in_city or fights_in_city(state, b, u)])
    return len(side_units(state, b, "dfn")) + b.militia


def fights_in_city(state: SaxonState, b: Battle, u: Unit) -> bool:
    foe = religion(state, b.defender, b.prov)
    return combat_strength(u, foe, state.players[b.attacker].chainmail) - 2 > 0


def entries(state: SaxonState, b: Battle, side: str) -> list[list]:
    """The side's troops on the battle matrix before any king's move: [kind, box, dice] each
    (a berserker rolls two dice, militia stand at their morale's box), weakest first."""
    who = b.attacker if side == "att" else b.defender
    foe = religion(state, b.defender if side == "att" else b.attacker, b.prov)
    if who == "rebels":
        return [["rebel", 2, 1] for _ in range(b.rebels)]
    chain = bool(who) and state.players[who].chainmail
    out: list[list] = []
    for u in side_units(state, b, side):
        box = combat_strength(u, foe, chain) - (2 if side == "att" and b.in_city else 0)
        if box > 0:
            out.append([u.kind, min(box, 6), 2 if u.kind == "berserker" else 1])
    if side == "dfn":
        out += [["militia", b.militia_strength, 1] for _ in range(b.militia)]
    return sorted(out, key=lambda e: (e[1], CASUALTY_ORDER.index(e[0]) if e[0] in CASUALTY_ORDER else -1))


def king_quality(state: SaxonState, b: Battle, side: str) -> int:
    king = next((u for u in side_units(state, b, side) if u.kind == "king"), None)
    return king.quality if king is not None else 0


def lift_options(state: SaxonState, b: Battle, side: str) -> list[str]:
    """§8.2: "A +1 king may move a single troop up one box ..., a +2 king may move a single troop
    up two places, or two troops up one place each"; §12.3: a -1 king "must move a single unit
    of his own side down from one box to the next". The owner chooses: ``none`` (a may),
    ``up KIND@BOX``, ``up2 KIND@BOX``, ``up KIND@BOX, KIND@BOX``, ``down KIND@BOX``."""
    quality = king_quality(state, b, side)
    if quality == 0:
        return []
    counts: dict[tuple[str, int], int] = {}
    for kind, box, _ in entries(state, b, side):
        counts[(kind, box)] = counts.get((kind, box), 0) + 1
    groups = list(counts)
    if quality < 0:
        return [f"down {k}@{x}" for k, x in groups if x > 1]
    liftable = [g for g in groups if g[1] < 6]
    options = ["none"] + [f"up {k}@{x}" for k, x in liftable]
    if quality >= 2:
        options += [f"up2 {k}@{x}" for k, x in liftable if x <= 4]
        for i, (k1, x1) in enumerate(liftable):
            for k2, x2 in liftable[i:]:
                if (k1, x1) != (k2, x2) or counts[(k1, x1)] >= 2:
                    options.append(f"up {k1}@{x1}, {k2}@{x2}")
    return options if len(options) > 1 else []


def apply_lift(rows: list[list], option: str) -> list[list]:
    """The matrix after the king's move named by ``option`` (see :func:`lift_options`)."""
    if not option or option == "none":
        return rows
    verb, _, targets = option.partition(" ")
    step = {"up": 1, "up2": 2, "down": -1}[verb]
    rows = [list(r) for r in rows]
    moved: set[int] = set()
    for target in targets.split(", "):
        kind, _, box = target.partition("@")
        i = next(i for i, r in enumerate(rows) if i not in moved and r[0] == kind and r[1] == int(box))
        rows[i][1] = max(1, min(6, rows[i][1] + step))
        moved.add(i)
    return rows


def boxes(state: SaxonState, b: Battle, side: str) -> list[int]:
    """Boxes on the battle matrix, one entry per die, with the king's move chosen this round."""
    rows = apply_lift(entries(state, b, side), b.att_lift if side == "att" else b.dfn_lift)
    return [box for _, box, dice in rows for _ in range(dice)]


@job("battle_round")
def battle_round(ctx: Ctx, j: Job) -> None:
    """One round on the battle matrix (§8.2): the troops are placed, each king makes his move,
    then each die at or under its box is a hit."""
    b = ctx.state.battle
    if side_count(ctx.state, b, "att") == 0 or side_count(ctx.state, b, "dfn") == 0:
        return
    ctx.push(Job("king_bonus", prov=b.prov, args=("att",)), Job("king_bonus", prov=b.prov, args=("dfn",)),
             Job("battle_roll", prov=b.prov))


@job("king_bonus")
def king_bonus(ctx: Ctx, j: Job) -> None:
    b = ctx.state.battle
    side = j.args[0]
    options = lift_options(ctx.state, b, side)
    if len(options) == 1:
        set_lift(ctx, side, options[0])
    elif options:
        ctx.ask("king_bonus", b.attacker if side == "att" else b.defender, options, prov=b.prov, args=(side,))


def set_lift(ctx: Ctx, side: str, option: str) -> None:
    """The king's move named by ``option`` (see :func:`lift_options`), as the record says it."""
    b = ctx.state.battle
    verb, _, targets = option.partition(" ")
    step = {"up": 1, "up2": 2, "down": -1}.get(verb, 0)
    moves = [BoxMove(kind=t.partition("@")[0], box=int(t.partition("@")[2]), step=step)
             for t in targets.split(", ")] if step else []
    ctx.emit(KingMovedTroops(seat=b.attacker if side == "att" else b.defender, province=b.prov,
                             side="attacker" if side == "att" else "defender", moves=moves,
                             section="12.3" if step < 0 else "8.2"))


@choice("king_bonus")
def king_bonus_choice(ctx: Ctx, prompt: Prompt, option: str) -> None:
    set_lift(ctx, prompt.args[0], option)


@job("battle_roll")
def battle_roll(ctx: Ctx, j: Job) -> None:
    b = ctx.state.battle
    att_boxes, dfn_boxes = boxes(ctx.state, b, "att"), boxes(ctx.state, b, "dfn")
    att_seat = None if b.attacker == "rebels" else b.attacker
    a_faces = ctx.roll(len(att_boxes), f"battle for {b.prov}: attacker (§8.2)", att_seat) if att_boxes else []
    d_faces = ctx.roll(len(dfn_boxes), f"battle for {b.prov}: defender (§8.2)", b.defender) if dfn_boxes else []
    a_hits = sum(f <= x for f, x in zip(a_faces, att_boxes))
    d_hits = sum(f <= x for f, x in zip(d_faces, dfn_boxes))
    ctx.emit(BattleRoundFought(province=b.prov, round=b.round + 1, attacker_boxes=att_boxes, defender_boxes=dfn_boxes,
                               attacker_hits=a_hits, defender_hits=d_hits))
    ctx.push(Job("casualties", prov=b.prov, n=a_hits, args=("dfn",)),
             Job("casualties", prov=b.prov, n=d_hits, args=("att",)),
             Job("battle_check", prov=b.prov))


def chooser(state: SaxonState, b: Battle, side: str) -> str | None:
    """Who removes a side's casualties: its owner; for a neutral province an uninvolved
    player (§2.1); None: the default policy (weakest first)."""
    who = b.attacker if side == "att" else b.defender
    if who == "rebels":
        return None
    if who is None:
        involved = {b.attacker, b.defender}
        return next((s for s in alive(state) if s not in involved), None)
    return who


def casualty_kinds(state: SaxonState, b: Battle, side: str) -> list[str]:
    units = side_units(state, b, side)
    if side == "att" and b.in_city:
        units = [u for u in units if fights_in_city(state, b, u)]
    kinds = {u.kind for u in units}
    if side == "dfn" and b.militia:
        kinds.add("militia")
    if side == "att" and b.attacker == "rebels" and b.rebels:
        kinds.add("rebel")
    return sorted(kinds, key=lambda k: CASUALTY_ORDER.index(k) if k in CASUALTY_ORDER else -1)


def remove_casualty(ctx: Ctx, side: str, kind: str) -> None:
    b = ctx.state.battle
    who = b.attacker if side == "att" else b.defender
    unit = None
    if kind not in ("militia", "rebel"):
        unit = next(u for u in side_units(ctx.state, b, side) if u.kind == kind
                    and (side != "att" or not b.in_city or fights_in_city(ctx.state, b, u))).id
    ctx.emit(CasualtyRemoved(province=b.prov, side="attacker" if side == "att" else "defender", kind=kind,
                             owner=None if who == "rebels" else who, unit=unit,
                             section="11 64" if kind == "rebel" else "8.2"))


@job("casualties")
def casualties(ctx: Ctx, j: Job) -> None:
    """The side removes as many troops as the hits it took; the owner chooses which (§8.2)."""
    side, n = j.args[0], j.n
    b = ctx.state.battle
    while n > 0 and side_count(ctx.state, b, side) > 0:
        kinds = casualty_kinds(ctx.state, b, side)
        who = chooser(ctx.state, b, side)
        if len(kinds) > 1 and who is not None and n < side_count(ctx.state, b, side):
            ctx.push(Job("casualties", prov=j.prov, n=n - 1, args=(side,)))
            ctx.ask("casualty", who, kinds, prov=b.prov, n=n, args=(side,))
            return
        remove_casualty(ctx, side, kinds[0])
        b = ctx.state.battle
        n -= 1


@choice("casualty")
def casualty_choice(ctx: Ctx, prompt: Prompt, option: str) -> None:
    remove_casualty(ctx, prompt.args[0], option)


@job("battle_check")
def battle_check(ctx: Ctx, j: Job) -> None:
    """Fight on while both sides have troops; with city defences (§12.2) the defender may
    first retreat into the city."""
    b = ctx.state.battle
    if side_count(ctx.state, b, "att") and side_count(ctx.state, b, "dfn"):
        if (b.mode == "invasion" and ctx.state.options.city_defences and ctx.prov(b.prov).city
                and not b.in_city):
            who = chooser(ctx.state, b, "dfn")
            if who is not None:
                ctx.push(Job("battle_round", prov=b.prov))
                ctx.ask("city_retreat", who, ("fight", "retreat"), prov=b.prov)
                return
        ctx.push(Job("battle_round", prov=b.prov))


@choice("city_retreat")
def city_retreat(ctx: Ctx, prompt: Prompt, option: str) -> None:
    if option == "retreat":
        b = ctx.state.battle
        ctx.emit(RetreatedIntoCity(seat=prompt.seat, province=b.prov))
        standing = any(getattr(ctx.prov(b.prov), imp) for imp in IMPROVEMENTS)
        options = ("assault", "destroy", "ravage") if standing else ("assault", "ravage")
        ctx.ask("city_assault", b.attacker, options, prov=b.prov)


@choice("city_assault")
def city_assault(ctx: Ctx, prompt: Prompt, option: str) -> None:
    """§12.2: "The attacker may immediately assault the city ... or else they may destroy an
    improvement or ravage the province as in a raid" (the next improvement in the raid order)."""
    b = ctx.state.battle
    if option == "assault":
        ctx.emit(CityAssaulted(seat=prompt.seat, province=b.prov))
        return
    # the attacker destroys or ravages instead: the battle is over, nobody conquers (§12.2)
    while ctx.jobs and ctx.jobs[0].kind in ("battle_round", "king_bonus", "battle_roll"):
        ctx.jobs.pop(0)
    ctx.emit(CityLeftUnassaulted(seat=prompt.seat, province=b.prov))
    pillage(ctx, b.attacker, b.prov, "12.2", mode=option)


@job("battle_end")
def battle_end(ctx: Ctx, j: Job) -> None:
    b = ctx.state.battle
    state = ctx.state
    att_left, dfn_left = side_count(state, b, "att"), side_count(state, b, "dfn")
    attacker_won = bool(att_left and not dfn_left)
    section = "11 64" if b.mode == "rebels" else "12.2" if b.mode == "pillaged" else "8.2"
    if b.mode == "pillaged":
        ctx.emit(BattleEnded(province=b.prov, won_by="nobody", section=section))
        return
    if b.mode == "invaders":
        winner = b.attacker if attacker_won else b.defender if dfn_left and not att_left else None
        won_by = "attacker" if attacker_won else "defender" if winner else "nobody"
        ctx.emit(BattleEnded(province=b.prov, won_by=won_by, winner=winner, section=section))
        ctx.push(Job("invade", prov=b.prov, args=((winner,) if winner else ()) + tuple(j.args)))
        return
    ctx.emit(BattleEnded(province=b.prov, won_by="attacker" if attacker_won else "defender",
                         winner=(None if b.attacker == "rebels" else b.attacker) if attacker_won else b.defender,
                         section=section))
    if b.mode == "rebels":
        if attacker_won:
            ctx.emit(ProvinceBecameNeutral(province=b.prov, former=b.defender, section="11 64"))
            eliminate_if_empty(ctx)
        return
    if attacker_won:
        standing = any(getattr(ctx.prov(b.prov), imp) for imp in IMPROVEMENTS)
        options = ("destroy", "ravage", "spare") if standing else ("ravage", "spare")
        ctx.ask("conquest", b.attacker, options, prov=b.prov, args=(b.defender or "",))


@choice("conquest")
def conquest(ctx: Ctx, prompt: Prompt, option: str) -> None:
    """§8.2: the victor may destroy an improvement (the next in the raid order, with its spoils)
    or ravage (with its spoils), or spare the province; castle placed; morale low, or high when a
    Christian takes a monastery province from a Pagan."""
    ctx.push(Job("conquer", prompt.seat, prov=prompt.prov, args=prompt.args))
    if option != "spare":
        pillage(ctx, prompt.seat, prompt.prov, "8.2", mode=option)


@job("conquer")
def conquer(ctx: Ctx, j: Job) -> None:
    former = j.args[0] or None
    seat, prov = j.seat, j.prov
    high = (former is not None and not ctx.player(former).christian and ctx.player(seat).christian
            and ctx.prov(prov).monastery)
    ctx.emit(ProvinceConquered(seat=seat, province=prov, former=former, morale="high" if high else "low"))
    eliminate_if_empty(ctx)
