"""Every code a RuleViolation of The Kingdoms of Crusaders carries (domain/rules/base.py, "Violations"),
with what its detail says (as written: … stands for what the command names) and the rulebook
sections it is raised under: its problem page (GET /problems/<code>). tests/api/test_problem_pages.py
finds every code this package raises declared here; tests/rules/conformance.py every code raised in play."""

from __future__ import annotations

from domain.rules.base import Violation

VIOLATIONS: dict[str, Violation] = {
    "kingdoms-of-crusaders.already_prepared": Violation(
        "the game is already prepared",
        rules=("Preparation for a game",)),
    "kingdoms-of-crusaders.bad_deck": Violation(
        "unit deck: ……",
        rules=("Unit Cards",)),
    "kingdoms-of-crusaders.bad_option": Violation(
        "options: …",
        rules=("Winner by the points",)),
    "kingdoms-of-crusaders.bad_seats": Violation(
        "2 to 4 players in seats p1, p2, p3, p4, in that order",
        rules=("Turn sequence",)),
    "kingdoms-of-crusaders.card_not_in_hand": Violation(
        "… is not in your hand",
        rules=("Turn sequence",)),
    "kingdoms-of-crusaders.no_such_sector": Violation(
        "sectors are numbered 1 to …, not …",
        rules=("Location card",)),
    "kingdoms-of-crusaders.not_prepared": Violation(
        "prepare the game first: shuffle and deal",
        rules=("Preparation for a game",)),
    "kingdoms-of-crusaders.sector_full": Violation(
        "your sector … already holds … cards",
        rules=("Location card",)),
}
