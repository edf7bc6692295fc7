"""Writes ``arsuf.json`` and ``hattin.json``: the Saladin cards, rebuilt from the rulebook alone.

The rulebook names the banners and many actions but does not print the cards. This script is
the readable source of the reconstruction; its output, the two JSON files, is what the engine
loads and what a game's data hash pins. Every value carries its ``basis``: the rulebook
sentence it follows from (quoted, so a test finds it in the text) or ``free choice`` with the
one rule applied to every card alike. Nothing here was chosen for balance.
Run ``.venv/bin/python -m domain.rules.saladin.build_cards`` after editing, and commit both.
Owners of the printed cards can send their own file instead (RULES_NOTES.md, "Owner-supplied
card data").
"""

from __future__ import annotations

import json
from pathlib import Path

HERE = Path(__file__).parent
U, C, R = "uncommitted", "committed", "reaction"
CRU, AYY = "crusaders", "ayyubids"

HEADER = (
    "RECONSTRUCTION. The Saladin rulebook does not print its cards or board; this file is "
    "rebuilt from the rulebook's sentences alone, every value citing its sentence or saying it "
    "is a free choice (see domain/rules/saladin/RULES_NOTES.md). Owners of the printed "
    "components may correct it or play with their own file."
)

# -- the sentences (quoted exactly; tests/rules/saladin/test_data.py finds each in the rulebook) --
Q = {
    "zero": 'Activation — Special cases: "a player always has the option to choose an Action with a cost of 0"',
    "loose": 'Banner and Leader activation example: "They choose the Loose Action"',
    "loose_cost": 'Banner and Leader activation example: "They therefore spend 1 Order from their Available Orders Pool"',
    "loose_die": 'Banner and Leader activation example: "They throw 1 Combat die that eliminates 1 Lance"',
    "distance": 'Key Game Terms — Status: "The Uncommitted status indicates that the Banner fights its opponent at a distance"',
    "melee": 'Key Game Terms — Status: "The Committed status means that the Banners fight in melee"',
    "charge_cost": 'Reaction example: "They therefore spend 2 Orders"',
    "charge_commits": 'Reaction example: "Both Banners remain Uncommitted as the Naplouse Action is canceled"',
    "evade_dice": 'Reaction example: "Both players roll 1 Combat die and apply the results"',
    "evade_against": 'Reaction example: "Naplouse performs a Charge"',
    "regroup": 'Game example: "The Crusaders player activates Sablé using the Regroup Action"',
    "regroup_cost": 'Game example: "The player spends 2 Orders because of previously lost Lances"',
    "regroup_dice": 'Game example: "There is no dice to roll to resolve this Action"',
    "regroup_change": 'Game example: "Sablé becomes Uncommitted"',
    "front": 'Key Game Terms — Action / Reaction: "If this Action is also available when the Banner is Ordered"',
    "one_location": 'Key Game Terms — Status: "A Banner can have only one location on the game board but may be Committed due to an enemy Banner"',
    "recover": 'Banner and Leader activation example: "select as Action, recover 1 spent Order"',
    "seize": 'Chaos and Initiative example: "unless the Ayyubids player decides to activate their Leader"',
    "lance_order": 'Key Game Terms — Lance: "the eliminated Lances are removed from bottom to top and from left to right, by following the numbering"',
    "give": 'Key Game Terms — Lance: "A Banner that no longer has Lances on the game board is eliminated and the corresponding card is given to their opponent"',
    "plus": 'Activation — Special cases: "symbol unveiled on the game board, the cost of activating the Banner is increased by 1, 2, and so on"',
    "box": 'Game Contents: "115 wooden bars representing Lances — 59 for the Ayyubids, 56 for the Crusaders"',
}
FREE = {
    "loose_ordered": "free choice, the same on every card: shooting goes on from the back of the card",
    "melee_ordered": "free choice, the same on every card: melee goes on from the back of the card",
    "not_ordered": "free choice, the same on every card: only Loose and Melee are on the back",
    "melee_cost": "free choice, the same on every card: 1 Order, as a Loose",
    "melee_dice": "free choice, the same on every card: 1 die each way, as an Evade",
    "charge_dice": "free choice, the same on every card: 2 dice against the target, 1 against the charger",
    "loose_green": "free choice, the same on every card: a Loose hits only its target",
    "hold": "free choice, the same on every card: the 0-cost action is named Hold, any status, front only, no dice",
    "evade_cost": "free choice, the same on every card: the Reaction example spends no Ayyubid Order",
    "scenario_cost": "free choice, the same for every scenario-specific action: 1 Order",
    "scenario_status": "free choice, the same for every scenario-specific action: any status",
    "no_dice": "free choice: the paragraph mentions no Combat die",
    "lances": "free choice: the box's lances shared as evenly as the count allows, the extra ones to the banners named first in the scenario's Statuses paragraph",
    "plus_every_third": "free choice, the same on every track: a +1 symbol on every third slot but the last",
}


