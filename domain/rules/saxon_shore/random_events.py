"""§3.3 and §11: the two-dice random event table, 11 to 66, every result implemented."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from itertools import combinations_with_replacement

from domain.rules.saxon_shore.data import PATH_TYPES, RESOURCES
from domain.rules.saxon_shore.rules import AFFORDABLE, COMPOSED, Ctx, choice, job
from domain.rules.saxon_shore.state import (
    can_pay,
    REGULAR_KINDS,
    decode_tokens,
    encode_tokens,
    res_count,
    alive,
    held,
    is_christian_province,
    king_of,
    owned,
    units_at,
    units_of,
)
from domain.rules.saxon_shore.events import (
    CityRepaired,
    EventDrawn,
    FamilyOfferMade,
    FamilyTiesDeclined,
    FamineAverted,
    FamineStruck,
    ImprovementBuilt,
    ImprovementDestroyed,
    KingDied,
    OutsidersRaid,
    PathGained,
    ProvinceBecameNeutral,
    ProvinceJoined,
    ProvinceRavaged,
    ResourcesGained,
    ResourceSwapped,
    StormsAtSea,
    UnitsDeserted,
    UnitsEliminated,
)
from domain.rules.saxon_shore.rules import counters
from domain.rules.saxon_shore.turn import crown, crowned, eliminate_if_empty, place
from domain.rules.saxon_shore.state import Job, Prompt

TITLES = {
    11: "Mounted knights / Berserkers", 12: "Mountain path, woodland trail or marsh way", 13: "Mountain path, woodland trail or marsh way",
    14: "Mountain path, woodland trail or marsh way", 15: "Mountain path, woodland trail or marsh way", 16: "Missionary activity", 21: "Good omens", 22: "Dragons sighted!", 23: "Plague", 24: "Epidemic",
    25: "Famine", 26: "Rebellion", 31: "Fire", 32: "Wildmen", 33: "Bumper year", 34: "Viking raids", 35: "Traders",
    36: "Gold horde discovered", 41: "Family ties", 42: "Boats", 43: "Saxon relatives", 44: "Sword in the stone!",
    45: "Roman ruin", 46: "Saint founds a monastery", 51: "Storms", 52: "Assassin!", 53: "Bad debts",
    54: "Forced march", 55: "Chainmail armour", 56: "Heresy!", 61: "City founded in a neutral land",
    62: "Earthquake!", 63: "Muttering in the ranks", 64: "Widespread rebellion", 65: "The hammer of God",
    66: "The end times are upon us! Satan rides!",
}
IMPROVEMENTS = ("monastery", "wall", "road", "city")  # the order raids destroy them in (§8.1)

Effect = Callable[[Ctx, str], None]
EVENTS: dict[int, Effect] = {}


def effect(*numbers: int):
    def register(fn: Effect) -> Effect:
        for n in numbers:
            EVENTS[n] = fn
        return fn
    return register


@job("event")
def draw_event(ctx: Ctx, j: Job) -> None:
    """§3.3: each player in game order draws a random event: two dice read as a number."""
    ctx.phase = "random events"
    tens, units = ctx.roll(2, "random event (§11)", j.seat)
    number = tens * 10 + units
    ctx.emit(EventDrawn(seat=j.seat, number=number, name=TITLES[number]))
    EVENTS[number](ctx, j.seat)


def column(ctx: Ctx, seat: str, why: str) -> tuple[str, ...]:
    return ctx.board.column(ctx.d6(f"{why}: a column of the random province table", seat))


def table_province(ctx: Ctx, seat: str, why: str) -> str:
    row, col = ctx.roll(2, f"{why}: random province table", seat)
    return ctx.board.table_province(row, col)


# -- 11 knights or berserkers -----------------------------------------------------------------
@effect(11)
def knights(ctx: Ctx, seat: str) -> None:
    kind = "knight" if ctx.player(seat).christian else "berserker"
    place_unit(ctx, seat, kind)


def place_unit(ctx: Ctx, seat: str, kind: str) -> None:
    mine = owned(ctx.state, seat)
    if len(mine) == 1:
        place(ctx, kind, mine[0], "11 11", owner=seat)
    elif mine:
        ctx.ask("place_unit", seat, mine, args=(kind,))


@choice("place_unit")
def choose_place_unit(ctx: Ctx, prompt: Prompt, option: str) -> None:
    place(ctx, prompt.args[0], option, "11 11", owner=prompt.seat)


# -- 12-15 paths ------------------------------------------------------------------------------
@effect(12, 13, 14, 15)
def paths(ctx: Ctx, seat: str) -> None:
    ctx.ask("path", seat, PATH_TYPES)


@choice("path")
def choose_path(ctx: Ctx, prompt: Prompt, option: str) -> None:
    ctx.emit(PathGained(seat=prompt.seat, path=option))


# -- 16, 21, 22 morale by column -------------------------------------------------------------------
@effect(16)
def missionaries(ctx: Ctx, seat: str) -> None:
    for prov in column(ctx, seat, "missionary activity"):
        ctx.morale(prov, +1 if is_christian_province(ctx.state, prov) else -1, "11 16")


@effect(21)
def good_omens(ctx: Ctx, seat: str) -> None:
    for prov in column(ctx, seat, "good omens"):
        ctx.morale(prov, +1, "11 21")


@effect(22)
def dragons(ctx: Ctx, seat: str) -> None:
    for prov in column(ctx, seat, "dragons sighted"):
        ctx.morale(prov, -1, "11 22")


# -- 23, 24 plague and epidemic --------------------------------------------------------------------
def plague_area(board, centres: tuple[str, ...] | list[str]) -> list[str]:
    area = set(centres)
    for prov in centres:
        area.update(n for n in board.normal_neighbours(prov) if n in board.index)
    return sorted(area, key=board.order_key)


def plague(ctx: Ctx, seat: str, area: list[str], section: str) -> None:
    """A ravage counter, morale down, and every unit eliminated on a 5 or 6."""
    name = "plague" if section == "11 23" else "epidemic"
    for prov in area:
        ctx.emit(ProvinceRavaged(province=prov, section=section))
        ctx.morale(prov, -1, section)
        units = units_at(ctx.state, prov)
        if units:
            faces = ctx.roll(len(units), f"{name} (§{section}) in {prov}: units die on 5-6", seat)
            dead = [u for u, f in zip(units, faces) if f >= 5]
            if dead:
                ctx.emit(UnitsEliminated(units=counters(dead), section=section, province=prov))


@effect(23)
def plague_event(ctx: Ctx, seat: str) -> None:
    plague(ctx, seat, plague_area(ctx.board, [table_province(ctx, seat, "plague")]), "11 23")


@effect(24)
def epidemic(ctx: Ctx, seat: str) -> None:
    plague(ctx, seat, plague_area(ctx.board, column(ctx, seat, "epidemic")), "11 24")


# -- 25 famine --------------------------------------------------------------------------------------
@effect(25)
def famine(ctx: Ctx, seat: str) -> None:
    """"All provinces named are ravaged, and city trade automatically fails, unless the owner
    can spend a grain": each owner holding wheat chooses to spend one to spare that province."""
    ctx.push(*[Job("famine", seat, prov=p) for p in column(ctx, seat, "famine")])


