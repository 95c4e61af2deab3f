"""When the disk, not the change, is the trouble: a busy, read-only, full or failing disk, or a
database file deleted or replaced while the server runs. Nothing here writes."""

from __future__ import annotations

import logging
import os
import sqlite3

from sqlite_utils import Database


class Unavailable(Exception):
    """The archive cannot take a change now, and nothing of it was written: another program holds
    the database (``busy``: try again shortly), or the disk is ``read-only``, ``full`` or failing (``io``)."""

    def __init__(self, reason: str, detail: str = "") -> None:
        super().__init__(f"{reason}: {detail}" if detail else reason)
        self.reason = reason


# SQLite's messages for what is wrong with the disk rather than with the change
_DISK_TROUBLE = (
    ("locked", "busy"),
    ("busy", "busy"),
    ("readonly", "read-only"),
    ("read-only", "read-only"),
    ("full", "full"),
    ("disk i/o", "io"),
    ("unable to open", "io"),
)


def unavailable(error: BaseException) -> Unavailable | None:
    """The Unavailable that a database error means, or None if it is not the disk's doing."""
    if not isinstance(error, sqlite3.OperationalError):
        return None
    text = str(error).lower()
    for words, reason in _DISK_TROUBLE:
        if words in text:
            return Unavailable(reason, str(error))
    return None


WRITE_WAIT = 2.0  # seconds a change waits for its turn before the phone is told to try again


log = logging.getLogger(__name__)


def file_identity(path: str) -> tuple[int, int] | None:
    """The device and inode of the file at ``path`` now, or None when there is none."""
    try:
        stat = os.stat(path)
    except OSError:
        return None
    return stat.st_dev, stat.st_ino


_REPORTED: set[tuple] = set()


def replaced(path: str, expected: tuple[int, int], found: tuple[int, int] | None) -> Unavailable:
    """The refusal when the database file at ``path`` is no longer the one opened (deleted, or
    another file moved over it while the server ran): a change stored now would go to a file that
    is gone at the next start. Said once on the console."""
    if (path, expected, found) not in _REPORTED:
        _REPORTED.add((path, expected, found))
        what = "deleted" if found is None else "replaced by another file"
        log.error(
            "The database %s was %s while the score keeper was running: saves are refused until it is restarted.",
            path,
            what,
        )
    return Unavailable("replaced", f"{path} is no longer the file that was opened")


def check_same_file(db: Database) -> None:
    """Raise Unavailable("replaced") when the file at the connection's path is no longer the file it
    opened (``db.opened``: path and identity, set by db.open_db; a stat, so cheap)."""
    opened = getattr(db, "opened", None)
    if opened is None:
        return
    path, expected = opened
    found = file_identity(path)
    if found != expected:
        raise replaced(path, expected, found)