def cite(*keys: str) -> str:
    return " + ".join(Q[k] if k in Q else FREE[k] for k in keys)


def act(id, name, cost, status, ordered, red, green, change, target, effect=None, friendly=(), basis=None):
    return {"id": id, "name": name, "cost": cost, "status": status, "ordered": ordered, "red": red,
            "green": green, "change": change, "target": target, "effect": effect, "friendly": list(friendly),
            "basis": basis or {}}


def dice(side: str, at_target: int, at_self: int) -> tuple[int, int]:
    """(red, green): red dice hit the Ayyubid banner, green the Crusader banner."""
    return (at_target, at_self) if side == CRU else (at_self, at_target)


def hold():
    return act("hold", "Hold", 0, "any", False, 0, 0, None, "none",
               basis={"cost": cite("zero"), "name": cite("hold"), "status": cite("hold"), "ordered": cite("hold"),
                      "dice": cite("hold")})


def loose(side):
    red, green = dice(side, 1, 0)
    return act("loose", "Loose", 1, U, True, red, green, None, "enemy",
               basis={"name": cite("loose"), "cost": cite("loose_cost"), "dice": cite("loose_die", "loose_green"),
                      "status": cite("distance"), "ordered": cite("loose_ordered")})


def charge(side):
    red, green = dice(side, 2, 1)
    return act("charge", "Charge", 2, U, False, red, green, "commit", "enemy",
               basis={"name": 'Reaction example: "They decide to activate Naplouse and choose the Charge Action"',
                      "cost": cite("charge_cost"), "change": cite("charge_commits"), "status": cite("charge_commits"),
                      "dice": cite("charge_dice"), "ordered": cite("not_ordered")})


def melee(side):
    red, green = dice(side, 1, 1)
    return act("melee", "Melee", 1, C, True, red, green, None, "enemy",
               basis={"name": cite("melee"), "status": cite("melee"), "cost": cite("melee_cost"),
                      "dice": cite("melee_dice"), "ordered": cite("melee_ordered")})


def regroup():
    return act("regroup", "Regroup", 1, C, False, 0, 0, "withdraw", "none",
               basis={"name": cite("regroup"), "cost": cite("regroup_cost"), "dice": cite("regroup_dice"),
                      "change": cite("regroup_change"), "status": cite("regroup_change"),
                      "ordered": cite("not_ordered")})


def scenario_action(id, name, sentence, *, red=0, green=0, target="none", effect=None, friendly=(),
                    ordered=False, ordered_basis=None, dice_basis=None):
    return act(id, name, 1, "any", ordered, red, green, None, target, effect=effect, friendly=friendly,
               basis={"name": sentence, "effect": sentence, "cost": cite("scenario_cost"),
                      "status": cite("scenario_status"), "ordered": ordered_basis or cite("not_ordered"),
                      "dice": dice_basis or cite("no_dice")})


def evade(against, sentence):
    return {"id": "evade", "name": "Evade", "cost": 0, "against": list(against), "red": 1, "green": 1,
            "effect": None, "basis": {"name": 'Reaction example: "decides to perform their Reaction, Evade"',
                                      "dice": cite("evade_dice"), "cost": cite("evade_cost"), "against": sentence}}


def knights(side):
    """A two-location banner's card: it shoots, charges, fights in melee and regroups."""
    return [hold(), loose(side), charge(side), melee(side), regroup()]


def horse(side):
    """A single-location or never-Committed banner's card: it shoots, and fights in melee when
    an enemy brings it there."""
    return [hold(), loose(side), melee(side)]


def tgt(banner, modes, basis):
    return {"banner": banner, "modes": list(modes), "basis": basis}


