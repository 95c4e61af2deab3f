"""Games and hands in the database: functions taking a ``sqlite_utils.Database``.

Hands keep their raw inputs (as entered, points or card counts); scores are always derived, so
an edited hand or a corrected table recomputes every later total.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import sqlite3
import threading
from collections.abc import Iterator
from datetime import datetime, timezone
from typing import Any

from sqlite_utils import Database

from scorekeeper.core import clock, names, sheet, variants
from scorekeeper.core.messages import N_, Refused
from scorekeeper.core.models import Change, Evening, Game, Hand, Player
from scorekeeper.storage import rating_store


class Unavailable(Exception):
    """The archive cannot take a change now, and nothing of it was written: another program holds
    the database (``busy``: try again shortly), or the disk is ``read-only``, ``full`` or failing (``io``)."""

    def __init__(self, reason: str, detail: str = "") -> None:
        super().__init__(f"{reason}: {detail}" if detail else reason)
        self.reason = reason


# SQLite's messages for what is wrong with the disk rather than with the change
_DISK_TROUBLE = (
    ("locked", "busy"),
    ("busy", "busy"),
    ("readonly", "read-only"),
    ("read-only", "read-only"),
    ("full", "full"),
    ("disk i/o", "io"),
    ("unable to open", "io"),
)


def unavailable(error: BaseException) -> Unavailable | None:
    """The Unavailable that a database error means, or None if it is not the disk's doing."""
    if not isinstance(error, sqlite3.OperationalError):
        return None
    text = str(error).lower()
    for words, reason in _DISK_TROUBLE:
        if words in text:
            return Unavailable(reason, str(error))
    return None


WRITE_WAIT = 2.0  # seconds a change waits for its turn before the phone is told to try again

log = logging.getLogger(__name__)


def file_identity(path: str) -> tuple[int, int] | None:
    """The device and inode of the file at ``path`` now, or None when there is none."""
    try:
        stat = os.stat(path)
    except OSError:
        return None
    return stat.st_dev, stat.st_ino


_REPORTED: set[tuple] = set()


def replaced(path: str, expected: tuple[int, int], found: tuple[int, int] | None) -> Unavailable:
    """The refusal when the database file at ``path`` is no longer the one opened (deleted, or
    another file moved over it while the server ran): a change stored now would go to a file that
    is gone at the next start. Said once on the console."""
    if (path, expected, found) not in _REPORTED:
        _REPORTED.add((path, expected, found))
        what = "deleted" if found is None else "replaced by another file"
        log.error(
            "The database %s was %s while the score keeper was running: saves are refused until it is restarted.",
            path,
            what,
        )
    return Unavailable("replaced", f"{path} is no longer the file that was opened")


def check_same_file(db: Database) -> None:
    """Raise Unavailable("replaced") when the file at the connection's path is no longer the file it
    opened (``db.opened``: path and identity, set by db.open_db; a stat, so cheap)."""
    opened = getattr(db, "opened", None)
    if opened is None:
        return
    path, expected = opened
    found = file_identity(path)
    if found != expected:
        raise replaced(path, expected, found)


@contextlib.contextmanager
def write(db: Database) -> Iterator[Database]:
    """One write transaction, taken at once (``BEGIN IMMEDIATE``): with several phones saving, a
    writer waits its turn instead of failing with "database is locked" when it would upgrade a
    read to a write. Nested inside another transaction it is a savepoint.

    A writer waits at most WRITE_WAIT seconds (for this server's other writers, then for another
    program's lock, SQLite's busy timeout); a busy, read-only, full or failing disk raises
    Unavailable with the transaction rolled back, so the phone can keep the change and retry."""
    if db.conn.in_transaction:
        db.conn.execute("SAVEPOINT nested_write")
        try:
            yield db
        except BaseException:
            db.conn.execute("ROLLBACK TO nested_write")
            db.conn.execute("RELEASE nested_write")
            raise
        else:
            db.conn.execute("RELEASE nested_write")
        return
    # Writers of this process queue here in turn; SQLite's own wait (the busy timeout) polls with
    # growing sleeps, which left an unlucky save waiting over a second with 10 phones saving at once.
    # The busy timeout still covers writers of other processes (a CLI backup, a second server).
    if not _WRITERS.acquire(timeout=WRITE_WAIT):
        raise Unavailable("busy", "other saves of this server are waiting")
    try:
        try:
            db.conn.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as error:
            raise (unavailable(error) or error) from error
        try:
            check_same_file(db)  # the file at the path is still the one this connection writes to
            yield db
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
    finally:
        _WRITERS.release()


def _rollback(db: Database) -> None:
    """Roll back what is open (a failing disk may already have rolled it back)."""
    if db.conn.in_transaction:
        try:
            db.conn.execute("ROLLBACK")
        except sqlite3.OperationalError:
            pass


