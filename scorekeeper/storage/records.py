"""Reading one game, its hands, an evening, a player, a phone or a game's change log: what the
pages and the services look up. Nothing here writes."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Mapping

from sqlite_utils import Database

from scorekeeper.core import names, sheet
from scorekeeper.core.models import Change, Evening, Game, Hand, Player

# SQLite's largest integer: an id beyond it (a URL like /games/99999999999999999999) finds nothing
# instead of overflowing the query.
MAX_ID = 2**63 - 1


# What the change log records (the pages name each in the players' words: web.games.changelog.ACTION_NAMES).
ACTIONS = (
    "hand added",
    "hand corrected",
    "hand deleted",
    "hand restored",
    "game created",
    "game reopened",
    "game locked",
    "game deleted",
    "game restored",
    "archive imported",
    "house rules created",
    "house rules changed",
    # a hand not confirmed yet, corrected: the entering side's draft replaced, not a correction on record
    "hand entered again",
    "hand confirmed",  # by a side of the table (or the organiser): ``after`` says who, and the version seen
)

# Who entered a change when it was not the table's own phone (the change log's ``entered_by``).
ORGANISER = "organiser"  # a hand entered or corrected by the organiser from the director's grid
ENTERED_BY = (ORGANISER,)


def side_confirmer(side: int) -> str:
    """How a hand's ``confirmed_by`` names the side (0, 1 …) that confirmed it: "side 1", "side 2" …"""
    return f"side {side + 1}"


def confirming_side(confirmed_by: str | None) -> int | None:
    """The side (0, 1 …) that confirmed a hand, or None (not confirmed, or by the organiser)."""
    if confirmed_by and confirmed_by.startswith("side ") and confirmed_by[5:].isdigit():
        return int(confirmed_by[5:]) - 1
    return None


def valid_id(value: int) -> bool:
    """Whether a number can be a stored id at all."""
    return 0 < value <= MAX_ID


# Whether a game is a tournament table's whose round is past: a later round has started, or the
# tournament is closed (docs/tournaments.md, "When a round ends"). The game has ended with it.
ROUND_PAST = (
    "exists (select 1 from tournament_games tg join tournaments t on t.id = tg.tournament_id "
    "where tg.game_id = games.id and (t.closed_at is not null or exists (select 1 from tournament_rounds r "
    "where r.tournament_id = tg.tournament_id and r.round > tg.round))) as round_past"
)


def game_from_row(row: dict[str, Any]) -> Game:
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
        row.get("house_rules_id"),
        bool(row.get("round_past")),
    )


def hand_from_row(row: dict[str, Any]) -> Hand:
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
        row.get("confirmed_at"),
        row.get("confirmed_by"),
    )


def get_game(db: Database, game_id: int) -> Game | None:
    """The game with this id, or None."""
    if not valid_id(game_id):
        return None
    cursor = db.conn.execute(f"select *, {ROUND_PAST} from games where id = ?", [game_id])
    row = cursor.fetchone()
    if row is None:
        return None
    return game_from_row(dict(zip([c[0] for c in cursor.description], row)))


def own_rule_set_names(db: Database, game_ids: list[int]) -> dict[int, str]:
    """Of these games, those started from a table's own rule set: game id → that rule set's name."""
    if not game_ids:
        return {}
    marks = ", ".join("?" for _ in game_ids)
    rows = db.execute(
        f"select g.id, h.name from games g join house_rules h on h.id = g.house_rules_id where g.id in ({marks})",
        game_ids,
    ).fetchall()
    return dict(rows)


def guests_of(db: Database, game_id: int) -> list[bool]:
    """Which seats of a game are guests."""
    rows = db.execute("select seat, player_id is null from game_seats where game_id = ? order by seat", [game_id])
    return [bool(guest) for _seat, guest in rows]


def match_games(db: Database, match_id: int) -> list[Game]:
    """The Partien of a complete Game, in order."""
    if not valid_id(match_id):
        return []
    rows = db.query(f"select *, {ROUND_PAST} from games where match_id = ? order by partie", [match_id])
    return [game_from_row(row) for row in rows]


def hands(db: Database, game_id: int) -> list[Hand]:
    """The game's hands in the order they were played (deleted ones left out)."""
    rows = db["hands"].rows_where("game_id = ? and deleted_at is null", [game_id], order_by="id")
    return [hand_from_row(row) for row in rows]


def last_hand(db: Database, game_id: int) -> Hand | None:
    """The game's latest hand (deleted ones left out), or None."""
    rows = list(db["hands"].rows_where("game_id = ? and deleted_at is null", [game_id], order_by="id desc", limit=1))
    return hand_from_row(rows[0]) if rows else None


