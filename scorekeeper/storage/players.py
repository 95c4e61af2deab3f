"""Players: found or added by name, renamed, merged; every game and result follows."""

from __future__ import annotations

import json

from sqlite_utils import Database

from scorekeeper.core import names
from scorekeeper.storage import records, results, transaction


def player_id(db: Database, name: str) -> int:
    """The id of the player with this name (any case, ``records.player_named``), added if new; kept in NFC."""
    found = player_named(db, name)
    if found is not None:
        return found
    return db["players"].insert({"name": names.normal(name), "created_at": transaction.utc_now()}).last_pk


def player_named(db: Database, name: str) -> int | None:
    """The id of the player with this name (any case), or None: nobody is added."""
    found = records.player_named(db, name)
    return found.id if found else None


def _rewrite_names(db: Database, pid: int) -> None:
    """Refresh the names kept with each game of this player after a rename or merge."""
    for row in list(db.query("select distinct game_id from game_seats where player_id = ?", [pid])):
        kept = json.loads(db.execute("select players from games where id = ?", [row["game_id"]]).fetchone()[0])
        for seat in db.query(
            "select s.seat, p.name from game_seats s join players p on p.id = s.player_id where s.game_id = ?",
            [row["game_id"]],
        ):
            kept[seat["seat"]] = seat["name"]  # a guest's seat keeps its name
        db["games"].update(row["game_id"], {"players": json.dumps(kept)})


def rename_player(db: Database, pid: int, name: str) -> None:
    """Rename a player everywhere (his games' names and results follow); the unique index on names
    refuses a name another player has (the service looks first, inside the same transaction)."""
    transaction.require(db)
    db["players"].update(pid, {"name": names.normal(name)})
    _rewrite_names(db, pid)
    for row in list(db.query("select distinct game_id from game_seats where player_id = ?", [pid])):
        results.refresh_results(db, row["game_id"])


def merge_players(db: Database, keep: int, gone: int) -> None:
    """Merge player ``gone`` into ``keep``: every seat, evening and result moves; nothing is lost
    (the service has made sure they are two players who never sat in the same game)."""
    transaction.require(db)
    games = [r["game_id"] for r in db.query("select distinct game_id from game_seats where player_id = ?", [gone])]
    db.execute("update game_seats set player_id = ? where player_id = ?", [keep, gone])
    db.execute(
        "insert or ignore into evening_players (evening_id, player_id, position, by_hand) "
        "select evening_id, ?, position, by_hand from evening_players where player_id = ?",
        [keep, gone],
    )
    db.execute("delete from evening_players where player_id = ?", [gone])
    for game_id in games:  # take the merged player's games out of the totals; refreshed below
        results.apply_totals(db, list(db.query("select * from player_results where game_id = ?", [game_id])), -1)
        db.execute("delete from player_results where game_id = ?", [game_id])
    db.execute("delete from player_totals where player_id = ?", [gone])
    db.execute("delete from pair_totals where a = ? or b = ?", [gone, gone])
    _merge_entrants(db, keep, gone)
    db.execute("delete from players where id = ?", [gone])
    _rewrite_names(db, keep)
    for game_id in games:
        results.refresh_results(db, game_id)


def _merge_entrants(db: Database, keep: int, gone: int) -> None:
    """A merged player's seats in tournaments move to the player kept (his later rounds seat him)."""
    for row in list(db.query("select id, entrant_ids from tournaments where entrant_ids is not null")):
        ids = json.loads(row["entrant_ids"])
        if any(gone in e for e in ids):
            moved = [[keep if pid == gone else pid for pid in e] for e in ids]
            db.execute("update tournaments set entrant_ids = ? where id = ?", [json.dumps(moved), row["id"]])
