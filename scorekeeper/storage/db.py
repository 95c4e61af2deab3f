"""The SQLite database: one connection per request on ``g``, migrated when opened (storage.migrations),
``flask init-db``."""

from __future__ import annotations

import contextlib
import gc
import logging
import os
import sqlite3
import threading
from collections import OrderedDict

import click
from flask import current_app, g
from flask.cli import with_appcontext
from sqlite_utils import Database

from scorekeeper.storage import disk, results, stamp, transaction
from scorekeeper.storage.migrations import migrations

log = logging.getLogger(__name__)


def generation(db: Database) -> int:
    """The archive's generation: it rises with every change to it."""
    return db.execute("select generation from meta where id = 1").fetchone()[0]


def open_db(path: str, migrate: bool = True) -> Database:
    """Open the database file (or memory with ":memory:"), tuned for several phones, and migrate it
    (the app migrates once when it starts; its requests then open without looking)."""
    # the server's threads each keep their own connections; the thread check is off only so that
    # the server's end can checkpoint and close them all from the main thread (close_for_exit)
    db = Database(memory=True) if path == ":memory:" else Database(sqlite3.connect(path, check_same_thread=False))
    # a file this server may not write (read-only files or disk) is opened read-only, and SQLite
    # keeps the connection so: it is not kept (close_db), and the next save after the file is made
    # writable again opens it afresh and is stored, without a restart
    db.unwritable = os.path.exists(path) and not os.access(path, os.W_OK)
    db.execute("PRAGMA foreign_keys = ON")
    if path != ":memory:":
        # first: even switching to WAL may wait for a writer; a change waits at most this long for
        # another program's lock, then the phone is told to try again (transaction.write)
        db.execute(f"PRAGMA busy_timeout = {int(disk.WRITE_WAIT * 1000)}")
        db.execute("PRAGMA journal_mode = WAL")
        # FULL: a commit is on the disk before the phone is told "saved", so an acknowledged hand
        # survives a power cut too (NORMAL with WAL survives a killed process, not a power cut)
        db.execute("PRAGMA synchronous = FULL")
        if not path.startswith("file:"):
            # the file this connection opened: a change is refused once another is at the path (transaction.write)
            db.opened = (path, disk.file_identity(path))
    if migrate or path == ":memory:":
        migrations.apply(db)
        missing = results.games_without_results(db)
        if missing:  # opening the archive: no service runs yet, this is its own unit of work
            with transaction.write(db):
                results.rebuild_results(db, missing)
    return db


KEPT_PER_THREAD = 4


def _kept_connections(app) -> OrderedDict:
    """This server thread's open connections of this app, kept between requests (in ``app.extensions``)."""
    local = app.extensions.setdefault("scorekeeper_connections", threading.local())
    kept = getattr(local, "connections", None)
    if kept is None:
        kept = local.connections = OrderedDict()
    return kept


OPENED = "scorekeeper_database_file"
CONNECTIONS = "scorekeeper_open_connections"


def _connections(app) -> dict:
    """Every connection the app's threads keep open, with the thread that keeps it: held here so
    that the server's end checkpoints them (close_for_exit). One whose thread has ended is closed
    when the next connection opens, so a server that starts a thread per request (Flask's own, the
    tests') holds no more connections than it has threads alive, not one per request."""
    return app.extensions.setdefault(CONNECTIONS, {})


def _close(app, db: Database) -> None:
    _connections(app).pop(db, None)
    db.close()


def _hold(app, db: Database) -> None:
    """Hold this thread's new connection; close those of threads that have ended."""
    held = _connections(app)
    for other, thread in list(held.items()):
        if not thread.is_alive():
            _close(app, other)
    held[db] = threading.current_thread()


def _open_for(app, path: str, migrate: bool) -> Database:
    """A new connection of this app to its database: the file the app opened first, or Unavailable
    ("replaced") when another file is at the path now or none (deleted: never a new empty archive)."""
    files = app.extensions.setdefault(OPENED, {})
    expected = files.get(path)
    if expected is not None and disk.file_identity(path) != expected:
        raise disk.replaced(path, expected, disk.file_identity(path))
    db = open_db(path, migrate=migrate)
    opened = getattr(db, "opened", None)
    if opened is not None:
        if expected is None:
            files[path] = opened[1]
        elif opened[1] != expected:
            db.close()
            raise disk.replaced(path, expected, opened[1])
        _hold(app, db)
    return db


