"""The whole archive as one JSON document: lossless (every hand's inputs, deleted hands included,
settings, players, evenings, ids and times), so an import into an empty instance restores everything
identically (export_check, restore). CSV views of a game and an evening for spreadsheets. Nothing
here writes."""

from __future__ import annotations

import csv
import io
import json
import re
from datetime import datetime, timezone
from typing import Any

from sqlite_utils import Database

from scorekeeper.core import sheet
from scorekeeper.storage.export_check import FORMAT, VERSION

# A game's columns an export carries as they are (players, settings, seats and hands are shaped).
GAME_COLUMNS = (
    "id",
    "variant",
    "layout",
    "target",
    "first_dealer",
    "created_at",
    "updated_at",
    "evening_id",
    "match_id",
    "partie",
    "house_rules_id",
)

# A tournament's columns an export carries as they are (settings, season points and entrants are
# JSON in the archive and lists or an object in the export; its rounds, tables and log go with it).
TOURNAMENT_COLUMNS = (
    "id",
    "name",
    "format",
    "variant",
    "layout",
    "house_rules_id",
    "target",
    "round_end",
    "round_hands",
    "round_minutes",
    "seed",
    "drawn_at",
    "closed_at",
    "evening_id",
    "version",
    "created_at",
    "updated_at",
    "bye_score",
    "ties",
)


# Kept as JSON, null until the draw, the first round and the close: the order drawn, each entrant's
# players' ids, the places, what tables of five and six play; and null until a check-in is saved: who has come.
TOURNAMENT_JSON = ("draw_order", "entrant_ids", "places", "table_rules", "checked_in")


def export(db: Database) -> dict[str, Any]:
    """Every player, evening, game and hand, the phones and the change log, the tournaments."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "players": list(db.query("select id, name, created_at from players order by id")),
        "evenings": [_evening(db, row) for row in db.query("select * from evenings order by id")],
        "house_rules": [
            {**row, "changes": json.loads(row["changes"])} for row in db.query("select * from house_rules order by id")
        ],
        "games": [_game(db, row) for row in db.query("select * from games order by id")],
        "phones": [
            {"id": r[0], "name": r[1], "created_at": r[2]}
            for r in db.execute("select id, name, created_at from phones order by id")
        ],
        "changes": _change_log(db),
        "tournaments": [_tournament(db, row) for row in db.query("select * from tournaments order by id")],
    }


def _evening(db: Database, row: dict[str, Any]) -> dict[str, Any]:
    """An evening with its players' ids in their order."""
    ids = [
        r["player_id"]
        for r in db.query("select player_id from evening_players where evening_id = ? order by position", [row["id"]])
    ]
    return {**row, "players": ids}


def _game(db: Database, row: dict[str, Any]) -> dict[str, Any]:
    """A game with its seats (None: a guest's seat), its seats' names and every hand as entered."""
    seats = [
        r["player_id"]
        for r in db.query("select player_id from game_seats where game_id = ? order by seat", [row["id"]])
    ]
    hands = [
        {**h, "sides": json.loads(h["sides"]), "stock_out": None if h["stock_out"] is None else bool(h["stock_out"])}
        for h in db.query(
            "select id, sides, stock_out, lone, created_at, updated_at, deleted_at, confirmed_at, confirmed_by, "
            "client_key from hands where game_id = ? order by id",
            [row["id"]],
        )
    ]
    game = {k: row[k] for k in GAME_COLUMNS}
    game.update(
        settings=json.loads(row["settings"] or "{}"),
        reopened=bool(row["reopened"]),
        seats=seats,
        seat_names=json.loads(row["players"]),
        hands=hands,
    )
    return game


def _change_log(db: Database) -> list[dict[str, Any]]:
    """The change log, entry by entry (``entered_by`` only where someone other than the phone entered it)."""
    return [
        {
            "id": r[0],
            "game_id": r[1],
            "hand_id": r[2],
            "at": r[3],
            "phone_id": r[4],
            "action": r[5],
            "before": None if r[6] is None else json.loads(r[6]),
            "after": None if r[7] is None else json.loads(r[7]),
            **({"entered_by": r[8]} if r[8] is not None else {}),
        }
        for r in db.execute(
            "select id, game_id, hand_id, at, phone_id, action, before, after, entered_by from changes order by id"
        )
    ]


def _tournament(db: Database, row: dict[str, Any]) -> dict[str, Any]:
    """A tournament with its rounds, each table's game and the organiser's actions on record (the
    phone by its id, as in the change log)."""
    tid = row["id"]
    return {
        **{k: row[k] for k in TOURNAMENT_COLUMNS},
        "confirm_hands": bool(row["confirm_hands"]),  # the other side confirms each hand
        "settings": json.loads(row["settings"] or "{}"),
        "season_points": json.loads(row["season_points"]),
        "entrants": json.loads(row["entrants"]),
        **{key: None if row[key] is None else json.loads(row[key]) for key in TOURNAMENT_JSON},
        "rounds": list(
            db.query(
                "select round, started_at, ended_at from tournament_rounds where tournament_id = ? order by round",
                [tid],
            )
        ),
        "tables": [
            {**r, "units": json.loads(r["units"])}
            for r in db.query(
                "select round, table_no, game_id, units from tournament_games where tournament_id = ? "
                "order by round, table_no",
                [tid],
            )
        ],
        "log": [
            {
                "id": r[0],
                "action": r[1],
                "detail": None if r[2] is None else json.loads(r[2]),
                "at": r[3],
                "phone_id": r[4],
            }
            for r in db.execute(
                "select id, action, detail, at, phone_id from tournament_log where tournament_id = ? order by id", [tid]
            )
        ],
    }


