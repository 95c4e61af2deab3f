"""A club night at several tables (docs/tournaments.md): stored. The service
(``services/tournaments.py``) decides inside its transaction; this module only writes rows. The
pages read them with ``tournament_records``."""

from __future__ import annotations

import json
from typing import Any, Sequence

from sqlite_utils import Database

from scorekeeper.core import club_night
from scorekeeper.storage import changes, transaction

# the columns kept as JSON text; tournament_records reads them back
JSON_COLUMNS = (
    "settings",
    "season_points",
    "entrants",
    "draw_order",
    "entrant_ids",
    "places",
    "table_rules",
    "checked_in",
)


def stored(fields: dict[str, Any]) -> dict[str, Any]:
    """The columns as stored: the JSON ones as text (None stays NULL); a restore writes them so too."""
    return {k: json.dumps(v, sort_keys=True) if k in JSON_COLUMNS and v is not None else v for k, v in fields.items()}


def insert(db: Database, fields: dict[str, Any]) -> int:
    """Store a new tournament inside the caller's transaction; its id."""
    assert db.conn.in_transaction
    now = transaction.utc_now()
    row = {
        **stored({**fields, "settings": fields.get("settings") or {}}),
        "version": 0,
        "created_at": now,
        "updated_at": now,
    }
    columns = ", ".join(row)
    marks = ", ".join("?" for _ in row)
    return db.execute(f"insert into tournaments ({columns}) values ({marks})", list(row.values())).lastrowid


def set_fields(db: Database, tournament_id: int, version: int, **fields: Any) -> bool:
    """Change some of its columns if it is still at ``version``: False when another change came first."""
    assert db.conn.in_transaction
    fields = stored(fields)
    sets = "".join(f"{k} = ?, " for k in fields)
    cursor = db.execute(
        f"update tournaments set {sets}version = version + 1, updated_at = ? where id = ? and version = ?",
        [*fields.values(), transaction.utc_now(), tournament_id, version],
    )
    return cursor.rowcount == 1


def start_round(db: Database, tournament_id: int, rnd: int, started_at: str) -> None:
    """A round begins (the primary key refuses a round started twice)."""
    assert db.conn.in_transaction
    db.execute(
        "insert into tournament_rounds (tournament_id, round, started_at) values (?, ?, ?)",
        [tournament_id, rnd, started_at],
    )


def end_round(db: Database, tournament_id: int, rnd: int) -> bool:
    """The organiser ends a round for every table: False if it had ended already."""
    assert db.conn.in_transaction
    cursor = db.execute(
        "update tournament_rounds set ended_at = ? where tournament_id = ? and round = ? and ended_at is null",
        [transaction.utc_now(), tournament_id, rnd],
    )
    return cursor.rowcount == 1


def add_table(
    db: Database, tournament_id: int, rnd: int, table: int, game_id: int, units: Sequence[Sequence[int]]
) -> None:
    """A table's game of a round."""
    assert db.conn.in_transaction
    db.execute(
        "insert into tournament_games (tournament_id, round, table_no, game_id, units) values (?, ?, ?, ?, ?)",
        [tournament_id, rnd, table, game_id, json.dumps([list(u) for u in units])],
    )


def log(db: Database, tournament_id: int, action: str, detail: Any, phone: str | None) -> None:
    """An organiser's action on record (one of ``club_night.ACTIONS``: an export carries no other), inside
    the transaction that made it."""
    assert db.conn.in_transaction and action in club_night.ACTIONS
    db.execute(
        "insert into tournament_log (tournament_id, action, detail, at, phone_id) values (?, ?, ?, ?, ?)",
        [tournament_id, action, json.dumps(detail, sort_keys=True), transaction.utc_now(), changes.phone_id(db, phone)],
    )


def delete(db: Database, tournament_id: int) -> None:
    """Remove a tournament that never started a round, with its record."""
    assert db.conn.in_transaction
    db.execute("delete from tournament_log where tournament_id = ?", [tournament_id])
    db.execute("delete from tournaments where id = ?", [tournament_id])
