"""A phone names itself, once ("Anna's phone"): the change log shows the name. One ``BEGIN
IMMEDIATE`` transaction; the name is given only to a phone that has none by then, so of two names
sent at once the first stands and the second is told the phone has one."""

from __future__ import annotations

from sqlite_utils import Database

from scorekeeper.core.messages import N_, Problem
from scorekeeper.services.verdicts import REFUSED, SAVED, Verdict
from scorekeeper.storage import changes, transaction


def name_phone(db: Database, token: str, name: str) -> Verdict:
    """Give the phone with this token its name: SAVED, or REFUSED if it has one already."""
    with transaction.write(db):
        if changes.name_phone(db, token, name):
            return Verdict(SAVED)
        return Verdict(REFUSED, problems=(Problem(None, "name", N_("This phone already has a name.")),))
