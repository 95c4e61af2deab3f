"""Games and hands: stored, corrected, deleted and brought back, inside the write transaction of the
service that decides (``services/games.py``); each function checks that one is open. Hands keep their
raw inputs (as entered, points or card counts); scores are always derived, so an edited hand or a
corrected table recomputes every later total."""

from __future__ import annotations

import json
from typing import Any

from sqlite_utils import Database

from scorekeeper.core import rulesets, sheet
from scorekeeper.core.models import Game, Hand
from scorekeeper.storage import ratings, results, transaction
from scorekeeper.storage.evenings import add_to_evening
from scorekeeper.storage.players import player_id


def _next_game_id(db: Database) -> int:
    """A new game's number. A number is never given twice, not even that of a deleted game: links, QR
    codes and the phones' queues keep pointing at the game they meant (and Undo can bring it back)."""
    return db.execute(
        "select max(coalesce((select max(id) from games), 0), "
        "coalesce((select max(game_id) from deleted_games), 0)) + 1"
    ).fetchone()[0]


# A new hand's number: above every hand stored and every hand of a deleted game kept for Undo, so a
# number is never given twice (a game brought back keeps its hands' numbers, their order and their
# change log)
_NEXT_HAND_ID = (
    "select max(coalesce((select max(id) from hands), 0), "
    "coalesce((select max(max_hand_id) from deleted_games), 0)) + 1"
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
    house_rules_id: int | None = None,
) -> int:
    """Store a new game with its seats and return its id (players are found or added by name).
    A seat marked in ``guests`` (left empty on the form) is a guest of this game only: no archive
    player, never in statistics or partnerships, never merged with another game's guest."""
    now = transaction.utc_now()
    guests = list(guests or []) + [False] * (len(players) - len(guests or []))
    transaction.require(db)
    ids = [None if guest else player_id(db, name) for name, guest in zip(players, guests)]
    # as the archive spells them
    players = [name if pid is None else db["players"].get(pid)["name"] for name, pid in zip(players, ids)]
    table = db["games"].insert(
        {
            "id": _next_game_id(db),
            "evening_id": evening_id,
            "match_id": match_id,
            "partie": partie,
            "variant": variant,
            "players": json.dumps(players),
            "first_dealer": first_dealer,
            "layout": layout,
            "settings": json.dumps(settings or {}),
            "target": target,
            "house_rules_id": house_rules_id,
            "created_at": now,
            "updated_at": now,
        }
    )
    game_id = table.last_pk
    db["game_seats"].insert_all({"game_id": game_id, "seat": seat, "player_id": pid} for seat, pid in enumerate(ids))
    if evening_id is not None:
        add_to_evening(db, evening_id, [pid for pid in ids if pid is not None], by_hand=False)
    results.refresh_results(db, game_id)
    return game_id


def set_match(db: Database, game_id: int, match_id: int, partie: int) -> None:
    """Make a game a Partie of a complete Game."""
    transaction.require(db)
    db["games"].update(game_id, {"match_id": match_id, "partie": partie})


def insert_hand(
    db: Database,
    game: Game,
    rules: rulesets.RuleSet,
    sides: list[dict[str, Any]],
    stock_out: bool | None,
    lone: int | None,
    client_key: str | None,
    scores: tuple[int, ...] | None = None,
    running: sheet.Running | None = None,
    stored_result: dict[str, Any] | None = None,
) -> int:
    """Append a hand inside the caller's transaction, keep its scores, and bring the game's running
    figures up to date from this hand alone (``running`` and ``stored_result``: the figures before it
    and the game's result row, when the caller has read them already in this transaction); its id."""
    now = transaction.utc_now()
    hand = Hand(0, game.id, sides, now, now, stock_out, lone)
    if scores is None:
        scores = sheet.hand_scores(rules, hand)
    hand_id = db.execute(
        "insert into hands (id, game_id, sides, created_at, updated_at, deleted_at, stock_out, lone, client_key, "
        f"scores) values (({_NEXT_HAND_ID}), ?, ?, ?, ?, null, ?, ?, ?, ?)",
        [game.id, json.dumps(sides), now, now, stock_out, lone, client_key, json.dumps(list(scores))],
    ).lastrowid
    _bump(db, game.id, now)
    results.results_added(
        db, game, rules, scores, sheet.hand_canastas(rules, hand), running, sheet.hand_went_out(hand), stored_result
    )
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
    now = transaction.utc_now()
    transaction.require(db)
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