@job("famine")
def famine_in(ctx: Ctx, j: Job) -> None:
    owner = ctx.prov(j.prov).owner
    if owner is not None and ctx.player(owner).alive and res_count(ctx.player(owner), "wheat") > 0:
        ctx.ask("famine", owner, ("spend_grain", "suffer"), prov=j.prov)
    else:
        starve(ctx, j.prov)


@choice("famine")
def famine_answer(ctx: Ctx, prompt: Prompt, option: str) -> None:
    if option == "spend_grain":
        ctx.emit(FamineAverted(seat=prompt.seat, province=prompt.prov))
    else:
        starve(ctx, prompt.prov)


def starve(ctx: Ctx, prov: str) -> None:
    ctx.emit(FamineStruck(province=prov))


# -- 26 rebellion -------------------------------------------------------------------------------------
@effect(26)
def rebellion(ctx: Ctx, seat: str) -> None:
    for prov in column(ctx, seat, "rebellion"):
        owner = ctx.prov(prov).owner
        if owner is None:
            continue
        if len(owned(ctx.state, owner)) > 1:  # else it would leave the player with no province: disregarded
            ctx.ask("rebellion", owner, ("let_go", "lead_rebels"), prov=prov)
        return


@choice("rebellion")
def rebellion_choice(ctx: Ctx, prompt: Prompt, option: str) -> None:
    seat, prov = prompt.seat, prompt.prov
    lost = [prov] if option == "let_go" else [p for p in owned(ctx.state, seat) if p != prov]
    secede(ctx, seat, lost, "11 26")


