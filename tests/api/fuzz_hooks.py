"""Schemathesis hooks for tests/api/test_fuzzing.py (named in tests/api/schemathesis.toml): the
bodies that create a game or a tournament are sometimes the contract's own example, so the
stateful phase's links (a game's seat token for ``alice``, a tournament's director token)
lead to commands that are recorded and tournaments that are acted on, not only refused."""

from __future__ import annotations

import schemathesis
from hypothesis import strategies as st

from api.routes.games import GAME_EXAMPLE

TOURNAMENT_EXAMPLE = {"name": "Spring Cup", "rules": "open-table", "format": "swiss", "rounds": 3}
KNOWN = {("POST", "/games"): GAME_EXAMPLE, ("POST", "/tournaments"): TOURNAMENT_EXAMPLE}


@schemathesis.hook
def before_generate_body(context, strategy):
    operation = context.operation
    known = KNOWN.get((operation.method.upper(), operation.path)) if operation is not None else None
    return strategy if known is None else st.one_of(strategy, st.just(known))
