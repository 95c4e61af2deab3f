"""Evenings: the date, place, note and the players present."""

from __future__ import annotations

from sqlite_utils import Database

from scorekeeper.storage import transaction
from scorekeeper.storage.players import player_id


def add_to_evening(db: Database, evening_id: int, ids: list[int], by_hand: bool = True) -> None:
    """Add players to an evening's list (keeping the ones already there): by hand (the evening's
    form) or as players of one of its games (``by_hand=False``)."""
    start = db.execute(
        "select coalesce(max(position), -1) + 1 from evening_players where evening_id = ?", [evening_id]
    ).fetchone()[0]
    for offset, pid in enumerate(ids):
        db.execute(
            "insert or ignore into evening_players (evening_id, player_id, position, by_hand) values (?, ?, ?, ?)",
            [evening_id, pid, start + offset, int(by_hand)],
        )


def create_evening(db: Database, date: str, names: list[str], place: str = "", note: str = "") -> int:
    """Store an evening with the players present (found or added by name)."""
    transaction.require(db)
    row = {"date": date, "place": place, "note": note, "created_at": transaction.utc_now()}
    evening_id = db["evenings"].insert(row).last_pk
    add_to_evening(db, evening_id, [player_id(db, name) for name in names])
    return evening_id


def update_evening(db: Database, evening_id: int, date: str, names: list[str], place: str = "", note: str = "") -> None:
    """Change an evening's date, place, note and players (players of its games stay)."""
    transaction.require(db)
    db["evenings"].update(evening_id, {"date": date, "place": place, "note": note})
    keep = [player_id(db, name) for name in names]
    in_games = [
        r["player_id"]
        for r in db.query(
            "select distinct s.player_id from game_seats s join games g on g.id = s.game_id "
            "where g.evening_id = ? and s.player_id is not null",
            [evening_id],
        )
    ]
    # a player the form keeps stays as he was put on the list (by hand or by a game); a new one is by hand
    was = dict(
        db.execute("select player_id, by_hand from evening_players where evening_id = ?", [evening_id]).fetchall()
    )
    db.execute("delete from evening_players where evening_id = ?", [evening_id])
    for pid in keep + [p for p in in_games if p not in keep]:
        add_to_evening(db, evening_id, [pid], by_hand=bool(was.get(pid, 1)) if pid in keep else False)