def secede(ctx: Ctx, seat: str, lost: list[str], section: str) -> None:
    """The provinces become neutral; "All regulars and mercenaries in neutral provinces desert"
    (whoever they belong to, the neutral ones too); "King moves to the controlled province(s)
    if necessary": the nearest province the player still controls."""
    for prov in lost:
        ctx.emit(ProvinceBecameNeutral(province=prov, former=seat, section=section))
    deserters = [u for _, u in sorted(ctx.state.units.items()) if u.kind in (*REGULAR_KINDS, "mercenary")
                 and u.loc in ctx.state.provinces and ctx.prov(u.loc).owner is None]
    if deserters:
        ctx.emit(UnitsDeserted(units=counters(deserters), section=section))
    king = king_of(ctx.state, seat)
    if king is not None and king.loc in lost:
        ctx.push(Job("send_home", seat, prov=king.loc, args=(section, str(king.id))))
    eliminate_if_empty(ctx)


# -- 31 fire ---------------------------------------------------------------------------------------------
@effect(31)
def fire(ctx: Ctx, seat: str) -> None:
    for prov in column(ctx, seat, "fire"):
        p = ctx.prov(prov)
        if not p.city:
            continue
        pairs = pay_options(ctx, p.owner, 2) if p.owner else []
        if pairs:
            ctx.ask("fire", p.owner, ("let_burn", *pairs), prov=prov)
        else:
            burn(ctx, prov)
        return


def pay_options(ctx: Ctx, seat: str, size: int) -> list[str]:
    """Every way to pay ``size`` tokens from what ``seat`` holds, as 'a+b'."""
    player = ctx.player(seat)
    out = []
    for combo in combinations_with_replacement(RESOURCES, size):
        if all(player.res[RESOURCES.index(n)] >= combo.count(n) for n in set(combo)):
            out.append("+".join(combo))
    return out


def burn(ctx: Ctx, prov: str) -> None:
    ctx.emit(ImprovementDestroyed(province=prov, improvement="city", section="11 31"))


@choice("fire")
def fire_choice(ctx: Ctx, prompt: Prompt, option: str) -> None:
    if option == "let_burn":
        burn(ctx, prompt.prov)
    else:
        ctx.emit(CityRepaired(seat=prompt.seat, province=prompt.prov, paid=option.split("+")))


# -- 32 wildmen, 34 vikings -----------------------------------------------------------------------------
@effect(32)
def wildmen(ctx: Ctx, seat: str) -> None:
    outsiders(ctx, seat, "wildmen", ctx.board.wildmen_die, "wild province", "of", 1, "11 32")


@effect(34)
def vikings(ctx: Ctx, seat: str) -> None:
    outsiders(ctx, seat, "vikings", ctx.board.sea_die, "sea zone", "from", 2, "11 34")


def outsiders(ctx: Ctx, seat: str, who: str, die: Mapping[int, str], which: str, where: str, per_head: int,
              section: str) -> None:
    """Wildmen or vikings: where they come from (``die``, a d6), how many (a d6), the province
    next to it they raid (a d6), with a strength of ``per_head`` a head plus 2."""
    from domain.rules.saxon_shore.combat import outsider_raid

    origin = die[ctx.d6(f"{who}: which {which}", seat)]
    count = ctx.d6(f"{who}: how many", seat)
    target = ctx.board.random_adjacent[origin][ctx.d6(f"{who} {where} {origin}: random adjacent province", seat) - 1]
    outsider_raid(ctx, OutsidersRaid(who=who, count=count, origin=origin, province=target,
                                     strength=count * per_head + 2, section=section), seat)


