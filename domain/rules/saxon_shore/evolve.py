"""The fold of Saxon Shore.

:func:`apply` works out what each rule event changes on the board (the event says what
happened; the fold assigns its consequences). :func:`evolve` is ``apply`` plus the turn's
control state, which the record carries: ``TurnBegan`` starts the steps of §2.2's order of
gameplay for the turn's order of play, and a decision that changes the control (the question,
the steps still to run, the phase) ends with a ``PlayerAsked`` saying how, and the fold assigns
it; a decision that leaves it unchanged (hiring a mercenary, raising a regular in the
middle of a phase) records none. Nothing here runs a decision. Records of 2.1.0 and 2.0.0 said
less (``PromptOpened``): their fold is older.py's.
"""

from __future__ import annotations

import msgspec

from domain.events import EventData
from domain.rules.saxon_shore.data import PATH_TYPES
from domain.rules.saxon_shore.events import (
    BattleBegan,
    BattleEnded,
    BattleRoundFought,
    BoxMove,
    BoatsRaised,
    CasualtyRemoved,
    CityAssaulted,
    CityLeftUnassaulted,
    CityRepaired,
    CityTradeFailed,
    CityTradeRolled,
    Converted,
    EventDrawn,
    FamineAverted,
    FamineStruck,
    FamilyTiesDeclined,
    ForcedMarchMade,
    GameDecided,
    ImprovementBuilt,
    ImprovementDestroyed,
    InvasionDeclared,
    KingCrowned,
    KingDied,
    KingMovedTroops,
    LostAtSea,
    MercenaryHired,
    MoraleChanged,
    MovementBegan,
    PathGained,
    PeasantReplacedByBoat,
    PlayerAsked,
    PeasantsAndBoatsRemoved,
    PlayerEliminated,
    ProvinceBecameNeutral,
    ProvinceConquered,
    ProvinceJoined,
    ProvinceRavaged,
    RaidDeclared,
    RaidersRepulsed,
    RavageRemoved,
    ResourcePlacedForTrade,
    ResourcesGained,
    ResourcesProduced,
    ResourceSwapped,
    StartingProvincePicked,
    StormsAtSea,
    TradeAccepted,
    TradeOffered,
    TradingRoundEnded,
    TroopsRaised,
    TroopsReturned,
    TurnBegan,
    UnitsDeserted,
    UnitsEliminated,
    UnitsMoved,
    UnitsPlaced,
)
from domain.rules.saxon_shore.state import (CONTROL_DERIVED, MORALE_LEVEL, Battle, Prompt, SaxonState, Unit, res_add,
                                            turn_steps, victory)

replace = msgspec.structs.replace
# Cards held for the turn from the random event drawn (§11 33, 54, 55, 56).
HELD = {33: "bumper", 54: "forced_march", 55: "chainmail", 56: "heresy"}


# -- assignments --------------------------------------------------------------------------------
def _prov(state: SaxonState, name: str, **changes) -> SaxonState:
    return replace(state, provinces={**state.provinces, name: replace(state.provinces[name], **changes)})


def _player(state: SaxonState, seat: str, **changes) -> SaxonState:
    return replace(state, players={**state.players, seat: replace(state.players[seat], **changes)})


def _tokens(state: SaxonState, seat: str, changes: dict[str, int], sign: int = 1) -> SaxonState:
    if not any(changes.values()):
        return state
    return _player(state, seat, res=res_add(state.players[seat].res, {k: sign * n for k, n in changes.items()}))


def _paid(state: SaxonState, seat: str | None, paid: list[str] | str | None) -> SaxonState:
    if seat is None or not paid:
        return state
    counts: dict[str, int] = {}
    for name in [paid] if isinstance(paid, str) else paid:
        counts[name] = counts.get(name, 0) + 1
    return _tokens(state, seat, counts, -1)


def _add(state: SaxonState, units: list[Unit]) -> SaxonState:
    table = dict(state.units)
    top = state.next_unit
    for unit in units:
        table[unit.id] = unit
        top = max(top, unit.id + 1)
    return replace(state, units=table, next_unit=top)


