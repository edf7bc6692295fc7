"""The server's files at rest: the data folder is created 0700 and every file in it (the
SQLite database with its -wal and -shm, the signing key) is 0600, whatever the umask.
The database holds unrevealed seeds; nobody but the server's user may read it."""

from __future__ import annotations

import logging
import os
import stat
from pathlib import Path

log = logging.getLogger("herald")

DIR_MODE = 0o700
FILE_MODE = 0o600


def private_dir(path: Path) -> None:
    """Create ``path`` (and its parents) as 0700 when missing. An existing folder is left
    as it is (it may be shared, like /tmp); its files are protected one by one."""
    if path.exists():
        return
    path.mkdir(parents=True, mode=DIR_MODE, exist_ok=True)
    os.chmod(path, DIR_MODE)  # mkdir's mode is filtered by the umask


def private_file(path: Path) -> None:
    """Create ``path`` empty as 0600 when missing; make an existing one 0600."""
    private_dir(path.parent)
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT, FILE_MODE))
    except FileExistsError:  # pragma: no cover - O_EXCL is not used
        pass
    tighten(path)


def tighten(path: Path) -> None:
    """Take group and world access away from an existing file (the server's own)."""
    try:
        mode = stat.S_IMODE(path.stat().st_mode)
    except FileNotFoundError:
        return
    if mode & 0o077:
        try:
            os.chmod(path, mode & ~0o077)
        except PermissionError:
            log.warning("%s is readable by others (mode %o) and cannot be changed", path, mode)


def private_database(path: Path) -> None:
    """The SQLite file 0600 before the store opens it (SQLite gives its -wal and -shm the
    database's mode), and any -wal or -shm left from an earlier run made 0600 too."""
    private_file(path)
    for suffix in ("-wal", "-shm", "-journal"):
        tighten(path.with_name(path.name + suffix))
