"""Board checkpoints kept in the store's database (issue 24 point 4): the game as it stood
at a version, written once when a fold passes it and read back by the next process, so a
server just restarted answers a past position of a long game by folding at most a block of
events from the checkpoint below it, never the game from its start.

A read model like the others, with two differences that follow from what it holds. A board
at a version never changes once recorded (events are only appended; a ruling's void is a
later event), so a row is never updated by the events after it and needs no tracking
position: it is written when a fold first passes its version and kept. And a row is the
fold's output, which the code folding it decides: each row carries the fingerprint of the
domain code (and of msgspec and Python, which encode it) that made it, and a row made by
other code is never read — a deploy that changes a rule's fold starts again from the events.
``herald projections rebuild`` forgets every row; rows come back as games are read.

A checkpoint is the ``Game`` without its play log (the events folded into the rule state,
which a void refolds from: projections/board.py reads them back from the store when a fold
meets a void), pickled in two parts, the game's header and its rule state, and compressed.
Pickle, because rule states hold what JSON does not say (owner data objects, commands
inside a decision being folded, integer keys, tuples); made safe to read by an unpickler that
builds nothing but msgspec Structs and enums of the domain and a few plain types
(:class:`_Unpickler`), and exact by a check before a row is written: the row is read back and
must equal the game it was made from, or it is not written (the board is then folded when
asked, as before). The data objects a rule state shares with its setup (Saxon Shore's map,
an owner's cards) are written as references to the setup's field and taken from the game's
setup when read, not copied into every row.
"""

from __future__ import annotations

import enum
import hashlib
import io
import logging
import pickle
import struct
import sys
import threading
import zlib
from collections import OrderedDict
from collections.abc import Iterable
from pathlib import Path
from typing import Any
from uuid import UUID

import msgspec

import domain
from domain.game import Game
from projections.sql import SCHEMA_LOCK, Database

log = logging.getLogger("herald")

TABLE = "herald_board_checkpoints"
FORMAT = 1  # of a row's bytes: bump when the layout below changes
_SCALARS = (str, int, float, bool, bytes, type(None))
_PLAIN = {("datetime", "datetime"), ("datetime", "timezone"), ("datetime", "timedelta"), ("datetime", "date"),
          ("uuid", "UUID"), ("builtins", "set"), ("builtins", "frozenset")}


def code_fingerprint() -> str:
    """What a row's fold depends on besides the events: every file of the domain package
    (rules, their data, the Game fold), the encodings' versions and the row format."""
    digest = hashlib.sha256(f"{FORMAT}|{sys.version_info[:2]}|{msgspec.__version__}|{pickle.DEFAULT_PROTOCOL}".encode())
    root = Path(domain.__file__).parent
    for path in sorted(p for p in root.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
        digest.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:32]


class _Pickler(pickle.Pickler):
    def __init__(self, file: io.BytesIO, refs: dict[int, str]):
        super().__init__(file, protocol=5)
        self._refs = refs

    def persistent_id(self, obj: Any) -> str | None:
        return None if isinstance(obj, _SCALARS) else self._refs.get(id(obj))


class _Unpickler(pickle.Unpickler):
    """Builds msgspec Structs and enums defined in the domain and a few plain types, nothing
    else: a row is data, and no row, whoever wrote it, calls a function."""

    def __init__(self, data: bytes, setup: Any = None):
        super().__init__(io.BytesIO(data))
        self._setup = setup

    def find_class(self, module: str, name: str) -> Any:
        if (module, name) in _PLAIN:
            return super().find_class(module, name)
        if (module, name) == ("msgspec._utils", "rebuild"):  # how msgspec pickles keyword-only Structs
            return _rebuild
        if module == "domain" or module.startswith("domain."):
            found = super().find_class(module, name)
            if isinstance(found, type) and issubclass(found, (msgspec.Struct, enum.Enum)):
                return found
        raise pickle.UnpicklingError(f"a board checkpoint may not hold {module}.{name}")

    def persistent_load(self, pid: Any) -> Any:
        if self._setup is None or not isinstance(pid, str) or pid not in self._setup.__struct_fields__:
            raise pickle.UnpicklingError(f"a board checkpoint refers to no setup field {pid!r}")
        return getattr(self._setup, pid)