# -- 33, 35, 36 resources ------------------------------------------------------------------------------
@effect(33)
def bumper_year(ctx: Ctx, seat: str) -> None:
    return None  # held from the EventDrawn: two tokens instead of one for one resource at production (§4.1)


@effect(35)
def traders(ctx: Ctx, seat: str) -> None:
    swaps = [f"{g}>{t}" for g in held(ctx.player(seat)) for t in RESOURCES if t != g]
    if swaps:
        ctx.ask("traders", seat, ("keep", *swaps))


@choice("traders")
def traders_choice(ctx: Ctx, prompt: Prompt, option: str) -> None:
    if option != "keep":
        give, take = option.split(">")
        ctx.emit(ResourceSwapped(seat=prompt.seat, gave=give, took=take))


@effect(36)
def gold_horde(ctx: Ctx, seat: str) -> None:
    ctx.emit(ResourcesGained(seat=seat, gained={"gold": 1}, section="11 36"))


# -- 41 family ties -------------------------------------------------------------------------------------
@effect(41)
def family_ties(ctx: Ctx, seat: str) -> None:
    prov = table_province(ctx, seat, "family ties")
    owner = ctx.prov(prov).owner
    if owner == seat:
        return
    if owner is None:
        join(ctx, seat, prov)
        return
    if len(owned(ctx.state, owner)) == 1:
        return  # it would leave the owner with no province: disregarded
    offers = ["none"] + [o for size in (1, 2) for o in pay_options(ctx, owner, size)]
    ctx.ask("family_offer", owner, [o if o == "none" else encode_tokens(_count(o.split("+"))) for o in offers],
            prov=prov, args=(seat,))


def _count(tokens: list[str]) -> dict[str, int]:
    out: dict[str, int] = {}
    for t in tokens:
        out[t] = out.get(t, 0) + 1
    return out


def _family_offer_ok(state, prompt: Prompt, option: str) -> bool:
    """§11 41 "you may accept resources off them to decline the offer": the owner offers any
    tokens he holds (``wheat=2,gold=1``), not a capped number; the listed ones are examples."""
    tokens = decode_tokens(option)
    player = state.players[prompt.seat]
    return tokens is not None and all(res_count(player, k) >= n for k, n in tokens.items())


COMPOSED["family_offer"] = _family_offer_ok
AFFORDABLE["family_offer"] = lambda state, prompt, option: option == "none" or _family_offer_ok(state, prompt, option)
AFFORDABLE["fire"] = lambda state, prompt, option: option == "let_burn" or can_pay(state.players[prompt.seat],
                                                                                     option.split("+"))
AFFORDABLE["famine"] = lambda state, prompt, option: option != "spend_grain" or can_pay(state.players[prompt.seat],
                                                                                        ["wheat"])
AFFORDABLE["traders"] = lambda state, prompt, option: option == "keep" or can_pay(state.players[prompt.seat],
                                                                                  option.split(">")[:1])


@choice("family_offer")
def family_offer(ctx: Ctx, prompt: Prompt, option: str) -> None:
    drawer = prompt.args[0]
    if option == "none":
        join(ctx, drawer, prompt.prov)
    else:
        ctx.emit(FamilyOfferMade(seat=prompt.seat, to=drawer, province=prompt.prov, tokens=decode_tokens(option) or {}))
        ctx.ask("family_accept", drawer, ("accept", "refuse"), prov=prompt.prov, args=(prompt.seat, option))


@choice("family_accept")
def family_accept(ctx: Ctx, prompt: Prompt, option: str) -> None:
    owner, offer = prompt.args
    if option == "accept":
        ctx.emit(FamilyTiesDeclined(seat=prompt.seat, owner=owner, province=prompt.prov,
                                    tokens=decode_tokens(offer) or {}))
    else:
        join(ctx, prompt.seat, prompt.prov)


