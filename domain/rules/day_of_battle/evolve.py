"""The fold: every Day of Battle event assigns what it carries. Nothing here decides."""

from __future__ import annotations

from msgspec.structs import replace

from domain.events import CardsShuffled, EventData, VoidedCardsReshuffled
from domain.rules.day_of_battle import events as ev
from domain.rules.day_of_battle.data import DECK_NAME
from domain.rules.day_of_battle.state import Charge, DayOfBattleState, Melee, PendingFire, Ruling, Unit


def _unit(state: DayOfBattleState, uid: str, **changes) -> DayOfBattleState:
    return replace(state, units={**state.units, uid: replace(state.units[uid], **changes)})


def _leader(state: DayOfBattleState, lid: str, **changes) -> DayOfBattleState:
    return replace(state, leaders={**state.leaders, lid: replace(state.leaders[lid], **changes)})


def _drawn(state: DayOfBattleState, cards) -> DayOfBattleState:
    return replace(state, out=state.out + tuple(cards))


def evolve(state: DayOfBattleState, event: EventData) -> DayOfBattleState:
    """Fold one event into the state (core events that change nothing pass through)."""
    match event:
        case VoidedCardsReshuffled(deck=deck) if deck == DECK_NAME:  # after a void: a new order, the same cards out
            return replace(state, shuffle=event)
        case CardsShuffled(deck=deck) if deck == DECK_NAME:
            return replace(state, shuffle=event, out=(), shuffles=state.shuffles + 1)
        case ev.SocialRankDrawn(leader=lid, cards=cards, title=title, social_rank=rank):
            return _leader(_drawn(state, cards), lid, title=title, social_rank=rank)
        case ev.SocialRankSet(leader=lid, title=title, social_rank=rank):
            return _leader(state, lid, title=title, social_rank=rank)
        case ev.LeaderAttributesDrawn():
            e = event
            state = _drawn(state, [e.esteem_card, e.motivation_card, *e.skill_cards.values()])
            return _leader(state, e.leader, esteem=e.esteem, household=e.household, motivation=e.motivation,
                           initiative=e.initiative, morale=e.morale, combat=e.combat,
                           personal_combat=e.personal_combat)
        case ev.LeaderReady(leader=lid):
            state = _leader(state, lid, drawn=True)
            if all(l.drawn for l in state.leaders.values()):
                state = replace(state, phase="deployment")
            return state
        case ev.ScoutingResolved(cards=cards, points=points):
            return replace(_drawn(state, cards.values()), scouting=dict(points))
        case ev.ScoutingDeclined():
            return replace(state, scouting={})
        case ev.UnitDeployed(unit=uid, x=x, y=y) | ev.UnitMoved(unit=uid, x=x, y=y):
            return _unit(state, uid, x=x, y=y)
        case ev.DeploymentFinished(seat=seat):
            state = replace(state, deployed=state.deployed + (seat,))
            if set(state.deployed) == set(state.seats):
                state = replace(state, phase="battle", move=1, mover=state.seats[0], move_begun=False)
            return state
        case ev.MoveBegan(move=move):
            return replace(state, move_begun=True, move=move)
        case ev.InitiativeChecked(leader=lid):
            return _leader(state, lid, distraction=0)
        case ev.CommandCardsDrawn(leader=lid, cards=cards, command_points=points):
            return _leader(_drawn(state, cards), lid, command_cards=tuple(cards), command_points=points)
        case ev.OrderGiven(leader=lid, cost=cost, unit=uid, order=order, free_fire=free):
            state = _leader(state, lid, command_points=state.leaders[lid].command_points - cost)
            if order == "fire":
                state = replace(state, fired=state.fired + (uid,))
            if free:
                state = replace(state, free_fired=state.free_fired + (uid,))
            return state
        case ev.FormationChanged(unit=uid, formation=formation):
            return _unit(state, uid, formation=formation)
        case ev.FireDeclared(exchange=n, firer=firer, target=target, range_inches=rng, in_open=in_open,
                             can_return=can_return, modifiers=mods):
            pending = PendingFire(n, firer, target, rng, in_open, tuple(sorted(mods.items()))) if can_return else None
            return replace(state, exchanges=n, fire=pending)
        case ev.VolleyFired(target=uid, figures_lost=lost, disordered=disordered):
            unit = state.units[uid]
            figures = max(unit.figures - lost, 0)
            condition = unit.condition
            if figures == 0:
                condition = "lost"
            elif disordered and condition == "good-order":
                condition = "disordered"
            return replace(_unit(state, uid, figures=figures, condition=condition), fire=None)
        case ev.FireHeld():
            return replace(state, fire=None)
        case ev.MoraleChecked(unit=uid, condition=condition) | ev.OrderTested(unit=uid, condition=condition):
            return _unit(state, uid, condition=condition)
        case ev.DistractionIncurred(leader=lid, modifier=m):
            return _leader(state, lid, distraction=state.leaders[lid].distraction + m)
        case ev.ChargeDeclared(charger=c, target=t, caught=caught, from_front=front, attached_leader=leader):
            fire = (event.fire_in_open, tuple(sorted(event.fire_modifiers.items()))) if event.fire_before_contact else None
            state = replace(state, charge=Charge(c, t, caught, front, leader, fire=fire))
            return state if event.x is None else _unit(state, c, x=event.x, y=event.y)
        case ev.TerrainChecked(passed=passed):
            return replace(state, charge=replace(state.charge, terrain_check=passed))
        case ev.FellBack(unit=uid, x=x, y=y) | ev.Evaded(unit=uid, x=x, y=y):
            state = replace(state, charge=None)
            return state if x is None else _unit(state, uid, x=x, y=y)
        case ev.ChargeStood(unit=uid, half_dice=half):
            return replace(_unit(state, uid, half_dice_in_fight=half), charge=None)
        case ev.CombatJoined(charger=c, target=t, half_dice=half):
            return replace(state, melee=Melee((c, t), tuple(half)))
        case ev.CombatDiceRolled(unit=uid):
            melee = replace(state.melee, rolled=state.melee.rolled + (uid,))
            return replace(state, melee=None if set(melee.rolled) >= set(melee.units) else melee)
        case ev.LeaderLost(leader=lid, fate=fate):
            return _leader(state, lid, lost=fate, command_points=0, command_cards=())
        case ev.KnightsDismounted(unit=uid, troop_type=tt, combat_value=cv, figures_per_cos=fpc, figures=figures):
            return _unit(state, uid, troop_type=tt, combat_value=cv, figures_per_cos=fpc, figures=figures,
                         mounted=False, may_dismount=False, dismounted=True)
        case ev.HorseHoldersPlaced(unit=uid, knights=kid, x=x, y=y):
            k = state.units[kid]
            holders = Unit(id=uid, seat=k.seat, name=f"Horse holders of {k.name}", troop_type="horse-holders",
                           figures_per_cos=1, figures=1, combat_value=1, leader=k.leader, horse_holders_of=kid,
                           x=x, y=y)
            return replace(state, units={**state.units, uid: holders})
        case ev.HorseHoldersLost(unit=uid):
            return _unit(state, uid, condition="lost", figures=0)
        case ev.HonourAwarded(leader=lid, points=points):
            return _leader(state, lid, honour=state.leaders[lid].honour + points)
        case ev.RulingProposed(number=n, proposed_by=by, proposal=proposal):
            return replace(state, ruling=Ruling(n, by, proposal), rulings=n)
        case ev.RulingAccepted(seat=seat):
            return replace(state, ruling=replace(state.ruling, accepted=state.ruling.accepted + (seat,)))
        case ev.RulingWithdrawn() | ev.RulingRecorded():
            return replace(state, ruling=None)
        case ev.ConditionChanged(unit=uid, condition=condition):
            return _unit(state, uid, condition=condition)
        case ev.CasualtiesTaken(unit=uid, figures=n):
            unit = state.units[uid]
            left = max(unit.figures - n, 0)
            return _unit(state, uid, figures=left, condition="lost" if left == 0 else unit.condition)
        case ev.MoveEnded(next_seat=seat, move=move):
            leaders = {k: replace(l, command_points=0, command_cards=()) if l.seat == event.seat else l
                       for k, l in state.leaders.items()}
            return replace(state, leaders=leaders, mover=seat, move=move + 1, move_begun=False, fired=(),
                           free_fired=())
        case ev.BattleEnded(outcome=outcome):
            return replace(state, result=outcome, phase="over", mover=None, charge=None, fire=None, melee=None)
    return state
