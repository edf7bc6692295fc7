"""What is legal and what happens. ``legal`` and ``decide`` share :func:`check`, so a listed
command is exactly an accepted one. Sections cited are the First Crusade supplement's; where
the core rules are not in the record the chart used is a labelled reconstruction
(``charts.json``) or a free, recorded ruling (``propose-ruling``)."""

from __future__ import annotations

import math
from typing import Any

import msgspec

from domain.events import EventData, Outcome
from domain.rng import Rng
from domain.rules.base import GAME_OVER, NOT_YOUR_TURN, RuleViolation, Step as BaseStep, accepted
from domain.rules.day_of_battle import commands as c
from domain.rules.day_of_battle import events as ev
from domain.rules.day_of_battle.data import (
    CHARTS, D20, DECK, DECK_NAME, MAX_COS, NOTE_SKIRMISH_WEAPONS, SYSTEM, TABLE_DEPTH, Armies, army_points,
    card_value, rank_of,
)
from domain.rules.day_of_battle.evolve import evolve
from domain.rules.day_of_battle.fire import Volley, can_fire_on, damage, order_of_fire, range_band, volley, weapon_of
from domain.rules.day_of_battle.state import Army, DayOfBattleState, Leader, Unit
from domain.rules.day_of_battle.table import deployment_problem, table_width_feet

R_SETUP, R_DEPLOY, R_RESPONSE, R_DISMOUNT, R_RANKS = "1-1", "1-1.2", "1-2", "1-3", "1-4"
R_SPEARMEN, R_SQUARE, R_SCOUTING, R_SKIRMISH, R_WEAPONS, R_REACTION = "1-5", "1-6", "1-7", "1-8", "1-9", "1-10"
R_CORE = "core rules (see RULES_NOTES.md)"
R_STATED = "core rules: players' statement (see RULES_NOTES.md)"
R_END = "core rules: the end of the battle, agreed by the players (see RULES_NOTES.md)"
HORSE_HOLDER_DISTANCE = 3  # "must be placed within 3" of the knights"


def violation(reason: str, message: str, rule: str) -> RuleViolation:
    return RuleViolation(f"{SYSTEM}.{reason}", message, rule)


# -- the opening --------------------------------------------------------------------------------------
def opening(scenario: str, seats: tuple[str, ...], edges: dict[str, str], given: Armies,
            edition: int = 2) -> DayOfBattleState:
    """The armies from their profiles, the table sized by 1-1, nothing drawn or deployed."""
    armies, units, leaders = {}, {}, {}
    for seat in seats:
        p = given.profiles[seat]
        armies[seat] = Army(p.id, p.name, edges[seat], p.western, p.eastern, p.handicap, army_points(p))
        for l in p.leaders:
            lid = f"{seat}/{l.id}"
            leaders[lid] = Leader(lid, seat, l.name, eastern=not p.western, fixed_rank=l.social_rank)
        for u in p.units:
            uid = f"{seat}/{u.id}"
            units[uid] = Unit(
                uid, seat, u.name, u.troop_type, u.figures_per_cos, u.cos * u.figures_per_cos, u.combat_value,
                f"{seat}/{u.leader}", weapon=u.weapon, arms=given.weapons.get(u.weapon) if u.weapon else None, note8=NOTE_SKIRMISH_WEAPONS in u.notes, skirmish=u.skirmish,
                eastern_spearmen=u.eastern_spearmen, mounted=u.mounted,
                may_dismount=u.mounted and u.dismounted is not None, dismounted_as=u.dismounted)
    total = sum(a.points + a.handicap for a in armies.values())
    return DayOfBattleState(scenario=scenario, seats=seats, armies=armies, width_feet=table_width_feet(total),
                    units=units, leaders=leaders, edition=edition)


def in_frame(state: DayOfBattleState, x: float, y: float, of_seat: str, to_seat: str) -> tuple[float, float]:
    """A point in ``of_seat``'s frame, in ``to_seat``'s: opposing armies face each other, so
    their left flanks and rear edges are opposite (RULES_NOTES.md, "Positions")."""
    if state.armies[of_seat].edge == state.armies[to_seat].edge:
        return x, y
    return state.width_inches - x, TABLE_DEPTH - y


def on_table(state: DayOfBattleState, x: float, y: float) -> bool:
    return 0 <= x <= state.width_inches and 0 <= y <= TABLE_DEPTH


def facing_eastern(state: DayOfBattleState, seat: str) -> bool:
    return any(state.armies[o].eastern for o in state.opponents(seat))


def deployment_zone(state: DayOfBattleState, seat: str) -> str:
    army = state.armies[seat]
    if army.western and facing_eastern(state, seat):
        return "western facing eastern"
    return "eastern" if army.eastern else "original"


# -- who acts ---------------------------------------------------------------------------------------------
def to_act(state: DayOfBattleState) -> list[str]:
    if state.phase == "over":
        return []
    if state.ruling is not None:
        awaiting = [s for s in state.seats if s != state.ruling.proposed_by and s not in state.ruling.accepted]
        return awaiting
    if state.phase == "leaders":
        return [s for s in state.seats if any(not l.drawn for l in state.leaders.values() if l.seat == s)]
    if state.phase == "deployment":
        return [s for s in state.seats if s not in state.deployed]
    if state.charge is not None:
        return [state.units[state.charge.target].seat]
    if state.melee is not None:
        return [state.units[fighting(state)].seat]
    if state.fire is not None:
        return [state.units[state.fire.target].seat]
    return [state.mover]


def fighting(state: DayOfBattleState) -> str:
    """The unit of the combat that rolls its dice next (the charger first)."""
    return next(u for u in state.melee.units if u not in state.melee.rolled)


# -- checks -------------------------------------------------------------------------------------------------
def _own_unit(state: DayOfBattleState, seat: str, uid: str, rule: str) -> Unit:
    unit = state.units.get(uid)
    if unit is None or unit.seat != seat:
        raise violation("not_your_unit", f"{uid!r} is not a unit of the {seat} army", rule)
    return unit


def _enemy_unit(state: DayOfBattleState, seat: str, uid: str, rule: str) -> Unit:
    unit = state.units.get(uid)
    if unit is None or unit.seat not in state.opponents(seat):
        raise violation("not_an_enemy_unit", f"{uid!r} is not a unit of an army facing {seat}", rule)
    if not unit.deployed or unit.condition == "lost":
        raise violation("target_not_on_table", f"{uid} is not on the table", rule)
    return unit


def _order(state: DayOfBattleState, seat: str, uid: str, order: str, rule: str) -> tuple[Unit, Leader, int]:
    """The unit, its commanding leader and the order's cost, or the rule the order breaks."""
    if not state.move_begun:
        raise violation("move_not_begun", "begin the game move first: initiative and command cards", R_CORE)
    unit = _own_unit(state, seat, uid, rule)
    if unit.condition in ("routed", "lost") or not unit.deployed:
        raise violation("unit_cannot_act", f"{unit.name} is {unit.condition} and takes no orders", rule)
    if unit.troop_type == "horse-holders":
        raise violation("unit_cannot_act", "horse holders take no orders", R_DISMOUNT)
    cost = CHARTS.order_costs.fire if order == "fire" else CHARTS.order_costs.manoeuvre
    leader = state.leaders[unit.leader]
    if leader.lost:
        raise violation("leader_lost", f"{leader.name} is {leader.lost} and gives no orders", R_STATED)
    if leader.command_points < cost:
        raise violation("not_enough_command_points",
                        f"{leader.name} has {leader.command_points} command points; a {order} costs {cost}",
                        R_DISMOUNT if order == "dismount" else R_CORE)
    return unit, leader, cost


