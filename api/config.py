"""Configuration, from environment variables only (README, "Configuration")."""

from __future__ import annotations

import os

import msgspec


class Settings(msgspec.Struct, frozen=True):
    admin_token: str | None = None
    max_body: int = 8 * 1024 * 1024
    max_command_body: int = 64 * 1024
    sse_poll_seconds: float = 0.2  # how often a process looks for events other processes wrote
    max_streams: int = 1000  # live (SSE) streams open at once in one process
    max_streams_per_client: int = 16  # ... and from one client address

    @classmethod
    def from_env(cls, environ: dict[str, str] | None = None) -> Settings:
        env = os.environ if environ is None else environ
        return cls(
            admin_token=env.get("HERALD_ADMIN_TOKEN") or None,
            max_body=int(env.get("HERALD_MAX_BODY", 8 * 1024 * 1024)),
            max_command_body=int(env.get("HERALD_MAX_COMMAND_BODY", 64 * 1024)),
            sse_poll_seconds=float(env.get("HERALD_SSE_POLL_SECONDS", 0.2)),
            max_streams=int(env.get("HERALD_MAX_STREAMS", 1000)),
            max_streams_per_client=int(env.get("HERALD_MAX_STREAMS_PER_CLIENT", 16)),
        )
