"""Configuration, from environment variables only (README, "Configuration")."""

from __future__ import annotations

import os

import msgspec


class Settings(msgspec.Struct, frozen=True):
    admin_token: str | None = None
    max_body: int = 8 * 1024 * 1024
    max_command_body: int = 64 * 1024
    sse_poll_seconds: float = 0.2
    viewer_max_events: int = 5_000
    viewer_max_view_bytes: int = 64 * 1024 * 1024
    viewer_concurrency: int = 2

    @classmethod
    def from_env(cls, environ: dict[str, str] | None = None) -> Settings:
        env = os.environ if environ is None else environ
        return cls(
            admin_token=env.get("HERALD_ADMIN_TOKEN") or None,
            max_body=int(env.get("HERALD_MAX_BODY", 8 * 1024 * 1024)),
            max_command_body=int(env.get("HERALD_MAX_COMMAND_BODY", 64 * 1024)),
            sse_poll_seconds=float(env.get("HERALD_SSE_POLL_SECONDS", 0.2)),
            viewer_max_events=int(env.get("HERALD_VIEWER_MAX_EVENTS", 5_000)),
            viewer_max_view_bytes=int(env.get("HERALD_VIEWER_MAX_VIEW_BYTES", 64 * 1024 * 1024)),
            viewer_concurrency=int(env.get("HERALD_VIEWER_CONCURRENCY", 2)),
        )
