"""Writes ``arsuf.json`` and ``hattin.json``: the reconstructed Saladin cards.

The rulebook names the banners and many actions but does not print the cards. This script is
the readable source of that reconstruction (RULES_NOTES.md explains every choice); its output,
the two JSON files, is what the engine loads and what a game's data hash pins. Run it with
``.venv/bin/python -m domain.rules.saladin.build_cards`` after editing, and commit both.
An owner of the printed cards may just as well edit the JSON files directly.
"""

from __future__ import annotations

import json
from pathlib import Path

HERE = Path(__file__).parent
U, C, R = "uncommitted", "committed", "reaction"

HEADER = (
    "RECONSTRUCTION. The Saladin rulebook does not print its cards or board; this file is a "
    "reconstruction that agrees with every rule and worked example of the rulebook "
    "(see domain/rules/saladin/RULES_NOTES.md). Owners of the printed components may correct it."
)


def track(n: int, *, plus: tuple[int, ...] = (2, 4), give: bool = True) -> list[str]:
    """A lance track of ``n`` slots, slot 1 removed first; '+1' markers and the 'give' cross."""
    slots = ["+1" if i in plus else "" for i in range(1, n + 1)]
    if give:
        slots[-1] = "give"
    return slots


def act(id, name, cost, status="any", ordered=False, red=0, green=0, change=None, target="none",
        effect=None, friendly=()):
    return {"id": id, "name": name, "cost": cost, "status": status, "ordered": ordered, "red": red,
            "green": green, "change": change, "target": target, "effect": effect, "friendly": list(friendly)}


def react(id, name, against, red=0, green=0, effect=None, cost=0):
    return {"id": id, "name": name, "cost": cost, "against": list(against), "red": red, "green": green,
            "effect": effect}


HOLD = act("hold", "Hold", 0)


def crusader_knights(loose=True, charge_red=2, melee_red=1):
    out = [HOLD]
    if loose:
        out.append(act("loose", "Loose", 1, U, True, red=1, target="enemy"))
    out += [
        act("charge", "Charge", 2, U, False, red=charge_red, green=1, change="commit", target="enemy"),
        act("melee", "Melee", 1, C, True, red=melee_red, green=1, target="enemy"),
        act("regroup", "Regroup", 1, C, False, change="withdraw"),
    ]
    return out


def ayyubid_horse(harass=False, loose_when_ordered=True):
    out = [HOLD, act("loose", "Loose", 1, U, loose_when_ordered, green=1, target="enemy")]
    if harass:
        out.append(act("harass", "Harass", 2, U, False, green=2, target="enemy"))
    out.append(act("melee", "Melee", 1, C, True, red=1, green=1, target="enemy"))
    return out


def tgt(banner, *modes):
    return {"banner": banner, "modes": list(modes)}


def banner(id, name, side, lances, rule, card, *, plus=(2, 4), give=True, horns_card=None, follows=None):
    return {"id": id, "name": name, "side": side, "track": track(lances, plus=plus, give=give),
            "status_rule": rule, "card": card["id"], "horns_card": horns_card["id"] if horns_card else None,
            "follows": follows}, [card] + ([horns_card] if horns_card else [])


def card(id, targets, actions, reactions=(), horns=False):
    return {"id": id, "horns": horns, "targets": targets, "actions": actions, "reactions": list(reactions)}


EVADE = react("evade", "Evade", ["charge"], red=1, green=1)