_WRITERS = threading.RLock()  # re-entrant: a second connection of the same thread fails as before, never hangs


# SQLite's largest integer: an id beyond it (a URL like /games/99999999999999999999) finds nothing
# instead of overflowing the query.
MAX_ID = 2**63 - 1


def valid_id(value: int) -> bool:
    """Whether a number can be a stored id at all."""
    return 0 < value <= MAX_ID


def _now() -> str:
    """The current time as an ISO string in UTC."""
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def _game(row: dict[str, Any]) -> Game:
    """A Game from its database row."""
    return Game(
        row["id"],
        row["variant"],
        json.loads(row["players"]),
        row["first_dealer"],
        row["created_at"],
        row.get("layout"),
        json.loads(row.get("settings") or "{}"),
        row.get("target"),
        row.get("match_id"),
        row.get("partie"),
        row.get("evening_id"),
        bool(row.get("reopened")),
        row.get("version") or 0,
    )


def _hand(row: dict[str, Any]) -> Hand:
    """A Hand from its database row."""
    stock_out = row.get("stock_out")
    return Hand(
        row["id"],
        row["game_id"],
        json.loads(row["sides"]),
        row["created_at"],
        row["updated_at"],
        None if stock_out is None else bool(stock_out),
        row.get("lone"),
        row.get("version") or 0,
    )


def create_game(
    db: Database,
    variant: str,
    players: list[str],
    first_dealer: int = 0,
    layout: str | None = None,
    settings: dict[str, Any] | None = None,
    target: int | None = None,
    match_id: int | None = None,
    partie: int | None = None,
    evening_id: int | None = None,
    guests: list[bool] | None = None,
) -> int:
    """Store a new game with its seats and return its id (players are found or added by name).
    A seat marked in ``guests`` (left empty on the form) is a guest of this game only: no archive
    player, never in statistics or partnerships, never merged with another game's guest."""
    now = _now()
    guests = list(guests or []) + [False] * (len(players) - len(guests or []))
    with write(db):
        ids = [None if guest else player_id(db, name) for name, guest in zip(players, guests)]
        # as the archive spells them
        players = [name if pid is None else db["players"].get(pid)["name"] for name, pid in zip(players, ids)]
        # a number is never given twice, not even that of a deleted game: links, QR codes and the
        # phones' queues keep pointing at the game they meant (and Undo can bring it back)
        next_id = db.execute(
            "select max(coalesce((select max(id) from games), 0), "
            "coalesce((select max(game_id) from deleted_games), 0)) + 1"
        ).fetchone()[0]
        table = db["games"].insert(
            {
                "id": next_id,
                "evening_id": evening_id,
                "match_id": match_id,
                "partie": partie,
                "variant": variant,
                "players": json.dumps(players),
                "first_dealer": first_dealer,
                "layout": layout,
                "settings": json.dumps(settings or {}),
                "target": target,
                "created_at": now,
                "updated_at": now,
            }
        )
        game_id = table.last_pk
        db["game_seats"].insert_all(
            {"game_id": game_id, "seat": seat, "player_id": pid} for seat, pid in enumerate(ids)
        )
        if evening_id is not None:
            _add_to_evening(db, evening_id, [pid for pid in ids if pid is not None], by_hand=False)
        refresh_results(db, game_id)
    return game_id


def get_game(db: Database, game_id: int) -> Game | None:
    """The game with this id, or None."""
    if not valid_id(game_id):
        return None
    cursor = db.conn.execute("select * from games where id = ?", [game_id])
    row = cursor.fetchone()
    if row is None:
        return None
    return _game(dict(zip([c[0] for c in cursor.description], row)))


def guests_of(db: Database, game_id: int) -> list[bool]:
    """Which seats of a game are guests."""
    rows = db.execute("select seat, player_id is null from game_seats where game_id = ? order by seat", [game_id])
    return [bool(guest) for _seat, guest in rows]


def set_match(db: Database, game_id: int, match_id: int, partie: int) -> None:
    """Make a game a Partie of a complete Game."""
    with write(db):
        db["games"].update(game_id, {"match_id": match_id, "partie": partie})


def match_games(db: Database, match_id: int) -> list[Game]:
    """The Partien of a complete Game, in order."""
    if not valid_id(match_id):
        return []
    return [_game(row) for row in db["games"].rows_where("match_id = ?", [match_id], order_by="partie")]


def list_games(db: Database, limit: int = 50) -> list[Game]:
    """The most recent games first."""
    return [_game(row) for row in db["games"].rows_where(order_by="id desc", limit=limit)]


def hands(db: Database, game_id: int) -> list[Hand]:
    """The game's hands in the order they were played (deleted ones left out)."""
    rows = db["hands"].rows_where("game_id = ? and deleted_at is null", [game_id], order_by="id")
    return [_hand(row) for row in rows]