def track(n: int, give: bool = True) -> list[str]:
    slots = ["+1" if i % 3 == 0 and i < n else "" for i in range(1, n + 1)]
    if give:
        slots[-1] = "give"
    return slots


def shares(total: int, names: list[str]) -> dict[str, int]:
    """``total`` lances shared as evenly as possible, the extra ones to the first names."""
    base, extra = divmod(total, len(names))
    return {name: base + (1 if i < extra else 0) for i, name in enumerate(names)}


def banner(id, name, side, lances, rule, rule_basis, card_id, *, give=True, horns_card=None, follows=None):
    basis = {"lances": cite("box", "lances"), "track": cite("lance_order", "plus", "plus_every_third"),
             "give": cite("give") if give else 'Hattin — Husam Lulu: "Husam Lulu\'s Banner is not given to the Crusaders player when it looses its last Lance"',
             "status_rule": rule_basis}
    return {"id": id, "name": name, "side": side, "track": track(lances, give), "status_rule": rule,
            "card": card_id, "horns_card": horns_card, "follows": follows, "basis": basis}


def card(id, targets, actions, reactions=(), horns=False):
    return {"id": id, "horns": horns, "targets": targets, "actions": actions, "reactions": list(reactions)}


def leader_action(id, name, once, basis):
    return {"id": id, "name": name, "once": once, "basis": basis}


RECOVER = leader_action("recover-order", "Recover 1 spent Order", False, cite("recover"))
RECOVER_FREE = leader_action("recover-order", "Recover 1 spent Order", False,
                             cite("recover") + " + free choice: every Leader card carries it")

# -- Arsuf ------------------------------------------------------------------------------------------
A_STATUS = ('Arsuf — Statuses: "the Banners of Lusignan, Henry II, Aslam and Saladin can never be Committed"',
            'Arsuf — Statuses: "Those of Sablé, Bourgogne, Richard and Naplouse have two locations"',
            'Arsuf — Statuses: "The Banners of Saphadin, Ala Afdal, Ala al Din and Soulaymân have only one location"')
A_ORDER = {CRU: ["lusignan", "henry-ii", "sable", "bourgogne", "richard", "naplouse"],
           AYY: ["aslam", "saladin", "saphadin", "ala-afdal", "ala-al-din", "soulayman"]}
ALA_TWO = 'Key Game Terms — Action / Reaction: "Ala al Din can target two named Banners"'
ALA_THREE = 'Key Game Terms — Action / Reaction: "Ala al Din can be targeted by three named Banners"'
RICHARD = 'Key Game Terms — Action / Reaction: "it can target a Banner if its status is Committed or Uncommitted"'
RICHARD_BY = ('Key Game Terms — Action / Reaction: "it can be targeted by one Banner in Reaction, and by another '
              'in Reaction or if Committed"')
SALADIN_TARGETS = 'Game example: "Saladin\'s Banner no longer has a target and is therefore removed from the game"'
FOLLOW = "free choice: a two-location Crusader banner charges it, so that its status can follow (Statuses)"
STRIKE_BACK = "free choice: it strikes back in melee at the banner that charges it"
SHOOT = "free choice: a Loose at a banner within reach, as every side shoots"


