"""Every code a RuleViolation of Saline carries (domain/rules/base.py, "Violations"),
with what its detail says (as written: … stands for what the command names) and the rulebook
sections it is raised under: its problem page (GET /problems/<code>). tests/api/test_problem_pages.py
finds every code this package raises declared here; tests/rules/conformance.py every code raised in play."""

from __future__ import annotations

from domain.rules.base import Violation

VIOLATIONS: dict[str, Violation] = {
    "saline.action_first": Violation(
        "take one action (buy, harvest, sell or do nothing) first",
        rules=("A) Turn Structure, 2) Day",)),
    "saline.already_set_up": Violation(
        "the game is already set up",
        rules=("Setup",)),
    "saline.answer_first": Violation(
        "a card was just played: answer it or pass",
        rules=("B) Play a Card and Claim an Objective, 1) Play an Event Card",)),
    "saline.answer_only": Violation(
        "only a card that answers (Souverain, Courtisane, Gabelou) may be played now",
        rules=("B) Play a Card and Claim an Objective, 1) Play an Event Card",)),
    "saline.bad_cards": Violation(
        "cards: ……",
        rules=("Components",)),
    "saline.bad_option": Violation(
        "options: …",
        rules=("Components",)),
    "saline.bad_seats": Violation(
        "2 to 4 players in seats p1, p2, p3, p4, in that order",
        rules=("Foire Aux Questions (FAQ)",)),
    "saline.cannot_pay": Violation(
        "… costs … liards; you have …",
        rules=("A) Turn Structure, 2) Day", "B) Play a Card and Claim an Objective, 1) Play an Event Card")),
    "saline.card_not_in_hand": Violation(
        "… is not in your hand",
        rules=("A) Turn Structure, 3) Night", "B) Play a Card and Claim an Objective, 1) Play an Event Card")),
    "saline.choices": Violation(
        "… takes …",
        rules=("B) Play a Card and Claim an Objective, 1) Play an Event Card",)),
    "saline.colour": Violation(
        "the colours are …",
        rules=("A) Turn Structure, 2) Day", "Components")),
    "saline.discard": Violation(
        "discard down to the hand limit of 2 cards first",
        rules=("A) Turn Structure, 3) Night",)),
    "saline.drawn_tonight": Violation(
        "drawing event cards indicates the end of the player's turn: a card drawn in the night phase is not "
        "played this turn",
        rules=("Foire Aux Questions (FAQ)",)),
    "saline.eight_oeillets": Violation(
        "the maximum number of œillets per player is 8",
        rules=("Foire Aux Questions (FAQ)",)),
    "saline.favour_used": Violation(
        "your favour card can be used only once during the game",
        rules=("B) Play a Card and Claim an Objective, 2) Play a Favour",)),
    "saline.gabelou": Violation(
        "play Gabelou just after a Faux-saunier is placed",
        rules=("Foire Aux Questions (FAQ)",)),
    "saline.no_oeillet": Violation(
        "market space … holds no œillet",
        rules=("A) Turn Structure, 2) Day",)),
    "saline.no_sacrifice": Violation(
        "an œillet is sacrificed only when the gabelle cannot be paid",
        rules=("Foire Aux Questions (FAQ)",)),
    "saline.no_salt": Violation(
        "there is no salt on your mulon to sell",
        rules=("A) Turn Structure, 2) Day",)),
    "saline.no_such_effect": Violation(
        "… has no effect …",
        rules=("B) Play a Card and Claim an Objective, 1) Play an Event Card",)),
    "saline.not_day": Violation(
        "actions are taken in the day phase",
        rules=("A) Turn Structure, 2) Day",)),
    "saline.not_night": Violation(
        "event cards are drawn in the night phase",
        rules=("A) Turn Structure, 3) Night",)),
    "saline.not_now": Violation(
        "… is not possible now",
        rules=("A) Turn Structure, 2) Day",)),
    "saline.nothing_to_answer": Violation(
        "… answers a card just played",
        rules=("Foire Aux Questions (FAQ)",)),
    "saline.one_action": Violation(
        "each player takes one action",
        rules=("A) Turn Structure, 2) Day",)),
    "saline.out_of_turn": Violation(
        "…'s … waits: play a card bearing the triangle, or your favour, or pass",
        rules=("B) Play a Card and Claim an Objective, 1) Play an Event Card",)),
    "saline.outcome": Violation(
        "the gabelle die moves at most … either way",
        rules=("Components",)),
    "saline.place_green": Violation(
        "place your green œillet around your mulon first",
        rules=("Setup",)),
    "saline.position": Violation(
        "place the œillet on a free place around your mulon (…)",
        rules=("A) Turn Structure, 2) Day", "Foire Aux Questions (FAQ)", "Setup")),
    "saline.sacrifice": Violation(
        "you cannot pay the gabelle: sacrifice 1 œillet of your choice first",
        rules=("Foire Aux Questions (FAQ)",)),
    "saline.set_up_first": Violation(
        "set the game up first",
        rules=("Setup",)),
    "saline.target": Violation(
        "the target is an opponent",
        rules=("B) Play a Card and Claim an Objective, 1) Play an Event Card",)),
    "saline.triangle_only": Violation(
        "out of your turn only cards bearing the triangle symbol (or your favour) may be played: 'Cards "
        "bearing the triangle symbol may be played at any time'; … is a … card",
        rules=("B) Play a Card and Claim an Objective, 1) Play an Event Card",)),
    "saline.two_cards": Violation(
        "during the game turn, you may play one, or even two, event cards",
        rules=("B) Play a Card and Claim an Objective, 1) Play an Event Card",)),
    "saline.wrong_phase": Violation(
        "… is a … card; it is the …",
        rules=("B) Play a Card and Claim an Objective, 1) Play an Event Card",)),
}
