"""The change log (append-only: its triggers refuse any update or deletion) and the phones that
made the changes."""

from __future__ import annotations

import json
from typing import Any

from sqlite_utils import Database

from scorekeeper.core.models import Game, Hand
from scorekeeper.storage import transaction
from scorekeeper.storage.records import ACTIONS, ENTERED_BY


def phone_id(db: Database, token: str | None) -> int | None:
    """The number of the phone with this token (added on its first change), or None without one."""
    if not token:
        return None
    row = db.execute("select id from phones where token = ?", [token]).fetchone()
    if row:
        return row[0]
    return db.execute("insert into phones (token, created_at) values (?, ?)", [token, transaction.utc_now()]).lastrowid


def name_phone(db: Database, token: str, name: str) -> bool:
    """Give a phone its name, once: False if it has one already."""
    transaction.require(db)
    pid = phone_id(db, token)
    return db.execute("update phones set name = ? where id = ? and name is null", [name, pid]).rowcount == 1


def game_record(game: Game) -> dict[str, Any]:
    """A game's set-up as the log keeps it."""
    return {
        "variant": game.variant,
        "players": game.players,
        "layout": game.layout,
        "settings": game.settings,
        "target": game.target,
        "first_dealer": game.first_dealer,
        "match_id": game.match_id,
        "partie": game.partie,
        "house_rules_id": game.house_rules_id,
    }


def log_change(
    db: Database,
    game_id: int | None,
    hand_id: int | None,
    action: str,
    before: Any,
    after: Any,
    phone: str | None,
    entered_by: str | None = None,
) -> None:
    """Append to the change log inside the caller's transaction (the change and its record stand or fall
    together); ``entered_by``: ORGANISER for the organiser's hand, else None (the phone's own)."""
    assert action in ACTIONS and db.conn.in_transaction and entered_by in (None, *ENTERED_BY)
    db.execute(
        "insert into changes (game_id, hand_id, at, phone_id, action, before, after, entered_by) "
        "values (?, ?, ?, ?, ?, ?, ?, ?)",
        [
            game_id,
            hand_id,
            transaction.utc_now(),
            phone_id(db, phone),
            action,
            None if before is None else json.dumps(before),
            None if after is None else json.dumps(after),
            entered_by,
        ],
    )


def erase_change_log(db: Database) -> None:
    """Empty the change log, inside the caller's transaction: only a restore that replaces the whole
    archive does this (the log's triggers refuse any other deletion, and are set again at once)."""
    assert db.conn.in_transaction
    db.execute("drop trigger if exists changes_never_updated")
    db.execute("drop trigger if exists changes_never_deleted")
    db.execute("delete from changes")
    db.execute(
        "create trigger changes_never_updated before update on changes "
        "begin select raise(abort, 'the change log is append-only'); end"
    )
    db.execute(
        "create trigger changes_never_deleted before delete on changes "
        "begin select raise(abort, 'the change log is append-only'); end"
    )


def entry_of(hand: Hand) -> dict[str, Any]:
    """A hand's entry as the log keeps it."""
    return {"sides": hand.sides, "stock_out": hand.stock_out, "lone": hand.lone}