def _still_there(db: Database) -> Database:
    """A kept connection, reused: its file is still read (it holds what was acknowledged), but a
    file replaced under it is reported now, and every change refused (transaction.write)."""
    try:
        disk.check_same_file(db)
    except disk.Unavailable:
        pass
    return db


_MIGRATING = threading.Lock()


def get_db() -> Database:
    """The request's database connection: the thread's own, opened on first use and kept."""
    if "db" not in g:
        app = current_app._get_current_object()
        path = app.config["DATABASE"]
        migrated = app.extensions.setdefault("scorekeeper_migrated", set())
        kept = _kept_connections(app)
        db = kept.pop(path, None) if path != ":memory:" and path in migrated else None
        if db is None and path in migrated:
            db = _open_for(app, path, migrate=False)
        elif db is None:
            # the first requests after a start come at once (every phone's live follow): one of
            # them migrates and the others wait for it, never two migrations side by side
            with _MIGRATING:
                db = _open_for(app, path, migrate=path not in migrated)
                migrated.add(path)
        else:
            _still_there(db)
        g.db = db
        g.db_changes = db.conn.total_changes
    return g.db


KNOWN_GENERATION = "scorekeeper_known_generation"


def peek_generation(app) -> int:
    """The archive's generation (outside any request): asked of the database only when the
    archive's change stamp (storage/stamp.py) is not what it was when it was last asked, so the page
    cache serving a page again costs no query and no system call."""
    mark = stamp.of(app.config["DATABASE"])
    seen = mark.read() if mark is not None else None
    known = app.extensions.get(KNOWN_GENERATION)
    if seen is not None and known is not None and known[0] == seen:
        return known[1]
    generation = _read_generation(app)
    # the stamp was read before the query: a change after it changes the stamp again
    app.extensions[KNOWN_GENERATION] = (seen, generation) if seen is not None else None
    return generation


def _read_generation(app) -> int:
    """The archive's generation, read on the thread's kept connection."""
    path = app.config["DATABASE"]
    kept = _kept_connections(app)
    db = kept.get(path)
    if db is None:
        db = _open_for(app, path, migrate=False)
        if db.unwritable:  # not kept (see open_db)
            try:
                return generation(db)
            finally:
                _close(app, db)
        kept[path] = db
    return generation(db)


def close_db(exception: BaseException | None = None) -> None:
    """Hand the request's connection back to its thread (never inside a transaction)."""
    db = g.pop("db", None)
    if db is None:
        return
    path = current_app.config["DATABASE"]
    if db.conn.in_transaction:
        db.conn.rollback()
    if db.conn.total_changes != g.pop("db_changes", db.conn.total_changes):
        stamp.changed(path)  # a write outside transaction.write too: no page kept from before it is served
    if path == ":memory:" or getattr(db, "unwritable", False):
        _close(current_app, db)
        return
    kept = _kept_connections(current_app)
    kept[path] = db
    while len(kept) > KEPT_PER_THREAD:
        _close(current_app, kept.popitem(last=False)[1])


def close_for_exit(app) -> None:
    """At the server's end, once its threads are gone: the write-ahead log is copied into the
    database and emptied (``wal_checkpoint(TRUNCATE)``) and the last connection closed, which
    removes the -wal file. Nothing is done to a file that is no longer the one the server opened
    (the log beside it belongs to the file that was there)."""
    # the connections the server's threads kept: each is checkpointed first, so that the log of a
    # file deleted or replaced under the server is emptied into that file, never left beside its successor
    for db in list(_connections(app)):
        try:
            db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        except sqlite3.Error:
            pass  # busy or failing: SQLite replays the log at the next start
        finally:
            _close(app, db)
    gc.collect()
    path = app.config["DATABASE"]
    expected = app.extensions.get(OPENED, {}).get(path)
    if expected is None or disk.file_identity(path) != expected:
        return
    try:
        with contextlib.closing(sqlite3.connect(path, timeout=disk.WRITE_WAIT)) as connection:
            connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    except sqlite3.Error as error:  # a read-only or failing disk: SQLite replays the log at the next start
        log.error("The database could not be checkpointed at the end: %s", error)


@click.command("init-db")
@with_appcontext
def init_db_command() -> None:
    """Create or upgrade the database schema."""
    get_db()
    click.echo(f"Database ready: {current_app.config['DATABASE']}")


def init_app(app) -> None:
    """Register the teardown and the commands with the app."""
    app.teardown_appcontext(close_db)
    app.cli.add_command(init_db_command)