# --- the change log ---------------------------------------------------------------------------

# What is logged, in the players' words (message ids: the pages translate them).
ACTIONS = {
    "hand added": N_("hand added"),
    "hand corrected": N_("hand corrected"),
    "hand deleted": N_("hand deleted"),
    "hand restored": N_("hand restored"),
    "game created": N_("game created"),
    "game reopened": N_("game reopened"),
    "game locked": N_("game locked"),
    "game deleted": N_("game deleted"),
    "game restored": N_("game restored"),
    "archive imported": N_("archive imported"),
}


def phone_id(db: Database, token: str | None) -> int | None:
    """The number of the phone with this token (added on its first change), or None without one."""
    if not token:
        return None
    row = db.execute("select id from phones where token = ?", [token]).fetchone()
    if row:
        return row[0]
    return db.execute("insert into phones (token, created_at) values (?, ?)", [token, _now()]).lastrowid


def phone_name(db: Database, token: str | None) -> str | None:
    """The name this phone gave itself, if any."""
    row = db.execute("select name from phones where token = ?", [token or ""]).fetchone()
    return row[0] if row else None


def name_phone(db: Database, token: str, name: str) -> bool:
    """Give a phone its name, once: False if it has one already."""
    with write(db):
        pid = phone_id(db, token)
        return db.execute("update phones set name = ? where id = ? and name is null", [name, pid]).rowcount == 1