def arsuf():
    lances = {**shares(56, A_ORDER[CRU]), **shares(59 - 2, A_ORDER[AYY])}
    never, two, one = A_STATUS
    specs = [
        banner("lusignan", "Lusignan", CRU, lances["lusignan"], "never-committed", never, "lusignan"),
        banner("henry-ii", "Henry II", CRU, lances["henry-ii"], "never-committed", never, "henry-ii"),
        banner("sable", "Sablé", CRU, lances["sable"], "two-locations", two, "sable"),
        banner("bourgogne", "Bourgogne", CRU, lances["bourgogne"], "two-locations", two, "bourgogne"),
        banner("richard", "Richard", CRU, lances["richard"], "two-locations", two, "richard"),
        banner("naplouse", "Naplouse", CRU, lances["naplouse"], "two-locations", two, "naplouse"),
        banner("aslam", "Aslam", AYY, lances["aslam"], "never-committed", never, "aslam"),
        banner("saladin", "Saladin", AYY, lances["saladin"], "never-committed", never, "saladin"),
        banner("saphadin", "Saphadin", AYY, lances["saphadin"], "follows-target", one, "saphadin"),
        banner("ala-afdal", "Ala Afdal", AYY, lances["ala-afdal"], "follows-target", one, "ala-afdal"),
        banner("ala-al-din", "Ala al Din", AYY, lances["ala-al-din"], "follows-target", one, "ala-al-din"),
        banner("soulayman", "Soulaymân", AYY, lances["soulayman"], "follows-target", one, "soulayman"),
    ]
    assault = 'Arsuf — Lusignan (Assault on Arsuf): "The target of this action are the 2 Ayyubids Lances located in front of Arsuf"'
    cards = [
        card("lusignan", [tgt("arsuf", [U], assault),
                          tgt("ala-al-din", [U], ALA_THREE + " (Richard, Bourgogne and Lusignan: free choice of the third)"),
                          tgt("aslam", [U], SHOOT)],
             [hold(), loose(CRU),
              scenario_action("assault-arsuf", "Assault on Arsuf", assault, red=2, green=1, target="arsuf",
                              effect="assault-arsuf", dice_basis=cite("charge_dice") + " (an assault is a charge)")]),
        card("henry-ii", [tgt("ala-afdal", [U], 'Banner and Leader activation example: "They choose the Loose Action, targeting the Ayyubids Banner of Ala Afdal"'),
                          tgt("saphadin", [U], SHOOT)],
             [hold(), loose(CRU),
              scenario_action("shield-wall", "Shield wall", 'Arsuf — Henry II (Shield wall): "The Crusaders player places on the game board the Shield wall marker in front of the locations of Henry II\'s Lances"',
                              effect="shield-wall")]),
        card("sable", [tgt("saphadin", [U, C], 'Game example: "Therefore, the status of the Banner of Saphadin changes from Committed to Uncommitted"')],
             knights(CRU)),
        card("bourgogne", [tgt("ala-al-din", [U, C], ALA_THREE),
                           tgt("saladin", [U], SALADIN_TARGETS + " (Richard and Bourgogne)"),
                           tgt("ala-afdal", [U, C], FOLLOW)],
             knights(CRU)),
        card("richard", [tgt("ala-al-din", [U, C], RICHARD + " + " + ALA_THREE),
                         tgt("saladin", [U], RICHARD_BY + " (RULES_NOTES.md, reading 21)")],
             knights(CRU)),
        card("naplouse", [tgt("soulayman", [U, C], 'Reaction example: "target Sulaymân, the only Banner that can be targeted"')],
             knights(CRU)),
        card("aslam", [tgt("lusignan", [U], SHOOT), tgt("henry-ii", [U], SHOOT)],
             [hold(), loose(AYY),
              scenario_action("reinforce", "Reinforce", 'Arsuf — Aslam (Reinforce): "The Banner of Aslam places 1 of its Lances on the location of the last lost Lance of the Ala Afdal or Ala al Din Banners"',
                              target="friendly", effect="reinforce", friendly=["ala-afdal", "ala-al-din"]),
              scenario_action("reinforce-arsuf", "Reinforce Arsuf", 'Arsuf — Aslam (Reinforce Arsuf): "The Banner of Aslam places 1 of its Lances on the location of the last lost Lance in Arsuf"',
                              effect="reinforce-arsuf")]),
        card("saladin", [tgt("richard", [R], RICHARD_BY + " + " + SALADIN_TARGETS),
                         tgt("bourgogne", [U], SALADIN_TARGETS)],
             [hold(), loose(AYY),
              scenario_action("sacrifice", "Sacrifice", 'Arsuf — Saladin (Sacrifice): "The Crusaders player must place 1 Order in the Spent Orders Pool, then Saladin\'s Banner suffers the adverse effects of 2 Combat dice"',
                              red=2, effect="sacrifice", dice_basis='Arsuf — Saladin (Sacrifice): "suffers the adverse effects of 2 Combat dice"')],
             [evade(["loose"], RICHARD_BY + " + free choice: Richard can only Loose at Saladin, who can never be Committed")]),
        card("saphadin", [tgt("sable", [U, C, R], 'Game example: "Therefore, the status of the Banner of Saphadin changes from Committed to Uncommitted" + ' + STRIKE_BACK),
                          tgt("henry-ii", [U], SHOOT)],
             horse(AYY), [evade(["charge"], cite("evade_against") + " + free choice: every banner a Charge can reach may Evade it")]),
        card("ala-afdal", [tgt("henry-ii", [U], SHOOT), tgt("bourgogne", [U, C], STRIKE_BACK)], horse(AYY)),
        card("ala-al-din", [tgt("richard", [R, C], ALA_TWO + " + " + RICHARD_BY),
                            tgt("bourgogne", [U, C], ALA_TWO + " + " + STRIKE_BACK)],
             horse(AYY), [evade(["charge"], RICHARD_BY + " + " + cite("evade_against"))]),
        card("soulayman", [tgt("naplouse", [R, U, C], 'Reaction example: "Sulaymân can target Naplouse in Reaction" + ' + STRIKE_BACK)],
             horse(AYY), [evade(["charge"], cite("evade_against"))]),
    ]
    leaders = [
        {"id": "richard-lionheart", "name": "Richard the Lionheart", "side": CRU, "actions": [RECOVER_FREE]},
        {"id": "saladin-arsuf", "name": "Saladin", "side": AYY,
         "actions": [leader_action("seize-initiative", "Seize the initiative", False, cite("seize")), RECOVER]},
    ]
    return {
        "orders": {CRU: {"available": 11, "reserve": 1}, AYY: {"available": 12, "reserve": 0}},
        "orders_basis": 'Arsuf — Special rules: "Crusaders — Arsuf pieces and Banner cards, 11 available Orders + 1 in Arsuf" + "Ayyubids — Arsuf pieces and Banner cards, 12 available Orders"',
        "initiative_tie": CRU,
        "arsuf_lances": 2,
        "specs": specs,
        "cards": cards,
        "leaders": leaders,
    }


