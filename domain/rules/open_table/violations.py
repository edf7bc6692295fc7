"""Every code a RuleViolation of Open table carries (domain/rules/base.py, "Violations"),
with what its detail says (as written: … stands for what the command names) and the rulebook
sections it is raised under: its problem page (GET /problems/<code>). tests/api/test_problem_pages.py
finds every code this package raises declared here; tests/rules/conformance.py every code raised in play."""

from __future__ import annotations

from domain.rules.base import Violation

VIOLATIONS: dict[str, Violation] = {
    "open-table.bad_dice": Violation(
        "…",
        rules=("open table: roll",)),
    "open-table.bad_option": Violation(
        "options: …",
        rules=("open table: options",)),
    "open-table.bad_outcome": Violation(
        "an outcome names a winner or says draw, not both nor neither",
        rules=("open table: end",)),
    "open-table.empty_hand": Violation(
        "… has no cards in hand",
        rules=("open table: hands",)),
    "open-table.not_enough_cards": Violation(
        "… has … card(s) left; draw 1 to …",
        rules=("open table: draw",)),
    "open-table.not_in_hand": Violation(
        "… has no … in hand to …",
        rules=("open table: hands",)),
    "open-table.text_too_long": Violation(
        "a … is at most … characters",
        rules=("open table",)),
    "open-table.unknown_deck": Violation(
        "no deck …; decks: …",
        rules=("open table: decks",)),
    "open-table.unknown_seat_in_outcome": Violation(
        "no such seat(s): …",
        rules=("open table: end",)),
}