def _attached(state: DayOfBattleState, seat: str, lid: str | None, rule: str) -> None:
    if lid is not None and (lid not in state.leaders or state.leaders[lid].seat != seat):
        raise violation("not_your_leader", f"{lid!r} is not a leader of the {seat} army", rule)
    if lid is not None and state.leaders[lid].lost:
        raise violation("leader_lost", f"{state.leaders[lid].name} is {state.leaders[lid].lost}", rule)


def responses(state: DayOfBattleState, charger: Unit, target: Unit, caught: bool, from_front: bool,
              terrain_check: bool | None = None) -> list[str]:
    """What the Crusader Response Chart (1-2, 1-10) allows the target of a charge."""
    if target.troop_type == "horse-archers":
        if not caught or terrain_check:
            return ["fall-back"]
        return ["terrain-check"] if terrain_check is None else []
    options = []
    w = weapon_of(target)
    if w is not None and (target.note8 or target.skirmish) and from_front and target.condition != "routed":
        options.append("defensive-fire")
    if state.edition == 1:
        return options + ["stand"]
    return options + ["stand", "counter-charge", "evade", "fall-back"]  # core rules: players' statement


def check(state: DayOfBattleState, seat: str, command: Any) -> None:
    """Raise the RuleViolation that refuses ``command`` from ``seat`` now, if any."""
    if state.phase == "over":
        raise RuleViolation(GAME_OVER, "the battle has ended", R_CORE)
    if seat not in to_act(state):
        raise RuleViolation(NOT_YOUR_TURN, f"{seat} may not act now", R_CORE)
    match command:
        case c.AcceptRuling(number=n) | c.RejectRuling(number=n):
            if state.ruling is None or state.ruling.number != n:
                raise violation("no_such_ruling", f"no ruling {n} awaits an answer", R_CORE)
            return
        case _ if state.ruling is not None:
            raise violation("ruling_pending", f"ruling {state.ruling.number} awaits an answer first", R_CORE)
        case c.ProposeRuling():
            _check_ruling(state, command)
            return
    if state.phase == "leaders" or state.phase == "deployment":
        _check_pre_battle(state, seat, command)
        return
    if state.charge is not None:
        _check_response(state, seat, command)
        return
    if state.melee is not None:
        _check_fight(state, command)
        return
    if state.fire is not None:
        if not isinstance(command, (c.ReturnFire, c.HoldFire)):
            raise violation("fire_pending", "the target of the fire answers first: return-fire or hold-fire", R_WEAPONS)
        return
    _check_move(state, seat, command)


def _check_ruling(state: DayOfBattleState, command: c.ProposeRuling) -> None:
    for deed in command.honour:
        if deed.leader not in state.leaders:
            raise violation("no_such_leader", f"no leader {deed.leader!r}", R_CORE)
        if deed.deed not in CHARTS.honour.deeds:
            raise violation("no_such_deed", f"honour deeds are {', '.join(CHARTS.honour.deeds)}", R_CORE)
    for item in [*command.conditions, *command.casualties]:
        if item.unit not in state.units:
            raise violation("no_such_unit", f"no unit {item.unit!r}", R_CORE)
    for item in command.casualties:
        if item.figures < 1:
            raise violation("bad_casualties", "casualties are at least 1 figure", R_CORE)
    if command.topic == "end-of-battle":
        if command.end is None:
            raise violation("end_needs_outcome", "an end-of-battle ruling says who won (or a draw)", R_CORE)
        if command.end.winner is not None and command.end.winner not in state.seats:
            raise violation("no_such_seat", f"no seat {command.end.winner!r}", R_CORE)
    elif command.end is not None:
        raise violation("end_needs_topic", "only an end-of-battle ruling ends the battle", R_CORE)
    if not command.decision.strip() or len(command.decision) > 500:
        raise violation("bad_decision", "say the decision in 1 to 500 characters", R_CORE)
    for roll in command.rolls:
        if roll.unit not in state.units:
            raise violation("no_such_unit", f"no unit {roll.unit!r}", R_STATED)
        _check_statement(roll.dice, roll.target_number)
    for fate in command.leaders:
        if fate.leader not in state.leaders:
            raise violation("no_such_leader", f"no leader {fate.leader!r}", R_STATED)
        if state.leaders[fate.leader].lost:
            raise violation("leader_lost", f"{fate.leader} is already {state.leaders[fate.leader].lost}", R_STATED)


def _check_statement(dice: int, target_number: int) -> None:
    """The players' statement of a roll: 1 to MAX_COS d20s (one die per Cos. at most, Herald's
    bound) against a target number a d20 can meet (0 to 20)."""
    if not 1 <= dice <= MAX_COS:
        raise violation("bad_dice", f"state 1 to {MAX_COS} dice, not {dice}", R_STATED)
    if not 0 <= target_number <= 20:
        raise violation("bad_target_number", f"a target number from 0 to 20 (on a d20), not {target_number}", R_STATED)


def _check_fight(state: DayOfBattleState, command: Any) -> None:
    if not isinstance(command, c.Fight):
        raise violation("combat_pending", "the units in combat roll their dice first: fight", R_STATED)
    if command.unit != fighting(state):
        raise violation("not_fighting_now", f"{state.units[fighting(state)].name} rolls its combat dice now", R_STATED)
    _check_statement(command.dice, command.target_number)


def _check_pre_battle(state: DayOfBattleState, seat: str, command: Any) -> None:
    match command:
        case c.DrawLeader(leader=lid):
            if state.phase != "leaders":
                raise violation("leaders_drawn", "every leader is already drawn", R_RANKS)
            leader = state.leaders.get(lid)
            if leader is None or leader.seat != seat:
                raise violation("not_your_leader", f"{lid!r} is not a leader of the {seat} army", R_RANKS)
            if leader.drawn:
                raise violation("leader_drawn", f"{leader.name} is already drawn", R_RANKS)
        case c.InitiateScouting() | c.DeclineScouting():
            if state.armies[seat].id != "byzantines":
                raise violation("scouting_byzantine_only",
                                "only the Byzantine army may initiate scouting as a pre-battle function", R_SCOUTING)
            if state.scouting is not None:
                raise violation("scouting_decided", "the Byzantine player has already decided on scouting", R_SCOUTING)
        case c.Deploy(unit=uid, x=x, y=y):
            if state.phase != "deployment":
                raise violation("not_deploying", "draw every leader before deploying", R_DEPLOY)
            unit = _own_unit(state, seat, uid, R_DEPLOY)
            if unit.troop_type == "horse-holders":
                raise violation("not_deployable", "horse holders are placed when knights dismount", R_DISMOUNT)
            army = state.armies[seat]
            problem = deployment_problem(
                eastern=army.eastern, western_facing_eastern=army.western and facing_eastern(state, seat),
                skirmish=unit.skirmish, horse_archers=unit.troop_type == "horse-archers", x=x, y=y,
                width=state.width_inches)
            if problem:
                raise violation("outside_deployment_zone", f"{unit.name}: {problem}", R_DEPLOY)
        case c.FinishDeployment():
            if state.phase != "deployment":
                raise violation("not_deploying", "draw every leader before deploying", R_DEPLOY)
            missing = [u.name for u in state.units.values() if u.seat == seat and not u.deployed]
            if missing:
                raise violation("units_not_deployed", f"not yet deployed: {', '.join(missing)}", R_DEPLOY)
        case _:
            raise violation("not_before_battle", f"{type(command).__name__} comes once the battle begins", R_CORE)


