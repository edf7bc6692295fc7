"""Owner-supplied card data: an owner of the printed game plays with their own cards.

The file has the shape of ``arsuf.json`` / ``hattin.json`` (:class:`.data.ScenarioData`, whose
JSON Schema :data:`SCHEMA` is published by ``GET /rules/saladin``); ``_header`` and every
``basis`` may be left out. :func:`problems` lists every way a file breaks the schema or the
rulebook's constraints (counts, names, statuses, targets, lance totals); an empty list means
the engine can play it. The game carries the file in ``GameCreated.options.cards`` and its hash
in ``GameCreated.data_hash`` (RULES_NOTES.md, "Owner-supplied card data").
"""

from __future__ import annotations

import typing
from typing import Any

import msgspec

from domain.rules.saladin.data import ARSUF, SEATS, ScenarioData, owner_tables
from domain.rules.saladin.scenarios import SCENARIOS

SCHEMA: dict[str, Any] = msgspec.json.schema(ScenarioData)

# What the rulebook says, independent of any data file; each scenario's own tables (Statuses,
# Special rules, its Banner and Leader cards) are in :mod:`.scenarios`.
CONTENTS = "Game Contents"
LANCES_IN_BOX = {"ayyubids": 59, "crusaders": 56}  # "115 wooden bars representing Lances — 59 … 56"
MAX_DICE = 3  # "6 Combat dice — 3 for the Ayyubids, 3 for the Crusaders"
LEADER_ACTIONS = {"seize-initiative", "recover-order", "horns", "order-loss"}
EFFECTS = {  # scenario-specific actions: (scenario, side, banners whose cards may carry them)
    "assault-arsuf": ("arsuf", {"lusignan"}), "shield-wall": (None, {"henry-ii", "lusignan"}),
    "reinforce": (None, {"aslam", "saladin", "ridefort"}), "reinforce-arsuf": ("arsuf", {"aslam"}),
    "sacrifice": ("arsuf", {"saladin"}), "set-fire": ("hattin", {"husam-lulu"}),
    "feed-fire": ("hattin", {"husam-lulu"}),
}
REACTION_EFFECTS = {"two-lances-to-box": ("hattin", {"taqui-al-din"})}
# Player Aid — Symbols used on the cards: effects a printed card may carry whatever its banner,
# since the aid lists them among the cards' symbols ("Red slashed token: Spend 1 Crusaders Order";
# "Two lances icon: Place 2 Crusaders Lances back in the box", a reaction effect, on an Ayyubid card)
PLAYER_AID = {"sacrifice"}
MODES = {"uncommitted", "committed", "reaction"}


def decode(data: Any) -> ScenarioData:
    """The owner's data as the engine's Structs (raises msgspec.ValidationError)."""
    return msgspec.convert(data, ScenarioData)


def canonical(data: Any) -> str:
    """The owner's data as canonical JSON text (sorted keys): what a game state holds."""
    return msgspec.json.encode(data, order="sorted").decode()


tables = owner_tables  # the indexed tables of an owner's data, as the engine plays them


def problems(data: Any, scenario: str | None = None) -> list[str]:
    """Every way ``data`` breaks the schema or the rulebook's constraints."""
    try:
        d = decode(data)
    except msgspec.ValidationError:
        return schema_problems(data)
    out: list[str] = []
    if scenario is not None and d.scenario != scenario:
        out.append(f"scenario: the file is for {d.scenario!r}, the game is {scenario!r}")
    if d.scenario not in SCENARIOS:
        return out + [f"scenario: {d.scenario!r} is not a Saladin scenario (arsuf, hattin)"]
    _orders(d, out)
    banners = _banners(d, out)
    cards = _cards(d, banners, out)
    for card_id, card in cards.items():
        _card(d, card, banners[card_id], banners, cards, out)
    _leaders(d, out)
    return out


