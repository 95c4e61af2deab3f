"""The results kept on every write: each game's running figures and result, each player's result
row, the totals per player and per partnership the statistics read, and the ratings in step."""

from __future__ import annotations

import json
from typing import Any

from sqlite_utils import Database

from scorekeeper.core import clock, rulesets, sheet
from scorekeeper.core.models import Game, Hand
from scorekeeper.core.results import player_rows, score_hands
from scorekeeper.storage import ratings, transaction
from scorekeeper.storage.records import MAX_ID, get_game, running_of

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


def _apply_change(db: Database, old: list[dict[str, Any]], new: list[dict[str, Any]]) -> None:
    """Bring the kept totals per player and per partnership from one game's ``old`` result rows to
    its ``new`` ones, by the difference only: one statement per player and per partnership (a
    player's best hand is looked up again only when it may have gone down)."""
    _apply_player_totals(db, old, new)
    _apply_pair_totals(db, old, new)


def _apply_player_totals(db: Database, old: list[dict[str, Any]], new: list[dict[str, Any]]) -> None:
    """The players' kept totals moved by the difference between ``old`` and ``new`` (_apply_change)."""
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


def _apply_pair_totals(db: Database, old: list[dict[str, Any]], new: list[dict[str, Any]]) -> None:
    """The partnerships' kept totals moved by the difference between ``old`` and ``new`` (_apply_change)."""
    pairs: dict[tuple[int, int], list[int]] = {}
    for sign, rows in ((-1, old), (1, new)):
        for x in rows:
            for y in rows:
                if x["player_id"] < y["player_id"] and x["side"] == y["side"]:
                    d = pairs.setdefault((x["player_id"], y["player_id"]), [0, 0, 0, 0])
                    lead = x["margin"] if x.get("lead") is None else x["lead"]  # a row kept before m028: its margin
                    for i, value in enumerate((1, x["finished"], x["won"], lead)):
                        d[i] += sign * value
    db.conn.executemany(
        "insert into pair_totals (a, b, " + ", ".join(PAIR_FIELDS) + ") values (?, ?, ?, ?, ?, ?) "
        "on conflict(a, b) do update set " + ", ".join(f"{k} = {k} + excluded.{k}" for k in PAIR_FIELDS),
        [[a, b, *d] for (a, b), d in pairs.items() if any(d)],
    )


def apply_totals(db: Database, rows: list[dict[str, Any]], sign: int) -> None:
    """Add (sign 1) or take away (sign −1) one game's player results from the kept totals."""
    _apply_change(db, rows if sign < 0 else [], rows if sign > 0 else [])


GAME_RESULT_FIELDS = (
    "variant",
    "day",
    "hands",
    "finished",
    "winner",
    "margin",
    "totals",
    "sides",
    "evening_id",
    "kept",
)