def _check_response(state: DayOfBattleState, seat: str, command: Any) -> None:
    ch = state.charge
    charger, target = state.units[ch.charger], state.units[ch.target]
    allowed = responses(state, charger, target, ch.caught, ch.from_front, ch.terrain_check)
    name = {c.FallBack: "fall-back", c.TerrainCheck: "terrain-check", c.DefensiveFire: "defensive-fire",
            c.Stand: "stand", c.Evade: "evade", c.CounterCharge: "counter-charge"}.get(type(command))
    rule = R_REACTION if target.troop_type == "horse-archers" else R_RESPONSE
    if name not in allowed:
        raise violation("response_not_on_chart", f"{target.name} charged: the response chart allows "
                        f"{', '.join(allowed) or 'nothing more'}", rule)
    if isinstance(command, (c.DefensiveFire, c.Stand, c.CounterCharge)):
        _attached(state, seat, command.attached_leader, R_SPEARMEN)
    if state.edition == 1:
        return
    if isinstance(command, c.FallBack) and target.troop_type == "horse-archers" and command.how is None:
        raise violation("say_how", "1-10 A: say how the horse archers fall back (15\" away, into rough or "
                        "difficult terrain, or through a supporting friend in good order)", R_REACTION)
    if isinstance(command, c.FallBack) and target.troop_type != "horse-archers" and command.how is not None:
        raise violation("not_horse_archers", "1-10 A's ways to fall back are the horse archers'", R_REACTION)
    if isinstance(command, (c.FallBack, c.Evade)) and (
            command.x is None or command.y is None or not on_table(state, command.x, command.y)):
        raise violation("say_where", f"say where {target.name} stands after ({name}): a point on the table", rule)


def _check_move(state: DayOfBattleState, seat: str, command: Any) -> None:
    match command:
        case c.BeginMove():
            if state.move_begun:
                raise violation("move_begun", "the game move has begun", R_CORE)
            return
        case c.EndMove():
            if not state.move_begun:
                raise violation("move_not_begun", "begin the game move first", R_CORE)
            return
        case c.Move(unit=uid, x=x, y=y):
            unit, _, _ = _order(state, seat, uid, "move", R_CORE)
            if not on_table(state, x, y):
                raise violation("off_table", f"({x}\", {y}\") is off the table", R_SETUP)
            if command.fire_at is not None:
                _check_free_fire(state, seat, unit, command.fire_at, command.fire_range_inches)
        case c.ChangeFormation(unit=uid, formation=formation):
            unit, _, _ = _order(state, seat, uid, "change-formation", R_CORE)
            if formation == "square" and unit.eastern_spearmen:
                raise violation("no_square", "Eastern spearmen may not form square", R_SQUARE)
            if formation == unit.formation:
                raise violation("same_formation", f"{unit.name} is already in {formation}", R_CORE)
            if command.fire_at is not None:
                _check_free_fire(state, seat, unit, command.fire_at, command.fire_range_inches)
        case c.Fire(unit=uid, target=tid, range_inches=rng):
            unit, _, _ = _order(state, seat, uid, "fire", R_WEAPONS)
            target = _enemy_unit(state, seat, tid, R_WEAPONS)
            _check_reach(unit, target, rng)
            if state.edition > 1 and uid in state.free_fired:
                raise violation("either_or", f"{unit.name} fired freely with a manoeuvre this move: \"It must be "
                                "either or but not both\"", R_SKIRMISH)
        case c.Charge(unit=uid, target=tid):
            unit, _, _ = _order(state, seat, uid, "charge", R_RESPONSE)
            if state.edition > 1 and (command.x is None or command.y is None or not on_table(state, command.x, command.y)):
                raise violation("say_where", "say where the charger ends its charge: a point on the table", R_RESPONSE)
            if state.edition > 1 and command.fire_before_contact and uid in state.fired:
                raise violation("either_or", f"{unit.name} was ordered to fire this move: \"It must be either or "
                                "but not both\"", R_SKIRMISH)
            target = _enemy_unit(state, seat, tid, R_RESPONSE)
            if target.troop_type == "horse-holders":
                raise violation("contact_horse_holders", "horse holders are contacted, not charged: "
                                "contact-horse-holders", R_DISMOUNT)
            _attached(state, seat, command.attached_leader, R_SPEARMEN)
            if command.fire_before_contact and not (unit.note8 and weapon_of(unit)):
                raise violation("no_skirmish_weapons", f"{unit.name} has no integral skirmish weapons (Note 8)",
                                R_SKIRMISH)
        case c.Dismount(unit=uid, horse_holders_x=hx, horse_holders_y=hy):
            unit, _, _ = _order(state, seat, uid, "dismount", R_DISMOUNT)
            if unit.dismounted:
                raise violation("already_dismounted", "knights dismount once; they fight on foot for the rest "
                                "of the battle", R_DISMOUNT)
            if not unit.may_dismount:
                raise violation("not_mounted_knights", f"{unit.name} are not knights that began the game mounted",
                                R_DISMOUNT)
            gap = math.hypot(hx - unit.x, hy - unit.y)
            if gap > HORSE_HOLDER_DISTANCE:
                raise violation("horse_holders_too_far",
                                f"the horse holders must be placed within 3\" of the knights, not {gap:.1f}\"",
                                R_DISMOUNT)
        case c.ContactHorseHolders(unit=uid, horse_holders=hid):
            if not state.move_begun:
                raise violation("move_not_begun", "begin the game move first", R_CORE)
            unit = _own_unit(state, seat, uid, R_DISMOUNT)
            if unit.condition in ("routed", "lost") or not unit.deployed:
                raise violation("unit_cannot_act", f"{unit.name} is {unit.condition}", R_DISMOUNT)
            holders = _enemy_unit(state, seat, hid, R_DISMOUNT)
            if holders.troop_type != "horse-holders":
                raise violation("not_horse_holders", f"{holders.name} are not horse holders", R_DISMOUNT)
        case c.ReturnFire() | c.HoldFire():
            raise violation("no_fire_pending", "no fire awaits an answer", R_WEAPONS)
        case c.FallBack() | c.TerrainCheck() | c.DefensiveFire() | c.Stand() | c.Evade() | c.CounterCharge():
            raise violation("no_charge_pending", "no charge awaits a response", R_RESPONSE)
        case c.Fight():
            raise violation("no_combat", "no combat awaits its dice", R_STATED)
        case _:
            raise violation("not_in_battle", f"{type(command).__name__} comes before the battle", R_CORE)


def _check_reach(unit: Unit, target: Unit, rng: float) -> None:
    w = weapon_of(unit)
    if w is None:
        raise violation("no_missile_weapon", f"{unit.name} has no missile weapon", R_WEAPONS)
    if rng <= 0:
        raise violation("bad_range", "a range is a positive number of inches", R_WEAPONS)
    if range_band(w, rng) is None:
        reach = max(w.effective, w.ineffective)
        raise violation("out_of_range", f"{w.name} reaches {reach}\"; {target.name} is {rng:g}\" away", R_WEAPONS)


def _check_free_fire(state: DayOfBattleState, seat: str, unit: Unit, tid: str, rng: float | None) -> None:
    if not unit.note8:
        raise violation("no_skirmish_weapons", f"{unit.name} has no integral skirmish weapons (Note 8)", R_SKIRMISH)
    if state.edition > 1 and unit.id in state.fired:
        raise violation("either_or", f"{unit.name} was ordered to fire this move: \"It must be either or but "
                        "not both\"", R_SKIRMISH)
    target = _enemy_unit(state, seat, tid, R_SKIRMISH)
    if rng is None:
        raise violation("bad_range", "say the range of the free fire", R_SKIRMISH)
    _check_reach(unit, target, rng)