def schema_problems(data: Any) -> list[str]:
    """Every schema problem, field by field and element by element (msgspec stops at the first)."""
    tail = " (the JSON Schema is published by GET /rules/saladin)"
    if not isinstance(data, dict):
        return ["schema: the card data is a JSON object" + tail]
    out = []
    hints = typing.get_type_hints(ScenarioData)
    fields = {f.encode_name: f for f in msgspec.structs.fields(ScenarioData)}
    for name in sorted(set(data) - set(fields)):
        out.append(f"schema: {name}: unknown field" + tail)
    for name, field in fields.items():
        if name not in data:
            if field.required:
                out.append(f"schema: {name}: missing" + tail)
            continue
        kind = hints[field.name]
        value = data[name]
        element = typing.get_args(kind)[0] if typing.get_origin(kind) is tuple and isinstance(value, list) else None
        for i, item in enumerate(value) if element is not None else [(None, value)]:
            try:
                msgspec.convert(item, element if element is not None else kind)
            except msgspec.ValidationError as error:
                where = name if i is None else f"{name}[{i}]"
                out.append(f"schema: {where}: {error}" + tail)
    return out or ["schema: the card data does not decode" + tail]


def _orders(d: ScenarioData, out: list[str]) -> None:
    rules = SCENARIOS[d.scenario]
    if d.order_tokens_per_side != 13:
        out.append(f"order_tokens_per_side: {d.order_tokens_per_side}, not 13 ({CONTENTS}: 13 Order tokens a side)")
    for seat in SEATS:
        got = d.orders.get(seat)
        want = rules.orders[seat]
        if got is None or (got.available, got.reserve) != want:
            out.append(f"orders.{seat}: {want[0]} available and {want[1]} in Arsuf (Special rules)")
    if set(d.orders) - set(SEATS):
        out.append(f"orders: unknown sides {sorted(set(d.orders) - set(SEATS))}")
    if d.initiative_tie != rules.initiative_tie:
        out.append(f"initiative_tie: {rules.initiative_tie} (Special rules: Initiative in case of a tie)")
    if d.arsuf_lances != rules.lances_in_arsuf:
        out.append(f"arsuf_lances: {rules.lances_in_arsuf} (Arsuf — Special rules: the two Ayyubid Lances in Arsuf)")


def _banners(d: ScenarioData, out: list[str]) -> dict[str, Any]:
    """Banner checks; returns card id -> the banner it belongs to."""
    scenario = SCENARIOS[d.scenario]
    book = scenario.statuses
    ids = [b.id for b in d.banners]
    if len(ids) != len(set(ids)):
        out.append("banners: a banner is listed twice")
    for missing in sorted(set(book) - set(ids)):
        out.append(f"banners: {missing} is missing (Statuses)")
    for extra in sorted(set(ids) - set(book)):
        out.append(f"banners: {extra} is not a banner of {d.scenario} (Statuses)")
    totals = {s: 0 for s in SEATS}
    owner: dict[str, Any] = {}
    for i, b in enumerate(d.banners):
        where = f"banners[{i}] ({b.id})"
        if b.id in book:
            side, rule, name = book[b.id]
            if b.side != side:
                out.append(f"{where}.side: {side}")
            if b.status_rule != rule:
                out.append(f"{where}.status_rule: {rule} (Statuses)")
            if b.name != name:
                out.append(f"{where}.name: {name!r}, as the rulebook prints it")
        if b.side in totals:
            totals[b.side] += len(b.track)
        if not b.track:
            out.append(f"{where}.track: a banner starts with at least 1 Lance")
        bad = [s for s in b.track if s not in ("", "+1", "give")]
        if bad:
            out.append(f"{where}.track: slots are '', '+1' or 'give', not {bad}")
        if "give" in b.track[:-1]:
            out.append(f"{where}.track: the 'give the banner' cross is on the last slot only")
        gives = bool(b.track) and b.track[-1] == "give"
        if gives == (b.id == "husam-lulu"):
            out.append(f"{where}.track: " + ("Husam Lulu's Banner is not given to the Crusaders player"
                                             if gives else "the last slot carries the 'give the banner' cross "
                                             "(Key Game Terms — Lance)"))
        wants_horns = b.id in scenario.horns_banners
        if wants_horns != (b.horns_card is not None):
            out.append(f"{where}.horns_card: " + ("the Banners of Lusignan, Châtillon, Saladin and Manguras each "
                                                  "have two cards" if wants_horns else "only the four Horns banners "
                                                  "of Hattin have a second card"))
        if (b.follows is not None) != (b.status_rule == "camp-then-horns"):
            out.append(f"{where}.follows: only Lusignan at Hattin follows Saladin's status")
        elif b.follows is not None and b.follows != "saladin":
            out.append(f"{where}.follows: 'saladin' (the Banner of Saladin which is the only one that can target it)")
        for card_id in (b.card, b.horns_card):
            if card_id is not None:
                if card_id in owner:
                    out.append(f"{where}: card {card_id!r} belongs to two banners")
                owner[card_id] = b
    totals["ayyubids"] += d.arsuf_lances
    for seat in SEATS:
        if totals[seat] > LANCES_IN_BOX[seat]:
            out.append(f"lances: {totals[seat]} {seat} lances set up; the box holds {LANCES_IN_BOX[seat]} ({CONTENTS})")
    return owner