# -- Hattin -----------------------------------------------------------------------------------------
H_STATUS = ('Hattin — Statuses: "The Banners of Ridefort and Husam Lulu can never be Committed"',
            'Hattin — Statuses: "Those of D\'Ibelin, Naplouse, Châtillon, Raymond III and Saladin have two locations"',
            'Hattin — Statuses: "The Banners of Keukburi, Saphadin, Manguras and Taqui al Din have only one location"',
            'Hattin — Statuses: "On the one it occupies at the beginning of the scenario, Lusignan is always Uncommitted"')
H_ORDER = {CRU: ["ridefort", "d-ibelin", "naplouse", "chatillon", "raymond-iii", "lusignan"],
           AYY: ["husam-lulu", "saladin", "keukburi", "saphadin", "manguras", "taqui-al-din"]}
ONLY_SALADIN = 'Hattin — Statuses: "it will have the same status as the Banner of Saladin which is the only one that can target it"'
HORNS_CARDS = 'Hattin — Cards: "the Banners of Lusignan, Châtillon, Saladin and Manguras each have two cards"'
TAQUI = 'Hattin — Taqui al Din: "In the event of a Charge or Uncontrolled Charge by the Banner of Raymond III"'


def hattin():
    lances = {**shares(56, H_ORDER[CRU]), **shares(59, H_ORDER[AYY])}
    never, two, one, camp = H_STATUS
    specs = [
        banner("lusignan", "Lusignan", CRU, lances["lusignan"], "camp-then-horns", camp + " + " + ONLY_SALADIN,
               "lusignan", horns_card="lusignan-horns", follows="saladin"),
        banner("ridefort", "Ridefort", CRU, lances["ridefort"], "never-committed", never, "ridefort"),
        banner("d-ibelin", "D'Ibelin", CRU, lances["d-ibelin"], "two-locations", two, "d-ibelin"),
        banner("naplouse", "Naplouse", CRU, lances["naplouse"], "two-locations", two, "naplouse"),
        banner("chatillon", "Châtillon", CRU, lances["chatillon"], "two-locations", two, "chatillon",
               horns_card="chatillon-horns"),
        banner("raymond-iii", "Raymond III", CRU, lances["raymond-iii"], "two-locations", two, "raymond-iii"),
        banner("husam-lulu", "Husam Lulu", AYY, lances["husam-lulu"], "never-committed", never, "husam-lulu",
               give=False),
        banner("saladin", "Saladin", AYY, lances["saladin"], "two-locations", two, "saladin",
               horns_card="saladin-horns"),
        banner("keukburi", "Keukburi", AYY, lances["keukburi"], "follows-target", one, "keukburi"),
        banner("saphadin", "Saphadin", AYY, lances["saphadin"], "follows-target", one, "saphadin"),
        banner("manguras", "Manguras", AYY, lances["manguras"], "follows-target", one, "manguras",
               horns_card="manguras-horns"),
        banner("taqui-al-din", "Taqui al Din", AYY, lances["taqui-al-din"], "follows-target", one, "taqui-al-din"),
    ]
    shield = scenario_action("shield-wall", "Shield wall", 'Hattin — Lusignan (Shield wall): "The Crusaders player places on the game board the Shield wall marker in front of the locations of Lusignan\'s Lances"',
                             effect="shield-wall")
    reinforce_saladin = scenario_action(
        "reinforce", "Reinforce", 'Hattin — Saladin / Ridefort (Reinforce): "The Banner of Saladin or Ridefort places 1 of its Lances on the location of the last lost Lance of the Banner of Saphadin or Manguras for Saladin, and Lusignan for Ridefort"',
        target="friendly", effect="reinforce", friendly=["saphadin", "manguras"])
    reinforce_ridefort = dict(reinforce_saladin, friendly=["lusignan"])
    uncontrolled = act("uncontrolled-charge", "Uncontrolled Charge", 1, U, False, *dice(CRU, 2, 1), "commit", "enemy",
                       basis={"name": TAQUI, "cost": "free choice: 1 Order, one fewer than a Charge",
                              "dice": cite("charge_dice"), "change": cite("charge_commits") + " (a charge)",
                              "status": cite("charge_commits"), "ordered": cite("not_ordered")})
    saladin_targets = [tgt("ridefort", [U], SHOOT), tgt("d-ibelin", [U, C], "free choice: Saladin's own charge")]
    saladin_horns_targets = [tgt("lusignan", [U, C], ONLY_SALADIN), tgt("ridefort", [U], SHOOT)]
    saladin_actions = knights(AYY) + [reinforce_saladin]
    fire = 'Hattin — Husam Lulu (Set Fire): "Husam Lulu\'s Banner places the Fire marker on the game board in front of the locations of Husam Lulu\'s Lances"'
    feed = 'Hattin — Husam Lulu (Feed Fire): "To perform this Action, the Fire marker must be on the game board"'
    cards = [
        card("lusignan", [tgt("manguras", [U], SHOOT)], [hold(), loose(CRU), shield]),
        card("lusignan-horns", [tgt("saladin", [U, C], ONLY_SALADIN + " + " + STRIKE_BACK)],
             [hold(), loose(CRU), melee(CRU), shield], horns=True),
        card("ridefort", [tgt("husam-lulu", [U], SHOOT), tgt("keukburi", [U], SHOOT), tgt("saphadin", [U], SHOOT)],
             [hold(), loose(CRU), reinforce_ridefort]),
        card("d-ibelin", [tgt("keukburi", [U, C], FOLLOW), tgt("saladin", [C], STRIKE_BACK)], knights(CRU)),
        card("naplouse", [tgt("saphadin", [U, C], FOLLOW)], knights(CRU)),
        card("chatillon", [tgt("manguras", [U, C], FOLLOW)], knights(CRU)),
        card("chatillon-horns", [tgt("manguras", [U, C], FOLLOW), tgt("saladin", [C], HORNS_CARDS + " + " + STRIKE_BACK)],
             knights(CRU), horns=True),
        card("raymond-iii", [tgt("taqui-al-din", [U, C], TAQUI)],
             [hold(), loose(CRU), charge(CRU), uncontrolled, melee(CRU), regroup()]),
        card("husam-lulu", [tgt("ridefort", [U], SHOOT), tgt("naplouse", [U], SHOOT)],
             [hold(), loose(AYY),
              scenario_action("set-fire", "Set Fire", fire, effect="set-fire"),
              scenario_action("feed-fire", "Feed Fire", feed, effect="feed-fire", ordered=True,
                              ordered_basis='Hattin — Husam Lulu (Feed Fire): "If at the end of the turn, the Fire marker is still on the board and Husam Lulu\'s Banner has not performed the Feed Fire Action, the marker is removed" (Set Fire turns the card Ordered, so Feed Fire is on the back or never usable)')]),
        card("saladin", saladin_targets, saladin_actions),
        card("saladin-horns", saladin_horns_targets, saladin_actions, horns=True),
        card("keukburi", [tgt("d-ibelin", [U, C, R], STRIKE_BACK), tgt("ridefort", [U], SHOOT)], horse(AYY),
             [evade(["charge"], cite("evade_against"))]),
        card("saphadin", [tgt("naplouse", [U, C, R], STRIKE_BACK), tgt("ridefort", [U], SHOOT)], horse(AYY),
             [evade(["charge"], cite("evade_against"))]),
        card("manguras", [tgt("chatillon", [U, C], STRIKE_BACK), tgt("lusignan", [U], SHOOT)], horse(AYY)),
        card("manguras-horns", [tgt("chatillon", [U, C], STRIKE_BACK), tgt("ridefort", [U], ONLY_SALADIN + " (no longer Lusignan)")],
             horse(AYY), horns=True),
        card("taqui-al-din", [tgt("raymond-iii", [U, C, R], TAQUI)], horse(AYY),
             [{"id": "open-ranks", "name": "Open ranks", "cost": 0, "against": ["charge", "uncontrolled-charge"],
               "red": 1, "green": 0, "effect": "two-lances-to-box",
               "basis": {"against": TAQUI, "dice": 'Hattin — Taqui al Din: "the Banner of Taqui al Din undergoes the effects of 1 Combat die"',
                         "effect": 'Hattin — Taqui al Din: "The Banner of Raymond III must remove 2 Lances that are placed back directly in the game box"',
                         "name": "free choice: the paragraph names no action", "cost": cite("evade_cost")}}]),
    ]
    leaders = [
        {"id": "guy-de-lusignan", "name": "Guy de Lusignan", "side": CRU,
         "actions": [leader_action("horns", "To the Horns of Hattin", True, 'Hattin — Lusignan (Leader): "Once per game, the Crusaders player can activate their leader Lusignan"'),
                     RECOVER_FREE]},
        {"id": "saladin-hattin", "name": "Saladin", "side": AYY,
         "actions": [RECOVER_FREE,
                     leader_action("order-loss", "The True Cross is taken", True, 'Hattin — Saladin (Leader): "Once per game, if the Lusignan\'s Banner has moved to the Horns of Hattin or is eliminated"')]},
    ]
    return {
        "orders": {CRU: {"available": 12, "reserve": 0}, AYY: {"available": 12, "reserve": 0}},
        "orders_basis": 'Hattin — Special rules: "Crusaders — Hattin pieces and Banner cards, 12 available Orders" + "Ayyubids — Hattin pieces and Banner cards, 12 available Orders"',
        "initiative_tie": AYY,
        "arsuf_lances": 0,
        "specs": specs,
        "cards": cards,
        "leaders": leaders,
    }