# -- legal commands --------------------------------------------------------------------------------------------
def candidates(state: DayOfBattleState, seat: str) -> list[Any]:
    """Commands to try: every one ``legal`` lists is checked by :func:`check`."""
    if state.phase == "over" or seat not in to_act(state):
        return []
    if state.ruling is not None:
        return [c.AcceptRuling(state.ruling.number), c.RejectRuling(state.ruling.number)]
    if state.phase in ("leaders", "deployment"):
        out: list[Any] = [c.DrawLeader(l.id) for l in state.leaders.values() if l.seat == seat and not l.drawn]
        if state.armies[seat].id == "byzantines" and state.scouting is None:
            out += [c.InitiateScouting(), c.DeclineScouting()]
        if state.phase == "deployment":
            for u in state.units.values():
                if u.seat == seat and not u.deployed:
                    out.append(c.Deploy(u.id, *suggested_position(state, seat, u)))
            out.append(c.FinishDeployment())
        return out
    if state.charge is not None:
        return responses_listed(state, seat)
    if state.melee is not None:
        u = state.units[fighting(state)]
        return [c.Fight(u.id, dice=max(min(u.cos, MAX_COS), 1), target_number=min(u.combat_value, 20))]
    if state.fire is not None:
        return [c.ReturnFire(), c.HoldFire(), c.ReturnFire(modifiers={"the players' modifier": -1})]
    if not state.move_begun:
        return [*end_asked(state), c.BeginMove(), *end_of_battle(state, seat)]
    return [*end_asked(state), *orders(state, seat), c.EndMove(), *end_of_battle(state, seat)]


def _order_targets(state: DayOfBattleState, seat: str) -> list[tuple[Unit, list[Unit]]]:
    mine = [u for u in state.units.values() if u.seat == seat and u.deployed and u.condition not in ("routed", "lost")]
    enemies = [u for u in state.units.values() if u.seat in state.opponents(seat) and u.deployed
               and u.condition != "lost"]
    return [(u, enemies) for u in mine]


def orders(state: DayOfBattleState, seat: str) -> list[Any]:
    """Every kind of order, concretely (each checked by :func:`check` before it is listed): fire
    in and out of the open; charges caught or not, from the front or a flank, with the unit's
    leader attached, a Note 8 charger firing before contact, each ending in contact; every other
    formation; a Note 8 unit's move 1" forward with a free fire before or after; dismounting.
    A 1.0.0 game is listed what 1.0.0 listed (its commands have no positions or variants)."""
    out: list[Any] = []
    later = state.edition > 1
    for u, enemies in _order_targets(state, seat):
        w = weapon_of(u)
        for t in enemies:
            if t.troop_type == "horse-holders":
                out.append(c.ContactHorseHolders(u.id, t.id))
                continue
            if w is not None:
                out += [c.Fire(u.id, t.id, float(w.effective))] + (
                    [c.Fire(u.id, t.id, float(w.effective), in_open=False)] if later else [])
            if not later:
                out += [c.Charge(u.id, t.id, caught_in_one_normal_move=caught) for caught in (True, False)]
                continue
            x, y = in_frame(state, t.x, t.y, t.seat, seat)
            for caught in (True, False):
                out.append(c.Charge(u.id, t.id, caught_in_one_normal_move=caught, x=x, y=y))
            out.append(c.Charge(u.id, t.id, caught_in_one_normal_move=True, from_front=False, x=x, y=y))
            out.append(c.Charge(u.id, t.id, caught_in_one_normal_move=True, attached_leader=u.leader, x=x, y=y))
            if u.note8 and w is not None:
                out.append(c.Charge(u.id, t.id, caught_in_one_normal_move=True, fire_before_contact=True, x=x, y=y))
                for when in ("before", "after"):
                    out.append(c.Move(u.id, u.x, min(u.y + 1, TABLE_DEPTH), fire_at=t.id,
                                      fire_range_inches=float(w.effective), fire_when=when))
        if u.may_dismount:
            out.append(c.Dismount(u.id, u.x, max(u.y - 2, 0.0)))
        if not later:
            out.append(c.ChangeFormation(u.id, "column" if u.formation == "line" else "line"))
            continue
        out += [c.ChangeFormation(u.id, formation) for formation in ("line", "column", "square", "wedge")]
        out.append(c.Move(u.id, u.x, min(u.y + 1, TABLE_DEPTH)))
    return out


def responses_listed(state: DayOfBattleState, seat: str) -> list[Any]:
    """Every response to the charge, concretely: falling back or evading 15" directly away from
    the charger (on the table), with or without the unit's leader attached where one may be."""
    ch = state.charge
    target, charger = state.units[ch.target], state.units[ch.charger]
    if state.edition == 1:
        return [c.FallBack("15-inches-away"), c.FallBack("into-rough-or-difficult-terrain"),
                c.FallBack("through-supporting-friend-in-good-order"), c.TerrainCheck(), c.DefensiveFire(), c.Stand()]
    x, y = away(state, target, charger, 15)
    hows = ("15-inches-away", "into-rough-or-difficult-terrain", "through-supporting-friend-in-good-order")
    out: list[Any] = [c.FallBack(how, x=x, y=y) for how in hows] + [c.FallBack(x=x, y=y), c.Evade(x=x, y=y)]
    out += [c.TerrainCheck(), c.TerrainCheck(in_open=False)]
    for lid in (None, target.leader):
        out += [c.DefensiveFire(attached_leader=lid), c.Stand(attached_leader=lid),
                c.CounterCharge(attached_leader=lid)]
    out.append(c.DefensiveFire(in_open=False))
    return out


def away(state: DayOfBattleState, unit: Unit, charger: Unit, inches: float) -> tuple[float, float]:
    """The point ``inches`` directly away from the charger, in the unit's frame, kept on the table."""
    cx, cy = in_frame(state, charger.x, charger.y, charger.seat, unit.seat)
    dx, dy = unit.x - cx, unit.y - cy
    length = math.hypot(dx, dy) or 1.0
    if dx == 0 and dy == 0:
        dx, dy, length = 0.0, -1.0, 1.0
    x = min(max(unit.x + dx / length * inches, 0.0), float(state.width_inches))
    y = min(max(unit.y + dy / length * inches, 0.0), float(TABLE_DEPTH))
    return round(x, 1), round(y, 1)


def decided(state: DayOfBattleState) -> tuple[str, str] | None:
    """An army destroyed or routed (every unit but horse holders routed or lost, none left on the
    table to fight): the side still standing (its first seat) and why; None while both stand."""
    sides: dict[str, list[str]] = {}
    for s in state.seats:
        sides.setdefault(state.armies[s].edge, []).append(s)
    beaten, standing = [], []
    for allies in sides.values():
        units = [u for u in state.units.values() if u.seat in allies and u.troop_type != "horse-holders"]
        (beaten if all(u.condition in ("routed", "lost") for u in units) else standing).append(allies)
    if not beaten:
        return None
    names = " and ".join(state.armies[s].name for a in beaten for s in a)
    return (standing[0][0] if standing else ""), f"{names} destroyed or routed"


def end_asked(state: DayOfBattleState) -> list[c.ProposeRuling]:
    """The end the battle asks for once an army is destroyed or routed (since 2.0.0): listed
    first, naming the side still standing the winner (the view says so too)."""
    due = decided(state) if state.edition > 1 else None
    if due is None:
        return []
    winner, why = due
    return [c.ProposeRuling(topic="end-of-battle", rule=R_END, decision=f"the battle is over: {why}",
                            end=c.EndOfBattle(winner=winner or None, reason=why))]


def end_of_battle(state: DayOfBattleState, seat: str) -> list[c.ProposeRuling]:
    """The battle's end as the players agree it (the supplement prints no end of battle and the
    core rules are not in the record: RULES_NOTES.md, "Honour points, rulings and the end"): the
    moving army may propose, between its orders, that the battle is over — the field won by
    either side, or a drawn battle; it ends once every other seat accepts. Listed so that a
    client reading only legal-commands can end the battle (issue 24 point 5)."""
    sides: dict[str, list[str]] = {}
    for s in state.seats:
        sides.setdefault(state.armies[s].edge, []).append(s)
    out = []
    for allies in sides.values():
        names = " and ".join(state.armies[s].name for s in allies)
        won = f"the field is won by {names}"
        out.append(c.ProposeRuling(topic="end-of-battle", rule=R_END, decision=f"the battle is over: {won}",
                                   end=c.EndOfBattle(winner=allies[0], reason=won)))
    out.append(c.ProposeRuling(topic="end-of-battle", rule=R_END, decision="the battle is over: a drawn battle",
                               end=c.EndOfBattle(winner=None, reason="a drawn battle")))
    return out