def _rebuild(cls: Any, fields: dict[str, Any]) -> Any:
    """A Struct with keyword-only fields, from its fields by name: ``cls`` is a class the
    unpickler already let through (a Struct of the domain), checked again here."""
    if not (isinstance(cls, type) and issubclass(cls, msgspec.Struct) and cls.__module__.startswith("domain.")):
        raise pickle.UnpicklingError(f"a board checkpoint may not build {cls!r}")
    return cls(**fields)


def setup_of(game: Game) -> Any:
    """The rule state a game started from (what a row's references point into)."""
    created = game.created
    return game.rules.setup(created.scenario, tuple(created.seats), created.options)


def encode(game: Game, setup: Any) -> bytes:
    """A row's bytes for ``game`` (its log left out)."""
    header = msgspec.structs.replace(game, state=None, log=None)
    refs = {}
    if isinstance(setup, msgspec.Struct):
        for name in setup.__struct_fields__:
            value = getattr(setup, name)
            if not isinstance(value, _SCALARS):
                refs[id(value)] = name
    head, body = io.BytesIO(), io.BytesIO()
    _Pickler(head, {}).dump(header)
    _Pickler(body, refs).dump(game.state)
    head_bytes = head.getvalue()
    return zlib.compress(struct.pack(">I", len(head_bytes)) + head_bytes + body.getvalue(), 1)


def decode(data: bytes, setup_for: Any) -> Game:
    """The game a row holds; ``setup_for(header)`` gives the setup its references point into."""
    raw = zlib.decompress(data)
    (size,) = struct.unpack_from(">I", raw)
    header = _Unpickler(raw[4:4 + size]).load()
    if not isinstance(header, Game):
        raise pickle.UnpicklingError("a board checkpoint holds no game")
    state = _Unpickler(raw[4 + size:], setup_for(header)).load()
    return msgspec.structs.replace(header, state=state)


def exact(game: Game, setup: Any) -> bytes | None:
    """A row's bytes for ``game`` if reading them back gives the same game (log aside), else
    None: a state this encoding cannot carry exactly is never written."""
    try:
        data = encode(game, setup)
        back = decode(data, lambda _: setup)
    except Exception:  # noqa: BLE001 — anything the encoding cannot carry: not written
        return None
    return data if back == msgspec.structs.replace(game, log=None) else None


