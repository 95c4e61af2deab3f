"""Reads for the archive's pages from the results kept on every write (``game_results``,
``player_results``, ``player_totals``, ``pair_totals``): aggregate queries with indexes, so they
cost the same however many hands the archive holds."""

from __future__ import annotations

from typing import Any

from sqlite_utils import Database

from .stats import HistoryRow, Partnership, PlayerStats, _history_row, _player

PAGE_SIZE = 20

PLAYER_COLUMNS = """
    coalesce(t.games, 0) as games, coalesce(t.finished, 0) as finished, coalesce(t.won, 0) as won,
    coalesce(t.hands, 0) as hands, coalesce(t.points, 0) as points, t.best_hand as best_hand,
    coalesce(t.canastas, 0) as canastas, coalesce(t.margin, 0) as margin
"""


def players(db: Database) -> list[PlayerStats]:
    """Every player's record, most games won first."""
    rows = db.query(
        f"select p.id, p.name, {PLAYER_COLUMNS} from players p left join player_totals t on t.player_id = p.id "
        "order by won desc, games desc, p.name collate nocase"
    )
    return [_player(r) for r in rows]


def player(db: Database, pid: int) -> PlayerStats | None:
    """One player's record."""
    rows = list(
        db.query(
            f"select p.id, p.name, {PLAYER_COLUMNS} from players p left join player_totals t on t.player_id = p.id "
            "where p.id = ?",
            [pid],
        )
    )
    return _player(rows[0]) if rows else None


def player_timeline(db: Database, pid: int) -> list[dict[str, Any]]:
    """The player's finished games in order: day, game, won, margin (for the chart over time)."""
    return list(
        db.query(
            "select r.day, r.game_id, r.won, r.margin from player_results r where r.player_id = ? and r.finished = 1 "
            "order by r.day, r.game_id",
            [pid],
        )
    )


def partnerships(db: Database, limit: int = 50) -> list[Partnership]:
    """Pairs of players on the same side, most games together first."""
    rows = db.query(
        "select pa.name as a, pb.name as b, t.games, t.finished, t.won, t.margin from pair_totals t "
        "join players pa on pa.id = t.a join players pb on pb.id = t.b where t.games > 0 "
        "order by t.games desc, t.won desc, pa.name, pb.name limit ?",
        [limit],
    )
    return [Partnership((r["a"], r["b"]), r["games"], r["finished"], r["won"], r["margin"]) for r in rows]


def history(
    db: Database,
    player_id: int | None = None,
    variant: str | None = None,
    since: str | None = None,
    until: str | None = None,
    page: int = 1,
) -> tuple[list[HistoryRow], bool]:
    """Games newest first, filtered; one page, and whether there is another."""
    where, params = [], []
    source = "game_results r"
    order = "r.day desc, r.game_id desc"
    if player_id:  # walk the player's own results in day order (index player_id, day)
        source = "player_results p join game_results r on r.game_id = p.game_id"
        where.append("p.player_id = ?")
        params.append(player_id)
        order = "p.day desc, p.game_id desc"
    if variant:
        where.append("r.variant = ?")
        params.append(variant)
    if since:
        where.append("r.day >= ?")
        params.append(since)
    if until:
        where.append("r.day <= ?")
        params.append(until)
    sql = (
        f"select r.* from {source}"
        + (" where " + " and ".join(where) if where else "")
        + f" order by {order} limit ? offset ?"
    )
    rows = list(db.query(sql, params + [PAGE_SIZE + 1, (max(page, 1) - 1) * PAGE_SIZE]))
    return [_history_row(r) for r in rows[:PAGE_SIZE]], len(rows) > PAGE_SIZE


def recent_games(db: Database, limit: int = 8) -> list[HistoryRow]:
    """The games changed most recently (for the home page)."""
    rows = db.query(
        "select r.* from games g join game_results r on r.game_id = g.id order by g.updated_at desc, g.id desc limit ?",
        [limit],
    )
    return [_history_row(r) for r in rows]


def evening_standings(db: Database, evening_id: int) -> list[dict[str, Any]]:
    """Each player's games, wins and balance in an evening, best first."""
    return list(
        db.query(
            "select p.id, p.name, count(r.game_id) as games, coalesce(sum(r.won), "
            "0) as won, coalesce(sum(r.margin), 0) as balance "
            "from evening_players e join players p on p.id = e.player_id "
            "left join player_results r on r.player_id = p.id and "
            "r.game_id in (select id from games where evening_id = ?) "
            "where e.evening_id = ? group by p.id order by balance desc, won desc, e.position",
            [evening_id, evening_id],
        )
    )
