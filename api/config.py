"""Configuration, from environment variables only (README, "Configuration")."""

from __future__ import annotations

import os

import msgspec


class Settings(msgspec.Struct, frozen=True):
    admin_token: str | None = None
    max_body: int = 8 * 1024 * 1024
    max_command_body: int = 64 * 1024
    sse_poll_seconds: float = 0.2
    cors_origins: tuple[str, ...] = ()

    @classmethod
    def from_env(cls, environ: dict[str, str] | None = None) -> Settings:
        env = os.environ if environ is None else environ
        return cls(
            admin_token=env.get("HERALD_ADMIN_TOKEN") or None,
            max_body=int(env.get("HERALD_MAX_BODY", 8 * 1024 * 1024)),
            max_command_body=int(env.get("HERALD_MAX_COMMAND_BODY", 64 * 1024)),
            sse_poll_seconds=float(env.get("HERALD_SSE_POLL_SECONDS", 0.2)),
            cors_origins=tuple(o.strip() for o in env.get("HERALD_CORS_ORIGINS", "").split(",") if o.strip()),
        )