def arsuf():
    cru, ayy = "crusaders", "ayyubids"
    specs = [
        banner("lusignan", "Lusignan", cru, 4, "never-committed", card(
            "lusignan", [tgt("arsuf", U), tgt("ala-al-din", U), tgt("aslam", U)],
            [HOLD, act("loose", "Loose", 1, U, True, red=1, target="enemy"),
             act("assault-arsuf", "Assault on Arsuf", 2, U, False, red=2, green=1, target="arsuf",
                 effect="assault-arsuf")]), plus=(2,)),
        banner("henry-ii", "Henry II", cru, 4, "never-committed", card(
            "henry-ii", [tgt("ala-afdal", U), tgt("saphadin", U)],
            [HOLD, act("loose", "Loose", 1, U, True, red=1, target="enemy"),
             act("shield-wall", "Shield wall", 1, U, False, effect="shield-wall")]), plus=(2,)),
        banner("sable", "Sablé", cru, 5, "two-locations", card(
            "sable", [tgt("saphadin", U, C)], crusader_knights())),
        banner("bourgogne", "Bourgogne", cru, 5, "two-locations", card(
            "bourgogne", [tgt("ala-al-din", U, C), tgt("saladin", U), tgt("ala-afdal", U, C)], crusader_knights())),
        banner("richard", "Richard", cru, 6, "two-locations", card(
            "richard", [tgt("ala-al-din", U, C), tgt("saladin", U)], crusader_knights(charge_red=3, melee_red=2))),
        banner("naplouse", "Naplouse", cru, 4, "two-locations", card(
            "naplouse", [tgt("soulayman", U, C)], crusader_knights(loose=False)), plus=(2,)),
        banner("aslam", "Aslam", ayy, 4, "never-committed", card(
            "aslam", [tgt("lusignan", U), tgt("henry-ii", U)],
            [HOLD, act("loose", "Loose", 1, U, False, green=1, target="enemy"),
             act("reinforce", "Reinforce", 1, U, False, target="friendly", effect="reinforce",
                 friendly=["ala-afdal", "ala-al-din"]),
             act("reinforce-arsuf", "Reinforce Arsuf", 1, U, False, effect="reinforce-arsuf")]), plus=(2,)),
        banner("saladin", "Saladin", ayy, 6, "never-committed", card(
            "saladin", [tgt("richard", R), tgt("bourgogne", U)],
            [HOLD, act("loose", "Loose", 1, U, False, green=1, target="enemy"),
             act("sacrifice", "Sacrifice", 1, U, False, red=2, effect="sacrifice")],
            [react("evade", "Evade", ["loose"], red=1, green=1)])),
        banner("saphadin", "Saphadin", ayy, 5, "follows-target", card(
            "saphadin", [tgt("sable", U, C, R), tgt("henry-ii", U)], ayyubid_horse(), [EVADE])),
        banner("ala-afdal", "Ala Afdal", ayy, 4, "follows-target", card(
            "ala-afdal", [tgt("henry-ii", U), tgt("bourgogne", U, C)],
            ayyubid_horse(harass=True, loose_when_ordered=False)), plus=(2,)),
        banner("ala-al-din", "Ala al Din", ayy, 5, "follows-target", card(
            "ala-al-din", [tgt("richard", R, C), tgt("bourgogne", U, C)], ayyubid_horse(),
            [react("counter-charge", "Counter-charge", ["charge"], red=1, green=1)])),
        banner("soulayman", "Soulaymân", ayy, 4, "follows-target", card(
            "soulayman", [tgt("naplouse", R, U, C)], ayyubid_horse(), [EVADE]), plus=(2,)),
    ]
    leaders = [
        {"id": "richard-lionheart", "name": "Richard the Lionheart", "side": cru,
         "actions": [{"id": "recover-order", "name": "Recover 1 spent Order", "once": False}]},
        {"id": "saladin-arsuf", "name": "Saladin", "side": ayy,
         "actions": [{"id": "seize-initiative", "name": "Seize the initiative", "once": False},
                     {"id": "recover-order", "name": "Recover 1 spent Order", "once": False}]},
    ]
    return {
        "orders": {cru: {"available": 11, "reserve": 1}, ayy: {"available": 12, "reserve": 0}},
        "initiative_tie": cru,
        "arsuf_lances": 2,
        "specs": specs,
        "leaders": leaders,
    }


