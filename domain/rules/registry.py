"""Every rule system Herald records. Adding one is one package and one line here."""

from __future__ import annotations

from domain.rules.base import RuleSystem, check_declared
from domain.rules.day_of_battle import DayOfBattle
from domain.rules.kingdoms_of_crusaders import KingdomsOfCrusaders
from domain.rules.open_table import OpenTable
from domain.rules.saladin import Saladin
from domain.rules.saline import Saline
from domain.rules.saxon_shore import SaxonShore

RULE_SYSTEMS: dict[str, RuleSystem] = {
    system.id: check_declared(system)
    for system in (
        OpenTable(),
        KingdomsOfCrusaders(),
        Saladin(),
        SaxonShore(),
        Saline(),
        DayOfBattle(),
    )
}


def rules_at(rules_id: str, version: str) -> RuleSystem:
    """The rule system ``rules_id`` as it plays a game recorded under ``version`` (its own, or an
    older one it still replays: ``RuleSystem.older_versions``). KeyError for an unknown id."""
    rules = RULE_SYSTEMS[rules_id]
    # a version it does not replay: the current rules, which rule_system_for names as incompatible
    return rules.at_version(version) if version in rules.older_versions else rules
