"""What the tournament pages read (docs/tournaments.md): a tournament, its rounds with each table's
game as it stands, the organiser's actions, the season's tournaments. Nothing here writes."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

from sqlite_utils import Database

from scorekeeper.core import club_night
from scorekeeper.storage import records


def _json(text: str | None) -> Any:
    return None if text is None else json.loads(text)


def _entrants_now(db: Database, row: dict[str, Any]) -> tuple[tuple, tuple | None]:
    """A tournament's entrants by the names their players have now (once drawn, their player ids
    are kept: a player renamed or merged keeps his seat), and those ids."""
    entrants = tuple(tuple(e) for e in json.loads(row["entrants"]))
    ids = _json(row["entrant_ids"])
    if ids is None:
        return entrants, None
    ids = tuple(tuple(e) for e in ids)
    flat = [pid for e in ids for pid in e if pid is not None]
    marks = ", ".join("?" for _ in flat)
    now = dict(db.execute(f"select id, name from players where id in ({marks})", flat).fetchall()) if flat else {}
    return tuple(tuple(now.get(pid, name) for pid, name in zip(e, names)) for e, names in zip(ids, entrants)), ids


def _from_row(db: Database, row: dict[str, Any]) -> club_night.Tournament:
    """A tournament from its row; from its first round on its entrants are named as their players are
    now (a player renamed or merged during the evening keeps his seat)."""
    entrants, ids = _entrants_now(db, row)
    places = _json(row["places"])
    order = _json(row["draw_order"])
    return club_night.Tournament(
        id=row["id"],
        name=row["name"],
        format=row["format"],
        variant=row["variant"],
        layout=row["layout"],
        settings=json.loads(row["settings"] or "{}"),
        house_rules_id=row["house_rules_id"],
        target=row["target"],
        round_end=row["round_end"],
        round_hands=row["round_hands"],
        round_minutes=row["round_minutes"],
        season_points=tuple(json.loads(row["season_points"])),
        entrants=entrants,
        seed=row["seed"],
        drawn_at=row["drawn_at"],
        closed_at=row["closed_at"],
        evening_id=row["evening_id"],
        version=row["version"],
        created_at=row["created_at"],
        draw_order=None if order is None else tuple(order),
        entrant_ids=ids,
        places=None if places is None else tuple(tuple(p) for p in places),
        bye_score=row["bye_score"],
        ties=row["ties"],
        table_rules=table_rules(_json(row["table_rules"])),
        confirm_hands=bool(row["confirm_hands"]),
    )


def table_rules(kept: dict[str, Any] | None) -> dict[int, club_night.TableRules]:
    """What tables of five and six play, as kept (JSON: by table size, the rule set, seating, own rule
    set and settings)."""
    return {
        int(size): club_night.TableRules(r["variant"], r["layout"], r.get("house_rules_id"), r.get("settings") or {})
        for size, r in (kept or {}).items()
    }


def get(db: Database, tournament_id: int) -> club_night.Tournament | None:
    """The tournament with this id, or None."""
    if not records.valid_id(tournament_id):
        return None
    rows = list(db.query("select * from tournaments where id = ?", [tournament_id]))
    return _from_row(db, rows[0]) if rows else None


def checked_in(db: Database, tournament_id: int) -> list[tuple[str, ...]] | None:
    """Who has come, as the organiser saved it before the draw (each entrant's names, as in the list of
    entrants), or None: no check-in was saved, and the draw seats everyone."""
    row = db.execute("select checked_in from tournaments where id = ?", [tournament_id]).fetchone()
    kept = _json(row[0]) if row else None
    return None if kept is None else [tuple(e) for e in kept]


def all_tournaments(db: Database) -> list[club_night.Tournament]:
    """Every tournament, the newest first."""
    return [_from_row(db, r) for r in db.query("select * from tournaments order by id desc")]


def of_evening(db: Database, evening_id: int) -> list[club_night.Tournament]:
    """The tournaments played on an evening (a tournament makes its own evening)."""
    rows = db.query("select * from tournaments where evening_id = ? order by id", [evening_id])
    return [_from_row(db, r) for r in rows]


def shared_tournament(db: Database, one: int, other: int) -> str | None:
    """The name of a tournament both players are entrants of (by their ids in the archive), or None."""
    for name, kept in db.execute("select name, entrant_ids from tournaments where entrant_ids is not null"):
        ids = {pid for entrant in json.loads(kept) for pid in entrant}
        if one in ids and other in ids:
            return name
    return None


def _moment(text: str | None) -> datetime | None:
    """A stored time (UTC; one without its zone, from an old or edited file, read as UTC)."""
    if text is None:
        return None
    moment = datetime.fromisoformat(text)
    return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)


def hand_saved_at(db: Database, game_id: int, hand_id: int) -> datetime | None:
    """When a hand of a game was first saved (deleted or not), as a table's round reads it; None: no such hand."""
    row = db.execute("select created_at from hands where game_id = ? and id = ?", [game_id, hand_id]).fetchone()
    return _moment(row[0]) if row else None


def organiser_hands(db: Database, game_id: int) -> frozenset[int]:
    """The hands of a game the organiser entered from the director's grid (its change log says so)."""
    rows = db.execute(
        "select hand_id from changes where game_id = ? and action = 'hand added' and entered_by = ?",
        [game_id, records.ORGANISER],
    ).fetchall()
    return frozenset(row[0] for row in rows)


