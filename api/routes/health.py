"""``/health`` and ``/ready``: is this process up, does its database answer, how far behind
is each read model (:mod:`api.health`)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import Response

from api.health import Health
from api.http import database_away, doc, respond


def health_router() -> APIRouter:
    router = APIRouter()
    @router.get("/health", **doc(response=Health))
    async def health(request: Request) -> Response:
        """The server is up (``ok``); whether its database answers; each read model's lag
        behind the event log. Figures at most a second old (the benchmark's baseline)."""
        return respond(await request.app.state.health.health())

    @router.get("/ready", **doc(response=Health, errors=(503,)))
    async def ready(request: Request) -> Response:
        """200 when this process can serve (its database answers now), else 503: what a load
        balancer checks before sending it requests."""
        found = await request.app.state.health.probe()
        if found.database != "reachable":
            raise database_away()
        return respond(found)

    return router
