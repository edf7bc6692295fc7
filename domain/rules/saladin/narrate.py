"""One-line narratives of Saladin's events and commands, for timelines, in the rulebook's words.

Pure: every name comes from the scenario data files already loaded by :mod:`.data`; nothing
here reads the game's state, so a line says what its event carries and no more.
"""

from __future__ import annotations

import re
from typing import Any

from domain.rules.saladin.data import ARSUF, TABLES
from domain.rules.saladin.view import MARKERS
from domain.rules.words import NO_NAMES, Names, plural, seat_name

SIDES = {"crusaders": "Crusaders", "ayyubids": "Ayyubids"}


def _index() -> tuple[dict[str, str], dict[str, str], dict[str, str], dict[str, str], dict[str, str]]:
    """Display names by id, over both scenarios (a shared id has the same name in both)."""
    banners: dict[str, str] = {ARSUF: "Arsuf"}
    actions: dict[str, str] = {}
    reactions: dict[str, str] = {}
    leaders: dict[str, str] = {}
    leader_actions: dict[str, str] = {}
    for name in sorted(TABLES):
        data = TABLES[name].data
        for b in data.banners:
            banners.setdefault(b.id, b.name)
        for card in data.cards:
            for a in card.actions:
                actions.setdefault(a.id, a.name)
            for r in card.reactions:
                reactions.setdefault(r.id, r.name)
        for leader in data.leaders:
            leaders.setdefault(leader.id, leader.name)
            for a in leader.actions:
                leader_actions.setdefault(a.id, a.name)
    return banners, actions, reactions, leaders, leader_actions


BANNERS, ACTIONS, REACTIONS, LEADERS, LEADER_ACTIONS = _index()

# The commands that carry no banner, action or seat, as a timeline says them.
COMMANDS = {"decline-reaction": "no reaction", "decline-seize": "lets the initiative stand", "pass": "passes"}

# Action verbs in the third person; ``{b}`` the acting banner, ``{t}`` its target.
VERBS = {
    "hold": "{b} holds",
    "loose": "{b} looses at {t}",
    "charge": "{b} charges {t}",
    "uncontrolled-charge": "{b} makes an Uncontrolled Charge at {t}",
    "melee": "{b} engages {t} in melee",
    "harass": "{b} harasses {t}",
    "regroup": "{b} regroups",
    "shield-wall": "{b} forms a Shield Wall",
    "assault-arsuf": "{b} assaults Arsuf",
    "reinforce": "{b} reinforces {t}",
    "reinforce-arsuf": "{b} reinforces Arsuf",
    "sacrifice": "{b} makes a Sacrifice",
    "set-fire": "{b} sets fire to the scrub",
    "feed-fire": "{b} feeds the fire",
}
REACTION_VERBS = {
    "evade": "{b} evades",
    "counter-charge": "{b} counter-charges",
    "open-ranks": "{b} opens ranks",
}
LIMIT = 160


# -- words -------------------------------------------------------------------------------------------
def side(seat: Any) -> str:
    return SIDES.get(str(seat), str(seat))


def banner(banner_id: Any) -> str:
    return BANNERS.get(str(banner_id), str(banner_id))


def action(action_id: Any) -> str:
    return ACTIONS.get(str(action_id), str(action_id))


def orders(n: int) -> str:
    return plural(n, "Order")


def lances(n: int) -> str:
    return plural(n, "lance")


def clip(text: str) -> str:
    return text if len(text) <= LIMIT else text[: LIMIT - 1] + "…"


def _reason(reason: Any) -> str:
    """``"Loose: henry-ii"`` → ``"Henry II's Loose"``; other reasons as they are."""
    text = str(reason)
    if ": " in text:
        name, who = text.rsplit(": ", 1)
        if who in BANNERS:
            return f"{banner(who)}'s {name}"
    return text


def _declared(banner_id: Any, action_id: Any, target: Any) -> str:
    b, t = banner(banner_id), banner(target) if target else "?"
    verb = VERBS.get(str(action_id))
    if verb is not None and ("{t}" not in verb or target):
        return verb.format(b=b, t=t)
    return f"{b}: {action(action_id)}" + (f" at {t}" if target else "")


# -- events ------------------------------------------------------------------------------------------
def describe_event(event_type: str, d: dict[str, Any], names: Names = NO_NAMES) -> str | None:
    """One line for one ``saladin.*`` event, or for a die Saladin rolled (its purpose with the
    banners' names); None for a type this module does not know."""
    if event_type in ("DiceRolled", "DiceForced"):
        return _dice(d, event_type == "DiceForced")
    if event_type in ("saladin.GameDecided", "GameEnded"):
        return clip(_game_decided(d, names))
    kind = event_type.removeprefix("saladin.")
    fn = EVENTS.get(kind)
    return clip(fn(d)) if fn is not None and event_type.startswith("saladin.") else None


_ID = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*")