def _remove(state: SaxonState, ids) -> SaxonState:
    table = dict(state.units)
    for uid in ids:
        table.pop(uid, None)
    return replace(state, units=table)


def _units(state: SaxonState, ids, **changes) -> SaxonState:
    table = dict(state.units)
    for uid in ids:
        table[uid] = replace(table[uid], **changes)
    return replace(state, units=table)


def _battle(state: SaxonState, **changes) -> SaxonState:
    return replace(state, battle=replace(state.battle, **changes))


def lift_option(moves: list[BoxMove]) -> str:
    """A king's moves as the battle's lift (combat.apply_lift): ``up KIND@BOX``, ``up2 …``,
    ``up A@1, B@2``, ``down …``; "none" when the king lets them stand."""
    if not moves:
        return "none"
    verb = {1: "up", 2: "up2", -1: "down"}[moves[0].step]
    return f"{verb} " + ", ".join(f"{m.kind}@{m.box}" for m in moves)


# -- the fold -----------------------------------------------------------------------------------
# The events after which a §1 victory may be won or lost (provinces, cities, kingdoms, the turn).
VICTORY = (StartingProvincePicked, TurnBegan, PlayerEliminated, ProvinceConquered, ProvinceBecameNeutral,
           ProvinceJoined, ImprovementBuilt, ImprovementDestroyed)


def apply(state: SaxonState, event: EventData) -> SaxonState:
    """What a rule event changes on the board and in the players' hands (not the control), and
    the §1 victory it may bring (``won``, derived)."""
    state = _apply(state, event)
    if isinstance(event, VICTORY):
        return replace(state, won=victory(state))
    return state