def is_empty(db: Database) -> bool:
    """Whether the archive holds nothing yet."""
    return not any(
        db.execute(f"select 1 from {t} limit 1").fetchone() for t in ("games", "players", "evenings", "tournaments")
    )


# A spreadsheet reads a cell starting with one of these as a formula (=HYPERLINK(...), +cmd|...,
# @SUM(...)), or after a tab or carriage return it may: such a text cell (a player named so, or a
# side or rule set named after one) gets a leading apostrophe, so it is shown as the text it is.
# A spreadsheet set up for ";" (German, Italian and Estonian settings) splits each line at every ";",
# and a hand-made reader may split at every ",", quotes or not: so every part of a text cell after a
# "," or ";" is treated the same way (a name "x;=1+1" becomes "x;'=1+1").
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_PLAIN_NUMBER = re.compile(r"[+-]?[0-9]+(\.[0-9]+)?")  # as a spreadsheet reads a number
_SPLITS = re.compile(r"([,;])")


def _formula(part: str) -> bool:
    """Whether a spreadsheet may read a cell starting so as a formula (also behind a quote or spaces,
    which it may drop)."""
    return part.lstrip(' "').startswith(_FORMULA_START)


def neutralised(row: list[Any]) -> list[Any]:
    """A CSV row that starts no formula however a spreadsheet splits its line: at "," as CSV, at ";",
    or at every separator. Each text cell, and each part of it after a "," or ";", that would start a
    cell with a formula gets an apostrophe ahead, a part after a separator even when it reads as a
    number: split at ";", the cell runs on into the next cells ("b;+1" then ",1,0,0" is the cell
    "+1,1,0,0"). A whole text cell that is a plain number stays one, except the first of a row, which
    starts the line's first cell split at ";" too. Numbers (a score of -150) stay numbers. The game's
    CSV and the evening's both write through it."""
    return [_text_cell(value, index == 0) if isinstance(value, str) else value for index, value in enumerate(row)]


def _text_cell(text: str, first: bool) -> str:
    """One text cell of ``neutralised``."""
    parts = _SPLITS.split(text)  # the text, then each separator and the text after it
    if len(parts) == 1 and not first and _PLAIN_NUMBER.fullmatch(text.strip(' "')):
        return text
    return "".join("'" + part if index % 2 == 0 and _formula(part) else part for index, part in enumerate(parts))


class _SafeWriter:
    """``csv.writer`` whose every row is ``neutralised`` against formula injection."""

    def __init__(self, out: io.StringIO) -> None:
        self._writer = csv.writer(out)

    def writerow(self, row: list[Any]) -> None:
        self._writer.writerow(neutralised(row))


def game_csv(s: sheet.Sheet) -> str:
    """A game's sheet: one row per hand with each side's hand score and total."""
    out = io.StringIO()
    writer = _SafeWriter(out)
    writer.writerow(["hand", "dealer"] + [f"{n} hand" for n in s.side_names] + [f"{n} total" for n in s.side_names])
    for row in s.rows:
        writer.writerow([row.number, row.dealer] + [sc.score for sc in row.outcome.scores] + list(row.outcome.totals))
    result = s.state.result
    if result.finished:
        writer.writerow(
            ["result", "drawn" if result.winner is None else f"{s.side_names[result.winner]} won by {result.margin}"]
        )
    return out.getvalue()


def evening_csv(sheets: list[sheet.Sheet], standings: list[dict[str, Any]]) -> str:
    """An evening: its games with their results, then each player's standing."""
    out = io.StringIO()
    writer = _SafeWriter(out)
    writer.writerow(["game", "rules", "sides", "hands", "totals", "winner", "margin", "result"])
    for s in sheets:
        result = s.state.result
        won = result.finished and result.winner is not None
        writer.writerow(
            [
                s.game.id,
                s.rules.name,
                " vs ".join(s.side_names),
                len(s.rows),
                " : ".join(map(str, s.state.totals)),
                s.side_names[result.winner] if won else "",
                result.margin if won else "",
                "won" if won else "drawn" if result.finished else "in play",  # a draw and a game in play apart
            ]
        )
    writer.writerow([])
    writer.writerow(["player", "games", "won", "balance"])
    for r in standings:
        writer.writerow([r["name"], r["games"], r["won"], r["balance"]])
    return out.getvalue()
