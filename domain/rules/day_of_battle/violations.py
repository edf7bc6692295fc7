"""Every code a RuleViolation of Day of Battle carries (domain/rules/base.py, "Violations"),
with what its detail says (as written: … stands for what the command names) and the rulebook
sections it is raised under: its problem page (GET /problems/<code>). tests/api/test_problem_pages.py
finds every code this package raises declared here; tests/rules/conformance.py every code raised in play."""

from __future__ import annotations

from domain.rules.base import Violation

VIOLATIONS: dict[str, Violation] = {
    "day-of-battle.already_dismounted": Violation(
        "knights dismount once; they fight on foot for the rest of the battle",
        rules=("1-3",)),
    "day-of-battle.bad_army_profile": Violation(
        "army profiles: ……",
        rules=("1-1",)),
    "day-of-battle.bad_casualties": Violation(
        "casualties are at least 1 figure",
        rules=("core rules (see RULES_NOTES.md)",)),
    "day-of-battle.bad_decision": Violation(
        "say the decision in 1 to 500 characters",
        rules=("core rules (see RULES_NOTES.md)",)),
    "day-of-battle.bad_dice": Violation(
        "state 1 to … dice, not …",
        rules=("core rules: players' statement (see RULES_NOTES.md)",)),
    "day-of-battle.bad_option": Violation(
        "options: …",
        rules=("1-1",)),
    "day-of-battle.bad_range": Violation(
        "a range is a positive number of inches",
        rules=("1-8", "1-9")),
    "day-of-battle.bad_seats": Violation(
        "… is fought by …",
        rules=("1-1",)),
    "day-of-battle.bad_target_number": Violation(
        "a target number from 0 to 20 (on a d20), not …",
        rules=("core rules: players' statement (see RULES_NOTES.md)",)),
    "day-of-battle.combat_pending": Violation(
        "the units in combat roll their dice first: fight",
        rules=("core rules: players' statement (see RULES_NOTES.md)",)),
    "day-of-battle.contact_horse_holders": Violation(
        "horse holders are contacted, not charged: contact-horse-holders",
        rules=("1-3",)),
    "day-of-battle.either_or": Violation(
        '… was ordered to fire this move: "It must be either or but not both"',
        rules=("1-8",)),
    "day-of-battle.end_needs_outcome": Violation(
        "an end-of-battle ruling says who won (or a draw)",
        rules=("core rules (see RULES_NOTES.md)",)),
    "day-of-battle.end_needs_topic": Violation(
        "only an end-of-battle ruling ends the battle",
        rules=("core rules (see RULES_NOTES.md)",)),
    "day-of-battle.fire_pending": Violation(
        "the target of the fire answers first: return-fire or hold-fire",
        rules=("1-9",)),
    "day-of-battle.horse_holders_too_far": Violation(
        'the horse holders must be placed within 3" of the knights, not …"',
        rules=("1-3",)),
    "day-of-battle.leader_drawn": Violation(
        "… is already drawn",
        rules=("1-4",)),
    "day-of-battle.leader_lost": Violation(
        "… is … and gives no orders",
        rules=("core rules: players' statement (see RULES_NOTES.md)",)),
    "day-of-battle.leaders_drawn": Violation(
        "every leader is already drawn",
        rules=("1-4",)),
    "day-of-battle.move_begun": Violation(
        "the game move has begun",
        rules=("core rules (see RULES_NOTES.md)",)),
    "day-of-battle.move_not_begun": Violation(
        "begin the game move first: initiative and command cards",
        rules=("core rules (see RULES_NOTES.md)",)),
    "day-of-battle.no_charge_pending": Violation(
        "no charge awaits a response",
        rules=("1-2",)),
    "day-of-battle.no_combat": Violation(
        "no combat awaits its dice",
        rules=("core rules: players' statement (see RULES_NOTES.md)",)),
    "day-of-battle.no_fire_pending": Violation(
        "no fire awaits an answer",
        rules=("1-9",)),
    "day-of-battle.no_missile_weapon": Violation(
        "… has no missile weapon",
        rules=("1-9",)),
    "day-of-battle.no_skirmish_weapons": Violation(
        "… has no integral skirmish weapons (Note 8)",
        rules=("1-8",)),
    "day-of-battle.no_square": Violation(
        "Eastern spearmen may not form square",
        rules=("1-6",)),
    "day-of-battle.no_such_deed": Violation(
        "honour deeds are …",
        rules=("core rules (see RULES_NOTES.md)",)),
    "day-of-battle.no_such_leader": Violation(
        "no leader …",
        rules=("core rules (see RULES_NOTES.md)", "core rules: players' statement (see RULES_NOTES.md)")),
    "day-of-battle.no_such_ruling": Violation(
        "no ruling … awaits an answer",
        rules=("core rules (see RULES_NOTES.md)",)),
    "day-of-battle.no_such_seat": Violation(
        "no seat …",
        rules=("core rules (see RULES_NOTES.md)",)),
    "day-of-battle.no_such_unit": Violation(
        "no unit …",
        rules=("core rules (see RULES_NOTES.md)", "core rules: players' statement (see RULES_NOTES.md)")),
    "day-of-battle.not_an_enemy_unit": Violation(
        "… is not a unit of an army facing …"),
    "day-of-battle.not_before_battle": Violation(
        "… comes once the battle begins",
        rules=("core rules (see RULES_NOTES.md)",)),
    "day-of-battle.not_deployable": Violation(
        "horse holders are placed when knights dismount",
        rules=("1-3",)),
    "day-of-battle.not_deploying": Violation(
        "draw every leader before deploying",
        rules=("1-1.2",)),
    "day-of-battle.not_enough_command_points": Violation(
        "… has … command points; a … costs …"),
    "day-of-battle.not_fighting_now": Violation(
        "… rolls its combat dice now",
        rules=("core rules: players' statement (see RULES_NOTES.md)",)),
    "day-of-battle.not_horse_archers": Violation(
        "1-10 A's ways to fall back are the horse archers'",
        rules=("1-10",)),
    "day-of-battle.not_horse_holders": Violation(
        "… are not horse holders",
        rules=("1-3",)),
    "day-of-battle.not_in_battle": Violation(
        "… comes before the battle",
        rules=("core rules (see RULES_NOTES.md)",)),
    "day-of-battle.not_mounted_knights": Violation(
        "… are not knights that began the game mounted",
        rules=("1-3",)),
    "day-of-battle.not_your_leader": Violation(
        "… is not a leader of the … army",
        rules=("1-4",)),
    "day-of-battle.not_your_unit": Violation(
        "… is not a unit of the … army"),
    "day-of-battle.off_table": Violation(
        '(…", …") is off the table',
        rules=("1-1",)),
    "day-of-battle.out_of_range": Violation(
        '… reaches …"; … is …" away',
        rules=("1-9",)),
    "day-of-battle.outside_deployment_zone": Violation(
        "…: …",
        rules=("1-1.2",)),
    "day-of-battle.response_not_on_chart": Violation(
        "… charged: the response chart allows …"),
    "day-of-battle.ruling_pending": Violation(
        "ruling … awaits an answer first",
        rules=("core rules (see RULES_NOTES.md)",)),
    "day-of-battle.same_formation": Violation(
        "… is already in …",
        rules=("core rules (see RULES_NOTES.md)",)),
    "day-of-battle.say_how": Violation(
        '1-10 A: say how the horse archers fall back (15" away, into rough or difficult terrain, or through a'
        " supporting friend in good order)",
        rules=("1-10",)),
    "day-of-battle.say_where": Violation(
        "say where … stands after (…): a point on the table",
        rules=("1-2",)),
    "day-of-battle.scouting_byzantine_only": Violation(
        "only the Byzantine army may initiate scouting as a pre-battle function",
        rules=("1-7",)),
    "day-of-battle.scouting_decided": Violation(
        "the Byzantine player has already decided on scouting",
        rules=("1-7",)),
    "day-of-battle.target_not_on_table": Violation(
        "… is not on the table"),
    "day-of-battle.unit_cannot_act": Violation(
        "… is … and takes no orders",
        rules=("1-3",)),
    "day-of-battle.units_not_deployed": Violation(
        "not yet deployed: …",
        rules=("1-1.2",)),
}