def legal(state: DayOfBattleState, seat: str) -> list[Any]:
    return accepted(check, state, seat, candidates(state, seat))


def suggested_position(state: DayOfBattleState, seat: str, unit: Unit) -> tuple[float, float]:
    """A legal spot in the unit's zone, spread across the table by the unit's place in its army."""
    mine = [u.id for u in state.units.values() if u.seat == seat and u.troop_type != "horse-holders"]
    i, n = mine.index(unit.id), len(mine)
    w = state.width_inches
    margin = 12 if deployment_zone(state, seat) == "western facing eastern" else 6
    x = margin + (w - 2 * margin) * (i + 1) / (n + 1)
    y = 10.0 if deployment_zone(state, seat) == "western facing eastern" else 6.0
    return round(x, 1), y


def _may(state: DayOfBattleState, seat: str, uid: str, order: str) -> bool:
    try:
        _order(state, seat, uid, order, R_CORE)
    except RuleViolation:
        return False
    return True


def choices(state: DayOfBattleState, seat: str) -> list[dict[str, Any]]:
    """The spaces a client composes (RULES_NOTES.md, "Legal commands"): positions, ranges,
    modifiers and the players' statements; a unit is named only when its order is accepted."""
    if seat not in to_act(state) or state.ruling is not None:
        return []
    out = []
    frame = {"x": {"min": 0, "max": state.width_inches}, "y": {"min": 0, "max": TABLE_DEPTH}}
    if state.phase == "deployment":
        units = [u.id for u in state.units.values() if u.seat == seat and u.troop_type != "horse-holders"
                 and not u.deployed]
        out.append({"type": "deploy", "description": "place a unit anywhere its army's deployment zone allows (1-1.2)",
                    "unit": units, **frame, "zone": deployment_zone(state, seat)})
    idle = state.phase == "battle" and state.charge is None and state.fire is None and state.melee is None
    if idle and state.move_begun:
        mine = [u.id for u in state.units.values() if u.seat == seat and u.deployed]
        movers = [u for u in mine if _may(state, seat, u, "move")]
        note8 = [u for u in movers if state.units[u].note8 and weapon_of(state.units[u]) is not None
                 and (state.edition == 1 or u not in state.fired)]
        firers = [u for u in mine if _may(state, seat, u, "fire") and weapon_of(state.units[u]) is not None
                  and u not in state.free_fired]
        enemies = [u.id for u in state.units.values() if u.seat in state.opponents(seat) and u.deployed
                   and u.condition != "lost" and u.troop_type != "horse-holders"]
        if movers:
            out.append({"type": "move", "description": "move a unit to any point on the table, inches in its army's "
                        "frame; a Note 8 unit may fire freely before or after (fire_at, fire_range_inches, "
                        "fire_when, fire_in_open, fire_modifiers: 1-8; the units with integral skirmish weapons: "
                        f"{', '.join(note8) or 'none now'})", "unit": movers, **frame})
            out.append({"type": "change-formation", "description": "a manoeuvre; Eastern spearmen may not form "
                        "square (1-6); a Note 8 unit may fire freely before or after (1-8)", "unit": movers,
                        "formation": ["line", "column", "square", "wedge"]})
            if enemies and state.edition > 1:
                out.append({"type": "charge", "description": "charge an enemy unit and end at (x, y), its army's "
                            "frame: caught in one normal move or not, from the front or a flank, a leader "
                            "attached, a Note 8 charger firing before contact (fire_in_open, fire_modifiers)",
                            "unit": movers, "target": enemies, **frame,
                            "caught_in_one_normal_move": [True, False], "from_front": [True, False]})
        if firers and enemies:
            out.append({"type": "fire", "description": "fire at any range up to the weapon's reach (1-9), in the "
                        "open or not, with modifiers the players agree", "unit": firers, "target": enemies,
                        "range_inches": {"min": 0, "exclusive_min": True,
                                         "max": "the weapon's ineffective (or effective) range"},
                        "in_open": [True, False], "modifiers": "reason → value, added after the weapon bonus"})
    if state.charge is not None and state.edition > 1:
        out.append({"type": "fall-back", "description": "the charged unit falls back to (x, y), its army's frame "
                    "(horse archers say how: 1-10 A)", **frame})
        out.append({"type": "evade", "description": "the charged unit evades to (x, y), its army's frame (core rules: "
                    "players' statement)", **frame})
    if state.melee is not None:
        out.append({"type": "fight", "description": "the unit's combat dice as the players state them (core rules: "
                    "players' statement); Herald halves them for a unit fighting with half dice (1-10)",
                    "unit": [fighting(state)], "dice": {"min": 1, "max": MAX_COS}, "target_number": {"min": 0, "max": 20},
                    "modifiers": "reason → value, the modifiers the target number includes"})
    out.append({"type": "propose-ruling", "description": "a ruling the other seats accept: topic, rule, decision "
                "(1 to 500 characters), ruled_by and its effects (honour deeds, unit conditions, casualties, "
                "leaders killed or captured, rolls the core rules call for — purpose, unit, dice, target_number, "
                "modifiers — which Herald rolls once accepted; an end-of-battle ruling carries end: the winner, a "
                "seat whose side wins, or null for a draw, and a reason)",
                "topic": ["combat-result", "response", "morale", "honour", "casualties", "end-of-battle", "other"],
                "deeds": dict(CHARTS.honour.deeds), "end": {"winner": {"one_of": [*state.seats, None]}},
                "rolls": {"purpose": ["morale", "rally", "order-test", "combat", "personal-combat", "other"],
                          "dice": {"min": 1, "max": MAX_COS}, "target_number": {"min": 0, "max": 20}},
                "leaders": {"fate": ["killed", "captured"],
                            "leader": [l.id for l in state.leaders.values() if not l.lost]}})
    return out


# -- what happens -----------------------------------------------------------------------------------------------
class Step(BaseStep):
    """The events of one decision (domain/rules/base.py), with this rule system's helpers."""

    fold = staticmethod(evolve)

    def __init__(self, state: DayOfBattleState, rng: Rng):
        super().__init__(state, rng)
        self.unrecorded: list[str] = []  # cards drawn in this decision whose event is not yet emitted

    def emit(self, event: EventData) -> None:
        super().emit(event)
        self.unrecorded = [x for x in self.unrecorded if x not in self.state.out]

    def draw(self, count: int, purpose: str) -> list[str]:
        """``count`` cards from the shared deck: the first cards in the last shuffle's order that
        are not out; when the deck runs out it is reshuffled (a recorded CardsShuffled) with every
        card but those drawn and not yet recorded."""
        taken: list[str] = []
        while len(taken) < count:
            s = self.state
            gone = set(s.out) | set(self.unrecorded) | set(taken)
            if s.shuffle is None or len(gone) >= len(DECK):
                self.emit(self.rng.shuffle(DECK_NAME, len(DECK), purpose=f"the deck runs out: {purpose}"
                                           if s.shuffle else f"the deck before the battle: {purpose}"))
                continue
            order = self.rng.order(s.shuffle)
            taken.append(next(DECK[i] for i in order if DECK[i] not in gone))
        self.unrecorded += taken
        return taken

    def roll(self, count: int, purpose: str, seat: str | None = None) -> list[int]:
        if count <= 0:
            return []
        rolled = self.rng.roll(D20, count, purpose, seat)
        self.emit(rolled)
        return [int(f) for f in rolled.faces]


