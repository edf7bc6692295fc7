"""Every code a RuleViolation of Saxon Shore carries (domain/rules/base.py, "Violations"),
with what its detail says (as written: … stands for what the command names) and the rulebook
sections it is raised under: its problem page (GET /problems/<code>). tests/api/test_problem_pages.py
finds every code this package raises declared here; tests/rules/conformance.py every code raised in play."""

from __future__ import annotations

from domain.rules.base import Violation

VIOLATIONS: dict[str, Violation] = {
    "saxon-shore.already_built": Violation(
        "… already has a …"),
    "saxon-shore.already_nominated": Violation(
        "… already raised peasants this turn"),
    "saxon-shore.bad_boat_places": Violation(
        "two boats in one province, or one boat in each of two provinces"),
    "saxon-shore.bad_declaration": Violation(
        "only an invasion is paid for",
        rules=("8",)),
    "saxon-shore.bad_group": Violation(
        "name one or more distinct units",
        rules=("7",)),
    "saxon-shore.bad_map": Violation(
        "the map breaks … rule(s): ……",
        rules=("1",)),
    "saxon-shore.bad_option": Violation(
        "turn_limit (a house rule) is 1..1000 turns, or null",
        rules=("1", "12")),
    "saxon-shore.bad_path": Violation(
        "a path names at least one step",
        rules=("7",)),
    "saxon-shore.bad_seats": Violation(
        "Saxon Shore takes 2 to 5 of the seats p1..p5",
        rules=("1",)),
    "saxon-shore.bad_trade": Violation(
        "a trade moves at least one token"),
    "saxon-shore.bad_trade_partner": Violation(
        "offer a trade to another player still in the game"),
    "saxon-shore.blocked_border": Violation(
        "the … border between … and … is impassable without a … path (§7, §11 12)",
        rules=("7",)),
    "saxon-shore.boat_full": Violation(
        "a boat carries two units (a mounted knight counts as two)",
        rules=("7",)),
    "saxon-shore.cannot_pay": Violation(
        "… does not hold …"),
    "saxon-shore.cannot_raid": Violation(
        "provinces with a carrying capacity of zero cannot be raided",
        rules=("8",)),
    "saxon-shore.choose_expected": Violation(
        "answer the … question with choose",
        rules=("2.2",)),
    "saxon-shore.christians_only": Violation(
        "only Christians may build a monastery"),
    "saxon-shore.city_taken": Violation(
        "a resource is already placed in …: one per city"),
    "saxon-shore.halted": Violation(
        "units that entered a non-friendly province must stop (§7)",
        rules=("7",)),
    "saxon-shore.heresy": Violation(
        "heresy: you must convert to a different religion this phase (§11 56)",
        rules=("11",)),
    "saxon-shore.invasion_cost": Violation(
        "an invasion costs one resource of any kind",
        rules=("8",)),
    "saxon-shore.morale_limit": Violation(
        "morale may be increased once per province per turn, and not above high"),
    "saxon-shore.must_declare": Violation(
        "state whether your troops in … RAID or INVADE",
        rules=("8",)),
    "saxon-shore.must_stop": Violation(
        "units entering non-friendly … must stop there (§7)",
        rules=("7",)),
    "saxon-shore.needs_boat": Violation(
        "troops at sea move only with boats",
        rules=("7",)),
    "saxon-shore.no_capacity": Violation(
        "… has no carrying capacity"),
    "saxon-shore.no_city": Violation(
        "… has no city"),
    "saxon-shore.no_forced_march": Violation(
        "you hold no forced march this turn (§11 54)",
        rules=("11",)),
    "saxon-shore.no_monastery": Violation(
        "… has no monastery"),
    "saxon-shore.no_movement_points": Violation(
        "not enough movement points (§7)",
        rules=("7",)),
    "saxon-shore.no_ravage": Violation(
        "… has no ravage marker"),
    "saxon-shore.no_troops_there": Violation(
        "… has no troops in … to hire the mercenary"),
    "saxon-shore.no_units": Violation(
        "… has no units able to move at …",
        rules=("11",)),
    "saxon-shore.not_adjacent": Violation(
        "… does not border …",
        rules=("7",)),
    "saxon-shore.not_an_option": Violation(
        "… is not an answer now; the options: …",
        rules=("2.2",)),
    "saxon-shore.not_coastal": Violation(
        "… has no coast on …"),
    "saxon-shore.not_for_hire": Violation(
        "unit … is not an unhired mercenary"),
    "saxon-shore.not_your_peasant": Violation(
        "unit … is not one of …'s peasants"),
    "saxon-shore.not_your_province": Violation(
        "… is not …'s"),
    "saxon-shore.not_your_unit": Violation(
        "unit … is not one of …'s units",
        rules=("7",)),
    "saxon-shore.nothing_to_declare": Violation(
        "… has no undeclared troops in non-friendly …",
        rules=("8",)),
    "saxon-shore.option_off": Violation(
        "warrior monks are an optional rule not in play"),
    "saxon-shore.too_many_monks": Violation(
        "one warrior monk per monastery owned"),
    "saxon-shore.too_many_regulars": Violation(
        "regulars on the map may not exceed the provinces owned"),
    "saxon-shore.unknown_province": Violation(
        "no province …"),
    "saxon-shore.unknown_resource": Violation(
        "resources are …"),
    "saxon-shore.wild_province": Violation(
        "boat units cannot end their movement in a wild province (…, §7)",
        rules=("7",)),
    "saxon-shore.wrong_cost": Violation(
        "a … costs …"),
    "saxon-shore.wrong_phase": Violation(
        "… is not a command of the … phase"),
}
