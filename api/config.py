"""Configuration, from environment variables only (README, "Configuration")."""

from __future__ import annotations

import os
from pathlib import Path

import msgspec

MAX_RECORD_BODY = 64 * 1024 * 1024


class Settings(msgspec.Struct, frozen=True):
    admin_token: str | None = None
    # the most a portable record sent to Herald may hold, decoded (POST /records/verify,
    # /viewer/record, import): the longest game recorded here (77,000 events) is about 34 MB
    max_record_body: int = MAX_RECORD_BODY
    max_command_body: int = 64 * 1024
    cors_origins: tuple[str, ...] = ()
    sse_poll_seconds: float = 0.2  # how often a process looks for events other processes wrote
    viewer_max_events: int = 200_000  # the longest record the viewer opens (a real Saxon Shore game: 77,448)
    viewer_held_events: int = 400_000  # events of the records opened in the viewer held at once
    viewer_concurrency: int = 2
    # write limits (api/ratelimit.py): writes a second and burst, per bearer token and per
    # client address; a rate of 0 turns that limit off
    writes_per_token: float = 20.0
    write_burst_per_token: int = 300
    writes_per_address: float = 200.0
    write_burst_per_address: int = 2000
    # dry runs (POST .../commands/check) are not writes: their own buckets, five times as wide
    checks_per_token: float = 100.0
    check_burst_per_token: int = 1500
    checks_per_address: float = 1000.0
    check_burst_per_address: int = 10000
    # expensive reads (api/budgets.py): verifying a record, a game's outline, the first fold
    # of past positions, an analysis. Work on more than read_inline_bytes of input runs in
    # read_workers processes (0: in this one), niced; each client address and each bearer token
    # has so many at once and a bucket of CPU seconds (refilled at so many a second, up to a
    # burst; a rate of 0 turns that bucket off); every client together has reads_at_once.
    # No workers for an app made in a process of its own (tests, scripts: Settings()); a
    # served one has HERALD_READ_WORKERS, 2 unless set
    read_workers: int = 0
    read_worker_niceness: int = 10
    read_inline_bytes: int = 16 * 1024
    reads_at_once: int = 16
    reads_at_once_per_address: int = 4
    reads_at_once_per_token: int = 2
    read_cpu_per_address: float = 0.5
    read_cpu_burst_per_address: float = 30.0
    read_cpu_per_token: float = 0.25
    read_cpu_burst_per_token: float = 15.0
    # a freezing dispute in a game with no umpire lapses after this many seconds (0: never)
    freeze_lapse_seconds: int = 3600
    # how often a process looks for clocked games whose flag has fallen with nobody writing (0: never)
    clock_sweep_seconds: float = 5.0
    # a failed webhook delivery is tried again after this many seconds, doubling each time
    webhook_retry_seconds: float = 5.0
    webhook_poll_seconds: float = 1.0  # how often a process looks for notices to deliver
    webhook_private: bool = False  # webhooks to addresses that are not public (loopback, private)
    max_streams: int = 1000  # live (SSE) streams open at once in one process
    max_streams_per_client: int = 16  # ... and from one client address
    # how long a client may take to send a request's line and headers (api/connection.py)
    header_timeout: float = 10.0

    @classmethod
    def from_env(cls, environ: dict[str, str] | None = None) -> Settings:
        env = os.environ if environ is None else environ
        return cls(
            admin_token=env.get("HERALD_ADMIN_TOKEN") or None,
            # HERALD_MAX_BODY: this limit's name before issue 24 (it held records only)
            max_record_body=int(env.get("HERALD_MAX_RECORD_BODY") or env.get("HERALD_MAX_BODY") or MAX_RECORD_BODY),
            max_command_body=int(env.get("HERALD_MAX_COMMAND_BODY", 64 * 1024)),
            sse_poll_seconds=float(env.get("HERALD_SSE_POLL_SECONDS", 0.2)),
            clock_sweep_seconds=float(env.get("HERALD_CLOCK_SWEEP_SECONDS", 5.0)),
            webhook_retry_seconds=float(env.get("HERALD_WEBHOOK_RETRY_SECONDS", 5.0)),
            webhook_poll_seconds=float(env.get("HERALD_WEBHOOK_POLL_SECONDS", 1.0)),
            webhook_private=env.get("HERALD_WEBHOOK_PRIVATE", "") == "1",
            cors_origins=tuple(o.strip() for o in env.get("HERALD_CORS_ORIGINS", "").split(",") if o.strip()),
            viewer_max_events=int(env.get("HERALD_VIEWER_MAX_EVENTS", 200_000)),
            viewer_held_events=int(env.get("HERALD_VIEWER_HELD_EVENTS", 400_000)),
            viewer_concurrency=int(env.get("HERALD_VIEWER_CONCURRENCY", 2)),
            writes_per_token=float(env.get("HERALD_WRITES_PER_TOKEN", 20.0)),
            write_burst_per_token=int(env.get("HERALD_WRITE_BURST_PER_TOKEN", 300)),
            writes_per_address=float(env.get("HERALD_WRITES_PER_ADDRESS", 200.0)),
            write_burst_per_address=int(env.get("HERALD_WRITE_BURST_PER_ADDRESS", 2000)),
            checks_per_token=float(env.get("HERALD_CHECKS_PER_TOKEN", 100.0)),
            check_burst_per_token=int(env.get("HERALD_CHECK_BURST_PER_TOKEN", 1500)),
            checks_per_address=float(env.get("HERALD_CHECKS_PER_ADDRESS", 1000.0)),
            check_burst_per_address=int(env.get("HERALD_CHECK_BURST_PER_ADDRESS", 10000)),
            read_workers=int(env.get("HERALD_READ_WORKERS", 2)),
            read_worker_niceness=int(env.get("HERALD_READ_WORKER_NICENESS", 10)),
            read_inline_bytes=int(env.get("HERALD_READ_INLINE_BYTES", 16 * 1024)),
            reads_at_once=int(env.get("HERALD_READS_AT_ONCE", 16)),
            reads_at_once_per_address=int(env.get("HERALD_READS_AT_ONCE_PER_ADDRESS", 4)),
            reads_at_once_per_token=int(env.get("HERALD_READS_AT_ONCE_PER_TOKEN", 2)),
            read_cpu_per_address=float(env.get("HERALD_READ_CPU_PER_ADDRESS", 0.5)),
            read_cpu_burst_per_address=float(env.get("HERALD_READ_CPU_BURST_PER_ADDRESS", 30.0)),
            read_cpu_per_token=float(env.get("HERALD_READ_CPU_PER_TOKEN", 0.25)),
            read_cpu_burst_per_token=float(env.get("HERALD_READ_CPU_BURST_PER_TOKEN", 15.0)),
            freeze_lapse_seconds=int(env.get("HERALD_FREEZE_LAPSE_SECONDS", 3600)),
            max_streams=int(env.get("HERALD_MAX_STREAMS", 1000)),
            max_streams_per_client=int(env.get("HERALD_MAX_STREAMS_PER_CLIENT", 16)),
            header_timeout=float(env.get("HERALD_HEADER_TIMEOUT", 10.0)),
        )


def sqlite_path(environ: dict[str, str]) -> Path:
    """The SQLite file the environment names (SQLITE_DBNAME, else HERALD_DB, else var/herald.db)."""
    return Path(environ.get("SQLITE_DBNAME") or environ.get("HERALD_DB") or "var/herald.db")


def data_dir(settings: dict[str, str], environ: dict[str, str] | None = None) -> Path:
    """Where the server keeps its files: HERALD_DATA_DIR, else the SQLite file's folder, else ./var."""
    configured = (os.environ if environ is None else environ).get("HERALD_DATA_DIR")
    if configured:
        return Path(configured)
    db = settings.get("SQLITE_DBNAME")
    if settings.get("PERSISTENCE_MODULE") == "eventsourcing.sqlite" and db and db != ":memory:" and not db.startswith("file:"):
        return Path(db).parent
    return Path("var")