def join(ctx: Ctx, seat: str, prov: str) -> None:
    """The province joins the kingdom: other players' regulars and mercenaries there desert,
    their kings go to the nearest friendly province."""
    former = ctx.prov(prov).owner
    ctx.emit(ProvinceJoined(seat=seat, province=prov, former=former))
    others = [u for u in units_at(ctx.state, prov) if u.owner not in (None, seat)]
    deserters = [u for u in others if u.kind in (*REGULAR_KINDS, "mercenary")]
    if deserters:
        ctx.emit(UnitsDeserted(units=counters(deserters), section="11 41"))
    for king in [u for u in others if u.kind == "king"]:
        ctx.push(Job("send_home", king.owner, prov=prov, args=("11 41", str(king.id))))
    if former:
        eliminate_if_empty(ctx)


# -- 42 boats, 43 Saxon relatives, 44 Arthur, 45 Roman ruin, 46 saint ---------------------------------------
@effect(42)
def free_boat(ctx: Ctx, seat: str) -> None:
    places = [f"{p}@{z}" for p in owned(ctx.state, seat) for z in ctx.board.coasts[p]]
    if len(places) == 1:
        prov, sea = places[0].split("@")
        place(ctx, "boat", prov, "11 42", owner=seat, coast=sea)
    elif places:
        ctx.ask("boat_place", seat, places)


@choice("boat_place")
def boat_place(ctx: Ctx, prompt: Prompt, option: str) -> None:
    prov, sea = option.split("@")
    place(ctx, "boat", prov, "11 42", owner=prompt.seat, coast=sea)


@effect(43)
def saxon_relatives(ctx: Ctx, seat: str) -> None:
    targets = {1: "Wessex", 2: "Sussex", 3: "Middlesex", 4: "Essex"}
    face = 5
    while face >= 5:
        face = ctx.d6("Saxon relatives: 1 Wessex 2 Sussex 3 Middlesex 4 Essex 5-6 again", seat)
    prov = targets[face]
    place(ctx, "regular", prov, "11 43", owner=ctx.prov(prov).owner)


@effect(44)
def arthur(ctx: Ctx, seat: str) -> None:
    king = king_of(ctx.state, seat)
    if king is not None:
        ctx.emit(KingDied(seat=seat, unit=king.id, province=king.loc, section="11 44"))
        if king.loc in ctx.state.provinces and ctx.prov(king.loc).owner == seat:
            crowned(ctx, seat, king.loc, 2, "11 44")
            return
    crown(ctx, seat, 2, "11 44")


@effect(45)
def roman_ruin(ctx: Ctx, seat: str) -> None:
    options = ruin_options(ctx, seat)
    if options:
        ctx.ask("ruin", seat, options)


def ruin_options(ctx: Ctx, seat: str) -> list[str]:
    out = []
    for prov in owned(ctx.state, seat):
        p = ctx.prov(prov)
        for imp in ("road", "wall", "city", "monastery"):
            if not getattr(p, imp):  # "any improvement": a Pagan's ruin may be a monastery
                out.append(f"{prov}:{imp}")
    return out


@choice("ruin")
def ruin_choice(ctx: Ctx, prompt: Prompt, option: str) -> None:
    prov, imp = option.split(":")
    ctx.emit(ImprovementBuilt(province=prov, improvement=imp, section="11 45", seat=prompt.seat))
    if imp == "monastery":
        ctx.morale(prov, +1, "4.5")


@effect(46)
def saint(ctx: Ctx, seat: str) -> None:
    prov = table_province(ctx, seat, "saint")
    p = ctx.prov(prov)
    if p.monastery:
        return
    ctx.emit(ImprovementBuilt(province=prov, improvement="monastery", section="11 46"))
    if p.owner is not None:
        ctx.set_morale(prov, 1 if ctx.player(p.owner).christian else -1, "11 46")


# -- 51-56 -------------------------------------------------------------------------------------------------
@effect(51)
def storms(ctx: Ctx, seat: str) -> None:
    sea = ctx.board.sea_die[ctx.d6("storms: which sea zone", seat)]
    ctx.emit(StormsAtSea(sea=sea))