def log_change(
    db: Database, game_id: int | None, hand_id: int | None, action: str, before: Any, after: Any, phone: str | None
) -> None:
    """Append to the change log inside the caller's transaction (the change and its record stand or fall together)."""
    assert action in ACTIONS and db.conn.in_transaction
    db.execute(
        "insert into changes (game_id, hand_id, at, phone_id, action, before, after) values (?, ?, ?, ?, ?, ?, ?)",
        [
            game_id,
            hand_id,
            _now(),
            phone_id(db, phone),
            action,
            None if before is None else json.dumps(before),
            None if after is None else json.dumps(after),
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


def changes(db: Database, game_id: int, hand_id: int | None = None) -> list[Change]:
    """A game's change log (or one hand's), oldest first."""
    if not valid_id(game_id) or (hand_id is not None and not valid_id(hand_id)):
        return []
    where, params = "c.game_id = ?", [game_id]
    if hand_id is not None:
        where, params = where + " and c.hand_id = ?", params + [hand_id]
    rows = db.execute(
        "select c.id, c.game_id, c.hand_id, c.at, c.phone_id, p.name, c.action, c.before, c.after "
        f"from changes c left join phones p on p.id = c.phone_id where {where} order by c.id",
        params,
    ).fetchall()
    return [
        Change(
            r[0],
            r[1],
            r[2],
            r[3],
            r[4],
            r[5] or (f"phone {r[4]}" if r[4] else ""),
            r[6],
            json.loads(r[7]) if r[7] else None,
            json.loads(r[8]) if r[8] else None,
            bool(r[5]),
        )  # fmt: skip
        for r in rows
    ]


def corrections(db: Database, game_id: int) -> dict[int, int]:
    """How often each hand of a game was corrected."""
    rows = db.execute(
        "select hand_id, count(*) from changes where game_id = ? and action = 'hand corrected' group by hand_id",
        [game_id],
    )
    return {hand_id: count for hand_id, count in rows}


def last_hand(db: Database, game_id: int) -> Hand | None:
    """The game's latest hand (deleted ones left out), or None."""
    rows = list(db["hands"].rows_where("game_id = ? and deleted_at is null", [game_id], order_by="id desc", limit=1))
    return _hand(rows[0]) if rows else None


def get_hand(db: Database, game_id: int, hand_id: int, deleted: bool = False) -> Hand | None:
    """One hand of a game, or None (a deleted hand only when ``deleted`` is asked for)."""
    if not (valid_id(game_id) and valid_id(hand_id)):
        return None
    where = "id = ? and game_id = ? and deleted_at is " + ("not null" if deleted else "null")
    rows = list(db["hands"].rows_where(where, [hand_id, game_id]))
    return _hand(rows[0]) if rows else None


def _touch(db: Database, game_id: int, now: str) -> None:
    """Mark the game as changed (a new version for the phones following it) and bring its results
    up to date, in the same transaction."""
    _bump(db, game_id, now)
    refresh_results(db, game_id)


def _bump(db: Database, game_id: int, now: str) -> None:
    """A new version of the game for the phones following it."""
    db.execute("update games set updated_at = ?, version = version + 1 where id = ?", [now, game_id])


def hand_count(db: Database, game_id: int) -> int:
    """How many hands a game has (deleted ones left out), read from the kept figures."""
    row = db.execute("select hands from game_results where game_id = ?", [game_id]).fetchone()
    if row is not None:
        return row[0]
    return db.execute("select count(*) from hands where game_id = ? and deleted_at is null", [game_id]).fetchone()[0]


def game_version(db: Database, game_id: int) -> int | None:
    """The game's version: it rises with every change to the game."""
    if not valid_id(game_id):
        return None
    row = db.execute("select version from games where id = ?", [game_id]).fetchone()
    return None if row is None else row[0]


def hand_by_key(db: Database, game_id: int, client_key: str) -> int | None:
    """The id of the hand a phone sent with this key, if it is stored."""
    row = db.execute("select id from hands where game_id = ? and client_key = ?", [game_id, client_key]).fetchone()
    return row[0] if row else None


def add_hand(
    db: Database,
    game_id: int,
    sides: list[dict[str, Any]],
    stock_out: bool | None = None,
    lone: int | None = None,
    client_key: str | None = None,
) -> int:
    """Append a hand with these raw side entries; return its id. A hand sent again with the same
    ``client_key`` (a double tap, a resent form, a retried sync) is stored once: its id is returned."""
    return add_hand_once(db, game_id, sides, stock_out, lone, client_key)[0]


class Overtaken(Exception):
    """Another phone saved a hand after this one was based on the game: ``count`` hands now."""

    def __init__(self, count: int) -> None:
        super().__init__(count)
        self.count = count


def add_hand_once(
    db: Database,
    game_id: int,
    sides: list[dict[str, Any]],
    stock_out: bool | None = None,
    lone: int | None = None,
    client_key: str | None = None,
    expect_hands: int | None = None,
) -> tuple[int, bool]:
    """Like ``add_hand``, and say whether the hand is new (False: this key was stored before). The
    key is looked up inside the write transaction, so two requests with one key cannot both insert;
    with ``expect_hands``, a game that has another number of hands by then raises Overtaken, so two
    phones saving the same hand at the same instant cannot both store it."""
    with write(db):
        if client_key:
            existing = hand_by_key(db, game_id, client_key)
            if existing is not None:
                return existing, False
        if expect_hands is not None:
            count = hand_count(db, game_id)
            if count != expect_hands:
                raise Overtaken(count)
        game = get_game(db, game_id)
        rules = sheet.rules_for(game)
        return insert_hand(db, game, rules, sides, stock_out, lone, client_key), True


def insert_hand(
    db: Database,
    game: Game,
    rules: variants.RuleSet,
    sides: list[dict[str, Any]],
    stock_out: bool | None,
    lone: int | None,
    client_key: str | None,
    scores: tuple[int, ...] | None = None,
    kept: sheet.Kept | None = None,
) -> int:
    """Append a hand inside the caller's transaction, keep its scores, and bring the game's kept
    figures up to date from this hand alone; its id."""
    now = _now()
    hand = Hand(0, game.id, sides, now, now, stock_out, lone)
    if scores is None:
        scores = sheet.hand_scores(rules, hand)
    hand_id = db.execute(
        "insert into hands (game_id, sides, created_at, updated_at, deleted_at, stock_out, lone, client_key, scores) "
        "values (?, ?, ?, ?, null, ?, ?, ?, ?)",
        [game.id, json.dumps(sides), now, now, stock_out, lone, client_key, json.dumps(list(scores))],
    ).lastrowid
    _bump(db, game.id, now)
    results_added(db, game, rules, scores, sheet.hand_canastas(rules, hand), kept)
    return hand_id


def update_hand(
    db: Database,
    game_id: int,
    hand_id: int,
    sides: list[dict[str, Any]],
    stock_out: bool | None = None,
    lone: int | None = None,
    expect_version: int | None = None,
) -> bool:
    """Replace a hand's entry; it keeps its place in the game. With ``expect_version``, only if the
    hand is still at that version (decided by the update itself): False if it was changed meanwhile."""
    now = _now()
    with write(db):
        sql = (
            "update hands set sides = ?, updated_at = ?, stock_out = ?, lone = ?, scores = null, "
            "version = version + 1 where id = ? and game_id = ? and deleted_at is null"
        )
        params = [json.dumps(sides), now, stock_out, lone, hand_id, game_id]
        if expect_version is not None:
            sql += " and version = ?"
            params.append(expect_version)
        if db.execute(sql, params).rowcount != 1:
            return False
        _touch(db, game_id, now)
    return True


def delete_hand(db: Database, game_id: int, hand_id: int) -> bool:
    """Delete a hand, keeping it so the deletion can be undone; False if there was none to delete."""
    now = _now()
    with write(db):
        done = db.execute(
            "update hands set deleted_at = ?, version = version + "
            "1 where id = ? and game_id = ? and deleted_at is null",
            [now, hand_id, game_id],
        ).rowcount
        if done:
            _touch(db, game_id, now)
    return bool(done)


def restore_hand(db: Database, game_id: int, hand_id: int) -> bool:
    """Undo the deletion of a hand; it returns to its old place. False if it was not deleted."""
    now = _now()
    with write(db):
        done = db.execute(
            "update hands set deleted_at = null, version = version + 1 "
            "where id = ? and game_id = ? and deleted_at is not null",
            [hand_id, game_id],
        ).rowcount
        if done:
            _touch(db, game_id, now)
    return bool(done)


def delete_game(db: Database, game_id: int) -> bool:
    """Delete a game started by mistake: it leaves history, statistics and its evening, and is kept
    whole (its row, seats and every hand as entered) so the deletion can be undone. A Partie of a
    complete Game is not deleted on its own (False)."""
    with write(db):
        row = db.execute("select * from games where id = ?", [game_id]).fetchone()
        if row is None:
            return False
        game = dict(zip([c[0] for c in db.execute("select * from games limit 0").description], row))
        if game.get("match_id") is not None:
            return False
        seats = list(db.query("select * from game_seats where game_id = ? order by seat", [game_id]))
        kept_hands = list(db.query("select * from hands where game_id = ? order by id", [game_id]))
        old = list(db.query("select * from player_results where game_id = ?", [game_id]))
        rating_store.game_dropped(db, game_id)  # the games after it rated again without it
        for table in ("player_results", "game_results", "hands", "game_seats"):
            db.execute(f"delete from {table} where game_id = ?", [game_id])
        _apply_totals(db, old, -1)  # after the rows are gone: a best hand is looked up again among the rest
        db.execute("delete from games where id = ?", [game_id])
        # its players leave the evening's list unless someone put them there or they play another game of it
        db.execute(
            "delete from evening_players where evening_id = ? and by_hand = 0 and player_id not in "
            "(select s.player_id from game_seats s join games g on g.id = s.game_id "
            "where g.evening_id = ? and s.player_id is not null)",
            [game.get("evening_id"), game.get("evening_id")],
        )
        db["deleted_games"].insert(
            {
                "game_id": game_id,
                "deleted_at": _now(),
                "data": json.dumps({"game": game, "seats": seats, "hands": kept_hands}),
            },
            replace=True,
        )
    return True


def undelete_game(db: Database, game_id: int) -> int | None:
    """Bring a deleted game back as it was; its id, or None if there is nothing to bring back.
    If a new game has taken its number meanwhile, it comes back under a new one."""
    with write(db):
        row = db.execute("select data from deleted_games where game_id = ?", [game_id]).fetchone()
        if row is None:
            return None
        data = json.loads(row[0])
        game = dict(data["game"])
        if db.execute("select 1 from games where id = ?", [game["id"]]).fetchone():
            del game["id"]
        new_id = db["games"].insert(game).last_pk
        names = json.loads(game["players"])
        for seat in data["seats"]:
            if (
                seat["player_id"] is not None
                and not db.execute("select 1 from players where id = ?", [seat["player_id"]]).fetchone()
            ):
                seat = {**seat, "player_id": player_id(db, names[seat["seat"]])}  # merged away meanwhile
            db["game_seats"].insert({**seat, "game_id": new_id})
            if game.get("evening_id") is not None and seat["player_id"] is not None:
                _add_to_evening(db, game["evening_id"], [seat["player_id"]], by_hand=False)
        for hand in data["hands"]:
            hand = {**hand, "game_id": new_id}
            if db.execute("select 1 from hands where id = ?", [hand["id"]]).fetchone():
                del hand["id"]
            db["hands"].insert(hand)
        db.execute("delete from deleted_games where game_id = ?", [game_id])
        refresh_results(db, new_id)
    return new_id


# ---------------------------------------------------------------------------------------------
# Players, evenings and the results kept for statistics


def player_id(db: Database, name: str) -> int:
    """The id of the player with this name (any case), added if new; kept in NFC."""
    name = names.normal(name)
    rows = list(db.query("select id from players where name = ? collate nocase", [name]))
    if rows:
        return rows[0]["id"]
    return db["players"].insert({"name": name, "created_at": _now()}).last_pk


def all_player_names(db: Database) -> list[str]:
    """The name of every player kept (shown or not): a new name is compared with each."""
    return [r[0] for r in db.execute("select name from players order by id")]


def get_player(db: Database, pid: int) -> Player | None:
    """The player with this id, or None."""
    if not valid_id(pid):
        return None
    rows = list(db.query("select id, name from players where id = ?", [pid]))
    return Player(rows[0]["id"], rows[0]["name"]) if rows else None


# A player the archive shows (Players, Statistics, an evening's "Who is here?"): one who sat at a game,
# or whom someone put on an evening's list; a player whose only games were deleted is not shown.
SHOWN_PLAYER = (
    "(exists (select 1 from game_seats s where s.player_id = {p}.id) "
    "or exists (select 1 from evening_players e where e.player_id = {p}.id and e.by_hand = 1))"
)


def list_players(db: Database) -> list[Player]:
    """Every player the archive shows, by name."""
    return [
        Player(r["id"], r["name"])
        for r in db.query(
            f"select id, name from players p where {SHOWN_PLAYER.format(p='p')} order by name collate nocase"
        )
    ]


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
    """Rename a player everywhere; ValueError if another player has that name."""
    name = names.normal(name)
    clash = list(db.query("select id from players where name = ? collate nocase and id != ?", [name, pid]))
    if clash:
        raise Refused(N_("There is already a player called %(name)s; merge the two instead."), name=name)
    with write(db):
        db["players"].update(pid, {"name": name})
        _rewrite_names(db, pid)
        for row in list(db.query("select distinct game_id from game_seats where player_id = ?", [pid])):
            refresh_results(db, row["game_id"])


def merge_players(db: Database, keep: int, gone: int) -> None:
    """Merge player ``gone`` into ``keep``: every seat, evening and result moves; nothing is lost.
    ValueError if both sat in the same game."""
    if keep == gone:
        raise Refused(N_("Pick two different players."))
    shared = list(
        db.query(
            "select a.game_id from game_seats a join game_seats b on a.game_id = b.game_id "
            "where a.player_id = ? and b.player_id = ?",
            [keep, gone],
        )
    )
    if shared:
        raise Refused(N_("Both played in the same game, so they are two people."))
    with write(db):
        games = [r["game_id"] for r in db.query("select distinct game_id from game_seats where player_id = ?", [gone])]
        db.execute("update game_seats set player_id = ? where player_id = ?", [keep, gone])
        db.execute(
            "insert or ignore into evening_players (evening_id, player_id, position, by_hand) "
            "select evening_id, ?, position, by_hand from evening_players where player_id = ?",
            [keep, gone],
        )
        db.execute("delete from evening_players where player_id = ?", [gone])
        for game_id in games:  # take the merged player's games out of the totals; refreshed below
            _apply_totals(db, list(db.query("select * from player_results where game_id = ?", [game_id])), -1)
            db.execute("delete from player_results where game_id = ?", [game_id])
        db.execute("delete from player_totals where player_id = ?", [gone])
        db.execute("delete from pair_totals where a = ? or b = ?", [gone, gone])
        db.execute("delete from players where id = ?", [gone])
        _rewrite_names(db, keep)
        for game_id in games:
            refresh_results(db, game_id)


def _add_to_evening(db: Database, evening_id: int, ids: list[int], by_hand: bool = True) -> None:
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
    with write(db):
        evening_id = db["evenings"].insert({"date": date, "place": place, "note": note, "created_at": _now()}).last_pk
        _add_to_evening(db, evening_id, [player_id(db, name) for name in names])
    return evening_id


def update_evening(db: Database, evening_id: int, date: str, names: list[str], place: str = "", note: str = "") -> None:
    """Change an evening's date, place, note and players (players of its games stay)."""
    with write(db):
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
            _add_to_evening(db, evening_id, [pid], by_hand=bool(was.get(pid, 1)) if pid in keep else False)


def get_evening(db: Database, evening_id: int) -> Evening | None:
    """The evening with its players, or None."""
    if not valid_id(evening_id):
        return None
    rows = list(db.query("select * from evenings where id = ?", [evening_id]))
    if not rows:
        return None
    row = rows[0]
    players = [
        Player(r["id"], r["name"])
        for r in db.query(
            "select p.id, p.name from evening_players e join players p on p.id = e.player_id "
            "where e.evening_id = ? order by e.position",
            [evening_id],
        )
    ]
    return Evening(row["id"], row["date"], row["place"] or "", row["note"] or "", players)


def evening_seats(db: Database, evening_id: int) -> tuple[dict[int, int], dict[int, int]]:
    """Per player of an evening's games: how many games they played, and the id of their last one."""
    played: dict[int, int] = {}
    last: dict[int, int] = {}
    for pid, count, latest in db.execute(
        "select s.player_id, count(*), max(g.id) from game_seats s join games g on g.id = s.game_id "
        "where g.evening_id = ? and s.player_id is not null group by s.player_id",
        [evening_id],
    ):
        played[pid], last[pid] = count, latest
    return played, last


def evening_on(db: Database, date: str) -> Evening | None:
    """The latest evening on this date, if any."""
    rows = list(db.query("select id from evenings where date = ? order by id desc limit 1", [date]))
    return get_evening(db, rows[0]["id"]) if rows else None


def evening_games(db: Database, evening_id: int) -> list[Game]:
    """The games of an evening, in the order they were started."""
    return [_game(row) for row in db["games"].rows_where("evening_id = ?", [evening_id], order_by="id")]


def reopen_game(db: Database, game_id: int, reopened: bool = True) -> None:
    """Open a finished game again for corrections (``reopened=False``: lock its sheet again)."""
    with write(db):
        db["games"].update(game_id, {"reopened": int(reopened)})
        _touch(db, game_id, _now())


TOTAL_FIELDS = ("games", "finished", "won", "hands", "points", "canastas", "margin")
PAIR_FIELDS = ("games", "finished", "won", "margin")


def _seats(db: Database, game_id: int) -> dict[int, int]:
    """Seat → player id of a game (guests' seats left out: they are nobody in the archive)."""
    return {
        r[0]: r[1]
        for r in db.execute(
            "select seat, player_id from game_seats where game_id = ? and player_id is not null", [game_id]
        )
    }


def _day(db: Database, game: Game) -> str:
    """The day a game counts for: the day it was played on this machine's clock (a game of an evening
    started after midnight on the day after the evening's date), or its evening's date when it was
    entered for the evening at another time (see clock.played_on)."""
    evening = None
    if game.evening_id is not None:
        row = db.execute("select date from evenings where id = ?", [game.evening_id]).fetchone()
        evening = row[0] if row else None
    return clock.played_on(game.created_at, evening)


def _player_rows(
    game: Game, rules: variants.RuleSet, kept: sheet.Kept, seats: dict[int, int], day: str
) -> list[dict[str, Any]]:
    """Each seated player's result row for the statistics, from the game's kept figures."""
    balance: dict[int, int] = {}
    for payer, payee, points in sheet.settlement_of(rules, kept.result):
        balance[payer] = balance.get(payer, 0) - points
        balance[payee] = balance.get(payee, 0) + points
    result = kept.result
    rows = []
    for side, seat_list in enumerate(sheet.side_seats(rules)):
        for seat in seat_list:
            if seat in seats:
                rows.append(
                    {
                        "game_id": game.id,
                        "player_id": seats[seat],
                        "side": side,
                        "day": day,
                        "finished": int(result.finished),
                        "won": int(result.finished and result.winner == side),
                        "hands": kept.hands,
                        "points": kept.totals[side],
                        "best_hand": kept.best[side],
                        "canastas": kept.canastas[side],
                        "margin": balance.get(seat, 0),
                        "total": kept.totals[side],
                    }
                )
    return rows


def _apply_change(db: Database, old: list[dict[str, Any]], new: list[dict[str, Any]]) -> None:
    """Bring the kept totals per player and per partnership from one game's ``old`` result rows to
    its ``new`` ones, by the difference only: one statement per player and per partnership (a
    player's best hand is looked up again only when it may have gone down)."""
    before = {r["player_id"]: r for r in old}
    after = {r["player_id"]: r for r in new}
    upserts, rescans = [], []
    for pid in before.keys() | after.keys():
        o, n = before.get(pid), after.get(pid)
        delta = [(1 if n else 0) - (1 if o else 0)] + [
            (n[k] if n else 0) - (o[k] if o else 0) for k in TOTAL_FIELDS[1:]
        ]
        old_best, new_best = (o or {}).get("best_hand"), (n or {}).get("best_hand")
        rises = new_best is not None and (old_best is None or new_best >= old_best)
        upserts.append([pid, *delta, new_best, rises])
        if not rises and old_best != new_best:
            rescans.append([pid, pid])
    db.conn.executemany(
        "insert into player_totals (player_id, " + ", ".join(TOTAL_FIELDS) + ", best_hand) "
        "values (?, "
        + ", ".join("?" for _ in TOTAL_FIELDS)
        + ", ?) on conflict(player_id) do update set "
        + ", ".join(f"{k} = {k} + excluded.{k}" for k in TOTAL_FIELDS)
        + ", best_hand = case when ? then max(coalesce(best_hand, excluded.best_hand), excluded.best_hand) "
        "else best_hand end",
        upserts,
    )
    db.conn.executemany(
        "update player_totals set best_hand = "
        "(select max(best_hand) from player_results where player_id = ?) where player_id = ?",
        rescans,
    )
    pairs: dict[tuple[int, int], list[int]] = {}
    for sign, rows in ((-1, old), (1, new)):
        for x in rows:
            for y in rows:
                if x["player_id"] < y["player_id"] and x["side"] == y["side"]:
                    d = pairs.setdefault((x["player_id"], y["player_id"]), [0, 0, 0, 0])
                    for i, value in enumerate((1, x["finished"], x["won"], x["margin"])):
                        d[i] += sign * value
    db.conn.executemany(
        "insert into pair_totals (a, b, " + ", ".join(PAIR_FIELDS) + ") values (?, ?, ?, ?, ?, ?) "
        "on conflict(a, b) do update set " + ", ".join(f"{k} = {k} + excluded.{k}" for k in PAIR_FIELDS),
        [[a, b, *d] for (a, b), d in pairs.items() if any(d)],
    )


def _apply_totals(db: Database, rows: list[dict[str, Any]], sign: int) -> None:
    """Add (sign 1) or take away (sign −1) one game's player results from the kept totals."""
    _apply_change(db, rows if sign < 0 else [], rows if sign > 0 else [])


def kept_of(db: Database, game_id: int) -> sheet.Kept | None:
    """A game's kept running figures (hands, totals, best hands, result), or None if not kept yet."""
    row = db.execute("select kept from game_results where game_id = ?", [game_id]).fetchone()
    return sheet.Kept.from_dict(json.loads(row[0])) if row and row[0] else None


def _write_results(db: Database, game: Game, rules: variants.RuleSet, kept: sheet.Kept) -> None:
    """Store a game's kept figures, its result row and its players' rows, and move the totals the
    statistics read by the difference."""
    day = _day(db, game)
    result = kept.result
    db.execute(
        "insert or replace into game_results (game_id, variant, day, hands, finished, winner, margin, totals, sides, "
        "evening_id, kept) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [
            game.id,
            game.variant,
            day,
            kept.hands,
            int(result.finished),
            result.winner,
            result.margin,
            json.dumps(list(kept.final_totals)),  # what the result is about: never totals it contradicts
            json.dumps(sheet.side_names(game, rules)),
            game.evening_id,
            json.dumps(kept.as_dict()),
        ],
    )
    cursor = db.conn.execute("select * from player_results where game_id = ?", [game.id])
    names = [c[0] for c in cursor.description]
    old = [dict(zip(names, row)) for row in cursor.fetchall()]
    new = _player_rows(game, rules, kept, _seats(db, game.id), day)
    db.conn.execute("delete from player_results where game_id = ?", [game.id])
    if new:
        columns = list(new[0])
        db.conn.executemany(
            f"insert into player_results ({', '.join(columns)}) values ({', '.join('?' for _ in columns)})",
            [[row[c] for c in columns] for row in new],
        )
    _apply_change(db, old, new)
    rating_store.results_written(db, game.id, rules, kept, new)  # the ratings in step, same transaction


def _scored_hands(
    db: Database, game: Game, rules: variants.RuleSet, before: int | None = None
) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Each kept hand's (side scores, canastas), in order (with ``before``, only the hands before
    that hand id); a hand stored without its scores (by an older version, or an import) is scored
    once now and keeps them."""
    out = []
    rows = db.execute(
        "select id, sides, lone, scores from hands where game_id = ? and deleted_at is null and id < ? order by id",
        [game.id, MAX_ID if before is None else before],
    ).fetchall()
    for hand_id, sides, lone, scores in rows:
        hand = Hand(hand_id, game.id, json.loads(sides), "", "", None, lone)
        if scores:
            values = tuple(json.loads(scores))
        else:
            values = sheet.hand_scores(rules, hand)
            db.execute("update hands set scores = ? where id = ?", [json.dumps(list(values)), hand_id])
        out.append((values, sheet.hand_canastas(rules, hand)))
    return out


def refresh_results(db: Database, game_id: int) -> None:
    """Recompute one game's kept figures from its hands' kept scores (no hand is read or scored
    again), its result and its players' results, and the totals the statistics read."""
    game = get_game(db, game_id)
    if game is None:
        return
    rules = sheet.rules_for(game)
    _write_results(db, game, rules, sheet.keep_all(rules, _scored_hands(db, game, rules)))


