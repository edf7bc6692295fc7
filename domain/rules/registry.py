"""Every rule system Herald records. Adding one is one package and one line here."""

from __future__ import annotations

from domain.rules.base import RuleSystem
from domain.rules.day_of_battle import DayOfBattle
from domain.rules.kingdoms_of_crusaders import KingdomsOfCrusaders
from domain.rules.open_table import OpenTable
from domain.rules.saladin import Saladin
from domain.rules.saline import Saline
from domain.rules.saxon_shore import SaxonShore

RULE_SYSTEMS: dict[str, RuleSystem] = {
    system.id: system
    for system in (
        OpenTable(),
        KingdomsOfCrusaders(),
        Saladin(),
        SaxonShore(),
        Saline(),
        DayOfBattle(),
    )
}

