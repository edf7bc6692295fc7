"""Hattin and Arsuf as data plus a few named hooks: one engine, and each scenario says where it
plays otherwise (scalachess's variants: a few overrides of a base).

A :class:`ScenarioRules` holds what the rulebook prints for the scenario (its Special rules and
Statuses, the owner's card files are checked against them) and a hook for each place where play
differs; :mod:`.rules`, :mod:`.play` and :mod:`.view` ask :func:`scenario_of` rather than test
the scenario's name. A hook's default is the base game's: nothing happens. Each hook cites the
rulebook paragraph it implements (../shared/rulebooks/saladin.txt).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable

import msgspec

from domain.rules.saladin import events as ev
from domain.rules.saladin.data import DATA_FILES, TRUE_CROSS, LeaderAction
from domain.rules.saladin.moves import Step, box_orders, set_aside
from domain.rules.saladin.position import UNCOMMITTED, eliminated, tables
from domain.rules.saladin.state import SaladinState

R_HATTIN = "The Battle of Hattin — Scenario-specific Actions"
R_ARSUF = "The Battle of Arsuf — Scenario-specific Actions"


def nothing(b: Step) -> None:
    """The base game: no scenario rule acts here."""


def never(state: SaladinState, side: str) -> bool:
    """The base game: no scenario action is ever mandatory."""
    return False


class LeaderRule(msgspec.Struct, frozen=True):
    """A scenario's own Leader action, once per game on the ``side``'s Leader card (as the
    rulebook ``printed`` it): whether its condition holds now, and what it does once the card
    is turned."""

    side: str
    printed: str
    usable: Callable[[SaladinState, str], bool]
    play: Callable[[Step, str, LeaderAction], None]


class ScenarioRules(msgspec.Struct, frozen=True):
    """One scenario: the rulebook's numbers and tables, then its hooks."""

    id: str
    name: str  # as the text board names it (its title and seats: engine.Saladin.scenarios)
    data_file: str  # the reconstruction of its cards (RULES_NOTES.md)
    actions_rule: str  # the section of its Scenario-specific Actions
    # Special rules: per side (available Orders, Orders in Arsuf); who holds the initiative in a
    # tie; the Ayyubid lances in Arsuf
    orders: dict[str, tuple[int, int]]
    initiative_tie: str
    lances_in_arsuf: int
    statuses: dict[str, tuple[str, str, str]]  # Statuses: banner -> (side, status rule, name)
    banner_cards: int  # Game Contents: Banner cards a side
    leaders: dict[str, str]  # Game Contents: the Leader card of each side
    horns_banners: frozenset[str] = frozenset()  # the banners with a second card (Hattin — Cards)
    # -- hooks --
    # whether ``side`` must take a scenario Leader action before anything else
    horns_required: Callable[[SaladinState, str], bool] = never
    leader_actions: dict[str, LeaderRule] = {}  # action id -> the scenario's own Leader actions
    after_eliminations: Callable[[Step], None] = nothing  # after lances are lost and banners eliminated
    after_leader: Callable[[Step], None] = nothing  # after any Leader action


def scenario_of(state: SaladinState) -> ScenarioRules:
    return SCENARIOS[state.scenario]


def statuses(crusaders: tuple[str, ...], **named: tuple[str, ...]) -> dict[str, tuple[str, str, str]]:
    """A scenario's Statuses paragraph as it reads, "The Banners of Ridefort and Husam Lulu can
    never be Committed" (each status rule and the banners it names, the Crusaders' named apart),
    as banner id -> (side, status rule, name); an id is the name unaccented, in lower case,
    hyphenated (D'Ibelin: ``d-ibelin``)."""
    out = {}
    for rule, names in named.items():
        for name in names:
            bid = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().lower()
            side = "crusaders" if name in crusaders else "ayyubids"
            out[bid.replace("'", "-").replace(" ", "-")] = (side, rule.replace("_", "-"), name)
    return out


# -- Hattin ------------------------------------------------------------------------------------------
def horns_required(state: SaladinState, side: str) -> bool:
    """Hattin — Scenario-specific Actions, Lusignan (Leader): "This Action becomes mandatory as
    soon as the sum of the Orders in the Available Orders Pool and the Spent Orders Pool of the
    Crusaders player is strictly less than 5. In this case, if the Lusignan Leader card is on its
    Deployed side, the Action will have to be the next Crusaders player Action" (on its Ordered
    side, the first of the next turn: the card is Deployed again by then)."""
    if side != "crusaders" or state.horns:
        return False
    st = state.sides[side]
    lus = state.banners.get("lusignan")
    return (st.orders < 5 and not st.leader_ordered and "horns" not in st.used_once
            and lus is not None and lus.in_play)


def horns_usable(state: SaladinState, side: str) -> bool:
    """Lusignan (Leader): "move all the Lances of the Lusignan Banner to the locations of the
    Horns of Hattin": once, while Lusignan's Banner is in play."""
    lus = state.banners.get("lusignan")
    return not state.horns and lus is not None and lus.in_play


