"""The SQLite database: one connection per request on ``g``, schema migrations, ``flask init-db``."""

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
from sqlite_utils import Database, Migrations

from scorekeeper.storage import disk, results

migrations = Migrations("scorekeeper")
log = logging.getLogger(__name__)


@migrations()
def m001_games_and_hands(db: Database) -> None:
    """Games with their variant and seats; hands store each side's inputs, never only scores."""
    db["games"].create(
        {
            "id": int,
            "variant": str,
            "players": str,  # JSON list of names in seat order, going to the left
            "first_dealer": int,  # seat index of the dealer of the first hand
            "created_at": str,
            "updated_at": str,
        },
        pk="id",
    )
    db["hands"].create(
        {
            "id": int,
            "game_id": int,
            "sides": str,  # JSON list of the raw side entries (see checks.py)
            "created_at": str,
            "updated_at": str,
            "deleted_at": str,  # soft delete, so a deletion can be undone
        },
        pk="id",
        foreign_keys=[("game_id", "games", "id")],
    )
    db["hands"].create_index(["game_id", "deleted_at"])


@migrations()
def m002_rule_set_options(db: Database) -> None:
    """A game's seating layout, house-rule settings and custom target; how a hand ended."""
    db["games"].add_column("layout", str)
    db["games"].add_column("settings", str)  # JSON object of setting key → value
    db["games"].add_column("target", int)  # None: the rule set's own
    db["hands"].add_column("stock_out", int)  # 1: nobody went out, the stock ran out


@migrations()
def m003_lone_player(db: Database) -> None:
    """Classic 3 players: who played alone in each hand."""
    db["hands"].add_column("lone", int)


@migrations()
def m004_complete_game(db: Database) -> None:
    """[003]'s complete Game: three Partien linked by the id of the first, numbered 1–3."""
    db["games"].add_column("match_id", int)
    db["games"].add_column("partie", int)
    db["games"].create_index(["match_id"])


@migrations()
def m005_archive(db: Database) -> None:
    """Players kept across evenings, evenings of games, seats by player, and per-game results kept
    up to date on every write so statistics read aggregates instead of replaying every hand."""
    _m005_people(db)
    _m005_results(db)
    _m005_backfill(db)


def _m005_people(db: Database) -> None:
    """m005: players (one per name, any case), evenings and who came, each game's seats by player."""
    db["players"].create({"id": int, "name": str, "created_at": str}, pk="id")
    db.execute("CREATE UNIQUE INDEX players_name ON players(name COLLATE NOCASE)")
    db["evenings"].create({"id": int, "date": str, "place": str, "note": str, "created_at": str}, pk="id")
    db["evenings"].create_index(["date"])
    db["evening_players"].create(
        {"evening_id": int, "player_id": int, "position": int},
        pk=("evening_id", "player_id"),
        foreign_keys=[("evening_id", "evenings", "id"), ("player_id", "players", "id")],
    )
    db["game_seats"].create(
        {"game_id": int, "seat": int, "player_id": int},
        pk=("game_id", "seat"),
        foreign_keys=[("game_id", "games", "id"), ("player_id", "players", "id")],
    )
    db["game_seats"].create_index(["player_id"])
    db["games"].add_column("evening_id", int)
    db["games"].add_column("reopened", int)
    db["games"].create_index(["evening_id"])


def _m005_results(db: Database) -> None:
    """m005: each game's result and each player's result in it, kept on every write."""
    db["game_results"].create(
        {
            "game_id": int,
            "variant": str,
            "day": str,
            "hands": int,
            "finished": int,
            "winner": int,
            "margin": int,
            "totals": str,
            "sides": str,
        },
        pk="game_id",
        foreign_keys=[("game_id", "games", "id")],
    )
    db["game_results"].create_index(["day"])
    db["game_results"].create_index(["variant", "day"])
    db["player_results"].create(
        {
            "game_id": int,
            "player_id": int,
            "side": int,
            "day": str,
            "finished": int,
            "won": int,
            "hands": int,
            "points": int,
            "best_hand": int,
            "canastas": int,
            "margin": int,
            "total": int,
        },
        pk=("game_id", "player_id"),
        foreign_keys=[("game_id", "games", "id"), ("player_id", "players", "id")],
    )
    db["player_results"].create_index(["player_id", "day"])


