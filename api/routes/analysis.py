"""The analysis routes (issue 19): each seat's chances at every decision of an ended game or
a study fork, and the commands of one step ranked, by seeded rollouts in the worker pool.
202 with the progress while the work runs (ask again), then 200 with the result."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import Response
from starlette.concurrency import run_in_threadpool

from analysis.pool import Job
from api.errors import HeraldError
from api.http import MAX_INT, PROBLEM, Problem, _ref, bearer, doc, respond
from api.routes.params import GameId, Token
from api.services.analysis import Analyses, analyst_from_env
from api.wire.analysis import Analysis, AnalysisProgress, RankedCommands

Policy = Annotated[str, Query(pattern="^(random|heuristic)$",
                              description="`random` (random-legal play) or `heuristic` (the rule system's "
                                          "simple habit, docs/analysis.md)")]
Rollouts = Annotated[int, Query(ge=1, le=2000, description="rollouts per board (per command when ranking)")]


class AnalysisFailed(HeraldError):
    status, title, code = 503, "Service unavailable", "analysis_failed"


def analyses(request: Request) -> Analyses:
    """The analysis service of this app, made on first use with its pool of processes."""
    state = request.app.state
    if getattr(state, "analyses", None) is None:
        state.analyses = Analyses(state.herald.games, analyst_from_env())
    return state.analyses


def close(state: Any) -> None:
    """Stop the pool's processes (at the app's shutdown)."""
    if getattr(state, "analyses", None) is not None:
        state.analyses.analyst.close()
        state.analyses = None


def answer(job: Job, policy: str, rollouts: int) -> Response:
    if job.error:
        raise AnalysisFailed(f"the analysis failed: {job.error}")
    if job.result is not None:
        return respond(job.result)
    return respond({**job.progress(), "policy": policy, "rollouts": rollouts}, 202, {"Retry-After": "1"})


UNANALYSABLE = {
    "description": "Unprocessable Content: `analysis_unavailable` when the game's rule system cannot play "
                   "itself (open-table: its games have no analysis, whatever the request); `invalid_request` for a "
                   "parameter that does not fit",
    "content": {PROBLEM: {"schema": _ref(Problem), "example": {
        "type": "/problems/analysis_unavailable", "title": "Unprocessable content", "status": 422,
        "detail": "open-table does not play itself: its games cannot be analysed by rollouts",
        "code": "analysis_unavailable"}}},
}


def running(kwargs: dict[str, Any]) -> dict[str, Any]:
    """Route documentation with the 202 answered while the work runs, and the 422 of a rule
    system with no analysis."""
    kwargs["responses"][202] = {"description": "Running: ask again (Retry-After) for the result",
                                "content": {"application/json": {"schema": _ref(AnalysisProgress)}}}
    kwargs["responses"][422] = UNANALYSABLE
    return kwargs


def analysis_router() -> APIRouter:
    router = APIRouter(tags=["analysis"])

    @router.get("/games/{game_id}/analysis", **running(doc(response=Analysis, errors=(401, 403, 404, 422, 429, 503), token="accepts")))
    async def game_analysis(request: Request, game_id: GameId, policy: Policy = "random", rollouts: Rollouts = 200,
                            authorization: Token = None) -> Response:
        """Each seat's chance of winning (and a draw's) from every board a decision was taken
        from, then the last, with 95 % Wilson intervals, by ``rollouts`` seeded rollouts each
        with ``policy``; the biggest swings named with the decision that caused them. For an
        ended game or a study fork only (403 during play). Rollouts from a board with secrets
        deal the cards this reader may not see again at random (determinization)."""
        with request.app.budgets.ticket(request.scope) as ticket:
            job = await run_in_threadpool(analyses(request).analysis, game_id, bearer(authorization), policy, rollouts,
                                          ticket)
        return answer(job, policy, rollouts)

    @router.get("/games/{game_id}/analysis/{version}/commands",
                **running(doc(response=RankedCommands, errors=(401, 403, 404, 422, 429, 503), token="accepts")))
    async def ranked_commands(request: Request, game_id: GameId,
                              version: Annotated[int, Path(ge=1, le=MAX_INT, description="a point's version")],
                              policy: Policy = "random", rollouts: Rollouts = 200,
                              authorization: Token = None) -> Response:
        """The legal commands of the seat to act on the board at ``version`` (a point of the
        analysis), best first by that seat's chance after each, the one played marked. 403 for
        a reader who may not see that seat's hidden cards, which its commands name."""
        with request.app.budgets.ticket(request.scope) as ticket:
            job = await run_in_threadpool(analyses(request).commands, game_id, version, bearer(authorization),
                                          policy, rollouts, ticket)
        return answer(job, policy, rollouts)

    return router