class StoredBoards:
    """The checkpoint rows of one database: the nearest at or below a version, read; new
    ones written by one background thread, a few to a transaction, so a fold that passes
    many checkpoints never waits for the database."""

    batch = 32  # rows a transaction (SQLite: the writer's lock is the event loop's too)

    def __init__(self, db: Database, fingerprint: str | None = None, setups: int = 64):
        self._db = db
        self.code = fingerprint or code_fingerprint()
        blob = "BYTEA" if db.dialect == "postgres" else "BLOB"
        with db.exclusive(SCHEMA_LOCK), db.transaction() as s:
            s.execute(f"""CREATE TABLE IF NOT EXISTS {TABLE} (
                game_id TEXT NOT NULL,
                version BIGINT NOT NULL,
                code TEXT NOT NULL,
                board {blob} NOT NULL,
                PRIMARY KEY (game_id, code, version))""")
        self._setups: OrderedDict[UUID, Any] = OrderedDict()
        self._setups_max = setups
        self._pending: list[tuple[UUID, int, Game | bytes]] = []  # a game, or its row already encoded
        self._lock = threading.Lock()
        self._wake = threading.Condition(self._lock)
        self._writer: threading.Thread | None = None
        self._closed = False
        self._busy = False
        self.written = 0  # rows written by this process
        self.refused = 0  # games this encoding could not carry exactly (not written)
        self._cleared: set[UUID] = set()  # games whose rows by other code this process has deleted

    # -- reading --------------------------------------------------------------------------------
    def nearest(self, game_id: UUID, version: int) -> Game | None:
        """The stored game at the highest version at or below ``version`` made by this code,
        if there is one (one indexed read: the rows of other code are deleted as this code
        writes the game's)."""
        with self._db.read() as s:
            rows = s.rows(f"SELECT version, board FROM {TABLE} WHERE game_id = %(g)s AND code = %(c)s "
                          "AND version <= %(v)s ORDER BY version DESC LIMIT 1", {"g": str(game_id), "v": version, "c": self.code})
        if not rows:
            return None
        try:
            game = decode(bytes(rows[0]["board"]), lambda header: self.setup(game_id, header))
        except Exception as error:  # noqa: BLE001 — a row that cannot be read is no checkpoint
            log.warning("board checkpoint %s@%s unreadable, folded instead: %s", game_id, rows[0]["version"], error)
            return None
        return game if game.version == rows[0]["version"] and game.id == game_id else None

    def setup(self, game_id: UUID, game: Game) -> Any:
        """The setup of ``game`` (of ``game_id``), the most recent games' kept."""
        with self._lock:
            found = self._setups.get(game_id)
            if found is not None:
                self._setups.move_to_end(game_id)
                return found
        found = setup_of(game)
        with self._lock:
            self._setups[game_id] = found
            while len(self._setups) > self._setups_max:
                self._setups.popitem(last=False)
        return found

    # -- writing --------------------------------------------------------------------------------
    def put(self, games: Iterable[tuple[UUID, Game]]) -> None:
        """Write these checkpoints soon (in the background)."""
        with self._lock:
            if self._closed:
                return
            self._pending.extend((game_id, game.version, game) for game_id, game in games)
            self._start_writer()

    def _start_writer(self) -> None:
        """Wake the writer (started on first use) for what is pending; under the lock."""
        if not self._pending:
            return
        if self._writer is None:
            self._writer = threading.Thread(target=self._write_all, name="herald-board-checkpoints", daemon=True)
            self._writer.start()
        self._wake.notify()

    def put_rows(self, rows: Iterable[tuple[UUID, int, bytes]]) -> None:
        """Write these checkpoints, already encoded (exact: :func:`exact`'s bytes), soon."""
        with self._lock:
            if self._closed:
                return
            self._pending.extend(rows)
            self._start_writer()

    def flush(self, timeout: float | None = None) -> bool:
        """Wait until every checkpoint handed over is written (or refused); False on timeout."""
        with self._lock:
            return self._wake.wait_for(lambda: not self._pending and not self._busy, timeout)

    def close(self, timeout: float = 5.0) -> None:
        """Write what is pending (up to ``timeout`` seconds), then stop the writer."""
        self.flush(timeout)
        with self._lock:
            self._closed = True
            self._pending.clear()
            self._wake.notify_all()
        if self._writer is not None:
            self._writer.join(timeout)

    def _write_all(self) -> None:
        while True:
            with self._lock:
                self._wake.wait_for(lambda: self._pending or self._closed)
                if self._closed:
                    return
                batch, self._pending = self._pending[:self.batch], self._pending[self.batch:]
                self._busy = True
            try:
                self._write(batch)
            except Exception as error:  # noqa: BLE001 — a cache: a failed write is folded again later
                log.warning("board checkpoints not written (%d): %s", len(batch), error)
            finally:
                with self._lock:
                    self._busy = False
                    self._wake.notify_all()

    def _write(self, batch: list[tuple[UUID, int, Game | bytes]]) -> None:
        rows = []
        for game_id, version, game in batch:
            data = game if isinstance(game, bytes) else exact(game, self.setup(game_id, game))
            if data is None:
                self.refused += 1
                continue
            rows.append({"g": str(game_id), "v": version, "c": self.code, "b": data})
        if not rows:
            return
        with self._db.transaction() as s:
            for game_id in {game_id for game_id, _, _ in batch} - self._cleared:
                # rows other code made are never read: gone, so reads need not step over them
                s.execute(f"DELETE FROM {TABLE} WHERE game_id = %(g)s AND code <> %(c)s", {"g": str(game_id), "c": self.code})
            for row in rows:
                s.execute(f"INSERT INTO {TABLE} (game_id, version, code, board) VALUES (%(g)s, %(v)s, %(c)s, %(b)s) "
                          "ON CONFLICT (game_id, code, version) DO UPDATE SET board = excluded.board",
                          row)
        self.written += len(rows)
        self._cleared |= {game_id for game_id, _, _ in batch}

    def rebuild(self, progress: Any = None) -> int:
        """Forget every checkpoint (``herald projections rebuild``): they come back as games
        are read. Returns 0 (nothing is folded now)."""
        self.flush(5.0)
        with self._db.transaction() as s:
            s.execute(f"DELETE FROM {TABLE}")
        return 0
