"""The write transaction: one ``BEGIN IMMEDIATE`` at a time, the file's identity checked inside it."""

from __future__ import annotations

import contextlib
import sqlite3
import threading
from collections.abc import Iterator
from datetime import datetime, timezone

from sqlite_utils import Database

from scorekeeper.storage import disk, stamp
from scorekeeper.storage.disk import Unavailable, check_same_file, unavailable


@contextlib.contextmanager
def write(db: Database) -> Iterator[Database]:
    """One write transaction, taken at once (``BEGIN IMMEDIATE``): with several phones saving, a
    writer waits its turn instead of failing with "database is locked" when it would upgrade a
    read to a write. Nested inside another transaction it is a savepoint.

    A writer waits at most WRITE_WAIT seconds (for this server's other writers, then for another
    program's lock, SQLite's busy timeout); a busy, read-only, full or failing disk raises
    Unavailable with the transaction rolled back, so the phone can keep the change and retry."""
    if db.conn.in_transaction:
        with _savepoint(db):
            yield db
        return
    # Writers of this process queue here in turn; SQLite's own wait (the busy timeout) polls with
    # growing sleeps, which left an unlucky save waiting over a second with 10 phones saving at once.
    # The busy timeout still covers writers of other processes (a CLI backup, a second server).
    if not _WRITERS.acquire(timeout=disk.WRITE_WAIT):
        raise Unavailable("busy", "other saves of this server are waiting")
    try:
        with _immediate(db):
            yield db
    finally:
        _WRITERS.release()


@contextlib.contextmanager
def _immediate(db: Database) -> Iterator[None]:
    """The outermost write: ``BEGIN IMMEDIATE``, the file's identity checked before and after the
    change, ``COMMIT``, then the change stamp moved; a disk's trouble raised as Unavailable with the
    transaction rolled back."""
    try:
        db.conn.execute("BEGIN IMMEDIATE")
    except sqlite3.OperationalError as error:
        raise (unavailable(error) or error) from error
    try:
        check_same_file(db)  # the file at the path is still the one this connection writes to
        yield
        check_same_file(db)  # and still is now (replaced while this change was decided)
    except BaseException as error:
        _rollback(db)
        trouble = unavailable(error)
        if trouble is not None:
            raise trouble from error
        raise
    try:
        db.conn.execute("COMMIT")
    except sqlite3.OperationalError as error:
        _rollback(db)
        raise (unavailable(error) or error) from error
    opened = getattr(db, "opened", None)
    if opened is not None:
        stamp.changed(opened[0])  # the page cache of every process of the app sees the change at once


@contextlib.contextmanager
def _savepoint(db: Database) -> Iterator[None]:
    """A write nested inside another: a savepoint, released at its end or undone on an error."""
    db.conn.execute("SAVEPOINT nested_write")
    try:
        yield
    except BaseException:
        _rollback_savepoint(db)
        raise
    db.conn.execute("RELEASE nested_write")


def _rollback_savepoint(db: Database) -> None:
    """Undo a nested write. A full or failing disk may have made SQLite roll the whole transaction
    back already, savepoint and all: then there is nothing to undo here, and the error that did it
    (raised on) tells the phone why, not "no such savepoint"."""
    try:
        db.conn.execute("ROLLBACK TO nested_write")
        db.conn.execute("RELEASE nested_write")
    except sqlite3.OperationalError:
        if db.conn.in_transaction:  # the savepoint should still be there: a real error
            raise


def _rollback(db: Database) -> None:
    """Roll back what is open (a failing disk may already have rolled it back)."""
    if db.conn.in_transaction:
        try:
            db.conn.execute("ROLLBACK")
        except sqlite3.OperationalError:
            pass


_WRITERS = threading.RLock()  # re-entrant: a second connection of the same thread fails as before, never hangs


def utc_now() -> str:
    """The current time as an ISO string in UTC."""
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def require(db: Database) -> None:
    """Storage writes only inside a transaction a service opened (``write``): one write path, where the
    conflicts are decided."""
    if not db.conn.in_transaction:
        raise RuntimeError("a storage write outside a transaction: open one in the service (transaction.write)")
