"""What a seat (or a spectator) sees, typed as msgspec Structs: the table, the armies and their
units' states, each leader's public attributes (his own seat also sees his drawn skills and
command cards), the deck as counts, what awaits an answer. Once the battle is over every leader
is shown whole."""

from __future__ import annotations

import msgspec

from domain.events import Outcome
from domain.rules.day_of_battle.data import DECK, card_name
from domain.rules.day_of_battle.rules import decided, deployment_zone, to_act
from domain.rules.day_of_battle.state import DayOfBattleState, Skills
from domain.rules.words import NO_NAMES, Names, seat_name, with_names


class UnitView(msgspec.Struct, frozen=True):
    id: str
    name: str
    troop_type: str
    counts_as: str | None  # dismounted knights: spearmen against cavalry, men at arms against all others
    cos: int
    figures: int
    combat_value: int
    weapon: str | None
    rate_of_fire: int | None
    note8: bool
    skirmish: bool
    eastern_spearmen: bool
    leader: str
    condition: str
    formation: str
    x: float | None
    y: float | None
    dismounted: bool
    half_dice_in_fight: bool


class LeaderView(Skills, frozen=True):
    id: str
    name: str
    title: str | None
    social_rank: int | None
    honour: int
    distraction: int
    drawn: bool
    command_points: int | None = None
    command_cards: list[str] | None = None
    lost: str | None = None  # "killed" or "captured"


class ArmyView(msgspec.Struct, frozen=True):
    seat: str
    id: str
    name: str
    edge: str
    kind: str  # "western", "eastern" or "other" (1-1.2)
    army_points: int
    handicap: int
    deployment_zone: str
    deployed: bool
    scouting_points: int | None
    honour: int
    leaders: list[LeaderView]
    units: list[UnitView]


class DeckView(msgspec.Struct, frozen=True):
    size: int
    left: int
    shuffles: int


class TableView(msgspec.Struct, frozen=True):
    width_feet: int
    depth_feet: int
    total_army_points: int


class PendingView(msgspec.Struct, frozen=True):
    kind: str  # "fire", "charge", "combat" or "ruling"
    number: int
    by: str | None = None
    target: str | None = None
    answer_from: list[str] = []
    proposal: dict | None = None


class DayOfBattleView(msgspec.Struct, frozen=True):
    scenario: str
    phase: str
    move: int
    mover: str | None
    to_act: list[str]
    table: TableView
    deck: DeckView
    armies: list[ArmyView]
    pending: PendingView | None
    outcome: Outcome | None
    end_asked: str | None = None  # an army destroyed or routed: the battle asks for its end
    turn: int | None = None  # the game move once the battle begins (the viewer's move list groups by it)


def _counts_as(unit) -> str | None:
    return "spearmen against cavalry, men at arms against all others" if unit.dismounted else None


