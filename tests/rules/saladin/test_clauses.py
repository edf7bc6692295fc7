"""Clause reachability (issue 14): every clause of the rulebook, and every action, target and
reaction printed on the reconstructed cards, is reached by play from the opening.

Seeded random-legal games of each scenario are played through the real aggregate path; each
clause is a predicate on a decision (the position before, the command, the events it caused)
and its test fails unless some decision of the corpus satisfies it. A clause the data made
unreachable (as the Guy de Lusignan card and Richard's targets once did) fails here."""

from __future__ import annotations

import functools
from pathlib import Path
import random
from collections.abc import Callable
from typing import Any

import msgspec
import pytest

from domain.game import project_game, take_decision
from domain.rng import SeededRng
from domain.rules.saladin.data import TABLES
from domain.rules.saladin.rules import horns_required
from tests.rules.saladin.helpers import NOW, SALADIN, new_game

RULEBOOK = (Path(__file__).parent / "rulebook.txt").read_text(encoding="utf-8")  # shared/rulebooks/saladin.txt
GAMES = 40  # per scenario and option set: enough to reach every clause below (and fast)


class Decision(msgspec.Struct, frozen=True):
    before: Any
    after: Any
    command: dict
    events: list  # (type without the "saladin." prefix, data)
    flags: frozenset = frozenset()


def uniform(r: random.Random, options: list[dict]) -> dict:
    return r.choice(options)


def stubborn(r: random.Random, options: list[dict]) -> dict:
    """A legal player who holds the Horns back until forced and goes for Husam Lulu and
    Châtillon whenever it can: it reaches the clauses random play seldom does."""
    keen = [c for c in options if c.get("target") in ("husam-lulu", "chatillon")
            or c.get("type") == "leader" and c["action"] in ("recover-order", "order-loss")]
    patient = [c for c in options if c != {"type": "leader", "action": "horns"}] or options
    return r.choice(keen) if keen and r.random() < 0.8 else r.choice(patient)


def _play(scenario: str, options: dict | None, games: int, policy=uniform) -> list[Decision]:
    out = []
    for n in range(games):
        r = random.Random(f"clauses-{scenario}-{policy.__name__}-{n}")
        g = new_game(scenario, game_id=n + 1, options=options)
        seed = bytes([n % 256]) * 32
        ordered_below_five = False
        while g.outcome is None:
            seat = g.state.active
            command = policy(r, [msgspec.to_builtins(c) for c in SALADIN.legal_commands(g.state, seat)])
            before = g.state
            records = take_decision(g, seat, command, SeededRng(seed, g.id, "", g.next_draw), NOW, seed)
            g = project_game(g, records)
            events = [(rec.type.removeprefix("saladin."), rec.data) for rec in records]
            flags = set()
            if ordered_below_five and command == {"type": "leader", "action": "horns"}:
                flags.add("horns-next-turn")
            if any(t == "Redeployed" for t, _ in events):
                cru = before.sides["crusaders"]
                ordered_below_five = (before.scenario == "hattin" and not before.horns and cru.leader_ordered
                                      and cru.orders < 5 and "horns" not in cru.used_once)
            out.append(Decision(before, g.state, command, events, frozenset(flags)))
    return out