def _apply(state: SaxonState, event: EventData) -> SaxonState:  # noqa: C901 - one case per event type
    match event:
        # set-up and the turn
        case StartingProvincePicked(seat=seat, province=prov, king=king, religion=religion):
            state = _prov(state, prov, owner=seat)
            state = _add(state, [Unit(id=king, kind="king", owner=seat, loc=prov)])
            state = _player(state, seat, christian=religion == "christian")
            return _tokens(state, seat, {"gold": 1})
        case TurnBegan(turn=turn, order=order):
            players = {s: replace(p, forced_march=False, chainmail=False) if p.forced_march or p.chainmail else p
                       for s, p in state.players.items()}
            provinces = {n: replace(p, famine=False, peasants=False, morale_bought=False)
                         if p.famine or p.peasants or p.morale_bought else p for n, p in state.provinces.items()}
            state = replace(state, turn=turn, order=tuple(order), players=players, provinces=provinces, storms=())
            # §2.2: the turn's steps, which its PlayerAsked then count from (older records: older.py)
            return state if state.version in CONTROL_DERIVED else replace(state, jobs=turn_steps(order))
        case GameDecided(outcome=outcome):
            return replace(state, ended=outcome, prompt=None, jobs=())
        case PlayerEliminated(seat=seat, units=units):
            return _player(_remove(state, [c.unit for c in units]), seat, alive=False)
        # kings and counters
        case KingDied(unit=unit):
            return _remove(state, [unit])
        case KingCrowned(seat=seat, unit=unit, province=prov, quality=quality):
            return _add(state, [Unit(id=unit, kind="king", owner=seat, loc=prov, quality=quality)])
        case UnitsPlaced(kind=kind, province=prov, units=ids, owner=owner, coast=coast):
            return _add(state, [Unit(id=i, kind=kind, owner=owner, loc=prov, coast=coast) for i in ids])
        case UnitsDeserted(units=units) | UnitsEliminated(units=units) | LostAtSea(units=units):
            return _remove(state, [c.unit for c in units])
        case PeasantsAndBoatsRemoved(units=ids):
            return _remove(state, ids)
        case TroopsReturned(units=units, to=to):
            return _units(state, [c.unit for c in units], loc=to, coast=None, mp=0)
        # random events
        case EventDrawn(seat=seat, number=number):
            return _player(state, seat, **{HELD[number]: True}) if number in HELD else state
        case PathGained(seat=seat, path=path):
            paths = list(state.players[seat].paths)
            paths[PATH_TYPES.index(path)] += 1
            return _player(state, seat, paths=tuple(paths))
        case FamineStruck(province=prov):
            return _prov(state, prov, ravage=state.provinces[prov].ravage + 1, famine=True)
        case FamineAverted(seat=seat):
            return _paid(state, seat, ["wheat"])
        case StormsAtSea(sea=sea):
            return state if sea in state.storms else replace(state, storms=(*state.storms, sea))
        case ResourceSwapped(seat=seat, gave=gave, took=took):
            return _tokens(state, seat, {gave: -1, took: 1} if gave != took else {})
        case FamilyTiesDeclined(seat=seat, owner=owner, tokens=tokens):
            return _tokens(_tokens(state, owner, tokens, -1), seat, tokens)
        case CityRepaired(seat=seat, paid=paid):
            return _paid(state, seat, paid)
        # provinces
        case MoraleChanged(province=prov, morale=morale, seat=seat, paid=paid):
            state = _prov(state, prov, morale=MORALE_LEVEL[morale], **({"morale_bought": True} if paid else {}))
            return _paid(state, seat, paid)
        case ImprovementBuilt(province=prov, improvement=imp, seat=seat, paid=paid):
            return _paid(_prov(state, prov, **{imp: True}), seat, paid)
        case ImprovementDestroyed(province=prov, improvement=imp, by=by, spoils=spoils):
            extra = {"trade_seat": None, "trade_res": None} if imp == "city" else {}
            state = _prov(state, prov, **{imp: False}, **extra)
            return _tokens(state, by, spoils) if by else state
        case ProvinceRavaged(province=prov, by=by, spoils=spoils):
            state = _prov(state, prov, ravage=state.provinces[prov].ravage + 1)
            return _tokens(state, by, spoils) if by else state
        case RavageRemoved(province=prov, seat=seat, paid=paid):
            return _paid(_prov(state, prov, ravage=state.provinces[prov].ravage - 1), seat, paid)
        case ProvinceConquered(seat=seat, province=prov, morale=morale):
            return _prov(state, prov, owner=seat, morale=MORALE_LEVEL[morale])
        case ProvinceBecameNeutral(province=prov):
            return _prov(state, prov, owner=None)
        case ProvinceJoined(seat=seat, province=prov):
            return _prov(state, prov, owner=seat)
        # resources
        case ResourcesProduced(seat=seat, gained=gained):
            state = _tokens(state, seat, gained)
            return _player(state, seat, bumper=False) if state.players[seat].bumper else state
        case ResourcesGained(seat=seat, gained=gained):
            return _tokens(state, seat, gained)
        case CityTradeRolled(province=prov):
            return _prov(state, prov, trade_seat=None, trade_res=None, traded=True)
        case CityTradeFailed(province=prov, reason=reason):
            famine = reason == "famine"  # the famine has done its work for this turn (§11 25)
            return _prov(state, prov, trade_seat=None, trade_res=None, traded=state.provinces[prov].traded or famine,
                         famine=False if famine else state.provinces[prov].famine)
        case TradeOffered(seat=seat):
            return _player(state, seat, offers=state.players[seat].offers + 1)
        case TradeAccepted(seat=seat, offerer=offerer, give=give, take=take):
            state = _tokens(_tokens(state, offerer, give, -1), offerer, take)
            return _tokens(_tokens(state, seat, take, -1), seat, give)
        case TradingRoundEnded():
            return replace(state, players={s: replace(p, offers=0) if p.offers else p for s, p in state.players.items()})
        case ResourcePlacedForTrade(seat=seat, province=prov, resource=resource):
            return _paid(_prov(state, prov, trade_seat=seat, trade_res=resource), seat, [resource])
        # raising troops
        case MercenaryHired(seat=seat, unit=unit, paid=paid):
            return _paid(_units(state, [unit], owner=seat, mp=0), seat, paid)
        case TroopsRaised(seat=seat, kind=kind, province=prov, units=ids, paid=paid):
            state = _add(state, [Unit(id=i, kind=kind, owner=seat, loc=prov) for i in ids])
            if kind == "peasant":
                state = _prov(state, prov, peasants=True)
            return _paid(state, seat, paid)
        case BoatsRaised(seat=seat, boats=boats, paid=paid):
            state = _add(state, [Unit(id=b.unit, kind="boat", owner=seat, loc=b.province, coast=b.sea) for b in boats])
            return _paid(state, seat, paid)
        case PeasantReplacedByBoat(seat=seat, peasant=peasant, boat=boat, province=prov, sea=sea):
            return _add(_remove(state, [peasant]), [Unit(id=boat, kind="boat", owner=seat, loc=prov, coast=sea)])
        case Converted(seat=seat, religion=religion):
            return _player(state, seat, christian=religion == "christian", heresy=False)
        # movement
        case MovementBegan():
            fresh = {i: replace(u, mp=2) if u.owner is not None and u.mp != 2 else u for i, u in state.units.items()}
            return replace(state, units=fresh, declared=())
        case UnitsMoved(seat=seat, units=units, path=path, points=points, halted=halted, coast=coast,
                        paths_used=used):
            if used:
                paths = list(state.players[seat].paths)
                for kind in used:
                    paths[PATH_TYPES.index(kind)] -= 1
                state = _player(state, seat, paths=tuple(paths))
            table = dict(state.units)
            for c in units:
                u = table[c.unit]
                table[c.unit] = replace(u, loc=path[-1], mp=-1 if halted else u.mp - points,
                                        coast=coast if u.kind == "boat" else None)
            return replace(state, units=table)
        case ForcedMarchMade(seat=seat, units=ids):
            state = _player(state, seat, forced_march=False)
            return replace(state, units={**state.units, **{i: replace(state.units[i], mp=state.units[i].mp + 1)
                                                           for i in ids}})
        # combat
        case RaidDeclared(seat=seat, province=prov):
            return replace(state, declared=(*state.declared, (seat, prov, "raid")))
        case InvasionDeclared(seat=seat, province=prov, paid=paid):
            return _paid(replace(state, declared=(*state.declared, (seat, prov, "invade"))), seat, paid)
        case RaidersRepulsed(eliminated=dead, freed=freed):
            return _units(_remove(state, [c.unit for c in dead]), [c.unit for c in freed], owner=None, mp=0)
        case BattleBegan(province=prov, mode=mode, attacker=att, defender=dfn, militia=militia,
                         militia_strength=strength, rebels=rebels):
            return replace(state, battle=Battle(prov=prov, mode=mode, attacker=att, defender=dfn, militia=militia,
                                                militia_strength=strength, rebels=rebels))
        case KingMovedTroops(side=side, moves=moves):
            return _battle(state, **{"att_lift" if side == "attacker" else "dfn_lift": lift_option(moves)})
        case BattleRoundFought(round=rnd):
            return _battle(state, round=rnd, att_lift="", dfn_lift="")
        case CasualtyRemoved(kind=kind, unit=unit):
            if unit is not None:
                return _remove(state, [unit])
            if kind == "militia":
                return _battle(state, militia=state.battle.militia - 1)
            return _battle(state, rebels=state.battle.rebels - 1)
        case CityAssaulted():
            return _battle(state, in_city=True)
        case CityLeftUnassaulted():
            return _battle(state, militia=0, mode="pillaged")
        case BattleEnded():
            return replace(state, battle=None)
    return state


def evolve(state: SaxonState, event: EventData) -> SaxonState:
    """Fold one event: :func:`apply`, and the control a PlayerAsked says (the module's docstring)."""
    if isinstance(event, PlayerAsked):
        return replace(state, prompt=asked(event), jobs=(*event.steps_next, *state.jobs[event.steps_done:]),
                       phase=state.phase if event.turn_phase is None else event.turn_phase,
                       stage=state.stage if event.turn_stage is None else event.turn_stage)
    return apply(state, event)


def asked(event: PlayerAsked) -> Prompt:
    """The open question a PlayerAsked says, as the engine holds it (rules.prompt_opened)."""
    if event.kind == "phase":
        return Prompt("phase", event.seat, args=(event.phase,), n=event.stage)
    return Prompt(event.kind, event.seat, tuple(event.options), event.province, event.number, tuple(event.about))
