"""A table's own rule sets (docs/rules.md, "A table's own rules"): stored. The service
(``services/house_rules.py``) decides; this module only writes rows, inside its transaction. The
pages read them with ``records.all_house_rules`` and ``records.get_house_rules``."""

from __future__ import annotations

import json
from typing import Any, Mapping

from sqlite_utils import Database

from scorekeeper.storage import transaction


def names(db: Database, other_than: int | None = None) -> list[str]:
    """The names of the table's own rule sets (but one)."""
    return [row[0] for row in db.execute("select name from house_rules where id is not ?", [other_than])]


def insert(db: Database, name: str, base: str, layout: str | None, changes: Mapping[str, Any]) -> int:
    """Store a new one inside the caller's transaction; its id."""
    assert db.conn.in_transaction
    now = transaction.utc_now()
    return db.execute(
        "insert into house_rules (name, base, layout, changes, version, created_at, updated_at) "
        "values (?, ?, ?, ?, 0, ?, ?)",
        [name, base, layout, json.dumps(dict(changes), sort_keys=True), now, now],
    ).lastrowid


def update(db: Database, house_id: int, version: int, name: str, changes: Mapping[str, Any]) -> bool:
    """Change name and values if it is still at ``version``: False when another change came first."""
    assert db.conn.in_transaction
    cursor = db.execute(
        "update house_rules set name = ?, changes = ?, version = version + 1, updated_at = ? "
        "where id = ? and version = ?",
        [name, json.dumps(dict(changes), sort_keys=True), transaction.utc_now(), house_id, version],
    )
    return cursor.rowcount == 1