def _cards(d: ScenarioData, owner: dict[str, Any], out: list[str]) -> dict[str, Any]:
    cards = {}
    for i, c in enumerate(d.cards):
        if c.id in cards:
            out.append(f"cards[{i}]: card {c.id!r} is listed twice")
        if c.id not in owner:
            out.append(f"cards[{i}] ({c.id}): no banner uses this card")
            continue
        b = owner[c.id]
        if c.horns != (c.id == b.horns_card):
            out.append(f"cards[{i}] ({c.id}).horns: {c.id == b.horns_card} (the Horns symbol)")
        cards[c.id] = c
    for card_id in sorted(set(owner) - set(cards)):
        out.append(f"cards: {card_id} is missing")
    for seat in SEATS:
        n = sum(1 for card_id in cards if owner[card_id].side == seat)
        want = SCENARIOS[d.scenario].banner_cards
        if n != want:
            out.append(f"cards: {n} {seat} Banner cards; {d.scenario} has {want} a side ({CONTENTS})")
    return cards


def _card(d, card, banner, banners, cards, out: list[str]) -> None:
    where = f"card {card.id}"
    scenario = SCENARIOS[d.scenario]
    book = scenario.statuses
    rule = banner.status_rule
    enemy_ids = {bid for bid, (side, _, _) in book.items() if side != banner.side}
    seen = set()
    for t in card.targets:
        if t.banner in seen:
            out.append(f"{where}.targets: {t.banner} is listed twice")
        seen.add(t.banner)
        if t.banner == ARSUF:
            if not (scenario.lances_in_arsuf and banner.side == "crusaders"):
                out.append(f"{where}.targets: only a Crusader card at Arsuf can target the lances in Arsuf")
        elif t.banner not in enemy_ids:
            out.append(f"{where}.targets: {t.banner} is not an enemy banner (the enemy Banners that a Banner can "
                       "target are shown on its card)")
        if not t.modes or set(t.modes) - MODES:
            out.append(f"{where}.targets[{t.banner}].modes: one or more of uncommitted, committed, reaction")
        if "committed" in t.modes and rule == "never-committed":
            out.append(f"{where}.targets[{t.banner}]: {banner.id} can never be Committed (Statuses)")
        if "reaction" in t.modes and not card.reactions:
            out.append(f"{where}.targets[{t.banner}]: a Reaction mode with no reaction on the card")
    ids = [a.id for a in card.actions]
    if len(ids) != len(set(ids)):
        out.append(f"{where}.actions: an action id is listed twice")
    if not any(a.cost == 0 for a in card.actions):
        out.append(f"{where}.actions: no action with a cost of 0 (Activation — Special cases: they must activate "
                   "it using the Action with a cost of 0)")
    for a in card.actions:
        at = f"{where}.actions[{a.id}]"
        if a.cost < 0:
            out.append(f"{at}.cost: at least 0")
        if not (0 <= a.red <= MAX_DICE and 0 <= a.green <= MAX_DICE):
            out.append(f"{at}: 0 to {MAX_DICE} dice of each colour ({CONTENTS})")
        if rule == "never-committed" and (a.status == "committed" or a.change):
            out.append(f"{at}: {banner.id} can never be Committed (Statuses)")
        if a.change and rule != "two-locations":
            out.append(f"{at}.change: only a two-location banner changes its own status (Statuses)")
        if a.change == "commit" and a.status == "committed" or a.change == "withdraw" and a.status == "uncommitted":
            out.append(f"{at}: a status change starts from the other status")
        if a.target == "enemy" and not [t for t in card.targets if t.banner != ARSUF]:
            out.append(f"{at}: targets an enemy, and the card lists none")
        if a.target == "arsuf" and not any(t.banner == ARSUF for t in card.targets):
            out.append(f"{at}: targets Arsuf, and the card does not list it")
        if a.target == "friendly":
            if not a.friendly:
                out.append(f"{at}.friendly: the banners it reinforces")
            for f in a.friendly:
                if book.get(f, ("",))[0] != banner.side:
                    out.append(f"{at}.friendly: {f} is not a friendly banner")
        elif a.friendly:
            out.append(f"{at}.friendly: only a friendly-target action lists banners")
        if a.effect is not None:
            allowed = EFFECTS.get(a.effect)
            if allowed is None:
                out.append(f"{at}.effect: one of {', '.join(sorted(EFFECTS))} (the Scenario-specific Actions)")
            elif a.effect in PLAYER_AID:
                pass  # a symbol of the Player Aid, which any card may print
            elif (allowed[0] not in (None, d.scenario)) or banner.id not in allowed[1]:
                out.append(f"{at}.effect: {a.effect} is not an action of {banner.id} at {d.scenario}")
    for r in card.reactions:
        at = f"{where}.reactions[{r.id}]"
        if not any("reaction" in t.modes for t in card.targets):
            out.append(f"{at}: no enemy is listed in Reaction, so it can never be used")
        reachers = [t.banner for t in card.targets if "reaction" in t.modes and t.banner in banners]
        triggers = {a.id for bid in reachers for cid in (banners[bid].card, banners[bid].horns_card)
                    if cid in cards for a in _actions_against(cards[cid], banner.id)}
        unknown = sorted(set(r.against) - triggers)
        if not r.against or unknown:
            out.append(f"{at}.against: actions by which an enemy it reacts to targets {banner.id} (a Reaction "
                       f"answers an action that targets its banner), not {unknown or 'nothing'}")
        if not (0 <= r.red <= MAX_DICE and 0 <= r.green <= MAX_DICE) or r.cost < 0:
            out.append(f"{at}: a cost of 0 or more and 0 to {MAX_DICE} dice of each colour")
        if r.effect is not None and (r.effect not in REACTION_EFFECTS or banner.side != "ayyubids"):
            out.append(f"{at}.effect: only two-lances-to-box (Player Aid: \"Place 2 Crusaders Lances back in "
                       "the box\"), on an Ayyubid card")
    if scenario.horns_banners and banner.id != "saladin" and card.horns and card.target_modes("lusignan"):
        out.append(f"{where}: at the Horns, Saladin is the only one that can target Lusignan (Hattin — Statuses)")