def _dice(d: dict[str, Any], forced: bool) -> str:
    """``Loose: henry-ii at ala-afdal (red)`` as recorded, told with names: "Loose: Henry II at
    Ala Afdal (red): double, blank"."""
    purpose = _ID.sub(lambda m: BANNERS.get(m.group(0), m.group(0)), str(d.get("purpose", "")))
    faces = ", ".join(str(f) for f in d.get("faces") or [])
    return clip(f"{purpose}: {faces}" + (" (forced, for study)" if forced else ""))


def _turn_began(d):
    return f"Turn {d.get('turn')} begins: Chaos, then Initiative"


def _orders_boxed(d):
    n = int(d.get("from_available", 0)) + int(d.get("from_spent", 0))
    reason = str(d.get("reason", ""))
    who = side(d.get("side"))
    if reason == "Chaos":
        text = f"{who}: Chaos — {orders(n)} to the box"
        if n > 1:
            other = "ayyubids" if d.get("side") == "crusaders" else "crusaders"
            held = "banner" if n == 2 else "banners"
            text += f" (1 + {n - 1} for the {held} held by the {side(other)})"
        return text
    if reason == "6th lance lost":
        return f"{who}: the 6th lance lost costs {orders(n)} to the box"
    source = " (from the Spent pool)" if d.get("from_spent") and not d.get("from_available") else ""
    return f"{who}: {reason} — {orders(n)} to the box{source}"


def _orders_spent(d):
    who, n, reason = side(d.get("side")), int(d.get("count", 0)), str(d.get("reason", ""))
    if reason == "slash":
        return f"{who}: a slash — {orders(n)} to the Spent pool"
    return f"{who} spend {orders(n)} for {_reason(reason)}"


def _orders_recovered(d):
    who, n = side(d.get("side")), int(d.get("count", 0))
    source = {"spent": "from the Spent pool", "box": "from the box", "arsuf": "from Arsuf"}.get(
        str(d.get("source")), f"from {d.get('source')}")
    return f"{who}: {orders(n)} back {source} to the Available pool ({d.get('reason')})"


def _initiative(d):
    holder, reason = d.get("holder"), str(d.get("reason", ""))
    active = d.get("active")
    if reason == "seized by the Leader":
        return f"{side(holder)} seize the initiative and choose who activates first"
    if reason == "not seized":
        return f"The initiative stays with the {side(holder)}, who choose who activates first"
    text = f"Initiative: {side(holder)} ({reason})"
    if d.get("phase") == "seize" and active != holder:
        return f"{text}; the {side(active)} may seize it"
    return f"{text}; they choose who activates first"


def _leader_activated(d):
    name = LEADERS.get(str(d.get("leader")), str(d.get("leader")))
    act = LEADER_ACTIONS.get(str(d.get("action")), str(d.get("action")))
    once = " (once per game)" if d.get("once") else ""
    return f"{side(d.get('side'))}' Leader {name}: {act}{once}; the card turns to its Ordered side"


def _activation_began(d):
    return f"Activation phase: the {side(d.get('first'))} activate first"


def _action_declared(d):
    cost = int(d.get("cost") or 0)
    return _declared(d.get("banner"), d.get("action"), d.get("target")) + (f" ({orders(cost)})" if cost else "")


def _reaction_offered(d):
    return f"{banner(d.get('banner'))} may react ({side(d.get('side'))} to decide)"


def _reaction_declared(d):
    b, r = banner(d.get("banner")), str(d.get("reaction"))
    verb = REACTION_VERBS.get(r)
    text = verb.format(b=b) if verb else f"{b} reacts: {REACTIONS.get(r, r)}"
    cost = int(d.get("cost") or 0)
    return text + (f" ({orders(cost)})" if cost else "") + ", instead of the declared action"


def _reaction_declined(d):
    return f"{banner(d.get('banner'))} does not react: the action resolves"


def _lances_lost(d):
    n = int(d.get("count", 0))
    where = "straight to the box" if d.get("to") == "box" else "to the Losses Track"
    if d.get("banner") is None:
        return f"The {side(d.get('side'))} in Arsuf lose {lances(n)} {where}"
    return f"{banner(d.get('banner'))} loses {lances(n)} {where}"


def _losses_track_boxed(d):
    return f"{side(d.get('side'))}: the Losses Track is full — its {lances(int(d.get('lances', 6)))} go to the box"


def _lance_replaced(d):
    if d.get("banner") is None:
        return f"Arsuf takes back 1 {side(d.get('side'))[:-1]} lance from the Losses Track"
    return f"{banner(d.get('banner'))} takes back 1 lance from the Losses Track"


def _lance_placed(d):
    onto = "Arsuf" if d.get("onto") == "arsuf" else banner(d.get("onto"))
    return f"{banner(d.get('banner'))} places 1 of its lances on the location of {onto}'s last lost lance"


def _status_changed(d):
    b, status = banner(d.get("banner")), str(d.get("status", "")).title()
    text = f"{b} is {status}"
    if d.get("location") == "horns":
        text += " on the Horns of Hattin"
    elif d.get("location") in ("uncommitted", "committed"):
        text += f": its lances move to the {d.get('location')} location"
    return text


def _melee_joined(d):
    return f"{banner(d.get('crusader'))} and {banner(d.get('ayyubid'))} fight in melee"