def document(scenario: str, raw: dict) -> dict:
    tie = {"arsuf": 'Arsuf — Special rules: "Initiative in case of a tie — Crusaders"',
           "hattin": 'Hattin — Special rules: "Initiative in case of a tie — Ayyubids"'}[scenario]
    return {
        "_header": HEADER,
        "scenario": scenario,
        "order_tokens_per_side": 13,
        "orders": raw["orders"],
        "initiative_tie": raw["initiative_tie"],
        "arsuf_lances": raw["arsuf_lances"],
        "banners": raw["specs"],
        "cards": raw["cards"],
        "leaders": raw["leaders"],
        "basis": {"order_tokens_per_side": 'Game Contents: "26 wooden Order tokens — 13 for the Ayyubids, 13 for the Crusaders"',
                  "orders": raw["orders_basis"], "initiative_tie": tie,
                  "arsuf_lances": 'Arsuf — Special rules: "the Crusaders player recovers a twelfth Order as soon as the two Ayyubids Lances in Arsuf are eliminated"'},
    }


def main() -> None:
    for name, build in (("arsuf", arsuf), ("hattin", hattin)):
        text = json.dumps(document(name, build()), indent=1, ensure_ascii=False) + "\n"
        (HERE / f"{name}.json").write_text(text, encoding="utf-8")
    from domain.rules.saladin.owner_cards import SCHEMA  # the published JSON Schema of such a file

    (HERE / "cards.schema.json").write_text(json.dumps(SCHEMA, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