def get_hand(db: Database, game_id: int, hand_id: int, deleted: bool = False) -> Hand | None:
    """One hand of a game, or None (a deleted hand only when ``deleted`` is asked for)."""
    if not (valid_id(game_id) and valid_id(hand_id)):
        return None
    where = "id = ? and game_id = ? and deleted_at is " + ("not null" if deleted else "null")
    rows = list(db["hands"].rows_where(where, [hand_id, game_id]))
    return hand_from_row(rows[0]) if rows else None


def hand_count(db: Database, game_id: int) -> int:
    """How many hands a game has (deleted ones left out), read from the running figures."""
    row = db.execute("select hands from game_results where game_id = ?", [game_id]).fetchone()
    if row is not None:
        return row[0]
    return db.execute("select count(*) from hands where game_id = ? and deleted_at is null", [game_id]).fetchone()[0]


def hand_number(db: Database, game_id: int, hand_id: int) -> int:
    """A hand's number in its game as the sheet counts it (1 for the first; deleted hands left out)."""
    return db.execute(
        "select count(*) from hands where game_id = ? and deleted_at is null and id <= ?", [game_id, hand_id]
    ).fetchone()[0]


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
    rows = db.query(f"select *, {ROUND_PAST} from games where evening_id = ? order by id", [evening_id])
    return [game_from_row(row) for row in rows]


def all_player_names(db: Database) -> list[str]:
    """The name of every player kept (shown or not): a new name is compared with each."""
    return [r[0] for r in db.execute("select name from players order by id")]


def player_named(db: Database, name: str, other_than: int | None = None) -> Player | None:
    """The player with this name in any case (``other_than`` left out), or None. SQLite's NOCASE
    folds the ASCII letters only: a name is then compared with the names that hold other letters by
    Unicode's case folding ("Ülle" and "ülle", "Strauß" and "STRAUSS" are one name, as
    ``core.names.look_alike`` reads them), and a name with such letters with every name."""
    name = names.normal(name)
    row = db.execute(
        "select id, name from players where name = ? collate nocase and id != ?", [name, other_than or 0]
    ).fetchone()
    if row:
        return Player(row[0], row[1])
    # a name not all ASCII: its length in characters differs from its length in UTF-8 bytes
    wider = "" if not name.isascii() else " and length(name) != length(cast(name as blob))"
    folded = name.casefold()
    for pid, other in db.execute(f"select id, name from players where id != ?{wider} order by id", [other_than or 0]):
        if names.normal(other).casefold() == folded:
            return Player(pid, other)
    return None


def shared_games(db: Database, one: int, other: int) -> list[int]:
    """The games both players sat in."""
    return [
        r[0]
        for r in db.execute(
            "select a.game_id from game_seats a join game_seats b on a.game_id = b.game_id "
            "where a.player_id = ? and b.player_id = ?",
            [one, other],
        )
    ]


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


def _change_of(r: tuple) -> Change:
    """A change log row (id, game, hand, at, phone id, phone name, action, before, after[, entered by])."""
    return Change(
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
        *r[9:10],
    )


def changes(db: Database, game_id: int, hand_id: int | None = None) -> list[Change]:
    """A game's change log (or one hand's), oldest first."""
    if not valid_id(game_id) or (hand_id is not None and not valid_id(hand_id)):
        return []
    where, params = "c.game_id = ?", [game_id]
    if hand_id is not None:
        where, params = where + " and c.hand_id = ?", params + [hand_id]
    rows = db.execute(
        "select c.id, c.game_id, c.hand_id, c.at, c.phone_id, p.name, c.action, c.before, c.after, c.entered_by "
        f"from changes c left join phones p on p.id = c.phone_id where {where} order by c.id",
        params,
    ).fetchall()
    return [_change_of(r) for r in rows]


def corrections(db: Database, game_id: int) -> dict[int, int]:
    """How often each hand of a game was corrected."""
    rows = db.execute(
        "select hand_id, count(*) from changes where game_id = ? and action = 'hand corrected' group by hand_id",
        [game_id],
    )
    return {hand_id: count for hand_id, count in rows}


def phone_name(db: Database, token: str | None) -> str | None:
    """The name this phone gave itself, if any."""
    row = db.execute("select name from phones where token = ?", [token or ""]).fetchone()
    return row[0] if row else None


def phone_number(db: Database, token: str | None) -> int | None:
    """The number the change log knows this phone by ("phone 3"), or None before its first change."""
    row = db.execute("select id from phones where token = ?", [token or ""]).fetchone()
    return row[0] if row else None


