"""Schemathesis hooks for the positive-data run of tests/api/test_declared_limits.py: a game's
or tournament's ``options`` are any JSON (``{}`` below their keys), which the document does
not describe deeper (docs/DECISIONS.md), so bodies with a NUL inside them are not sent."""

from __future__ import annotations

import msgspec
import schemathesis


@schemathesis.hook
def filter_body(context, body):
    options = body.get("options") if isinstance(body, dict) else None
    return options is None or b"\\u0000" not in msgspec.json.encode(options)
