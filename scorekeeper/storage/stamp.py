"""The archive's change stamp: eight bytes in a small file beside the database (``<database>-stamp``)
that every write of the score keeper changes after its commit, in whichever of its processes it
runs (the server, ``flask restore``, ``flask ratings``). The server reads them through a shared
memory map, so a request learns whether the archive changed since it last looked without a system
call or a query (the page cache asks this before every score sheet it serves: pagecache.FastPages).

A write sets new random bytes rather than counting up, so two processes writing at once never leave
the bytes as a reader last saw them. A change made by another program than the score keeper (the
``sqlite3`` shell) does not change the stamp: the page cache shows it after the score keeper's next
change (the archive's own generation, read by the pages' live updates, sees every change).

The phones' sessions file (storage/sessions.py) has a stamp of its own the same way (``of`` and
``changed`` take any file's path): a locked phone or a new password is seen by every request at
once, and a request learns that nothing changed without looking at the file."""

from __future__ import annotations

import mmap
import os
import secrets
import threading

SIZE = 8
_stamps: dict[str, Stamp | None] = {}
_lock = threading.Lock()


class Stamp:
    """The shared eight bytes of one database file, mapped into this process."""

    def __init__(self, path: str) -> None:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            if os.fstat(fd).st_size < SIZE:
                os.ftruncate(fd, SIZE)  # only ever grown: a map of it never reaches past its end
            self.map = mmap.mmap(fd, SIZE)  # shared: another process's write is seen at once
        finally:
            os.close(fd)

    def read(self) -> bytes:
        return self.map[:SIZE]

    def change(self) -> None:
        self.map[:SIZE] = secrets.token_bytes(SIZE)


def of(database: str) -> Stamp | None:
    """The stamp of this database file (made on first use), or None for a database in memory or
    a folder where it cannot be made (then the page cache asks the database itself, as before)."""
    stamp = _stamps.get(database, False)
    if stamp is not False:
        return stamp
    with _lock:
        if database not in _stamps:
            if not database or database == ":memory:" or database.startswith("file:"):
                _stamps[database] = None
            else:
                try:
                    _stamps[database] = Stamp(f"{database}-stamp")
                except (OSError, ValueError):
                    _stamps[database] = None
        return _stamps[database]


def changed(database: str) -> None:
    """After a commit to this database file: every process of the score keeper sees the change."""
    stamp = of(database)
    if stamp is not None:
        stamp.change()
