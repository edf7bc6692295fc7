"""Schemathesis hooks for the positive-data run of tests/api/test_declared_limits.py: a game's
or tournament's ``options`` are any JSON (``{}`` below their keys), which the document does
not describe deeper (docs/DECISIONS.md), so bodies with a NUL inside them, or an integer past
64 bits (``integer_out_of_range``, a 400 of the body's reading), are not sent."""

from __future__ import annotations

import msgspec
import schemathesis


LIMIT = 2**63


def _wide(value) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return not -LIMIT <= value < LIMIT
    if isinstance(value, dict):
        return any(_wide(v) for v in value.values())
    if isinstance(value, list):
        return any(_wide(v) for v in value)
    return False


@schemathesis.hook
def filter_body(context, body):
    options = body.get("options") if isinstance(body, dict) else None
    return options is None or (b"\\u0000" not in msgspec.json.encode(options) and not _wide(options))