def decide(state: DayOfBattleState, seat: str, command: Any, rng: Rng) -> list[EventData]:
    check(state, seat, command)
    step = Step(state, rng)
    match command:
        case c.DrawLeader(leader=lid):
            draw_leader(step, lid)
        case c.InitiateScouting():
            scout(step, seat)
        case c.DeclineScouting():
            step.emit(ev.ScoutingDeclined(by=seat))
        case c.Deploy(unit=uid, x=x, y=y):
            step.emit(ev.UnitDeployed(unit=uid, x=x, y=y, zone=deployment_zone(state, seat)))
        case c.FinishDeployment():
            step.emit(ev.DeploymentFinished(seat=seat))
        case c.BeginMove():
            begin_move(step, seat)
        case c.Move():
            manoeuvre(step, command, "move", ev.UnitMoved(unit=command.unit, x=command.x, y=command.y))
        case c.ChangeFormation(unit=uid, formation=formation):
            manoeuvre(step, command, "change-formation", ev.FormationChanged(unit=uid, formation=formation))
        case c.Fire():
            give_order(step, command.unit, "fire")
            declare_fire(step, command)
        case c.ReturnFire(modifiers=mods):
            resolve_exchange(step, returned=tuple(sorted(mods.items())))
        case c.HoldFire():
            resolve_exchange(step, returned=None)
        case c.Charge():
            charge(step, command)
        case c.FallBack(how=how):
            ch = step.state.charge
            target = step.state.units[ch.target]
            step.emit(ev.FellBack(unit=ch.target, charger=ch.charger, how=how, x=command.x, y=command.y))
            if state.edition > 1 and target.troop_type == "horse-archers":  # 1-10: "(-) A)"
                step.emit(ev.DistractionIncurred(leader=target.leader, unit=target.id,
                                                 modifier=CHARTS.command.distraction))
        case c.Evade(x=x, y=y):
            ch = step.state.charge
            step.emit(ev.Evaded(unit=ch.target, charger=ch.charger, x=x, y=y))
        case c.TerrainCheck():
            terrain_check(step, command)
        case c.DefensiveFire(attached_leader=lid):
            ch = step.state.charge
            if state.edition == 1:
                shoot_once(step, ch.target, ch.charger, reaction=True, why="defensive fire before the combat")
            else:
                fire_at_contact(step, target_fires=(command.in_open, tuple(sorted(command.modifiers.items()))))
            contact(step, half_dice=False, target_leader=lid)
        case c.Stand(attached_leader=lid):
            fire_at_contact(step, target_fires=None)
            contact(step, half_dice=False, target_leader=lid)
        case c.CounterCharge(attached_leader=lid):
            ch = step.state.charge
            step.emit(ev.ChargeCountered(unit=ch.target, charger=ch.charger))
            fire_at_contact(step, target_fires=None)
            contact(step, half_dice=False, target_leader=lid)
        case c.Fight():
            fight(step, command)
        case c.Dismount():
            dismount(step, command)
        case c.ContactHorseHolders(unit=uid, horse_holders=hid):
            step.emit(ev.HorseHoldersLost(unit=hid, contacted_by=uid))
            leader = step.state.units[uid].leader
            step.emit(ev.HonourAwarded(leader=leader, deed="defeated-knights",
                                       points=CHARTS.honour.deeds["defeated-knights"], rule=R_DISMOUNT))
        case c.EndMove():
            i = state.seats.index(seat)
            step.emit(ev.MoveEnded(seat=seat, move=state.move, next_seat=state.seats[(i + 1) % len(state.seats)]))
        case c.ProposeRuling():
            proposal = c.recorded(command, state.edition)
            proposal.pop("type", None)
            step.emit(ev.RulingProposed(number=state.rulings + 1, proposed_by=seat,
                                        awaiting=[s for s in state.seats if s != seat], proposal=proposal))
        case c.AcceptRuling(number=n):
            step.emit(ev.RulingAccepted(number=n, seat=seat))
            if not to_act(step.state):
                record_ruling(step)
        case c.RejectRuling(number=n):
            step.emit(ev.RulingWithdrawn(number=n, rejected_by=seat))
    return step.events


# -- leaders (1-4 and the core rules) -------------------------------------------------------------------------
def rank_from(card: str, eastern: bool) -> tuple[str, int] | None:
    table = CHARTS.eastern_ranks if eastern else CHARTS.western_ranks.table
    r = rank_of(card)
    line = next((l for l in table if r in l.cards), None)
    return (line.title, line.social_rank) if line else None


def draw_leader(step: Step, lid: str) -> None:
    leader = step.state.leaders[lid]
    seat = leader.seat
    fixed = leader.fixed_rank
    if fixed is not None:
        titles = CHARTS.eastern_fixed_titles if leader.eastern else CHARTS.western_ranks.fixed_titles
        step.emit(ev.SocialRankSet(leader=lid, title=titles[str(fixed)], social_rank=fixed))
    else:
        cards = step.draw(1, f"social rank of {leader.name}")
        while not leader.eastern and rank_of(cards[-1]) in CHARTS.western_ranks.draw_again:
            cards += step.draw(1, f"social rank of {leader.name}, drawn again")
        title, rank = rank_from(cards[-1], leader.eastern)
        step.emit(ev.SocialRankDrawn(leader=lid, cards=cards, table="eastern" if leader.eastern else "western",
                                     title=title, social_rank=rank))
    rank = step.state.leaders[lid].social_rank
    esteem_card, motivation_card, *skill_cards = step.draw(6, f"attributes of {leader.name}")
    esteem = card_value(esteem_card) + rank
    mv = card_value(motivation_card)
    motivation = next(m.motivation for m in CHARTS.motivation if mv in m.values)
    skills = dict(zip(("initiative", "morale", "combat", "personal_combat"), skill_cards))
    values = {k: card_value(v) + CHARTS.skills[k] for k, v in skills.items()}
    step.emit(ev.LeaderAttributesDrawn(
        leader=lid, seat=seat, esteem_card=esteem_card, esteem=esteem, household=rank + esteem,
        motivation_card=motivation_card, motivation=motivation, skill_cards=skills, **values))
    step.emit(ev.LeaderReady(leader=lid, seat=seat))