@effect(52)
def assassin(ctx: Ctx, seat: str) -> None:
    targets = [s for s in alive(ctx.state) if s != seat and king_of(ctx.state, s) is not None]
    if targets:
        ctx.ask("assassin", seat, ("none", *targets))


@choice("assassin")
def assassin_choice(ctx: Ctx, prompt: Prompt, option: str) -> None:
    if option != "none":
        king = king_of(ctx.state, option)
        ctx.emit(KingDied(seat=option, unit=king.id, province=king.loc, section="11 52", by=prompt.seat))


@effect(53)
def bad_debts(ctx: Ctx, seat: str) -> None:
    mercenaries = units_of(ctx.state, seat, ("mercenary",))
    if mercenaries:
        ctx.emit(UnitsDeserted(units=counters(mercenaries), section="11 53"))


@effect(54)
def forced_march(ctx: Ctx, seat: str) -> None:
    return None  # held from the EventDrawn (evolve.HELD): one extra movement point this turn (movement.py)


@effect(55)
def chainmail(ctx: Ctx, seat: str) -> None:
    return None  # held from the EventDrawn (evolve.HELD): +1 combat and raid strength this turn (combat.py)


@effect(56)
def heresy(ctx: Ctx, seat: str) -> None:
    return None  # held from the EventDrawn (evolve.HELD): the conversion phase will not take done (phases.py)


# -- 61-66 -------------------------------------------------------------------------------------------------
@effect(61)
def city_founded(ctx: Ctx, seat: str) -> None:
    prov = table_province(ctx, seat, "city founded")
    p = ctx.prov(prov)
    if p.owner is None and not p.city:
        ctx.emit(ImprovementBuilt(province=prov, improvement="city", section="11 61"))


@effect(62)
def earthquake(ctx: Ctx, seat: str) -> None:
    for prov in column(ctx, seat, "earthquake"):
        if ctx.prov(prov).wall:
            ctx.emit(ImprovementDestroyed(province=prov, improvement="wall", section="11 62"))


@effect(63)
def muttering(ctx: Ctx, seat: str) -> None:
    """"Roll a die for each regular": every regular on the map, not only the drawer's (the
    event says "your" where it means the drawer's own, as 53 and 55 do)."""
    regulars = [u for _, u in sorted(ctx.state.units.items()) if u.kind in REGULAR_KINDS]
    if regulars:
        faces = ctx.roll(len(regulars), "muttering in the ranks: 4-6 deserts (§11 63)", seat)
        gone = [u for u, f in zip(regulars, faces) if f >= 4]
        if gone:
            ctx.emit(UnitsDeserted(units=counters(gone), section="11 63"))


@effect(64)
def widespread_rebellion(ctx: Ctx, seat: str) -> None:
    named = [p for p in column(ctx, seat, "widespread rebellion") if ctx.prov(p).owner is not None]
    ctx.push(*[Job("rebels", seat, prov=p) for p in named])


@effect(65)
def hammer(ctx: Ctx, seat: str) -> None:
    options = ["none"]
    for prov in ctx.board.provinces:
        options += [f"destroy:{prov}:{imp}" for imp in IMPROVEMENTS if getattr(ctx.prov(prov), imp)]
    options += [f"ravage:{prov}" for prov in ctx.board.provinces]
    ctx.ask("hammer", seat, options)


@choice("hammer")
def hammer_choice(ctx: Ctx, prompt: Prompt, option: str) -> None:
    parts = option.split(":")
    if parts[0] == "destroy":
        ctx.emit(ImprovementDestroyed(province=parts[1], improvement=parts[2], section="11 65"))
    elif parts[0] == "ravage":
        ctx.emit(ProvinceRavaged(province=parts[1], section="11 65"))


@effect(66)
def end_times(ctx: Ctx, seat: str) -> None:
    for prov in ctx.board.provinces:
        if is_christian_province(ctx.state, prov):
            ctx.set_morale(prov, -1, "11 66")


assert sorted(EVENTS) == sorted(TITLES), "every event of the table is implemented"
