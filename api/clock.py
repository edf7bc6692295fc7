"""The service layer's one clock. Rule code never reads it: services pass ``now()`` in.

Call it as ``clock.now()`` (not ``from api.clock import now``), so a test can move time by
patching this module alone."""

from __future__ import annotations

from datetime import datetime, timezone


def now() -> datetime:
    """The current time, timezone-aware UTC."""
    return datetime.now(timezone.utc)