def _changed(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    """The columns of a stored row whose values differ from the row as it should be now."""
    return [column for column, value in new.items() if old.get(column) != value]


def _write_results(
    db: Database,
    game: Game,
    rules: rulesets.RuleSet,
    running: sheet.Running,
    stored_result: dict[str, Any] | None = None,
) -> sheet.Running:
    """Store a game's running figures, its result row and its players' rows, and move the totals the
    statistics read by the difference. Only what differs is written: a column that did not change is
    not set again, so an index on it (the day, the variant) keeps its pages, and a save writes fewer
    pages to the disk (a hand added changes the figures, never the day or the players).
    ``stored_result``: the game's result row as the caller read it in this transaction (else read here).
    A tournament table's game whose round is past has ended with it (``Game.round_past``). The running
    figures as stored are returned."""
    if game.round_past:
        running = sheet.ended_with_round(running)
    day = _day(db, game)
    kept = _result_row(game, rules, running, day)
    if stored_result is None:
        stored_result = _row(db, "game_results", {"game_id": game.id})
    _update_or_insert(db, "game_results", {"game_id": game.id}, kept, stored_result)
    cursor = db.conn.execute("select * from player_results where game_id = ?", [game.id])
    names = [c[0] for c in cursor.description]
    old = [dict(zip(names, row)) for row in cursor.fetchall()]
    new = player_rows(game, rules, running, _seats(db, game.id), day)
    _write_player_rows(db, game.id, old, new)
    _apply_change(db, old, new)
    ratings.results_written(db, game.id, rules, running, new)  # the ratings in step, same transaction
    return running


def _result_row(game: Game, rules: rulesets.RuleSet, running: sheet.Running, day: str) -> dict[str, Any]:
    """The game's result row as it should be now (GAME_RESULT_FIELDS)."""
    result = running.result
    return dict(
        zip(
            GAME_RESULT_FIELDS,
            [
                game.variant,
                day,
                running.hands,
                int(result.finished),
                result.winner,
                result.margin,
                json.dumps(list(running.final_totals)),  # what the result is about: never totals it contradicts
                json.dumps(sheet.side_names(game, rules)),
                game.evening_id,
                json.dumps(running.as_dict()),
            ],
        )
    )


def _write_player_rows(db: Database, game_id: int, old: list[dict[str, Any]], new: list[dict[str, Any]]) -> None:
    """The game's players' result rows brought from ``old`` to ``new``: a player no longer in the game
    deleted, the others' changed columns set, one statement per kind of change (a hand added sets the
    same columns of every player's row)."""
    before = {r["player_id"]: r for r in old}
    staying = {r["player_id"] for r in new}
    db.conn.executemany(
        "delete from player_results where game_id = ? and player_id = ?",
        [[game_id, pid] for pid in before if pid not in staying],
    )
    statements: dict[str, list[list[Any]]] = {}
    for row in new:
        key = {"game_id": game_id, "player_id": row["player_id"]}
        statement = _bring_to(db, "player_results", key, row, before.get(row["player_id"]))
        if statement is not None:
            statements.setdefault(statement[0], []).append(statement[1])
    for sql, params in statements.items():
        db.conn.executemany(sql, params)


def _row(db: Database, table: str, key: dict[str, Any]) -> dict[str, Any] | None:
    """One stored row by its key, or None."""
    cursor = db.conn.execute(
        f"select * from {table} where " + " and ".join(f"{k} = ?" for k in key), list(key.values())
    )
    row = cursor.fetchone()
    return None if row is None else dict(zip([c[0] for c in cursor.description], row))


def _update_or_insert(
    db: Database, table: str, key: dict[str, Any], values: dict[str, Any], stored: dict[str, Any] | None
) -> None:
    """Bring one row (``stored``: as it is now, None when there is none) to ``values``: inserted, or
    only its changed columns set, or left alone when nothing changed."""
    statement = _bring_to(db, table, key, values, stored)
    if statement is not None:
        db.conn.execute(*statement)


def _bring_to(
    db: Database, table: str, key: dict[str, Any], values: dict[str, Any], stored: dict[str, Any] | None
) -> tuple[str, list[Any]] | None:
    """The statement and its parameters that bring one row to ``values`` (as ``_update_or_insert``),
    or None when nothing changed."""
    if stored is None:
        row = {**key, **values}
        return f"insert into {table} ({', '.join(row)}) values ({', '.join('?' for _ in row)})", list(row.values())
    changed = [c for c in _changed(stored, values) if c not in key]
    if not changed:
        return None
    return (
        f"update {table} set {', '.join(f'{c} = ?' for c in changed)} where " + " and ".join(f"{k} = ?" for k in key),
        [values[c] for c in changed] + list(key.values()),
    )


def _scored_hands(
    db: Database, game: Game, rules: rulesets.RuleSet, before: int | None = None
) -> list[tuple[tuple[int, ...], tuple[int, ...], int | None]]:
    """Each kept hand's (side scores, canastas, the side that went out), in order (with ``before``, only
    the hands before that hand id); the scores of a hand stored without them are kept now."""
    rows = db.execute(
        "select id, sides, lone, scores from hands where game_id = ? and deleted_at is null and id < ? order by id",
        [game.id, MAX_ID if before is None else before],
    ).fetchall()
    stored = [
        (Hand(hand_id, game.id, json.loads(sides), "", "", None, lone), tuple(json.loads(scores)) if scores else None)
        for hand_id, sides, lone, scores in rows
    ]
    scored, new = score_hands(rules, stored)
    db.conn.executemany(
        "update hands set scores = ? where id = ?", [[json.dumps(list(v)), hand_id] for hand_id, v in new.items()]
    )
    return scored


def refresh_results(db: Database, game_id: int) -> None:
    """Recompute one game's running figures from its hands' kept scores (no hand is read or scored
    again), its result and its players' results, and the totals the statistics read."""
    game = get_game(db, game_id)
    if game is None:
        return
    rules = sheet.rules_for(game)
    _write_results(db, game, rules, sheet.running_of_hands(rules, _scored_hands(db, game, rules)))


def refresh_tournament_games(db: Database, tournament_id: int, every: bool = False) -> None:
    """Keep again the figures of a tournament's games still undecided (``every``: of all its games):
    after a round starts or the tournament closes, those of the rounds now past end with them
    (``Game.round_past``); after it is reopened (``every``), those of its last round are open again."""
    transaction.require(db)
    rows = db.execute(
        "select tg.game_id from tournament_games tg left join game_results r on r.game_id = tg.game_id "
        "where tg.tournament_id = ? and (? or r.finished is not 1) order by tg.game_id",
        [tournament_id, every],
    ).fetchall()
    for (game_id,) in rows:
        refresh_results(db, game_id)


def results_added(
    db: Database,
    game: Game,
    rules: rulesets.RuleSet,
    scores,
    canastas,
    running: sheet.Running | None = None,
    went_out: int | None = None,
    stored_result: dict[str, Any] | None = None,
) -> sheet.Running:
    """Bring a game's running figures up to date with one hand added at its end, from that hand alone
    (``running``: the figures before it, and ``stored_result``: its result row as stored, when the
    caller has read them already in this transaction)."""
    if running is None:
        running, stored_result = running_of(db, game.id), None
    if running is None:
        refresh_results(db, game.id)
        return running_of(db, game.id)
    running = sheet.with_hand(rules, running, tuple(scores), tuple(canastas), went_out)
    return _write_results(db, game, rules, running, stored_result)


def totals_before(db: Database, game: Game, rules: rulesets.RuleSet, hand_id: int) -> tuple[int, tuple[int, ...]]:
    """A hand's index in its game and the totals before it, from the kept scores of the hands before it."""
    scored = _scored_hands(db, game, rules, before=hand_id)
    totals = tuple(sum(scores[side] for scores, *_rest in scored) for side in range(rules.sides))
    return len(scored), totals


def games_without_results(db: Database) -> list[int]:
    """The games that have no figures kept yet (an archive from an older version)."""
    query = "select g.id from games g left join game_results r on r.game_id = g.id where r.kept is null"
    return [row[0] for row in db.execute(query).fetchall()]


def rebuild_results(db: Database, game_ids: list[int]) -> None:
    """Keep the figures of these games, with today's code, inside the transaction of the opening."""
    transaction.require(db)
    for game_id in game_ids:
        refresh_results(db, game_id)