def _m005_backfill(db: Database) -> None:
    """m005: the games already stored get their players and seats."""
    # backfill in SQL, frozen here: each seat's player, found or added by name (any case); the
    # results are kept by the app after the migrations (results.rebuild_missing_results)
    db.execute(
        "insert or ignore into players (name, created_at) "
        "select trim(j.value), g.created_at from games g, json_each(g.players) j order by g.id, j.key"
    )
    db.execute(
        "insert into game_seats (game_id, seat, player_id) select g.id, j.key, "
        "(select p.id from players p where p.name = trim(j.value) collate nocase) from games g, json_each(g.players) j"
    )


@migrations()
def m006_aggregates(db: Database) -> None:
    """Totals per player and per partnership kept up to date on write, and indexes in the order
    the pages read, so the statistics and history cost the same on a big archive as on a small one."""
    db["player_totals"].create(
        {
            "player_id": int,
            "games": int,
            "finished": int,
            "won": int,
            "hands": int,
            "points": int,
            "best_hand": int,
            "canastas": int,
            "margin": int,
        },
        pk="player_id",
    )
    db["pair_totals"].create(
        {"a": int, "b": int, "games": int, "finished": int, "won": int, "margin": int},
        pk=("a", "b"),
    )
    db["pair_totals"].create_index(["games"])
    db["game_results"].add_column("evening_id", int)
    db.execute("create index game_results_day_id on game_results(day desc, game_id desc)")
    db.execute("create index player_results_player_day on player_results(player_id, day desc, game_id desc)")
    db.execute("create index games_updated on games(updated_at desc, id desc)")


@migrations()
def m007_live_and_idempotency(db: Database) -> None:
    """A version per game that every write raises (phones poll it to follow the game live), and a
    key per hand sent by the phone, so a retried or doubled submission is stored once."""
    db["games"].add_column("version", int, not_null_default=0)
    db["hands"].add_column("client_key", str)
    db.execute("create unique index hands_client_key on hands(game_id, client_key) where client_key is not null")


@migrations()
def m008_hand_versions(db: Database) -> None:
    """A version per hand that every change raises: a correction based on an older one is refused."""
    db["hands"].add_column("version", int, not_null_default=0)


WATCHED = ("games", "hands", "players", "evenings", "evening_players", "game_seats")


@migrations()
def m009_generation(db: Database) -> None:
    """One number that every change to the archive raises (by triggers, so no write can forget
    it): pages rendered for one generation can be served again until the next change."""
    db.execute("create table meta (id integer primary key check (id = 1), generation integer not null)")
    db.execute("insert into meta (id, generation) values (1, 0)")
    for table in WATCHED:
        for event in ("insert", "update", "delete"):
            db.execute(
                f"create trigger {table}_{event}_generation after {event} on {table} "
                "begin update meta set generation = generation + 1 where id = 1; end"
            )


@migrations()
def m010_deleted_games(db: Database) -> None:
    """A deleted game is kept here, whole, so its deletion can be undone."""
    db.execute("create table deleted_games (game_id integer primary key, deleted_at text not null, data text not null)")


@migrations()
def m011_kept_figures(db: Database) -> None:
    """Each hand keeps its side scores and each game its running figures, so a save brings the
    results up to date from the hand it changed instead of replaying the game; one Partie per
    number in a complete Game. (The figures are filled by the app after the migrations.)"""
    db["hands"].add_column("scores", str)  # JSON list of each side's score of this hand
    db["game_results"].add_column("kept", str)  # JSON of sheet.Kept
    db.execute("create unique index games_match_partie on games(match_id, partie) where match_id is not null")


# How an empty seat was named before guests existed, in the app's four languages (frozen here).
DEFAULT_SEAT_NAMES = ("Player [0-9]*", "Spieler [0-9]*", "Giocatore [0-9]*", "Mängija [0-9]*")