def confirm_hand(db: Database, game_id: int, hand_id: int, version: int, by: str) -> bool:
    """Mark a hand confirmed (``by``: "side 1" … or "organiser") if it is still at ``version`` and not
    confirmed yet (decided by the update itself): False otherwise. Its figures and version stay as they are;
    the game gets a new version, so the phones following it show the confirmation."""
    assert db.conn.in_transaction
    now = transaction.utc_now()
    done = db.execute(
        "update hands set confirmed_at = ?, confirmed_by = ? where id = ? and game_id = ? and deleted_at is null "
        "and confirmed_at is null and version = ?",
        [now, by, hand_id, game_id, version],
    ).rowcount
    if done:
        _bump(db, game_id, now)
    return bool(done)


def delete_hand(db: Database, game_id: int, hand_id: int) -> bool:
    """Delete a hand, keeping it so the deletion can be undone; False if there was none to delete."""
    now = transaction.utc_now()
    transaction.require(db)
    done = db.execute(
        "update hands set deleted_at = ?, version = version + 1 where id = ? and game_id = ? and deleted_at is null",
        [now, hand_id, game_id],
    ).rowcount
    if done:
        _touch(db, game_id, now)
    return bool(done)


def restore_hand(db: Database, game_id: int, hand_id: int) -> bool:
    """Undo the deletion of a hand; it returns to its old place. False if it was not deleted."""
    now = transaction.utc_now()
    transaction.require(db)
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
    transaction.require(db)
    row = db.execute("select * from games where id = ?", [game_id]).fetchone()
    if row is None:
        return False
    game = dict(zip([c[0] for c in db.execute("select * from games limit 0").description], row))
    if game.get("match_id") is not None:
        return False
    seats = list(db.query("select * from game_seats where game_id = ? order by seat", [game_id]))
    stored_hands = list(db.query("select * from hands where game_id = ? order by id", [game_id]))
    old = list(db.query("select * from player_results where game_id = ?", [game_id]))
    ratings.game_dropped(db, game_id)  # the games after it rated again without it
    for table in ("player_results", "game_results", "hands", "game_seats"):
        db.execute(f"delete from {table} where game_id = ?", [game_id])
    results.apply_totals(db, old, -1)  # after the rows are gone: a best hand is looked up again among the rest
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
            "deleted_at": transaction.utc_now(),
            "data": json.dumps({"game": game, "seats": seats, "hands": stored_hands}),
            "max_hand_id": max((hand["id"] for hand in stored_hands), default=None),
        },
        replace=True,
    )
    return True


def undelete_game(db: Database, game_id: int) -> int | None:
    """Bring a deleted game back as it was; its id, or None if there is nothing to bring back.
    If a new game has taken its number meanwhile, it comes back under a new one."""
    transaction.require(db)
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
            add_to_evening(db, game["evening_id"], [seat["player_id"]], by_hand=False)
    hands = [{**hand, "game_id": new_id} for hand in data["hands"]]
    # each hand under its own number (never given to another since: _NEXT_HAND_ID); in an archive from
    # before that rule a number may have been taken, and then every hand of the game takes a new one
    # above all it had, in their order (the hands are played in the order of their numbers)
    if any(db.execute("select 1 from hands where id = ?", [hand["id"]]).fetchone() for hand in hands):
        first = db.execute(_NEXT_HAND_ID).fetchone()[0]
        hands = [{**hand, "id": first + k} for k, hand in enumerate(hands)]
    db.execute("delete from deleted_games where game_id = ?", [game_id])
    for hand in hands:
        db["hands"].insert(hand)
    results.refresh_results(db, new_id)
    return new_id


def reopen_game(db: Database, game_id: int, reopened: bool = True) -> None:
    """Open a finished game again for corrections (``reopened=False``: lock its sheet again)."""
    transaction.require(db)
    db["games"].update(game_id, {"reopened": int(reopened)})
    _touch(db, game_id, transaction.utc_now())


def _touch(db: Database, game_id: int, now: str) -> None:
    """Mark the game as changed (a new version for the phones following it) and bring its results
    up to date, in the same transaction."""
    _bump(db, game_id, now)
    results.refresh_results(db, game_id)


def _bump(db: Database, game_id: int, now: str) -> None:
    """A new version of the game for the phones following it."""
    db.execute("update games set updated_at = ?, version = version + 1 where id = ?", [now, game_id])