def hattin():
    cru, ayy = "crusaders", "ayyubids"
    lus_camp = card("lusignan", [tgt("manguras", U)],
                    [HOLD, act("loose", "Loose", 1, U, True, red=1, target="enemy"),
                     act("shield-wall", "Shield wall", 1, "any", False, effect="shield-wall")])
    lus_horns = card("lusignan-horns", [tgt("saladin", U, C)],
                     [HOLD, act("loose", "Loose", 1, U, True, red=1, target="enemy"),
                      act("melee", "Melee", 1, C, True, red=1, green=1, target="enemy"),
                      act("shield-wall", "Shield wall", 1, "any", False, effect="shield-wall")], horns=True)
    chat = card("chatillon", [tgt("manguras", U, C)], crusader_knights())
    chat_horns = card("chatillon-horns", [tgt("manguras", U, C), tgt("saladin", C)], crusader_knights(), horns=True)
    sal_actions = [HOLD, act("loose", "Loose", 1, U, False, green=1, target="enemy"),
                   act("charge", "Charge", 2, U, False, red=1, green=2, change="commit", target="enemy"),
                   act("melee", "Melee", 1, C, True, red=1, green=1, target="enemy"),
                   act("regroup", "Regroup", 1, C, False, change="withdraw"),
                   act("reinforce", "Reinforce", 1, "any", False, target="friendly", effect="reinforce",
                       friendly=["saphadin", "manguras"])]
    sal = card("saladin", [tgt("ridefort", U), tgt("d-ibelin", U, C)], sal_actions)
    sal_horns = card("saladin-horns", [tgt("lusignan", U, C), tgt("ridefort", U)], sal_actions, horns=True)
    mang = card("manguras", [tgt("chatillon", U, C), tgt("lusignan", U)],
                ayyubid_horse(harass=True, loose_when_ordered=False))
    mang_horns = card("manguras-horns", [tgt("chatillon", U, C), tgt("ridefort", U)],
                      ayyubid_horse(harass=True, loose_when_ordered=False), horns=True)
    specs = [
        banner("lusignan", "Lusignan", cru, 6, "camp-then-horns", lus_camp, horns_card=lus_horns,
               follows="saladin"),
        banner("ridefort", "Ridefort", cru, 4, "never-committed", card(
            "ridefort", [tgt("husam-lulu", U), tgt("keukburi", U), tgt("saphadin", U)],
            [HOLD, act("loose", "Loose", 1, U, True, red=1, target="enemy"),
             act("reinforce", "Reinforce", 1, U, False, target="friendly", effect="reinforce",
                 friendly=["lusignan"])]), plus=(2,)),
        banner("d-ibelin", "D'Ibelin", cru, 5, "two-locations", card(
            "d-ibelin", [tgt("keukburi", U, C), tgt("saladin", C)], crusader_knights())),
        banner("naplouse", "Naplouse", cru, 4, "two-locations", card(
            "naplouse", [tgt("saphadin", U, C)], crusader_knights(loose=False)), plus=(2,)),
        banner("chatillon", "Châtillon", cru, 4, "two-locations", chat, horns_card=chat_horns, plus=(2,)),
        banner("raymond-iii", "Raymond III", cru, 5, "two-locations", card(
            "raymond-iii", [tgt("taqui-al-din", U, C)],
            [HOLD,
             act("charge", "Charge", 2, U, False, red=2, green=1, change="commit", target="enemy"),
             act("uncontrolled-charge", "Uncontrolled Charge", 1, U, False, red=2, green=2, change="commit",
                 target="enemy"),
             act("melee", "Melee", 1, C, True, red=1, green=1, target="enemy"),
             act("regroup", "Regroup", 1, C, False, change="withdraw")])),
        banner("husam-lulu", "Husam Lulu", ayy, 3, "never-committed", card(
            "husam-lulu", [tgt("ridefort", U), tgt("naplouse", U)],
            [HOLD, act("loose", "Loose", 1, U, False, green=1, target="enemy"),
             act("set-fire", "Set Fire", 1, U, False, effect="set-fire"),
             act("feed-fire", "Feed Fire", 1, U, True, effect="feed-fire")]), plus=(2,), give=False),
        banner("saladin", "Saladin", ayy, 7, "two-locations", sal, horns_card=sal_horns, plus=(2, 4, 6)),
        banner("keukburi", "Keukburi", ayy, 5, "follows-target", card(
            "keukburi", [tgt("d-ibelin", U, C, R), tgt("ridefort", U)], ayyubid_horse(loose_when_ordered=False),
            [EVADE])),
        banner("saphadin", "Saphadin", ayy, 5, "follows-target", card(
            "saphadin", [tgt("naplouse", U, C, R), tgt("ridefort", U)], ayyubid_horse(loose_when_ordered=False),
            [EVADE])),
        banner("manguras", "Manguras", ayy, 5, "follows-target", mang, horns_card=mang_horns),
        banner("taqui-al-din", "Taqui al Din", ayy, 4, "follows-target", card(
            "taqui-al-din", [tgt("raymond-iii", U, C, R)], ayyubid_horse(loose_when_ordered=False),
            [react("open-ranks", "Open ranks", ["charge", "uncontrolled-charge"], red=1,
                   effect="two-lances-to-box")]), plus=(2,)),
    ]
    leaders = [
        {"id": "guy-de-lusignan", "name": "Guy de Lusignan", "side": cru,
         "actions": [{"id": "horns", "name": "To the Horns of Hattin", "once": True},
                     {"id": "recover-order", "name": "Recover 1 spent Order", "once": False}]},
        {"id": "saladin-hattin", "name": "Saladin", "side": ayy,
         "actions": [{"id": "recover-order", "name": "Recover 1 spent Order", "once": False},
                     {"id": "order-loss", "name": "The True Cross is taken", "once": True}]},
    ]
    return {
        "orders": {cru: {"available": 12, "reserve": 0}, ayy: {"available": 12, "reserve": 0}},
        "initiative_tie": ayy,
        "arsuf_lances": 0,
        "specs": specs,
        "leaders": leaders,
    }


def document(scenario: str, raw: dict) -> dict:
    banners, cards = [], []
    for b, cs in raw["specs"]:
        banners.append(b)
        cards.extend(cs)
    return {
        "_header": HEADER,
        "scenario": scenario,
        "order_tokens_per_side": 13,
        "orders": raw["orders"],
        "initiative_tie": raw["initiative_tie"],
        "arsuf_lances": raw["arsuf_lances"],
        "banners": banners,
        "cards": cards,
        "leaders": raw["leaders"],
    }


def main() -> None:
    for name, build in (("arsuf", arsuf), ("hattin", hattin)):
        text = json.dumps(document(name, build()), indent=1, ensure_ascii=False) + "\n"
        (HERE / f"{name}.json").write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