def _melee_left(d):
    return f"{banner(d.get('crusader'))} and {banner(d.get('ayyubid'))} no longer fight in melee ({d.get('reason')})"


def _special_rule(d):
    if d.get("against"):
        return f"{d.get('rule')}: {banner(d.get('banner'))} answers {banner(d.get('against'))}'s charge"
    return f"{d.get('rule')}: applies"


def _banner_ordered(d):
    return f"{banner(d.get('banner'))}'s card turns to its Ordered side"


def _banner_eliminated(d):
    b = banner(d.get("banner"))
    if d.get("given_to"):
        return f"{b} loses its last lance: the banner is given to the {side(d.get('given_to'))}"
    return f"{b} loses its last lance: the banner goes to the box"


def _banner_set_aside(d):
    return f"{banner(d.get('banner'))} has no enemy banner left to target: set aside, without penalty"


def _marker_placed(d):
    marker = MARKERS.get(str(d.get("marker")), str(d.get("marker")))
    return f"{marker} marker placed on {banner(d.get('banner'))}"


def _marker_removed(d):
    marker = MARKERS.get(str(d.get("marker")), str(d.get("marker")))
    return f"{marker} marker removed"


def _fire_fed(d):
    return f"{banner(d.get('banner'))} feeds the fire: it burns on into the next turn"


def _moved_to_horns(d):
    cards = sorted(banner(b) for b in (d.get("cards") or {}))
    if not cards:
        return "Lusignan's lances move to the Horns of Hattin"
    names = cards[0] if len(cards) == 1 else ", ".join(cards[:-1]) + " and " + cards[-1]
    return f"Lusignan's lances move to the Horns of Hattin; {names} turn to their Horns cards"


def _activation_ended(d):
    who, nxt = d.get("side"), d.get("next")
    if nxt == who:
        return f"{side(who)} activate again (the {side('ayyubids' if who == 'crusaders' else 'crusaders')} have passed)"
    return f"next: the {side(nxt)} activate"


def _passed(d):
    who = side(d.get("side"))
    if d.get("next") is None:
        return f"{who} pass; both sides have passed: the turn ends"
    return f"{who} pass for the rest of the Activation phase"


def _redeployed(d):
    returned = d.get("returned") or {}
    back = ", ".join(f"{side(s)} {returned[s]}" for s in SIDES if s in returned)
    return f"Redeployment: every card back to its Deployed side; spent Orders back to the Available pool ({back})"


def _game_decided(d, names: Names = NO_NAMES):
    outcome = d.get("outcome") or {}
    reason = str(outcome.get("reason") or "")
    for seat, name in SIDES.items():
        reason = reason.replace(seat, f"the {name}")
    winner = outcome.get("winner")
    if outcome.get("draw") or not winner:
        head = "Draw"
    elif winner in names:
        head = f"{seat_name(names, winner)} and the {side(winner)} win"
    else:
        head = f"{side(winner)} win"
    return f"{head}: {reason}" if reason else head


EVENTS = {
    "TurnBegan": _turn_began,
    "OrdersBoxed": _orders_boxed,
    "OrdersSpent": _orders_spent,
    "OrdersRecovered": _orders_recovered,
    "InitiativeDetermined": _initiative,
    "LeaderActivated": _leader_activated,
    "ActivationBegan": _activation_began,
    "ActionDeclared": _action_declared,
    "ReactionOffered": _reaction_offered,
    "ReactionDeclared": _reaction_declared,
    "ReactionDeclined": _reaction_declined,
    "LancesLost": _lances_lost,
    "LossesTrackBoxed": _losses_track_boxed,
    "LanceReplaced": _lance_replaced,
    "LancePlaced": _lance_placed,
    "StatusChanged": _status_changed,
    "MeleeJoined": _melee_joined,
    "MeleeLeft": _melee_left,
    "SpecialRuleApplied": _special_rule,
    "BannerOrdered": _banner_ordered,
    "BannerEliminated": _banner_eliminated,
    "BannerSetAside": _banner_set_aside,
    "MarkerPlaced": _marker_placed,
    "MarkerRemoved": _marker_removed,
    "FireFed": _fire_fed,
    "MovedToHorns": _moved_to_horns,
    "ActivationEnded": _activation_ended,
    "Passed": _passed,
    "Redeployed": _redeployed,
    "GameDecided": _game_decided,
}


# -- commands ----------------------------------------------------------------------------------------
def describe_command(command: dict[str, Any], names: Names = NO_NAMES) -> str:
    """A recorded command in the rulebook's words, with the banners' and leaders' names."""
    kind = command.get("type")
    if kind == "activate":
        return clip(_declared(command.get("banner"), command.get("action"), command.get("target")))
    if kind == "leader":
        return f"Leader: {LEADER_ACTIONS.get(str(command.get('action')), str(command.get('action')))}"
    if kind == "react":
        r = str(command.get("reaction"))
        return f"{banner(command.get('banner'))} reacts: {REACTIONS.get(r, r)}"
    if kind == "choose-first":
        return f"the {side(command.get('seat'))} activate first"
    return clip(COMMANDS.get(str(kind), str(kind)))