def view(state: DayOfBattleState, seat: str | None, everything: bool = False) -> DayOfBattleView:
    """The battle from ``seat``'s chair (None: a spectator); ``everything``: every leader's
    cards and dice shown, as once the seed is revealed."""
    over = state.phase == "over" or everything
    armies = []
    for s in state.seats:
        a = state.armies[s]
        leaders = []
        for l in (x for x in state.leaders.values() if x.seat == s):
            mine = over or s == seat
            leaders.append(LeaderView(
                id=l.id, name=l.name, title=l.title, social_rank=l.social_rank, honour=l.honour,
                distraction=l.distraction, drawn=l.drawn, lost=l.lost,
                **({**{f: getattr(l, f) for f in Skills.__struct_fields__}, "command_points": l.command_points,
                    "command_cards": list(l.command_cards)} if mine else {})))
        units = [UnitView(
            id=u.id, name=u.name, troop_type=u.troop_type, counts_as=_counts_as(u), cos=u.cos, figures=u.figures,
            combat_value=u.combat_value, weapon=u.weapon, rate_of_fire=u.arms.rate_of_fire if u.arms else None,
            note8=u.note8, skirmish=u.skirmish, eastern_spearmen=u.eastern_spearmen, leader=u.leader,
            condition=u.condition, formation=u.formation, x=u.x, y=u.y, dismounted=u.dismounted,
            half_dice_in_fight=u.half_dice_in_fight) for u in state.units.values() if u.seat == s]
        armies.append(ArmyView(
            seat=s, id=a.id, name=a.name, edge=a.edge,
            kind="western" if a.western else "eastern" if a.eastern else "other",
            army_points=a.points, handicap=a.handicap, deployment_zone=deployment_zone(state, s),
            deployed=s in state.deployed, scouting_points=(state.scouting or {}).get(s),
            honour=sum(l.honour for l in leaders), leaders=leaders, units=units))
    pending = None
    if state.ruling is not None:
        pending = PendingView("ruling", state.ruling.number, by=state.ruling.proposed_by, answer_from=to_act(state),
                              proposal=state.ruling.proposal)
    elif state.charge is not None:
        pending = PendingView("charge", 0, by=state.charge.charger, target=state.charge.target,
                              answer_from=to_act(state))
    elif state.melee is not None:
        pending = PendingView("combat", 0, by=state.melee.units[0], target=state.melee.units[1],
                              answer_from=to_act(state))
    elif state.fire is not None:
        pending = PendingView("fire", state.fire.exchange, by=state.fire.firer, target=state.fire.target,
                              answer_from=to_act(state))
    due = decided(state) if state.phase == "battle" and state.edition > 1 else None
    return DayOfBattleView(
        scenario=state.scenario, phase=state.phase, move=state.move, mover=state.mover, to_act=to_act(state),
        table=TableView(state.width_feet, 4, sum(a.points + a.handicap for a in state.armies.values())),
        deck=DeckView(len(DECK), len(DECK) - len(state.out) if state.shuffle else len(DECK), state.shuffles),
        armies=armies, pending=pending, outcome=state.result, end_asked=due[1] if due else None,
        turn=state.move if state.phase in ("battle", "over") else None)


def _skills(leader: LeaderView) -> str:
    """A leader's drawn attributes and command cards, where the view shows them."""
    if leader.esteem is None:
        return ""
    cards = ", ".join(card_name(c) for c in leader.command_cards or ())
    return (f": esteem {leader.esteem}, {leader.motivation}, initiative {leader.initiative}, morale {leader.morale}"
            + (f", {leader.command_points} command points" if leader.command_points else "")
            + (f" ({cards})" if cards else ""))


def render_text(state: DayOfBattleState, names: Names = NO_NAMES, everything: bool = False) -> str:
    """A board a person reads at a glance, armies by their players' names; every leader's cards
    and dice once the battle is over, or once the seed is revealed (``everything``)."""
    v = view(state, None, everything)
    lines = [f"Day of Battle — {v.scenario}: {v.phase}"
             + (f", move {v.move}, {seat_name(names, v.mover)} to move" if v.phase == "battle" else ""),
             f"table {v.table.width_feet}' × {v.table.depth_feet}' ({v.table.total_army_points} army points); "
             f"deck {v.deck.left} of {v.deck.size} left"]
    for a in v.armies:
        lines.append(f"{a.name} ({seat_name(names, a.seat)}, {a.kind}, {a.army_points}+{a.handicap} points), "
                     f"honour {a.honour}")
        for l in a.leaders:
            lines.append(f"   {l.title or '?'} {l.name}" + (f" (rank {l.social_rank})" if l.social_rank is not None else "")
                         + _skills(l))
        for u in a.units:
            where = f" at {u.x:g}\",{u.y:g}\"" if u.x is not None else ""
            lines.append(f"   {u.name}: {u.cos} Cos., CV {u.combat_value}, {u.condition}{where}")
    if v.outcome:
        o = v.outcome
        lines.append(f"ENDED: {'a draw' if o.draw else seat_name(names, o.winner) + ' wins'} "
                     f"({with_names(o.reason, names)})")
    return "\n".join(lines)