@migrations()
def m012_guests(db: Database) -> None:
    """An empty seat is a guest of its game only (no archive player). Players still called by an
    empty seat's default name ("Player 3", never named) become guests of each of their games and
    leave the players, evenings and kept totals."""
    defaults = " or ".join("name glob ?" for _ in DEFAULT_SEAT_NAMES)
    db.execute(f"create temporary table unnamed as select id from players where {defaults}", DEFAULT_SEAT_NAMES)
    # the kept totals of their partners lose the partnerships with them; the games' results are
    # kept again by the app after the migrations (their game_results rows are dropped here)
    db.execute("delete from game_results where game_id in (select game_id from game_seats where player_id in unnamed)")
    db.execute(
        "delete from player_results where game_id in (select game_id from game_seats where player_id in unnamed)"
    )
    db.execute("delete from player_totals")
    db.execute("delete from pair_totals")
    db.execute("update game_seats set player_id = null where player_id in unnamed")
    db.execute("delete from evening_players where player_id in unnamed")
    db.execute("delete from players where id in unnamed")
    db.execute("drop table unnamed")
    # the totals are summed again from every game's kept rows (the guests' games are refreshed after)
    db.execute(
        "insert into player_totals (player_id, games, finished, won, hands, points, best_hand, canastas, margin) "
        "select player_id, count(*), sum(finished), sum(won), sum(hands), sum(points), max(best_hand), "
        "sum(canastas), sum(margin) from player_results group by player_id"
    )
    db.execute(
        "insert into pair_totals (a, b, games, finished, won, margin) "
        "select x.player_id, y.player_id, count(*), sum(x.finished), sum(x.won), sum(x.margin) "
        "from player_results x join player_results y on x.game_id = y.game_id and x.side = y.side "
        "and x.player_id < y.player_id group by x.player_id, y.player_id"
    )


APPEND_ONLY = (
    "create trigger changes_never_updated before update on changes "
    "begin select raise(abort, 'the change log is append-only'); end",
    "create trigger changes_never_deleted before delete on changes "
    "begin select raise(abort, 'the change log is append-only'); end",
)


@migrations()
def m013_change_log(db: Database) -> None:
    """Every change on record: an append-only log written in the same transaction as the change
    (when, which phone, what, the entry before and after), and the phones that made them."""
    db.execute(
        "create table phones (id integer primary key, token text not null unique, name text, created_at text not null)"
    )
    db.execute(
        "create table changes (id integer primary key, game_id integer, hand_id integer, at text not null, "
        "phone_id integer references phones(id), action text not null, before text, after text)"
    )
    db.execute("create index changes_game on changes(game_id, id)")
    db.execute("create index changes_hand on changes(hand_id, id)")
    for trigger in APPEND_ONLY:
        db.execute(trigger)


@migrations()
def m014_ratings(db: Database) -> None:
    """Each player's rating (openskill, docs/ratings.md), each rated game's change for each of its
    players and the outcome it was rated with; a deleted game or player takes its rows along (an
    erased archive leaves none). The ratings of the games already played are computed here, once."""
    db.execute(
        "create table ratings (player_id integer primary key, mu real not null, sigma real not null, "
        "games integer not null)"
    )
    db.execute("create table rated_games (game_id integer primary key, outcome text not null)")
    db.execute(
        "create table rating_changes (game_id integer not null, player_id integer not null, mu_before real not null, "
        "sigma_before real not null, mu real not null, sigma real not null, games integer not null, "
        "primary key (game_id, player_id))"
    )
    db.execute("create index rating_changes_player on rating_changes(player_id, game_id)")
    db.execute(
        "create trigger games_delete_ratings after delete on games begin "
        "delete from rated_games where game_id = old.id; delete from rating_changes where game_id = old.id; end"
    )
    db.execute(
        "create trigger players_delete_ratings after delete on players begin "
        "delete from ratings where player_id = old.id; delete from rating_changes where player_id = old.id; end"
    )
    from scorekeeper.storage import ratings  # today's code: a later change of the model is a migration of its own

    ratings.rebuild(db)


@migrations()
def m015_evening_players_by_hand(db: Database) -> None:
    """Whether a player is on an evening's list because someone put him there (the evening's form)
    or only because he sat at one of its games: a player whose only games were deleted leaves the
    lists then. The players already on a list stay there (by hand)."""
    db["evening_players"].add_column("by_hand", int, not_null_default=1)


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
        results.rebuild_missing_results(db)
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


def get_db() -> Database:
    """The request's database connection: the thread's own, opened on first use and kept."""
    if "db" not in g:
        app = current_app._get_current_object()
        path = app.config["DATABASE"]
        migrated = app.extensions.setdefault("scorekeeper_migrated", set())
        kept = _kept_connections(app)
        db = kept.pop(path, None) if path != ":memory:" and path in migrated else None
        if db is None:
            db = _open_for(app, path, migrate=path not in migrated)
            migrated.add(path)
        else:
            _still_there(db)
        g.db = db
    return g.db


def peek_generation(app) -> int:
    """The archive's generation, read on the thread's kept connection (outside any request)."""
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