def running_of(db: Database, game_id: int) -> sheet.Running | None:
    """A game's running figures (hands, totals, best hands, result), or None if not kept yet."""
    row = db.execute("select kept from game_results where game_id = ?", [game_id]).fetchone()
    return sheet.Running.from_dict(json.loads(row[0])) if row and row[0] else None


def result_row(db: Database, game_id: int) -> tuple[dict[str, Any] | None, sheet.Running | None]:
    """A game's result row as stored (None if there is none) and its running figures read from it
    (None if not kept yet): what ``running_of`` reads, with the row a save then brings up to date."""
    cursor = db.conn.execute("select * from game_results where game_id = ?", [game_id])
    row = cursor.fetchone()
    if row is None:
        return None, None
    stored = dict(zip([c[0] for c in cursor.description], row))
    kept = stored.get("kept")
    return stored, (sheet.Running.from_dict(json.loads(kept)) if kept else None)


@dataclass(frozen=True)
class HouseRules:
    """A built-in rule set (and layout) with the values a table changed, under the table's name."""

    id: int
    name: str
    base: str
    layout: str | None
    changes: Mapping[str, Any]
    version: int

    def record(self) -> dict[str, Any]:
        """What the change log keeps of it."""
        return {
            "id": self.id,
            "name": self.name,
            "base": self.base,
            "layout": self.layout,
            "changes": dict(self.changes),
        }


def house_changes(db: Database, house_id: int) -> list[Change]:
    """The change log of one table's own rule set (made, then changed), newest first."""
    if not valid_id(house_id):
        return []
    rows = db.execute(
        "select c.id, c.game_id, c.hand_id, c.at, c.phone_id, p.name, c.action, c.before, c.after "
        "from changes c left join phones p on p.id = c.phone_id "
        "where c.game_id is null and c.action in ('house rules created', 'house rules changed') "
        "and json_extract(c.after, '$.id') = ? order by c.id desc",
        [house_id],
    ).fetchall()
    return [_change_of(r) for r in rows]


def _house_of(row: tuple) -> HouseRules:
    """A row of ``house_rules`` as a value."""
    return HouseRules(row[0], row[1], row[2], row[3], json.loads(row[4]), row[5])


HOUSE_COLUMNS = "id, name, base, layout, changes, version"


def all_house_rules(db: Database) -> list[HouseRules]:
    """Every table's own rule set, by name."""
    return [
        _house_of(r) for r in db.execute(f"select {HOUSE_COLUMNS} from house_rules order by name collate nocase, id")
    ]


def get_house_rules(db: Database, house_id: Any) -> HouseRules | None:
    """The one with this id, or None."""
    if not isinstance(house_id, int) or isinstance(house_id, bool) or not 0 < house_id < 2**63:
        return None
    row = db.execute(f"select {HOUSE_COLUMNS} from house_rules where id = ?", [house_id]).fetchone()
    return _house_of(row) if row else None


@dataclass(frozen=True)
class ScoreboardRead:
    """What the score sheet page shows, read at once: the game, its hands, the name of the table's own
    rule set it was started from, its evening, how often each hand was corrected, and its deleted
    hands, newest first: (id, when deleted, each side's score), for Undo that no refresh takes away."""

    game: Game
    hands: list[Hand]
    own_name: str
    evening: Evening | None
    corrections: dict[int, int]
    deleted: list[tuple[int, str, list[int]]]


def scoreboard(db: Database, game_id: int, readonly: bool = False) -> ScoreboardRead | None:
    """The score sheet page's one read (``readonly``: a read-only link shows no evening and no
    corrections); None for a game that is not there."""
    game = get_game(db, game_id)
    if game is None:
        return None
    own = get_house_rules(db, game.house_rules_id) if game.house_rules_id else None
    evening = None if readonly or not game.evening_id else get_evening(db, game.evening_id)
    deleted = [] if readonly else deleted_hands(db, game_id)
    corrected = {} if readonly else corrections(db, game_id)
    return ScoreboardRead(game, hands(db, game_id), own.name if own else "", evening, corrected, deleted)


def deleted_hands(db: Database, game_id: int) -> list[tuple[int, str, list[int]]]:
    """A game's deleted hands, newest first: (id, when deleted, each side's score as kept)."""
    rows = db.execute(
        "select id, deleted_at, scores from hands where game_id = ? and deleted_at is not null "
        "order by deleted_at desc, id desc",
        [game_id],
    ).fetchall()
    return [(hand_id, at, json.loads(scores) if scores else []) for hand_id, at, scores in rows]
