"""The eventsourcing library's PostgreSQL application recorder, with its statements sent as
the library writes them but prepared once and its stored events sent in binary.

The library's own extension point chooses it (``APPLICATION_RECORDER_TOPIC``, set by
:func:`api.store.store_env`); the SQL, the table lock that orders the notification log, the
``NOTIFY`` and the one-transaction pipeline are the library's, unchanged. What changes is what
each write costs the writing process:

- The library keeps its insert, lock and ``NOTIFY`` statements as ``Composed`` SQL and builds the
  ``NOTIFY`` anew per write; psycopg then renders each of them, quoting every identifier, on every
  write. Here each is rendered once, to the same bytes.
- The library sends the array of stored events as text: psycopg's text dumper of a composite
  writes each field and escapes it with regular expressions in Python (for the event's JSON, byte
  by byte). Here the same parameter is sent in binary (``%b``), which psycopg's C dumpers write.
  The row stored is the same: the same composite type, the same columns, the same bytes.

bench/bench_cluster.py measures the library's raw append rate through this recorder too, so
the comparison with Herald's own rate stays like with like.
"""

from __future__ import annotations

from typing import Any

from eventsourcing.postgres import PostgresApplicationRecorder
from psycopg.sql import SQL, Composable, Identifier


class HeraldPostgresRecorder(PostgresApplicationRecorder):
    """The library's application recorder, its write statements rendered once and its
    stored events sent in binary."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        insert = _rendered(self.insert_events_statement)
        if insert.count("%s::") != 1:  # the library's statement changed shape: keep it as it is
            raise RuntimeError(f"unexpected insert statement from the eventsourcing library: {insert!r}")
        self.insert_events_statement = SQL(insert.replace("%s::", "%b::"))
        self.lock_table_statements = [SQL(_rendered(s)) for s in self.lock_table_statements]
        self._notify = SQL(_rendered(SQL("NOTIFY {0}").format(Identifier(self.channel_name))))

    def _notify_channel(self, curs: Any) -> None:
        curs.execute(self._notify)


def _rendered(statement: Composable | str) -> str:
    return statement if isinstance(statement, str) else statement.as_string(None)