@functools.cache
def corpus(scenario: str) -> tuple[Decision, ...]:
    games = _play(scenario, None, GAMES)
    if scenario == "hattin":
        games += _play(scenario, {"true_cross": "automatic", "taqui_al_din": "reaction"}, GAMES // 2)
        games += _play(scenario, None, GAMES // 2, stubborn)
    return tuple(games)


def events_of(d: Decision, name: str) -> list[dict]:
    return [data for t, data in d.events if t == name]


def printed_cost(d: Decision) -> int:
    b = d.before.banners[d.command["banner"]]
    return TABLES[d.before.scenario].card(b.card).action(d.command["action"]).cost


def _slash_without_effect(d: Decision) -> bool:
    dice = [data for t, data in d.events if t == "DiceRolled"]
    for data in dice:
        hit = "ayyubids" if data.get("seat") == "crusaders" else "crusaders"
        slashes = sum(1 for f in data["faces"] if f == "slash")
        spent = sum(e["count"] for e in events_of(d, "OrdersSpent") if e["side"] == hit and e["reason"] == "slash")
        if slashes and spent < slashes and d.before.sides[hit].available == 0:
            return True
    return False


def _enemy_status_changed(d: Decision) -> bool:
    """A two-location banner's status changed by an enemy's action."""
    if d.command.get("type") != "activate":
        return False
    acting = d.command["banner"]
    t = TABLES[d.before.scenario]
    return any(e["banner"] != acting and t.banner(e["banner"]).status_rule == "two-locations"
               for e in events_of(d, "StatusChanged"))


def _follower_released_by_regroup(d: Decision) -> bool:
    t = TABLES[d.before.scenario]
    return d.command.get("action") == "regroup" and any(
        t.banner(e["banner"]).status_rule == "follows-target" and e["status"] == "uncommitted"
        for e in events_of(d, "StatusChanged"))


def _stays_committed_with_another_enemy(d: Decision) -> bool:
    t = TABLES[d.before.scenario]
    if d.command.get("action") != "regroup":
        return False
    acting = d.command["banner"]
    return any(t.banner(e).status_rule == "follows-target" and d.after.banners[e].status == "committed"
               for e in d.before.banners[acting].engaged)


def _forced_zero_cost(d: Decision) -> bool:
    if d.command.get("type") != "activate" or d.command["action"] != "hold":
        return False
    return d.before.sides[d.before.active].available == 0


CLAUSES: dict[str, tuple[str, str, Callable[[Decision], bool]]] = {
    # id: (scenario, the clause, the predicate that shows it applied)
    "ordered-banner-acts": ("arsuf", "A Banner on its Ordered side can still be activated to perform an Action.",
                            lambda d: d.command.get("type") == "activate"
                            and d.before.banners[d.command["banner"]].ordered),
    "empty-pool-zero-cost": ("arsuf", "If a player's Available Orders Pool is empty and one of their Banners is "
                             "still on their Ordered side, they must activate it using the Action with a cost of 0.",
                             _forced_zero_cost),
    "cost-increased": ("arsuf", "the cost of activating the Banner is increased by 1, 2, and so on",
                       lambda d: d.command.get("type") == "activate" and printed_cost(d) > 0
                       and any(e["cost"] >= printed_cost(d) + 2 for e in events_of(d, "ActionDeclared"))),
    "slash-empty-pool": ("hattin", "A Combat result that requires to lose 1 Order has no effect if the target "
                         "player's Available Orders Pool is empty.", _slash_without_effect),
    "sixth-lance": ("arsuf", "A player must immediately place back in the box 1 Order when they lose their 6th Lance.",
                    lambda d: bool(events_of(d, "LossesTrackBoxed"))),
    "banner-given": ("hattin", "the corresponding card is given to their opponent",
                     lambda d: any(e["given_to"] for e in events_of(d, "BannerEliminated"))),
    "chaos-extra": ("arsuf", "a player loses an additional 1 Order for each of their Banners in possession of "
                    "their opponent", lambda d: any(e["reason"] == "Chaos" and e["from_available"] + e["from_spent"] >= 2
                                                    for e in events_of(d, "OrdersBoxed"))),
    "no-target-removed": ("arsuf", "A Banner that no longer has Banners to target because they have lost all "
                          "their Lances is removed from the game", lambda d: bool(events_of(d, "BannerSetAside"))),
    "reaction": ("arsuf", "If the condition of use is valid, it interrupts the Action.",
                 lambda d: bool(events_of(d, "ReactionDeclared"))),
    "seize": ("arsuf", "A Leader may have an Action to seize the initiative and use it during the Initiative phase.",
              lambda d: any(e["action"] == "seize-initiative" for e in events_of(d, "LeaderActivated"))),
    "initiative-tie": ("hattin", "In case of a tie, the scenario specifies which player has the initiative.",
                       lambda d: any(e["reason"].startswith("tie") for e in events_of(d, "InitiativeDetermined"))),
    "opponent-continues": ("arsuf", "their opponent, however, can continue to perform activations until they also pass",
                           lambda d: any(e["next"] == e["side"] for e in events_of(d, "ActivationEnded"))),
    "leader-recover": ("hattin", "select as Action, recover 1 spent Order",
                       lambda d: any(e["source"] == "spent" for e in events_of(d, "OrdersRecovered"))),
    "lances-move": ("hattin", "you must move the Lances of the Banner concerned to the appropriate location",
                    lambda d: any(e["location"] == "committed" for e in events_of(d, "StatusChanged"))),
    "enemy-status": ("hattin", "This change therefore involves changing the status of the enemy Banner.",
                     _enemy_status_changed),
    "follower-back": ("arsuf", "Therefore, the status of the Banner of Saphadin changes from Committed to Uncommitted.",
                      _follower_released_by_regroup),
    "follower-two-enemies": ("arsuf", "their status is the same as that of the Crusaders Banner that targets them",
                             _stays_committed_with_another_enemy),
    "last-order": ("arsuf", "The first player to place back their last Order in the game box loses immediately.",
                   lambda d: any(e["outcome"]["winner"] and "last Order in the box" in e["outcome"]["reason"]
                                 for e in events_of(d, "GameDecided"))),
    "arsuf-twelfth-order": ("arsuf", "the Crusaders player recovers a twelfth Order as soon as the two Ayyubids "
                            "Lances in Arsuf are eliminated",
                            lambda d: any(e["source"] == "arsuf" for e in events_of(d, "OrdersRecovered"))),
    "shield-wall-die": ("arsuf", "All Ayyubids Actions against the Banner of Henry II will use 1 less Combat die.",
                        lambda d: d.command.get("type") == "activate" and d.before.active == "ayyubids"
                        and d.before.markers.get("shield-wall") == d.command.get("target")),
    "horns": ("hattin", "move all the Lances of the Lusignan Banner to the locations of the Horns of Hattin",
              lambda d: bool(events_of(d, "MovedToHorns"))),
    "horns-recovers": ("hattin", "The Crusaders player recovers 1 Order placed back in the game box",
                       lambda d: any(e["source"] == "box" for e in events_of(d, "OrdersRecovered"))),
    "horns-mandatory": ("hattin", "This Action becomes mandatory as soon as the sum of the Orders in the Available "
                        "Orders Pool and the Spent Orders Pool of the Crusaders player is strictly less than 5.",
                        lambda d: d.before.phase == "activation" and horns_required(d.before, "crusaders")
                        and d.command == {"type": "leader", "action": "horns"}),
    "horns-next-turn": ("hattin", "If the Lusignan card is on its Ordered side, the Action will have to be the first "
                        "one performed by the Crusaders player during the next turn.",
                        lambda d: "horns-next-turn" in d.flags),
    "horns-cards-keep-side": ("hattin", "The new cards are placed on their front or back side depending on whether "
                              "they were Deployed or Ordered before they were replaced.",
                              lambda d: bool(events_of(d, "MovedToHorns"))
                              and any(d.before.banners[b].ordered for b in events_of(d, "MovedToHorns")[0]["cards"])),
    "lusignan-follows-saladin": ("hattin", "it will have the same status as the Banner of Saladin",
                                 lambda d: any(e["banner"] == "lusignan" and e["status"] == "committed"
                                               for e in events_of(d, "StatusChanged"))),
    "true-cross": ("hattin", "the Crusaders player must immediately place 1 Order back in the box",
                   lambda d: any(e["reason"] == "The True Cross is taken" for e in events_of(d, "OrdersBoxed"))),
    "reinforce-saladin": ("hattin", "The Banner of Saladin or Ridefort places 1 of its Lances on the location of the "
                          "last lost Lance", lambda d: any(e["banner"] == "saladin" for e in events_of(d, "LancePlaced"))),
    "husam-lulu-boxed": ("hattin", "Husam Lulu's Banner is not given to the Crusaders player when it looses its last "
                         "Lance.", lambda d: any(e["banner"] == "husam-lulu" and e["given_to"] is None
                                             for e in events_of(d, "BannerEliminated"))),
    "fire-removed": ("hattin", "If at the end of the turn, the Fire marker is still on the board and Husam Lulu's "
                     "Banner has not performed the Feed Fire Action, the marker is removed.",
                     lambda d: any(e["marker"] == "fire" for e in events_of(d, "MarkerRemoved"))),
    "fire-fed-stays": ("hattin", "To perform this Action, the Fire marker must be on the game board.",
                       lambda d: bool(events_of(d, "FireFed"))),
    "taqui": ("hattin", "In the event of a Charge or Uncontrolled Charge by the Banner of Raymond III",
              lambda d: any(e["to"] == "box" and e["banner"] == "raymond-iii" for e in events_of(d, "LancesLost"))),
}


@pytest.mark.parametrize("clause", sorted(CLAUSES))
def test_clause_is_reached_from_the_opening(clause):
    scenario, text, reached = CLAUSES[clause]
    assert text in RULEBOOK, text
    assert any(reached(d) for d in corpus(scenario)), f"never reached in {scenario}: {text!r}"


def used_elements(scenario: str) -> set[tuple]:
    used = set()
    for d in corpus(scenario):
        c = d.command
        if c.get("type") == "activate":
            b = d.before.banners[c["banner"]]
            used.add(("action", b.card, c["action"]))
            if TABLES[scenario].card(b.card).action(c["action"]).target in ("enemy", "arsuf"):
                used.add(("target", b.card, c["target"], b.status))
        elif c.get("type") == "react":
            card = d.before.banners[c["banner"]].card
            used |= {("reaction", card, c["reaction"]), ("target", card, d.before.pending.banner, "reaction")}
        for e in events_of(d, "SpecialRuleApplied"):
            if e.get("against"):
                card = d.before.banners[e["banner"]].card
                reaction = next(r.id for r in TABLES[scenario].card(card).reactions if r.effect == "two-lances-to-box")
                used |= {("reaction", card, reaction), ("target", card, e["against"], "reaction")}
    return used


@pytest.mark.parametrize("scenario", ["arsuf", "hattin"])
def test_no_action_target_or_reaction_on_the_cards_is_dead(scenario):
    """Every action, every (enemy, status or Reaction) of a card's targets and every reaction of
    every card — the Horns cards included — is used in play from the opening."""
    printed = set()
    for card in TABLES[scenario].data.cards:
        printed |= {("action", card.id, a.id) for a in card.actions}
        printed |= {("reaction", card.id, r.id) for r in card.reactions}
        printed |= {("target", card.id, t.banner, m) for t in card.targets for m in t.modes}
    assert printed - used_elements(scenario) == set()