def results_added(
    db: Database, game: Game, rules: variants.RuleSet, scores, canastas, kept: sheet.Kept | None = None
) -> sheet.Kept:
    """Bring a game's kept figures up to date with one hand added at its end, from that hand alone
    (``kept``: the figures before it, when the caller has read them already in this transaction)."""
    kept = kept or kept_of(db, game.id)
    if kept is None:
        refresh_results(db, game.id)
        return kept_of(db, game.id)
    kept = sheet.keep_hand(rules, kept, tuple(scores), tuple(canastas))
    _write_results(db, game, rules, kept)
    return kept


def totals_before(db: Database, game: Game, rules: variants.RuleSet, hand_id: int) -> tuple[int, tuple[int, ...]]:
    """A hand's index in its game and the totals before it, from the kept scores of the hands before it."""
    scored = _scored_hands(db, game, rules, before=hand_id)
    totals = tuple(sum(scores[side] for scores, _canastas in scored) for side in range(rules.sides))
    return len(scored), totals


def rebuild_missing_results(db: Database) -> int:
    """Keep the figures of every game that has none kept yet (an archive from an older version);
    how many. Run after the migrations, with today's code."""
    missing = [
        r[0]
        for r in db.execute(
            "select g.id from games g left join game_results r on r.game_id = g.id where r.kept is null"
        ).fetchall()
    ]
    if missing:
        with write(db):
            for game_id in missing:
                refresh_results(db, game_id)
    return len(missing)