def _actions_against(card: Any, banner_id: str) -> list[Any]:
    """The actions of ``card`` that can target ``banner_id``: an enemy-target action whose status
    is one the card lists the banner under (any status: any of them); a Reaction mode alone
    targets nothing."""
    modes = set(card.target_modes(banner_id)) - {"reaction"}
    return [a for a in card.actions if a.target == "enemy" and modes and (a.status == "any" or a.status in modes)]


def _leaders(d: ScenarioData, out: list[str]) -> None:
    scenario = SCENARIOS[d.scenario]
    want = scenario.leaders
    got = {leader.side: leader for leader in d.leaders}
    if len(d.leaders) != 2 or set(got) != set(SEATS):
        out.append("leaders: one Leader card per side")
    for seat, leader in got.items():
        if want.get(seat) != leader.id:
            out.append(f"leaders.{seat}: {want.get(seat)!r}")
        unknown = sorted({a.id for a in leader.actions} - LEADER_ACTIONS)
        if unknown or not leader.actions:
            out.append(f"leaders.{seat}.actions: from {', '.join(sorted(LEADER_ACTIONS))}, not {unknown or 'none'}")
    for action_id, own in scenario.leader_actions.items():  # the scenario's own, once per game
        leader = got.get(own.side)
        if leader and not any(a.id == action_id and a.once for a in leader.actions):
            out.append(f"leaders.{own.side}: {own.printed}")