def _table(db: Database, row: dict[str, Any], confirming: bool) -> club_night.TableState:
    """A table's game as it stands: totals at its end (or now), when each hand was saved, the hands not
    confirmed yet (``confirming``: the tournament asks the other side to confirm each hand)."""
    game = records.get_game(db, row["game_id"])
    running = records.running_of(db, row["game_id"])
    rows = db.execute(
        "select created_at, id, confirmed_at from hands where game_id = ? and deleted_at is null order by id",
        [row["game_id"]],
    ).fetchall()
    saved = tuple(_moment(r[0]) for r in rows)
    totals = tuple(running.final_totals) if running else (0, 0)
    finished = bool(running and running.result.finished)
    units = tuple(tuple(u) for u in json.loads(row["units"]))
    seats = tuple(game.players) if game else ()
    return club_night.TableState(
        row["round"],
        row["table_no"],
        row["game_id"],
        units,
        seats,
        totals,
        saved,
        finished,
        hand_ids=tuple(r[1] for r in rows),
        ended_by=_ended_by(running, rows),
        unconfirmed=tuple(r[1] for r in rows if r[2] is None) if confirming else (),
    )


def _ended_by(running, rows) -> int | None:
    """The number of the hand that ended the game (a correction may finish it at an earlier hand)."""
    if running is None or running.ended_after is None or not 0 <= running.ended_after < len(rows):
        return None
    return rows[running.ended_after][1]


@dataclass(frozen=True)
class RoundRow:
    """A round as stored: its number, when it started and ended, and its tables as they stand (the
    core works out the round's state from them: ``services/tournament_state.py``)."""

    round: int
    started_at: datetime | None
    ended_at: datetime | None
    tables: list[club_night.TableState]


def round_rows(db: Database, t: club_night.Tournament) -> list[RoundRow]:
    """Every round started so far, each with its tables as they stand."""
    return _round_rows(db, t, "select * from tournament_rounds where tournament_id = ? order by round", [t.id])


def rounds_started(db: Database, tournament_id: int) -> int:
    """How many rounds a tournament has started."""
    return db.execute("select count(*) from tournament_rounds where tournament_id = ?", [tournament_id]).fetchone()[0]


def open_for_corrections(db: Database, tournament_id: int) -> list[int]:
    """The tournament's games opened for corrections on their sheets and not locked again."""
    rows = db.execute(
        "select tg.game_id from tournament_games tg join games g on g.id = tg.game_id"
        " where tg.tournament_id = ? and g.reopened = 1 order by tg.game_id",
        [tournament_id],
    ).fetchall()
    return [row[0] for row in rows]


def round_row(db: Database, t: club_night.Tournament, number: int) -> RoundRow | None:
    """One round with its tables as they stand (what a hand's save asks about its table), or None."""
    found = _round_rows(db, t, "select * from tournament_rounds where tournament_id = ? and round = ?", [t.id, number])
    return found[0] if found else None


def _round_rows(db: Database, t: club_night.Tournament, sql: str, args: list[Any]) -> list[RoundRow]:
    out = []
    for r in db.query(sql, args):
        tables = [
            _table(db, row, t.confirm_hands)
            for row in db.query(
                "select * from tournament_games where tournament_id = ? and round = ? order by table_no",
                [t.id, r["round"]],
            )
        ]
        out.append(RoundRow(r["round"], _moment(r["started_at"]), _moment(r["ended_at"]), tables))
    return out


@dataclass(frozen=True)
class Unconfirmed:
    """A hand of a tournament's table that the other side has not confirmed yet: where, its number in its
    game, and the version a confirmation must have seen."""

    round: int
    table: int
    game_id: int
    hand_id: int
    number: int
    version: int


def unconfirmed(db: Database, t: club_night.Tournament) -> list[Unconfirmed]:
    """The hands of a tournament's tables not confirmed yet, round by round, table by table, hand by hand
    (none where the tournament does not ask for confirmations)."""
    if not t.confirm_hands:
        return []
    rows = db.execute(
        "select tg.round, tg.table_no, h.game_id, h.id, (select count(*) from hands o where o.game_id = h.game_id"
        " and o.deleted_at is null and o.id <= h.id), h.version from tournament_games tg"
        " join hands h on h.game_id = tg.game_id and h.deleted_at is null and h.confirmed_at is null"
        " where tg.tournament_id = ? order by tg.round, tg.table_no, h.id",
        [t.id],
    ).fetchall()
    return [Unconfirmed(*row) for row in rows]


def confirms_hands(db: Database, game_id: int) -> bool:
    """Whether a game's hands wait for the other side's confirmation: a game of a tournament that asks for it."""
    row = db.execute(
        "select t.confirm_hands from tournament_games tg join tournaments t on t.id = tg.tournament_id"
        " where tg.game_id = ?",
        [game_id],
    ).fetchone()
    return bool(row and row[0])


@dataclass(frozen=True)
class Seat:
    """Where a game sits in a tournament."""

    tournament_id: int
    round: int
    table: int


def seat_of_game(db: Database, game_id: int) -> Seat | None:
    """The tournament, round and table of a game, or None for a game outside any tournament."""
    if not records.valid_id(game_id):
        return None
    row = db.execute(
        "select tournament_id, round, table_no from tournament_games where game_id = ?", [game_id]
    ).fetchone()
    return Seat(*row) if row else None


@dataclass(frozen=True)
class Action:
    """One of the organiser's actions on record."""

    action: str
    detail: Any
    at: str
    phone: str | None


def actions(db: Database, tournament_id: int) -> list[Action]:
    """The organiser's actions, the newest first."""
    rows = db.execute(
        "select l.action, l.detail, l.at, p.name from tournament_log l left join phones p on p.id = l.phone_id "
        "where l.tournament_id = ? order by l.id desc",
        [tournament_id],
    ).fetchall()
    return [Action(r[0], json.loads(r[1]) if r[1] else None, r[2], r[3]) for r in rows]
