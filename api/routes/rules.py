"""The rule-system routes: what Herald records (``/rules``, ``/rules/{system}``)."""

from __future__ import annotations

import msgspec
from fastapi import APIRouter
from fastapi.responses import Response

from api.errors import NotFound
from api.http import doc, respond
from api.wire.games import RuleSystemInfo, RuleSystemList, ScenarioInfo
from domain.rules.registry import RULE_SYSTEMS


def _rules_info(system_id: str) -> RuleSystemInfo:
    rules = RULE_SYSTEMS[system_id]
    return RuleSystemInfo(
        id=rules.id,
        version=rules.version,
        title=rules.title,
        scenarios=[
            ScenarioInfo(s.id, s.title, list(s.seats), {"min": s.min_players, "max": s.max_players})
            for s in rules.scenarios.values()
        ],
        die_kinds={k: list(d.faces) for k, d in sorted(rules.die_kinds.items())},
        command_schema=msgspec.json.schema(rules.command_type),
        owner_data=({"option": rules.owner_data.option, "schema": rules.owner_data.schema}
                    if rules.owner_data else None),
    )



def rules_router() -> APIRouter:
    router = APIRouter()

    @router.get("/rules", **doc(response=RuleSystemList))
    def list_rules() -> Response:
        """Every rule system Herald records, with scenarios, seats, dice and command schemas."""
        return respond(RuleSystemList([_rules_info(s) for s in sorted(RULE_SYSTEMS)]))

    @router.get("/rules/{system}", **doc(response=RuleSystemInfo, errors=(404,)))
    def get_rules(system: str) -> Response:
        """One rule system: scenarios, seats, die kinds and the schema of its commands."""
        if system not in RULE_SYSTEMS:
            raise NotFound(f"no rule system {system!r}; known: {', '.join(sorted(RULE_SYSTEMS))}")
        return respond(_rules_info(system))

    return router
