"""The phases in which a seat acts freely until it says ``done`` (§4.3 to §5), and the
registry the movement (§7) and combat declaration (§8) phases join.

Each phase has one ``check`` (raise a violation) and one ``apply`` per command, and a
``candidates`` generator; ``legal_commands`` lists exactly the candidates ``check`` accepts,
so a listed command is always an accepted one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from itertools import combinations

from domain.rules.base import accepted

from domain.rules.saxon_shore.data import RESOURCES
from domain.rules.saxon_shore.events import (
    BoatPlaced,
    BoatsRaised,
    Converted,
    ImprovementBuilt,
    MercenaryHired,
    MoraleChanged,
    PeasantReplacedByBoat,
    RavageRemoved,
    ResourcePlacedForTrade,
    TradeAccepted,
    TradeDeclined,
    TradeOffered,
    TradingRoundEnded,
    TroopsRaised,
    UnitsDeserted,
)
from domain.rules.saxon_shore.rules import AFFORDABLE, Ctx, choice, counters, job, violation
from domain.rules.saxon_shore.state import (
    REGULAR_KINDS,
    TROOP_KINDS,
    alive,
    can_pay,
    capacity,
    decode_tokens,
    encode_tokens,
    held,
    owned,
    res_count,
    units_at,
    units_of,
)
from domain.rules.saxon_shore.commands import (
    BoatPlace,
    Convert,
    Done,
    Hire,
    Improve,
    Offer,
    PeasantToBoat,
    PlaceTrade,
    RaiseBoats,
    RaiseMonk,
    RaisePeasants,
    RaiseRegular,
)
from domain.rules.saxon_shore.state import MORALE, Job, Prompt, SaxonState


@dataclass(frozen=True)
class Phase:
    name: str
    rule: str
    wanted: Callable[[SaxonState, str], bool]
    candidates: Callable[[SaxonState, str], Iterable[object]]
    checks: dict[type, Callable[[SaxonState, str, object], None]]
    applies: dict[type, Callable[[Ctx, str, object], None]]
    done_check: Callable[[SaxonState, str], None] | None = None


PHASES: dict[str, Phase] = {}


def check_command(state: SaxonState, seat: str, phase: Phase, command: object) -> None:
    if isinstance(command, Done):
        if phase.done_check:
            phase.done_check(state, seat)
        return
    fn = phase.checks.get(type(command))
    if fn is None:
        raise violation("wrong_phase", f"{type(command).__name__.lower()} is not a command of the {phase.name} phase",
                        phase.rule)
    fn(state, seat, command)


def legal_in_phase(state: SaxonState, seat: str, phase: Phase) -> list[object]:
    out = []
    for command in phase.candidates(state, seat):
        try:
            check_command(state, seat, phase, command)
        except Exception as error:  # noqa: BLE001 - a RuleViolation: not listed
            if type(error).__name__ != "RuleViolation":
                raise
            continue
        out.append(command)
    return out


def _pay_check(state: SaxonState, seat: str, pay: Iterable[str], rule: str) -> None:
    pay = list(pay)
    if any(p not in RESOURCES for p in pay):
        raise violation("unknown_resource", f"resources are {', '.join(RESOURCES)}", rule)
    if not can_pay(state.players[seat], pay):
        raise violation("cannot_pay", f"{seat} does not hold {' + '.join(pay)}", rule)


def _own(state: SaxonState, seat: str, prov: str, rule: str) -> None:
    if prov not in state.provinces:
        raise violation("unknown_province", f"no province {prov!r}", rule)
    if state.provinces[prov].owner != seat:
        raise violation("not_your_province", f"{prov} is not {seat}'s", rule)


# -- §4.3 trades between players ---------------------------------------------------------------
def _enc(tokens: dict[str, int]) -> str:
    return encode_tokens(tokens)


def _dec(text: str) -> dict[str, int]:
    return decode_tokens(text) or {} if text else {}


def _tidy(tokens: dict[str, int]) -> dict[str, int]:
    """Tokens in resource order, without zero counts (as the record keeps them)."""
    return {k: v for k, v in sorted(tokens.items(), key=lambda kv: RESOURCES.index(kv[0])) if v}


def _offer_check(state: SaxonState, seat: str, c: Offer) -> None:
    """§4.3 "Players may exchange resource tokens in any combination that they want": any
    tokens each way (a gift gives only, a request only asks), from what each side holds."""
    rule = "4.3"
    if c.to == seat or c.to not in state.players or not state.players[c.to].alive:
        raise violation("bad_trade_partner", "offer a trade to another player still in the game", rule)
    for side in (c.give, c.take):
        if any(k not in RESOURCES or v < 0 for k, v in side.items()):
            raise violation("bad_trade", f"name resources ({', '.join(RESOURCES)}) with counts of 0 or more", rule)
    if not (sum(c.give.values()) or sum(c.take.values())):
        raise violation("bad_trade", "a trade moves at least one token", rule)
    if any(res_count(state.players[seat], k) < v for k, v in c.give.items()):
        raise violation("cannot_pay", f"{seat} does not hold what it offers", rule)
    if any(res_count(state.players[c.to], k) < v for k, v in c.take.items()):
        raise violation("cannot_pay", f"{c.to} does not hold what is asked", rule)


def _offer_affordable(state: SaxonState, prompt: Prompt, option: str) -> bool:
    if option != "accept":
        return True
    offerer, give, take = prompt.args[0], _dec(prompt.args[1]), _dec(prompt.args[2])
    return (all(res_count(state.players[offerer], k) >= n for k, n in give.items())
            and all(res_count(state.players[prompt.seat], k) >= n for k, n in take.items()))


AFFORDABLE["offer"] = _offer_affordable


def _offer_apply(ctx: Ctx, seat: str, c: Offer) -> None:
    ctx.emit(TradeOffered(seat=seat, to=c.to, give=_tidy(c.give), take=_tidy(c.take)))
    ctx.push(Job("phase", seat, args=("trade",)))
    ctx.ask("offer", c.to, ("accept", "decline"), args=(seat, _enc(c.give), _enc(c.take)))


@choice("offer")
def _offer_answer(ctx: Ctx, prompt: Prompt, option: str) -> None:
    offerer = prompt.args[0]
    if option != "accept":
        ctx.emit(TradeDeclined(seat=prompt.seat, offerer=offerer))
        return
    ctx.emit(TradeAccepted(seat=prompt.seat, offerer=offerer, give=_dec(prompt.args[1]), take=_dec(prompt.args[2])))


@job("trade_round")
def trade_round(ctx: Ctx, j: Job) -> None:
    """§2.2 step 2.3 (§4.3): "Players may trade resources among themselves", not in game order
    like the paid steps: each player in turn may make offers to anyone; while a round saw an
    offer, another round follows, so every player may answer a late offer with one of his own."""
    order = alive(ctx.state)
    ctx.push(*[Job("phase", s, args=("trade",)) for s in order], Job("trade_round_end"))


@job("trade_round_end")
def trade_round_end(ctx: Ctx, j: Job) -> None:
    if any(ctx.player(s).offers for s in alive(ctx.state)):
        ctx.emit(TradingRoundEnded())
        ctx.push(Job("trade_round"))


def _trade_candidates(state: SaxonState, seat: str):
    yield Done()
    me = state.players[seat]
    for other in alive(state):
        if other == seat:
            continue
        theirs = held(state.players[other])
        for g in held(me):
            for t in theirs:
                if g != t:
                    yield Offer(to=other, give={g: 1}, take={t: 1})
            yield Offer(to=other, give={g: 1}, take={})
        for t in theirs:
            yield Offer(to=other, give={}, take={t: 1})


def _anyone_holds(state: SaxonState) -> bool:
    return any(held(state.players[s]) for s in alive(state))


PHASES["trade"] = Phase(
    "trade", "4.3", wanted=lambda s, seat: len(alive(s)) > 1 and _anyone_holds(s),
    candidates=_trade_candidates, checks={Offer: _offer_check}, applies={Offer: _offer_apply},
)


# -- §4.4 resources placed in cities ---------------------------------------------------------------
def _market_check(state: SaxonState, seat: str, c: PlaceTrade) -> None:
    rule = "4.4"
    p = state.provinces.get(c.province)
    if p is None or not p.city:
        raise violation("no_city", f"{c.province} has no city", rule)
    if p.trade_res:
        raise violation("city_taken", f"a resource is already placed in {c.province}: one per city", rule)
    _pay_check(state, seat, [c.resource], rule)


def _market_apply(ctx: Ctx, seat: str, c: PlaceTrade) -> None:
    ctx.emit(ResourcePlacedForTrade(seat=seat, province=c.province, resource=c.resource))


def _market_candidates(state: SaxonState, seat: str):
    yield Done()
    for prov in state.board.provinces:
        p = state.provinces[prov]
        if p.city and not p.trade_res:
            for r in held(state.players[seat]):
                yield PlaceTrade(province=prov, resource=r)


PHASES["market"] = Phase(
    "market", "4.4",
    wanted=lambda s, seat: bool(held(s.players[seat])) and any(p.city and not p.trade_res for p in s.provinces.values()),
    candidates=_market_candidates, checks={PlaceTrade: _market_check}, applies={PlaceTrade: _market_apply},
)


# -- §4.5 improvements --------------------------------------------------------------------------------
def _matches(pay: list[str], slots: list[tuple[str, ...]]) -> bool:
    """Can the paid tokens fill the slots (each slot: the resources it accepts)?"""
    if len(pay) != len(slots):
        return False
    if not slots:
        return True
    first, rest = slots[0], slots[1:]
    for i, token in enumerate(pay):
        if token in first and _matches(pay[:i] + pay[i + 1:], rest):
            return True
    return False


ANY = RESOURCES
COSTS: dict[str, list[tuple[str, ...]]] = {
    "morale": [ANY],
    "ravage": [ANY],
    "road": [("wheat",), ANY],
    "wall": [("wheat",), ANY],
    "city": [("wheat",), ("iron",), ("wool",), ("gold",)],
    "monastery": [("gold",), ("wool", "iron"), ("wheat", "slaves")],
}


def _improve_check(state: SaxonState, seat: str, c: Improve) -> None:
    rule = "4.5"
    _own(state, seat, c.province, rule)
    p = state.provinces[c.province]
    imp = c.improvement
    if imp == "morale" and (p.morale_bought or p.morale >= 1):
        raise violation("morale_limit", "morale may be increased once per province per turn, and not above high", rule)
    if imp == "ravage" and p.ravage == 0:
        raise violation("no_ravage", f"{c.province} has no ravage marker", rule)
    if imp in ("road", "wall", "city", "monastery") and getattr(p, imp):
        raise violation("already_built", f"{c.province} already has a {imp}", rule)
    if imp == "monastery" and not state.players[seat].christian:
        raise violation("christians_only", "only Christians may build a monastery", rule)
    if not _matches(list(c.pay), COSTS[imp]):
        raise violation("wrong_cost", f"a {imp} costs {_cost_text(imp)}", rule)
    _pay_check(state, seat, c.pay, rule)


def _cost_text(imp: str) -> str:
    return " + ".join("/".join(s) if s != ANY else "any" for s in COSTS[imp])


def _improve_apply(ctx: Ctx, seat: str, c: Improve) -> None:
    p = ctx.prov(c.province)
    pay = sorted(c.pay, key=RESOURCES.index)
    if c.improvement == "morale":
        ctx.emit(MoraleChanged(province=c.province, morale=MORALE[p.morale + 1], was=MORALE[p.morale], section="4.5",
                               seat=seat, paid=pay))
    elif c.improvement == "ravage":
        ctx.emit(RavageRemoved(province=c.province, section="4.5", seat=seat, paid=pay))
    else:
        ctx.emit(ImprovementBuilt(province=c.province, improvement=c.improvement, section="4.5", seat=seat, paid=pay))
        if c.improvement == "monastery":
            ctx.morale(c.province, +1, "4.5")


def pay_choices(state: SaxonState, seat: str, slots: list[tuple[str, ...]]) -> list[list[str]]:
    """Distinct ways to pay for these slots from what the seat holds (sorted tokens)."""
    out: set[tuple[str, ...]] = set()

    def walk(i: int, chosen: list[str]) -> None:
        if i == len(slots):
            if can_pay(state.players[seat], chosen):
                out.add(tuple(sorted(chosen, key=RESOURCES.index)))
            return
        for r in slots[i]:
            walk(i + 1, chosen + [r])

    walk(0, [])
    return [list(t) for t in sorted(out)]


def _improve_candidates(state: SaxonState, seat: str):
    yield Done()
    for prov in owned(state, seat):
        for imp in COSTS:
            for pay in pay_choices(state, seat, COSTS[imp]):
                yield Improve(province=prov, improvement=imp, pay=pay)


PHASES["improve"] = Phase(
    "improve", "4.5", wanted=lambda s, seat: bool(held(s.players[seat])),
    candidates=_improve_candidates, checks={Improve: _improve_check}, applies={Improve: _improve_apply},
)


# -- §4.6 raising troops and boats -------------------------------------------------------------------
def hire_check(state: SaxonState, seat: str, c: Hire) -> None:
    rule = "4.6.1"
    u = state.units.get(c.unit)
    if u is None or u.kind != "mercenary" or u.owner is not None:
        raise violation("not_for_hire", f"unit {c.unit} is not an unhired mercenary", rule)
    if not units_at(state, u.loc, seat, TROOP_KINDS):
        raise violation("no_troops_there", f"{seat} has no troops in {u.loc} to hire the mercenary", rule)
    _pay_check(state, seat, [c.pay], rule)


def hire_apply(ctx: Ctx, seat: str, c: Hire) -> None:
    ctx.emit(MercenaryHired(seat=seat, unit=c.unit, province=ctx.state.units[c.unit].loc, paid=c.pay))


def hires(state: SaxonState, seat: str) -> list[Hire]:
    """The hires the seat may make now (§4.6.1: "at any time" its troops share a province
    with an unhired mercenary)."""
    return accepted(hire_check, state, seat, hire_candidates(state, seat))


def hire_candidates(state: SaxonState, seat: str):
    for u in state.units.values():
        if u.kind == "mercenary" and u.owner is None:
            for r in held(state.players[seat]):
                yield Hire(unit=u.id, pay=r)


def _regular_check(state: SaxonState, seat: str, c: RaiseRegular) -> None:
    rule = "4.6.2"
    _own(state, seat, c.province, rule)
    if len(units_of(state, seat, REGULAR_KINDS)) >= len(owned(state, seat)):
        raise violation("too_many_regulars", "regulars on the map may not exceed the provinces owned", rule)
    if not _matches(list(c.pay), [("iron",), ANY]):
        raise violation("wrong_cost", "a regular costs one iron and one of any resource", rule)
    _pay_check(state, seat, c.pay, rule)


def _regular_apply(ctx: Ctx, seat: str, c: RaiseRegular) -> None:
    ctx.emit(TroopsRaised(seat=seat, kind="regular", province=c.province, units=ctx.new_ids(1),
                          paid=sorted(c.pay, key=RESOURCES.index), section="4.6.2"))


def _peasants_check(state: SaxonState, seat: str, c: RaisePeasants) -> None:
    rule = "4.6.3"
    _own(state, seat, c.province, rule)
    if state.provinces[c.province].peasants:
        raise violation("already_nominated", f"{c.province} already raised peasants this turn", rule)
    if capacity(state, c.province) <= 0:
        raise violation("no_capacity", f"{c.province} has no carrying capacity", rule)
    _pay_check(state, seat, [c.pay], rule)


def _peasants_apply(ctx: Ctx, seat: str, c: RaisePeasants) -> None:
    n = capacity(ctx.state, c.province)
    ctx.emit(TroopsRaised(seat=seat, kind="peasant", province=c.province, units=ctx.new_ids(n), paid=[c.pay],
                          section="4.6.3"))


def _boats_check(state: SaxonState, seat: str, c: RaiseBoats) -> None:
    rule = "4.6.4"
    if len(c.places) not in (1, 2) or (len(c.places) == 2 and c.places[0].province == c.places[1].province):
        raise violation("bad_boat_places", "two boats in one province, or one boat in each of two provinces", rule)
    for place in c.places:  # "in any one province, or one boat in two provinces": any, on its coast
        if place.province not in state.provinces:
            raise violation("unknown_province", f"no province {place.province!r}", rule)
        if place.sea not in state.board.coasts[place.province]:
            raise violation("not_coastal", f"{place.province} has no coast on {place.sea}", rule)
    _pay_check(state, seat, [c.pay], rule)


def _boats_apply(ctx: Ctx, seat: str, c: RaiseBoats) -> None:
    ids = iter(ctx.new_ids(2))
    boats = [BoatPlaced(unit=next(ids), province=place.province, sea=place.sea)
             for place in c.places for _ in range(3 - len(c.places))]
    ctx.emit(BoatsRaised(seat=seat, boats=boats, paid=c.pay))


def _p2b_check(state: SaxonState, seat: str, c: PeasantToBoat) -> None:
    rule = "4.6.4"
    u = state.units.get(c.unit)
    if u is None or u.kind != "peasant" or u.owner != seat:
        raise violation("not_your_peasant", f"unit {c.unit} is not one of {seat}'s peasants", rule)
    if u.loc not in state.board.coasts or c.sea not in state.board.coasts[u.loc]:
        raise violation("not_coastal", f"{u.loc} has no coast on {c.sea}", rule)


def _p2b_apply(ctx: Ctx, seat: str, c: PeasantToBoat) -> None:
    u = ctx.state.units[c.unit]
    [boat] = ctx.new_ids(1)
    ctx.emit(PeasantReplacedByBoat(seat=seat, peasant=u.id, boat=boat, province=u.loc, sea=c.sea))


def _monk_check(state: SaxonState, seat: str, c: RaiseMonk) -> None:
    rule = "12.1"
    if not state.options.warrior_monks:
        raise violation("option_off", "warrior monks are an optional rule not in play", rule)
    if not state.players[seat].christian:
        raise violation("christians_only", "only Christians raise warrior monks", rule)
    _own(state, seat, c.province, rule)
    if not state.provinces[c.province].monastery:
        raise violation("no_monastery", f"{c.province} has no monastery", rule)
    monasteries = sum(state.provinces[p].monastery for p in owned(state, seat))
    if len(units_of(state, seat, ("monk",))) >= monasteries:
        raise violation("too_many_monks", "one warrior monk per monastery owned", rule)
    if len(c.pay) != 2:
        raise violation("wrong_cost", "a warrior monk costs two resources", rule)
    _pay_check(state, seat, c.pay, rule)


def _monk_apply(ctx: Ctx, seat: str, c: RaiseMonk) -> None:
    ctx.emit(TroopsRaised(seat=seat, kind="monk", province=c.province, units=ctx.new_ids(1),
                          paid=sorted(c.pay, key=RESOURCES.index), section="12.1"))


def _raise_candidates(state: SaxonState, seat: str):
    yield Done()
    mine = owned(state, seat)
    for prov in mine:
        for pay in pay_choices(state, seat, [("iron",), ANY]):
            yield RaiseRegular(province=prov, pay=pay)
        for r in held(state.players[seat]):
            yield RaisePeasants(province=prov, pay=r)
        if state.options.warrior_monks:
            for pay in pay_choices(state, seat, [ANY, ANY]):
                yield RaiseMonk(province=prov, pay=pay)
    places = [BoatPlace(province=p, sea=z) for p in state.board.provinces for z in state.board.coasts[p]]
    for r in held(state.players[seat]):
        for place in places:
            yield RaiseBoats(places=[place], pay=r)
        for a, b in list(combinations(places, 2))[:6]:
            yield RaiseBoats(places=[a, b], pay=r)
    for u in units_of(state, seat, ("peasant",)):
        for z in state.board.coasts.get(u.loc, ()):
            yield PeasantToBoat(unit=u.id, sea=z)


PHASES["raise"] = Phase(
    "raise", "4.6",
    wanted=lambda s, seat: bool(held(s.players[seat])) or bool(units_of(s, seat, ("peasant",))),
    candidates=_raise_candidates,
    checks={RaiseRegular: _regular_check, RaisePeasants: _peasants_check,
            RaiseBoats: _boats_check, PeasantToBoat: _p2b_check, RaiseMonk: _monk_check},
    applies={RaiseRegular: _regular_apply, RaisePeasants: _peasants_apply,
             RaiseBoats: _boats_apply, PeasantToBoat: _p2b_apply, RaiseMonk: _monk_apply},
)


# -- §5 conversion -------------------------------------------------------------------------------------
def _convert_check(state: SaxonState, seat: str, c: Convert) -> None:
    return None


def _convert_apply(ctx: Ctx, seat: str, c: Convert) -> None:
    """§5: low morale everywhere, high removed; Pagan to Christian: monasteries go high."""
    christian = not ctx.player(seat).christian
    ctx.emit(Converted(seat=seat, religion="christian" if christian else "pagan"))
    for prov in owned(ctx.state, seat):
        ctx.set_morale(prov, 1 if christian and ctx.prov(prov).monastery else -1, "5")
    monks = units_of(ctx.state, seat, ("monk",))
    if not christian and monks:
        ctx.emit(UnitsDeserted(units=counters(monks), section="12.1"))
    ctx.prompt = None  # converting ends the seat's conversion phase


def _convert_done(state: SaxonState, seat: str) -> None:
    if state.players[seat].heresy:
        raise violation("heresy", "heresy: you must convert to a different religion this phase (§11 56)", "11")


PHASES["convert"] = Phase(
    "convert", "5", wanted=lambda s, seat: True,
    candidates=lambda s, seat: [Done(), Convert()],
    checks={Convert: _convert_check}, applies={Convert: _convert_apply}, done_check=_convert_done,
)
