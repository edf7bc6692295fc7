"""The table: its size (1-1) and where each army may deploy (1-1.2).

Positions are declared in inches: ``x`` across the table from the deploying army's left flank
edge, ``y`` in from its own rear edge (RULES_NOTES.md, "Positions").
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

from domain.rules.day_of_battle.data import TABLE_DEPTH


def table_width_feet(total_army_points: int) -> int:
    """1-1: "adding up the final total number of army points (including handicaps) for both
    armies and dividing by 16; fractions are rounded naturally" (halves round up)."""
    return int((Decimal(total_army_points) / 16).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def deployment_problem(*, eastern: bool, western_facing_eastern: bool, skirmish: bool, horse_archers: bool,
                       x: float, y: float, width: float) -> str | None:
    """Why a unit may not stand at (x, y) at deployment, or None when it may. ``width`` in inches."""
    if not (0 <= x <= width and 0 <= y <= TABLE_DEPTH):
        return f"({x}\", {y}\") is off the {width:g}\" × {TABLE_DEPTH}\" table"
    flank = min(x, width - x)
    if western_facing_eastern:
        # "must deploy at least 6" on but not greater than 15" on from their rear table edge ...
        # Other troops must be at least 12" in from either flank"
        if not 6 <= y <= 15:
            return f"a Western army facing an Eastern army deploys between 6\" and 15\" from its rear edge, not {y}\""
        if not skirmish and flank < 12:
            return f"its troops other than skirmishers stand at least 12\" in from either flank, not {flank:g}\""
        return None
    if y > 12:
        return f"the army deploys up to 12\" from its rear table edge, not {y}\""
    if eastern and horse_archers:
        # "horse archers are allowed to deploy along any flank - table edge up to 6"": inside the
        # 12" zone, right up to either flank edge (RULES_NOTES.md, "Horse archers on a flank")
        return None
    if not skirmish and flank < 6:
        what = "non skirmish troops" if eastern else "troops other than skirmishers"
        return f"{what} stand at least 6\" in from either flank, not {flank:g}\""
    return None
