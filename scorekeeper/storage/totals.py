"""Reads for the archive's pages from the results kept on every write (``game_results``,
``player_results``, ``player_totals``, ``pair_totals``): aggregate queries with indexes, so they
cost the same however many hands the archive holds."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from sqlite_utils import Database

from scorekeeper.core import ratings, sheet
from scorekeeper.core.results import settlement_balance
from scorekeeper.core.stats import HistoryRow, Partnership, PlayerStats, _history_row, _player
from scorekeeper.storage import records
from scorekeeper.storage.records import SHOWN_PLAYER

PAGE_SIZE = 20


def evenings_page(db: Database, page: int) -> tuple[list[dict[str, Any]], bool]:
    """One page of evenings, newest first, each with its number of games; and whether more follow."""
    rows = list(
        db.query(
            "select e.*, (select count(*) from games g where g.evening_id = e.id) as games from evenings e "
            "order by e.date desc, e.id desc limit ? offset ?",
            [PAGE_SIZE + 1, (page - 1) * PAGE_SIZE],
        )
    )
    return rows[:PAGE_SIZE], len(rows) > PAGE_SIZE


PLAYER_COLUMNS = """
    coalesce(t.games, 0) as games, coalesce(t.finished, 0) as finished, coalesce(t.won, 0) as won,
    coalesce(t.hands, 0) as hands, coalesce(t.points, 0) as points, t.best_hand as best_hand,
    coalesce(t.canastas, 0) as canastas, coalesce(t.margin, 0) as margin
"""

# A player's rating (docs/ratings.md), over all his games whatever the period or rules shown: sorted
# by the conservative mu - 3 sigma, null before his first rated game (``k``: the ratings table).
RATING_COLUMNS = "k.mu - 3 * k.sigma as rating, k.mu as mu, k.sigma as sigma, k.games as rated"


@dataclass(frozen=True)
class RatedPlayer(PlayerStats):
    """A player's record with his rating (None before his first rated game)."""

    rating: int | None = None
    uncertainty: int | None = None
    rated: int = 0  # rated games

    @property
    def provisional(self) -> bool:
        """Fewer than ratings.PROVISIONAL rated games."""
        return self.rated < ratings.PROVISIONAL


def _rated(row: dict[str, Any]) -> RatedPlayer:
    """A RatedPlayer from a query row with PLAYER_COLUMNS and RATING_COLUMNS."""
    if row.get("mu") is None:
        return RatedPlayer(**vars(_player(row)))
    rating = ratings.Rating(row["mu"], row["sigma"], row["rated"])
    return RatedPlayer(**vars(_player(row)), rating=rating.shown, uncertainty=rating.uncertainty, rated=rating.games)


def players(db: Database) -> list[PlayerStats]:
    """Every player's record, most games won first."""
    return player_table(db)


# --- the statistics page: any column sorted either way, for a period and a rule set --------------------

PERIODS = ("all", "year", "12m")

# Each sortable column's key and the expression it sorts by (over the columns of PLAYER_COLUMNS);
# a column with no figure yet (no finished game, no hand) sorts last whichever way. "games" is the
# finished games, as the page shows them: a game in play counts once it has ended, like the win rate.
PLAYER_SORTS = {
    "name": "name collate nocase",
    "games": "finished",
    "won": "won",
    "rate": "cast(won as real) / nullif(finished, 0)",
    "avg": "cast(points as real) / nullif(hands, 0)",
    "best": "best_hand",
    "canastas": "cast(canastas as real) / nullif(hands, 0)",
    "margin": "margin",
    "rating": "rating",
}
PAIR_SORTS = {"names": "a collate nocase, b collate nocase", "games": "finished", "won": "won", "margin": "margin"}


def sort_order(column: str | None, direction: str | None, columns, default: str) -> tuple[str, bool]:
    """The column to sort by and whether downwards, from the page's ``?sort=`` and ``?dir=``: an
    unknown column is the default one; an unknown direction is the column's own (names A to Z,
    figures highest first)."""
    if column not in columns:
        column = default
    if direction not in ("asc", "desc"):
        direction = "asc" if column in ("name", "names") else "desc"
    return column, direction == "desc"


def period_days(period: str, today: str) -> tuple[str | None, str | None]:
    """The first and last day (ISO) of a period as the statistics page offers it: this calendar
    year, the last 12 months up to today (today a year ago left out), or all time (None, None)."""
    if period == "year":
        return f"{today[:4]}-01-01", f"{today[:4]}-12-31"
    if period == "12m":
        day = date.fromisoformat(today)
        try:
            year_ago = day.replace(year=day.year - 1)
        except ValueError:  # 29 February: a year before is 28 February
            year_ago = day.replace(year=day.year - 1, day=28)
        return (year_ago + timedelta(days=1)).isoformat(), today
    return None, None


def _order(sorts, column: str, desc: bool, then: str) -> str:
    """An ORDER BY for a column of ``sorts``, blanks last, then ``then``."""
    way = " desc" if desc else ""
    keys = [f"{key.strip()}{way}" for key in sorts[column].split(", ")] if column in ("name", "names") else []
    if not keys:
        keys = [f"({sorts[column]}) is null", f"{sorts[column]}{way}"]
    return ", ".join(keys + [then])


def _filters(since: str | None, until: str | None, variant: str | None, alias: str = "g") -> tuple[str, list[Any]]:
    """The WHERE of a filtered read over game_results (named ``alias``; the index on (variant, day)
    or on day)."""
    where, params = [], []
    if variant and variant.startswith("house-"):  # a table's own rule set: the games started from it
        where.append(f"{alias}.game_id in (select id from games where house_rules_id = ?)")
        params.append(int(variant.removeprefix("house-")))
    elif variant:  # the rule set itself: not the games of a table's own rule set made from it (filtered apart)
        where.append(f"{alias}.variant = ?")
        where.append(f"{alias}.game_id not in (select id from games where house_rules_id is not null)")
        params.append(variant)
    if since:
        where.append(f"{alias}.day >= ?")
        params.append(since)
    if until:
        where.append(f"{alias}.day <= ?")
        params.append(until)
    return " and ".join(where) or "1", params