def scout(step: Step, seat: str) -> None:
    """1-7: each army's scouting points from a card (reconstruction); the opponents' halved."""
    s = step.state
    cards = dict(zip(s.seats, step.draw(len(s.seats), "scouting points")))
    halved = s.opponents(seat)
    points = {p: card_value(card) // 2 if p in halved else card_value(card) for p, card in cards.items()}
    step.emit(ev.ScoutingResolved(by=seat, cards=cards, points=points, halved=halved))


# -- the game move -------------------------------------------------------------------------------------------------
def begin_move(step: Step, seat: str) -> None:
    step.emit(ev.MoveBegan(seat=seat, move=step.state.move))
    for leader in [l for l in step.state.leaders.values() if l.seat == seat and not l.lost]:
        roll, = step.roll(1, f"initiative of {leader.name}", seat)
        total = roll + leader.distraction
        passed = total <= leader.initiative
        step.emit(ev.InitiativeChecked(leader=leader.id, seat=seat, roll=roll, distraction=leader.distraction,
                                       total=total, initiative=leader.initiative, passed=passed))
        count = max(leader.social_rank + 1, 1) if passed else CHARTS.command.cards_on_initiative_fail
        step.emit(ev.CommandCardsCounted(leader=leader.id, seat=seat, count=count))
        cards = step.draw(count, f"command cards of {leader.name}")
        step.emit(ev.CommandCardsDrawn(leader=leader.id, seat=seat, cards=cards,
                                       command_points=sum(card_value(x) for x in cards)))


def give_order(step: Step, uid: str, order: str, free_fire: bool = False) -> None:
    unit = step.state.units[uid]
    cost = CHARTS.order_costs.fire if order == "fire" else CHARTS.order_costs.manoeuvre
    step.emit(ev.OrderGiven(leader=unit.leader, unit=uid, order=order, cost=cost,
                            free_fire=free_fire and step.state.edition > 1))


def manoeuvre(step: Step, command: c.Move | c.ChangeFormation, order: str, done: EventData) -> None:
    """A move or a change of formation, with 1-8's free fire "either before or after" it."""
    give_order(step, command.unit, order, free_fire=command.fire_at is not None)
    mods = tuple(sorted(command.fire_modifiers.items()))
    if command.fire_at and command.fire_when == "before":
        free_fire(step, command.unit, command.fire_at, command.fire_range_inches, command.fire_in_open, mods)
    step.emit(done)
    if command.fire_at and command.fire_when == "after":
        free_fire(step, command.unit, command.fire_at, command.fire_range_inches, command.fire_in_open, mods)


# -- fire ---------------------------------------------------------------------------------------------------------
def declare_fire(step: Step, command: c.Fire) -> None:
    s = step.state
    firer, target = s.units[command.unit], s.units[command.target]
    can_return = can_fire_on(target, firer, command.range_inches)
    step.emit(ev.FireDeclared(exchange=s.exchanges + 1, firer=firer.id, target=target.id,
                              range_inches=command.range_inches, in_open=command.in_open, can_return=can_return,
                              modifiers=dict(sorted(command.modifiers.items()))))
    if not can_return:  # nothing to wait for: the volley now
        v = volley(firer, target, command.range_inches, command.in_open, tuple(sorted(command.modifiers.items())))
        shoot(step, s.exchanges + 1, 1, firer.id, target.id, command.range_inches, v, reaction=False)


def resolve_exchange(step: Step, returned: tuple[tuple[str, int], ...] | None) -> None:
    """1-9: the higher rate of fire fires first; the slower returns fire in its current state
    after any morale checks; identical rates fire simultaneously."""
    s = step.state
    pending = s.fire
    firer_mods = pending.modifiers
    if returned is None:
        step.emit(ev.FireHeld(exchange=pending.exchange, unit=pending.target))
        f, t = step.state.units[pending.firer], step.state.units[pending.target]
        shoot(step, pending.exchange, 1, f.id, t.id, pending.range_inches,
              volley(f, t, pending.range_inches, pending.in_open, firer_mods), reaction=False)
        return
    mods = {pending.firer: firer_mods, pending.target: returned}
    other = {pending.firer: pending.target, pending.target: pending.firer}
    steps = order_of_fire(s.units[pending.firer], s.units[pending.target])
    for n, shooters in enumerate(steps, start=1):
        now = step.state
        volleys = []
        for u in shooters:
            shooter, target = now.units[u.id], now.units[other[u.id]]
            if shooter.condition in ("routed", "lost") or shooter.cos == 0:
                continue
            volleys.append((shooter.id, target.id, volley(shooter, target, pending.range_inches, pending.in_open,
                                                          mods[u.id])))
        for shooter_id, target_id, v in volleys:
            shoot(step, pending.exchange, n, shooter_id, target_id, pending.range_inches, v,
                  reaction=shooter_id == pending.target)


def shoot(step: Step, exchange: int, order: int, firer_id: str, target_id: str, range_inches: float,
          v: Volley | None, reaction: bool) -> None:
    """Roll a volley's dice, record it, then any morale check it calls for and, for fire without
    orders, the (-) distraction of the commanding leader (1-8)."""
    if v is None:
        return
    firer = step.state.units[firer_id]
    target = step.state.units[target_id]
    faces = step.roll(v.dice, f"{firer.name} fire on {target.name}: {v.dice} dice needing {v.target_number} or less")
    hits = sum(1 for f in faces if f <= v.target_number)
    level = damage(hits)
    step.emit(ev.VolleyFired(
        exchange=exchange, order=order, firer=firer_id, target=target_id, weapon=v.weapon.id,
        rate_of_fire=v.weapon.rate_of_fire, range_inches=range_inches, range_band=v.range_band,
        combat_value=v.combat_value, modifiers=v.modifiers, target_number=v.target_number, dice=v.dice,
        half_dice=v.half_dice, faces=faces, hits=hits, damage=level.damage,
        figures_lost=min(level.figures, target.figures), disordered=level.disorder, reaction=reaction))
    hit = step.state.units[target_id]
    if level.morale_check and hit.condition not in ("lost", "routed"):
        roll, = step.roll(1, f"morale check of {hit.name}")
        passed = roll <= hit.combat_value
        step.emit(ev.MoraleChecked(unit=hit.id, roll=roll, target_number=hit.combat_value, passed=passed,
                                   condition=hit.condition if passed else "routed"))
    if reaction:
        step.emit(ev.DistractionIncurred(leader=firer.leader, unit=firer_id, modifier=CHARTS.command.distraction))


def shoot_once(step: Step, firer_id: str, target_id: str, reaction: bool, why: str,
               range_inches: float | None = None, in_open: bool = True, mods: tuple[tuple[str, int], ...] = ()) -> None:
    """A one-way volley, at effective range unless said (defensive fire, fire before contact, a
    horse archer unit that stands, a free fire): its own exchange, order 1."""
    s = step.state
    firer, target = s.units[firer_id], s.units[target_id]
    w = weapon_of(firer)
    if w is None or firer.condition in ("routed", "lost"):
        return
    rng = float(w.effective) if range_inches is None else range_inches
    n = s.exchanges + 1
    step.emit(ev.FireDeclared(exchange=n, firer=firer_id, target=target_id, range_inches=rng, in_open=in_open,
                              can_return=False, modifiers=dict(mods)))
    shoot(step, n, 1, firer_id, target_id, rng, volley(firer, target, rng, in_open, mods), reaction=reaction)


def free_fire(step: Step, uid: str, tid: str, rng: float | None, in_open: bool = True,
              mods: tuple[tuple[str, int], ...] = ()) -> None:
    """1-8: a free fire as skirmishers before or after the manoeuvre."""
    shoot_once(step, uid, tid, reaction=False, why="free fire", range_inches=rng, in_open=in_open, mods=mods)


def fire_at_contact(step: Step, target_fires: tuple[bool, tuple[tuple[str, int], ...]] | None) -> None:
    """The fire before a charge's combat (since 2.0.0): the charger's fire before contact (1-8) and
    the target's own (defensive fire, or horse archers that stand and fire), each at its weapon's
    effective range. When both fire, 1-9's rate of fire orders them: the higher first, the slower
    "in its current state"; identical rates simultaneously (one exchange)."""
    s = step.state
    ch = s.charge
    shots = []  # (shooter, target, in_open, modifiers, reaction)
    if ch.fire is not None:
        shots.append((ch.charger, ch.target, ch.fire[0], ch.fire[1], False))
    if target_fires is not None:
        shots.append((ch.target, ch.charger, target_fires[0], target_fires[1], True))
    shots = [x for x in shots if weapon_of(s.units[x[0]]) is not None]
    if len(shots) < 2:
        for shooter, target, in_open, mods, reaction in shots:
            shoot_once(step, shooter, target, reaction=reaction, why="fire at the charge", in_open=in_open, mods=mods)
        return
    n = s.exchanges + 1
    (a, b, a_open, a_mods, _), (_, _, b_open, b_mods, _) = shots
    rng = float(weapon_of(s.units[a]).effective)
    step.emit(ev.FireDeclared(exchange=n, firer=a, target=b, range_inches=rng, in_open=a_open, can_return=False,
                              modifiers=dict(a_mods)))
    how = {a: (b, a_open, a_mods, False), b: (a, b_open, b_mods, True)}
    for order, shooters in enumerate(order_of_fire(s.units[a], s.units[b]), start=1):
        now = step.state
        volleys = []
        for u in shooters:
            target, in_open, mods, reaction = how[u.id]
            shooter = now.units[u.id]
            if shooter.condition in ("routed", "lost") or shooter.cos == 0:
                continue
            r = float(weapon_of(shooter).effective)
            volleys.append((u.id, target, r, volley(shooter, now.units[target], r, in_open, mods), reaction))
        for shooter, target, r, v, reaction in volleys:
            shoot(step, n, order, shooter, target, r, v, reaction=reaction)


# -- charges and reactions (1-2, 1-10) ----------------------------------------------------------------------------
def charge(step: Step, command: c.Charge) -> None:
    """Since 2.0.0 the charger's fire before contact waits for the target's response, so that it
    meets a defensive fire by rate of fire (1-9) and is not fired at a unit that evades."""
    give_order(step, command.unit, "charge")
    later = step.state.edition > 1
    if command.fire_before_contact and not later:
        shoot_once(step, command.unit, command.target, reaction=False, why="fire before contact")
    s = step.state
    charger, target = s.units[command.unit], s.units[command.target]
    step.emit(ev.ChargeDeclared(charger=charger.id, target=target.id, caught=command.caught_in_one_normal_move,
                                from_front=command.from_front, attached_leader=command.attached_leader,
                                responses=responses(s, charger, target, command.caught_in_one_normal_move,
                                                    command.from_front),
                                x=command.x if later else None, y=command.y if later else None,
                                fire_before_contact=command.fire_before_contact and later,
                                fire_in_open=command.fire_in_open,
                                fire_modifiers=dict(sorted(command.fire_modifiers.items())) if later else {}))


def terrain_check(step: Step, command: c.TerrainCheck) -> None:
    """1-10 B: "If caught in a normal make a Terrain check. Pass see A above. Fail stand, fire at
    effective range and fight with half dice." The check: a d20 equal to or under the unit's
    combat value (reconstruction)."""
    ch = step.state.charge
    unit = step.state.units[ch.target]
    roll, = step.roll(1, f"terrain check of {unit.name}")
    passed = roll <= unit.combat_value
    step.emit(ev.TerrainChecked(unit=unit.id, roll=roll, target_number=unit.combat_value, passed=passed))
    if not passed:
        if step.state.edition == 1:
            shoot_once(step, ch.target, ch.charger, reaction=True, why="stands and fires at effective range")
        else:
            fire_at_contact(step, target_fires=(command.in_open, tuple(sorted(command.modifiers.items()))))
        contact(step, half_dice=True, target_leader=None)


def contact(step: Step, half_dice: bool, target_leader: str | None) -> None:
    """The charge contacts: the target stands; both units make their order test upon entering
    combat (a d20 equal to or under the combat value plus an attached leader's morale skill;
    Eastern spearmen never add it, 1-5)."""
    ch = step.state.charge
    step.emit(ev.ChargeStood(unit=ch.target, charger=ch.charger, half_dice=half_dice))
    for uid, lid in ((ch.charger, ch.attached_leader), (ch.target, target_leader)):
        unit = step.state.units[uid]
        if unit.condition in ("routed", "lost"):
            continue
        bonus = step.state.leaders[lid].morale if lid else 0
        refused = bool(lid) and unit.eastern_spearmen
        number = unit.combat_value + (0 if refused else bonus)
        roll, = step.roll(1, f"order test of {unit.name} entering combat")
        passed = roll <= number
        step.emit(ev.OrderTested(unit=uid, roll=roll, combat_value=unit.combat_value, leader_bonus=bonus,
                                 leader_bonus_refused=refused, target_number=number, passed=passed,
                                 condition=unit.condition if passed else "disordered"))
    s = step.state
    if s.edition > 1 and all(s.units[u].condition not in ("routed", "lost") for u in (ch.charger, ch.target)):
        step.emit(ev.CombatJoined(charger=ch.charger, target=ch.target, half_dice=[ch.target] if half_dice else []))


def fight(step: Step, command: c.Fight) -> None:
    """A unit's combat dice as the players state them (core rules: players' statement), halved,
    rounding down, when it fights with half dice (1-10 B: "fight with half dice")."""
    s = step.state
    unit = s.units[command.unit]
    opponent = next(u for u in s.melee.units if u != unit.id)
    half = unit.id in s.melee.half_dice
    dice = command.dice // 2 if half else command.dice
    steps = [ev.Modifier(reason="fight with half dice, rounding down", halve=True)] if half else []
    faces = step.roll(dice, f"{unit.name} fights {s.units[opponent].name}: {dice} dice needing "
                      f"{command.target_number} or less")
    step.emit(ev.CombatDiceRolled(
        unit=unit.id, opponent=opponent, dice_stated=command.dice, target_number=command.target_number,
        modifiers=[ev.Modifier(reason=k, add=v) for k, v in sorted(command.modifiers.items())], dice_modifiers=steps,
        dice=dice, faces=faces, hits=sum(1 for f in faces if f <= command.target_number),
        rule=R_REACTION if half else R_STATED))


def dismount(step: Step, command: c.Dismount) -> None:
    give_order(step, command.unit, "dismount")
    unit = step.state.units[command.unit]
    d = unit.dismounted_as
    # 1.0.0 refilled every Cos. still standing; since 2.0.0 the figures on foot are the men
    # mounted in proportion, rounding down: casualties never come back (RULES_NOTES.md)
    figures = (unit.cos * d.figures_per_cos if step.state.edition == 1
               else unit.figures * d.figures_per_cos // unit.figures_per_cos)
    step.emit(ev.KnightsDismounted(unit=unit.id, troop_type=d.troop_type, combat_value=d.combat_value,
                                   figures_per_cos=d.figures_per_cos, figures=figures))
    step.emit(ev.HorseHoldersPlaced(unit=f"{command.unit}-horse-holders", knights=unit.id,
                                    x=command.horse_holders_x, y=command.horse_holders_y))


# -- rulings and the end -----------------------------------------------------------------------------------------
def record_ruling(step: Step) -> None:
    r = step.state.ruling
    p = msgspec.convert(r.proposal | {"type": "propose-ruling"}, c.ProposeRuling)
    step.emit(ev.RulingRecorded(number=r.number, topic=p.topic, rule=p.rule, ruled_by=p.ruled_by, decision=p.decision))
    for deed in p.honour:
        step.emit(ev.HonourAwarded(leader=deed.leader, deed=deed.deed, points=CHARTS.honour.deeds[deed.deed],
                                   rule=p.rule))
    for item in p.conditions:
        step.emit(ev.ConditionChanged(unit=item.unit, condition=item.condition))
    for item in p.casualties:
        step.emit(ev.CasualtiesTaken(unit=item.unit, figures=item.figures))
    for fate in p.leaders:
        step.emit(ev.LeaderLost(leader=fate.leader, fate=fate.fate))
    for roll in p.rolls:
        unit = step.state.units[roll.unit]
        faces = step.roll(roll.dice, f"{roll.purpose} of {unit.name}: {roll.dice} dice needing "
                          f"{roll.target_number} or less")
        step.emit(ev.StatedRollMade(
            ruling=r.number, purpose=roll.purpose, unit=roll.unit, dice=roll.dice, target_number=roll.target_number,
            modifiers=[ev.Modifier(reason=k, add=v) for k, v in sorted(roll.modifiers.items())], faces=faces,
            successes=sum(1 for f in faces if f <= roll.target_number), rule=p.rule))
    if p.end is not None:
        s = step.state
        honour = {lid: l.honour for lid, l in s.leaders.items()}
        scores = {seat: float(sum(l.honour for l in s.leaders.values() if l.seat == seat)) for seat in s.seats}
        if p.end.winner is None:
            outcome = Outcome(draw=True, reason=p.end.reason or "a drawn battle", scores=scores)
        else:
            edge = s.armies[p.end.winner].edge
            ranking = ([x for x in s.seats if s.armies[x].edge == edge]
                       + [x for x in s.seats if s.armies[x].edge != edge])
            outcome = Outcome(winner=p.end.winner, reason=p.end.reason or "the field is won", scores=scores,
                              ranking=ranking)
        step.emit(ev.BattleEnded(outcome=outcome, honour=honour))