def to_the_horns(b: Step, seat: str, spec: LeaderAction) -> None:
    """Lusignan (Leader): the lances move to the Horns; "the Banner cards of Lusignan, Châtillon,
    Saladin and Manguras are replaced"; Lusignan "will have the same status as the Banner of
    Saladin" (Statuses); "The Crusaders player recovers 1 Order placed back in the game box"."""
    t = tables(b.state)
    cards = {bid: t.banner(bid).horns_card for bid in sorted(b.state.banners)
             if t.banner(bid).horns_card and b.state.banners[bid].in_play}
    b.emit(ev.MovedToHorns(cards=cards))
    saladin = b.state.banners.get("saladin")
    status = saladin.status if saladin is not None and saladin.in_play else UNCOMMITTED
    b.emit(ev.StatusChanged(banner="lusignan", status=status, location="horns"))
    if b.state.sides[seat].boxed:
        b.emit(ev.OrdersRecovered(side=seat, count=1, source="box", reason=spec.name))
    set_aside(b)


def true_cross_condition(state: SaladinState) -> bool:
    """Saladin (Leader): "if the Lusignan's Banner has moved to the Horns of Hattin or is
    eliminated and if Châtillon's Banner is also eliminated"."""
    return (state.horns or eliminated(state, "lusignan")) and eliminated(state, "chatillon")


def order_loss_usable(state: SaladinState, side: str) -> bool:
    """Game option ``true_cross: leader-action`` (RULES_NOTES.md, Game options): Saladin's Leader
    action, once its condition holds and the Crusaders have an Order to lose."""
    return (state.options.true_cross == "leader-action" and true_cross_condition(state)
            and state.sides["crusaders"].orders > 0)


def order_loss(b: Step, seat: str, spec: LeaderAction) -> None:
    """Saladin (Leader): "the Crusaders player must immediately place 1 Order back in the box"."""
    box_orders(b, "crusaders", 1, spec.name)


def true_cross(b: Step) -> None:
    """Game option ``true_cross: automatic``: "Once per game, if the Lusignan's Banner has moved
    to the Horns of Hattin or is eliminated and if Châtillon's Banner is also eliminated, the
    Crusaders player must immediately place 1 Order back in the box" (Hattin — Saladin (Leader))."""
    s = b.state
    if s.options.true_cross != "automatic" or "order-loss" in s.sides["ayyubids"].used_once:
        return
    if true_cross_condition(s):
        b.emit(ev.SpecialRuleApplied(rule=TRUE_CROSS, banner="saladin"))
        box_orders(b, "crusaders", 1, "The True Cross is taken")


HATTIN_1187 = ScenarioRules(
    id="hattin", name="Hattin", data_file=DATA_FILES["hattin"],
    actions_rule=R_HATTIN,
    orders={"crusaders": (12, 0), "ayyubids": (12, 0)}, initiative_tie="ayyubids", lances_in_arsuf=0,
    statuses=statuses(crusaders=("Lusignan", "Ridefort", "D'Ibelin", "Naplouse", "Châtillon", "Raymond III"),
                      never_committed=("Ridefort", "Husam Lulu"),
                      two_locations=("D'Ibelin", "Naplouse", "Châtillon", "Raymond III", "Saladin"),
                      follows_target=("Keukburi", "Saphadin", "Manguras", "Taqui al Din"),
                      camp_then_horns=("Lusignan",)),
    banner_cards=8, leaders={"crusaders": "guy-de-lusignan", "ayyubids": "saladin-hattin"},
    horns_banners=frozenset({"lusignan", "chatillon", "saladin", "manguras"}),
    horns_required=horns_required,
    leader_actions={
        "horns": LeaderRule(side="crusaders", printed="Lusignan (Leader), once per game: the Horns of Hattin",
                            usable=horns_usable, play=to_the_horns),
        "order-loss": LeaderRule(side="ayyubids", printed="Saladin (Leader), once per game: the Order loss",
                                 usable=order_loss_usable, play=order_loss),
    },
    after_eliminations=true_cross,
    after_leader=true_cross,
)


# -- Arsuf -------------------------------------------------------------------------------------------
def twelfth_order(b: Step) -> None:
    """Arsuf — Special rules, Orders: "the Crusaders player recovers a twelfth Order as soon as
    the two Ayyubids Lances in Arsuf are eliminated. This Order is made available and placed
    directly in their Available Orders Pool". "The game ends immediately when one of the players
    puts their last Order in the box" (Victory Conditions): a side that has just boxed its last
    recovers nothing (2.0.0 did)."""
    cru = b.state.sides["crusaders"]
    if b.state.arsuf_lances == 0 and cru.reserve > 0 and (cru.orders > 0 or b.state.version == "2.0.0"):
        b.emit(ev.OrdersRecovered(side="crusaders", count=cru.reserve, source="arsuf",
                                  reason="the Ayyubid lances in Arsuf are eliminated"))


ARSUF_1191 = ScenarioRules(
    id="arsuf", name="Arsuf", data_file=DATA_FILES["arsuf"],
    actions_rule=R_ARSUF,
    orders={"crusaders": (11, 1), "ayyubids": (12, 0)}, initiative_tie="crusaders", lances_in_arsuf=2,
    statuses=statuses(crusaders=("Lusignan", "Henry II", "Sablé", "Bourgogne", "Richard", "Naplouse"),
                      never_committed=("Lusignan", "Henry II", "Aslam", "Saladin"),
                      two_locations=("Sablé", "Bourgogne", "Richard", "Naplouse"),
                      follows_target=("Saphadin", "Ala Afdal", "Ala al Din", "Soulaymân")),
    banner_cards=6, leaders={"crusaders": "richard-lionheart", "ayyubids": "saladin-arsuf"},
    after_eliminations=twelfth_order,
)

SCENARIOS: dict[str, ScenarioRules] = {s.id: s for s in (ARSUF_1191, HATTIN_1187)}