def player_table(
    db: Database,
    sort: str = "won",
    desc: bool = True,
    since: str | None = None,
    until: str | None = None,
    variant: str | None = None,
) -> list[PlayerStats]:
    """Every player's record, sorted by a column of PLAYER_SORTS. All time and every rule set: from the
    kept totals, every player (none played yet too); for days or a rule set: from the games of those
    days and that rule set (their result rows, through the indexes on game_results), the players who
    played one."""
    order = _order(PLAYER_SORTS, sort, desc, "won desc, finished desc, games desc, name collate nocase")
    if not (since or until or variant):
        sql = (
            f"select * from (select p.id, p.name, {PLAYER_COLUMNS}, {RATING_COLUMNS} from players p "
            "left join player_totals t on t.player_id = p.id left join ratings k on k.player_id = p.id "
            f"where {SHOWN_PLAYER.format(p='p')}) order by {order}"
        )
        return [_rated(r) for r in db.query(sql)]
    where, params = _filters(since, until, variant)
    sql = (
        "select * from (select p.id, p.name, count(*) as games, sum(r.finished) as finished, sum(r.won) as won, "
        "sum(r.hands) as hands, sum(r.points) as points, max(r.best_hand) as best_hand, "
        f"sum(r.canastas) as canastas, sum(r.margin) as margin, {RATING_COLUMNS} "
        "from game_results g join player_results r on r.game_id = g.game_id join players p on p.id = r.player_id "
        f"left join ratings k on k.player_id = p.id where {where} group by r.player_id) order by {order}"
    )
    return [_rated(r) for r in db.query(sql, params)]


def partnership_table(
    db: Database,
    sort: str = "games",
    desc: bool = True,
    since: str | None = None,
    until: str | None = None,
    variant: str | None = None,
    limit: int = 50,
) -> list[Partnership]:
    """Pairs of players on the same side, sorted by a column of PAIR_SORTS (the first ``limit``): all
    time and every rule set from the kept pair totals, else from the result rows of those games."""
    order = _order(PAIR_SORTS, sort, desc, "finished desc, games desc, won desc, a, b")
    if not (since or until or variant):
        sql = (
            "select * from (select pa.name as a, pb.name as b, t.games, t.finished, t.won, t.margin "
            "from pair_totals t join players pa on pa.id = t.a join players pb on pb.id = t.b where t.games > 0) "
            f"order by {order} limit ?"
        )
        params: list[Any] = [limit]
    else:
        where, params = _filters(since, until, variant)
        sql = (
            "select * from (select pa.name as a, pb.name as b, count(*) as games, sum(x.finished) as finished, "
            "sum(x.won) as won, sum(coalesce(x.lead, x.margin)) as margin "  # the side's lead (core.results.side_lead)
            "from game_results g join player_results x on x.game_id = g.game_id "
            "join player_results y on y.game_id = g.game_id and y.side = x.side and y.player_id > x.player_id "
            "join players pa on pa.id = x.player_id join players pb on pb.id = y.player_id "
            f"where {where} group by x.player_id, y.player_id) order by {order} limit ?"
        )
        params.append(limit)
    return [
        Partnership((r["a"], r["b"]), r["games"], r["finished"], r["won"], r["margin"]) for r in db.query(sql, params)
    ]


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


def history(
    db: Database,
    player_id: int | None = None,
    variant: str | None = None,
    since: str | None = None,
    until: str | None = None,
    page: int = 1,
) -> tuple[list[HistoryRow], bool]:
    """Games newest first, filtered; one page, and whether there is another."""
    where, params = _filters(since, until, variant, alias="r")
    source = "game_results r"
    order = "r.day desc, r.game_id desc"
    if player_id:  # walk the player's own results in day order (index player_id, day)
        source = "player_results p join game_results r on r.game_id = p.game_id"
        where, params = f"p.player_id = ? and {where}", [player_id, *params]
        order = "p.day desc, p.game_id desc"
    sql = f"select r.* from {source} where {where} order by {order} limit ? offset ?"
    rows = list(db.query(sql, params + [PAGE_SIZE + 1, (max(page, 1) - 1) * PAGE_SIZE]))
    return [_history_row(r) for r in rows[:PAGE_SIZE]], len(rows) > PAGE_SIZE


def recent_games(db: Database, limit: int = 8) -> list[HistoryRow]:
    """The games started most recently, newest first (for the home page): in the order they were
    played, whichever was changed last (ids are given in the order the games are started)."""
    rows = db.query(
        "select r.* from games g join game_results r on r.game_id = g.id order by g.id desc limit ?",
        [limit],
    )
    return [_history_row(r) for r in rows]


def evening_guest_balances(db: Database, evening_id: int) -> list[tuple[int, str, int]]:
    """(game id, seat's name, balance) of each guest's seat with a balance in an evening's settled games. A
    guest is nobody in the archive, but what a player owes a guest, or a guest a player, is part of the
    evening's settlement: without it the players' balances do not add up to zero."""
    out = []
    for game in records.evening_games(db, evening_id):
        guests = [seat for seat, guest in enumerate(records.guests_of(db, game.id)) if guest]
        running = records.running_of(db, game.id) if guests else None
        if running is None:
            continue
        balance = settlement_balance(sheet.rules_for(game), running)
        out += [(game.id, game.players[seat], balance[seat]) for seat in guests if balance.get(seat)]
    return out


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
