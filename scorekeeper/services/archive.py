"""The archive as a whole: restoring an export (into an empty archive, or over this one), and
rating every game again. Each is one ``BEGIN IMMEDIATE`` transaction: a refused or failing restore
leaves the archive exactly as it was, and two restores sent at once cannot both load."""

from __future__ import annotations

from typing import Any

from sqlite_utils import Database

from scorekeeper.core.messages import N_
from scorekeeper.storage import backup, changes, disk, ratings, restore, transaction
from scorekeeper.storage.export_check import NotAnExport, damaged, validate


def restore_archive(db: Database, data: Any, replace: bool = False, progress=None) -> dict[str, int]:
    """Load an export into an empty archive (with ``replace``, into this one after erasing it),
    keeping every id; counts of what was restored. ``progress(games done, games in all)`` is told
    after each game (a big archive takes tens of seconds). NotAnExport when the file is refused;
    disk.Unavailable when the disk cannot take it.

    The whole file is checked first; whether the archive is empty is read inside the write, and the
    erasing and the loading are that one transaction."""
    data = validate(data)
    try:
        with transaction.write(db):  # one transaction: erased and loaded together, or neither
            if not replace and not backup.is_empty(db):
                raise NotAnExport(N_("The archive is not empty: import restores into an empty one only."))
            restore.clear(db)  # with replace everything; otherwise only kept totals an emptied archive may hold
            restore.load(db, data, progress)
            counts = {"games": len(data["games"]), "hands": sum(len(g["hands"]) for g in data["games"])}
            changes.log_change(db, None, None, "archive imported", None, counts, None)
    except (NotAnExport, disk.Unavailable):  # a busy or full disk is not the file's fault: the caller says so
        raise
    except (KeyError, TypeError, ValueError) as error:
        raise damaged(error) from None
    except Exception as error:  # a constraint failed: the transaction was rolled back
        raise NotAnExport(
            N_("The export does not fit together (%(error)s); nothing was imported."), error=str(error)
        ) from None
    return {
        "players": len(data["players"]),
        "evenings": len(data["evenings"]),
        "games": len(data["games"]),
        "hands": sum(len(g["hands"]) for g in data["games"]),
    }


def rebuild_ratings(db: Database) -> tuple[int, bool]:
    """Rate every game again from the whole history, in game order: how many games were rated, and
    whether the ratings kept were the same before."""
    with transaction.write(db):
        before = ratings.snapshot(db)
        count = ratings.rebuild(db)
        return count, ratings.snapshot(db) == before
