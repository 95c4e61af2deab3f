"""The whole archive as one JSON document, and back: lossless (every hand's inputs, deleted hands
included, settings, players, evenings, ids and times), so an import into an empty instance
restores everything identically. CSV views of a game and an evening for spreadsheets."""

from __future__ import annotations

import csv
import io
import json
import re
import secrets
import string
from datetime import date, datetime, timezone
from typing import Any

from sqlite_utils import Database

from scorekeeper.core import checks, sheet, variants
from scorekeeper.core.messages import N_, Refused
from scorekeeper.core.models import Hand
from scorekeeper.storage import store

FORMAT = "canasta-scorekeeper"
VERSION = 2  # 2: guests' seats (no player), the change log and the phones that made it
READS = (1, 2)  # versions this app imports: a version 1 file is brought up to version 2 first


class ImportError_(Refused):
    """The file is not an export this app can restore (a message id and its values)."""


# A game's columns an export carries as they are (players, settings, seats and hands are shaped).
GAME_COLUMNS = (
    "id", "variant", "layout", "target", "first_dealer", "created_at", "updated_at", "evening_id", "match_id", "partie",
)  # fmt: skip


def export(db: Database) -> dict[str, Any]:
    """Every player, evening, game and hand."""
    evenings = []
    for row in db.query("select * from evenings order by id"):
        ids = [
            r["player_id"]
            for r in db.query(
                "select player_id from evening_players where evening_id = ? order by position", [row["id"]]
            )
        ]
        evenings.append({**row, "players": ids})
    games = []
    for row in db.query("select * from games order by id"):
        seats = [
            r["player_id"]  # None: a guest's seat
            for r in db.query("select player_id from game_seats where game_id = ? order by seat", [row["id"]])
        ]
        hands = [
            {
                **h,
                "sides": json.loads(h["sides"]),
                "stock_out": None if h["stock_out"] is None else bool(h["stock_out"]),
            }
            for h in db.query(
                "select id, sides, stock_out, lone, created_at, updated_at, deleted_at from hands "
                "where game_id = ? order by id",
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
        games.append(game)
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "players": list(db.query("select id, name, created_at from players order by id")),
        "evenings": evenings,
        "games": games,
        "phones": [
            {"id": r[0], "name": r[1], "created_at": r[2]}
            for r in db.execute("select id, name, created_at from phones order by id")
        ],
        "changes": [
            {
                "id": r[0],
                "game_id": r[1],
                "hand_id": r[2],
                "at": r[3],
                "phone_id": r[4],
                "action": r[5],
                "before": None if r[6] is None else json.loads(r[6]),
                "after": None if r[7] is None else json.loads(r[7]),
            }
            for r in db.execute(
                "select id, game_id, hand_id, at, phone_id, action, before, after from changes order by id"
            )
        ],  # fmt: skip
    }


def is_empty(db: Database) -> bool:
    """Whether the archive holds nothing yet."""
    return not any(db.execute(f"select 1 from {t} limit 1").fetchone() for t in ("games", "players", "evenings"))


# Every table an export fills or that is derived from them, children first (foreign keys); the
# kept statistics (player_totals, pair_totals) have no foreign key, so nothing else would clear them.
_TABLES = (
    "changes",
    "phones",
    "player_results",
    "game_results",
    "player_totals",
    "pair_totals",
    "game_seats",
    "hands",
    "evening_players",
    "games",
    "evenings",
    "players",
    "deleted_games",
)


def _clear(db: Database) -> None:
    """Delete every row of the archive and of the results and totals derived from it (the change
    log too, whose triggers otherwise refuse any deletion: they are set again in the same transaction)."""
    store.erase_change_log(db)
    for table in _TABLES:
        db.execute(f"delete from {table}")


def wipe(db: Database) -> None:
    """Delete everything, the kept statistics included (the schema stays)."""
    with store.write(db):
        _clear(db)


class _Damaged(ValueError):
    """A value of the export that this app would never have written (said in the import's message)."""


# What the forms take (forms.py): a player's name at most 40 characters, an evening's place 80 and
# note 300, none with a control character (a place or note may hold tabs and line breaks, a name
# never: the archive keeps names on one line); a target a multiple of 5 from 500 to 100000.
NAME_LENGTH, PLACE_LENGTH, NOTE_LENGTH = 40, 80, 300
TARGET_RANGE = (500, 100000)
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
_CONTROL_BUT_LINES = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
# names are one player's whatever their case, as SQLite's NOCASE compares them (ASCII letters only)
_NOCASE = str.maketrans(string.ascii_uppercase, string.ascii_lowercase)


def _number(value: Any, where: str, null: bool = False) -> int | None:
    """A whole number (not a bool, not text) or, where allowed, null."""
    if value is None and null:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not -store.MAX_ID <= value <= store.MAX_ID:
        raise _Damaged(f"{where} is not a whole number")
    return value


def _id(value: Any, where: str, null: bool = False) -> int | None:
    """An id: a whole number from 1 up to the largest SQLite keeps (or, where allowed, null)."""
    number = _number(value, where, null)
    if number is not None and not store.valid_id(number):
        raise _Damaged(f"{where} is not a positive whole number")
    return number


def _unique(value: int, seen: set[int], where: str) -> int:
    """An id not given before in its kind."""
    if value in seen:
        raise _Damaged(f"{where} {value} is given twice")
    seen.add(value)
    return value


def _text(value: Any, where: str, null: bool = False, length: int | None = None, lines: bool = False) -> str | None:
    """A text (or, where allowed, null) of at most ``length`` characters and without control
    characters (with ``lines``, tabs and line breaks pass)."""
    if value is None and null:
        return None
    if not isinstance(value, str):
        raise _Damaged(f"{where} is not a text")
    if length is not None and len(value) > length:
        raise _Damaged(f"{where} is longer than {length} characters")
    if (_CONTROL_BUT_LINES if lines else _CONTROL).search(value):
        raise _Damaged(f"{where} has a control character")
    return value


def _time(value: Any, where: str, null: bool = False) -> None:
    """A moment as the app writes it (ISO 8601, e.g. 2026-11-01T19:30:00+00:00), or where allowed null."""
    if _text(value, where, null, length=64) is None:
        return
    try:
        datetime.fromisoformat(value)
    except ValueError:
        raise _Damaged(f"{where} is not a time written YYYY-MM-DDTHH:MM:SS") from None


def _ended_early(rules: variants.RuleSet, game_id: int, hands: list[dict[str, Any]]) -> tuple[int, int] | None:
    """(the number of the hand that ended the game, how many hands follow it) when hands were
    recorded after a side reached the target, else None (the hands passed the checks)."""
    played = [
        Hand(h["id"], game_id, h["sides"], h["created_at"], h["updated_at"], h.get("stock_out"), h.get("lone"))
        for h in hands
        if h.get("deleted_at") is None
    ]
    kept = sheet.keep_all(rules, [(sheet.hand_scores(rules, h), sheet.hand_canastas(rules, h)) for h in played])
    if kept.ended_after is None or kept.ended_after == len(played) - 1:
        return None
    return kept.ended_after + 1, len(played) - 1 - kept.ended_after


def _check(data: dict[str, Any]) -> None:
    """Refuse what the pages could not show or would show wrong: every value of the type and within
    the range this app writes (ids positive and each once, names and texts as the forms take them, a
    game's rule set, layout, settings, target and seats, each hand's figures read as a side entry),
    and no game holding hands after the hand that ended it (unless reopened for corrections)."""
    players: set[int] = set()
    names: set[str] = set()
    for i, p in enumerate(data["players"]):
        _unique(_id(p["id"], f"players[{i}].id"), players, f"players[{i}].id")
        name = _text(p["name"], f"players[{i}].name", length=NAME_LENGTH)
        if not name.strip():
            raise _Damaged(f"players[{i}].name is empty")
        if name.translate(_NOCASE) in names:
            raise _Damaged(f"players[{i}].name is the name of another player")
        names.add(name.translate(_NOCASE))
        _time(p.get("created_at"), f"players[{i}].created_at")
    evenings: set[int] = set()
    for i, e in enumerate(data["evenings"]):
        _unique(_id(e["id"], f"evenings[{i}].id"), evenings, f"evenings[{i}].id")
        day = _text(e["date"], f"evenings[{i}].date", length=64)
        try:
            if date.fromisoformat(day).isoformat() != day:
                raise ValueError(day)
        except ValueError:
            raise _Damaged(f"evenings[{i}].date is not a date written YYYY-MM-DD") from None
        _text(e.get("place"), f"evenings[{i}].place", null=True, length=PLACE_LENGTH, lines=True)
        _text(e.get("note"), f"evenings[{i}].note", null=True, length=NOTE_LENGTH, lines=True)
        _time(e.get("created_at"), f"evenings[{i}].created_at", null=True)
        present = [_id(pid, f"evenings[{i}].players") for pid in e["players"]]
        if not set(present) <= players:
            raise _Damaged(f"evenings[{i}].players has an unknown player")
        if len(set(present)) != len(present):
            raise _Damaged(f"evenings[{i}].players has a player twice")
    games: set[int] = set()
    hand_ids: set[int] = set()
    parties: set[tuple[int, int]] = set()
    for i, g in enumerate(data["games"]):
        where = f"games[{i}]"
        game_id = _unique(_id(g["id"], f"{where}.id"), games, f"{where}.id")
        rules = variants.RULE_SETS.get(g["variant"]) if isinstance(g["variant"], str) else None
        if rules is None:
            raise _Damaged(f"{where}.variant is unknown")
        try:
            layout = rules.layout(_text(g.get("layout"), f"{where}.layout", null=True, length=40))
        except KeyError:
            raise _Damaged(f"{where}.layout is unknown") from None
        settings = g.get("settings") or {}
        known = {s.key: s for s in rules.settings}
        if not isinstance(settings, dict) or any(
            k not in known or not any(v == c and type(v) is type(c) for c, _label in known[k].choices)
            for k, v in settings.items()
        ):
            raise _Damaged(f"{where}.settings are not this rule set's")
        target = _number(g.get("target"), f"{where}.target", null=True)
        low, high = TARGET_RANGE
        if target is not None and (target % 5 or not low <= target <= high):
            raise _Damaged(f"{where}.target is not a multiple of 5 from {low} to {high} (or null: the rule set's)")
        seats = [None if pid is None else _id(pid, f"{where}.seats") for pid in g["seats"]]
        people = [pid for pid in seats if pid is not None]
        if len(seats) != layout.players or not set(people) <= players:
            raise _Damaged(f"{where}.seats do not fit its layout")
        if len(set(people)) != len(people):
            raise _Damaged(f"{where}.seats have a player twice")
        seat_names = g.get("seat_names")
        if not isinstance(seat_names, list) or len(seat_names) != len(seats):
            raise _Damaged(f"{where}.seat_names do not fit its seats")
        for k, name in enumerate(seat_names):
            if not _text(name, f"{where}.seat_names[{k}]", length=NAME_LENGTH).strip():
                raise _Damaged(f"{where}.seat_names[{k}] is empty")
        if not 0 <= _number(g.get("first_dealer"), f"{where}.first_dealer") < len(seats):
            raise _Damaged(f"{where}.first_dealer is not a seat")
        if _id(g.get("evening_id"), f"{where}.evening_id", null=True) not in evenings | {None}:
            raise _Damaged(f"{where}.evening_id is not an evening")
        match_id = _id(g.get("match_id"), f"{where}.match_id", null=True)
        partie = _number(g.get("partie"), f"{where}.partie", null=True)
        if partie not in (None, 1, 2, 3):
            raise _Damaged(f"{where}.partie is not 1, 2 or 3")
        if match_id is not None and partie is not None:
            if (match_id, partie) in parties:
                raise _Damaged(f"{where}.partie {partie} of match {match_id} is given twice")
            parties.add((match_id, partie))
        if g.get("reopened") not in (None, True, False):
            raise _Damaged(f"{where}.reopened is not true or false")
        for key in ("created_at", "updated_at"):
            _time(g.get(key), f"{where}.{key}")
        configured = variants.configure(rules, settings, layout.key, target or None)
        if not isinstance(g["hands"], list):
            raise _Damaged(f"{where}.hands is not a list")
        for j, h in enumerate(g["hands"]):
            at = f"{where}.hands[{j}]"
            _unique(_id(h["id"], f"{at}.id"), hand_ids, f"{at}.id")
            for key in ("created_at", "updated_at", "deleted_at"):
                _time(h.get(key), f"{at}.{key}", null=key == "deleted_at")
            if h.get("stock_out") not in (None, True, False):
                raise _Damaged(f"{at}.stock_out is not true, false or null")
            problems: list[checks.Problem] = []
            if not isinstance(h["sides"], list) or len(h["sides"]) != configured.sides:
                raise _Damaged(f"{at}.sides are not {configured.sides} sides")
            for k, side in enumerate(h["sides"]):
                checks.read_side(configured, side, k, problems)
            checks.read_lone(configured, h.get("lone"), problems)
            if problems:
                raise _Damaged(f"{at}: {problems[0].message}")
        # the app replays hands in the order of their ids (store.hands)
        hands = sorted(g["hands"], key=lambda h: h["id"])
        ended = None if g.get("reopened") else _ended_early(configured, game_id, hands)
        if ended is not None:
            number, extra = ended
            raise _Damaged(
                f"{where}.hands: the game ended with hand {number}, yet {extra} more "
                f"{'hand was' if extra == 1 else 'hands were'} recorded after it"
            )


def validate(data: Any) -> dict[str, Any]:
    """Refuse a file that is not a whole, sound export of this app's format and a version it reads,
    before anything in the archive is touched; the export as this version writes it."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ImportError_(N_("This is not an export of the Canasta score keeper."))
    version = data.get("version")
    if isinstance(version, bool) or not isinstance(version, int) or version not in READS:
        raise ImportError_(
            N_("This export has version %(found)s; this app reads version %(version)s."),
            found=_shown(version),
            version=VERSION,
        )
    try:
        if version == 1:
            data = _from_version_1(data)
        _check(data)
        _check_log(data)
    except (KeyError, TypeError, ValueError) as error:
        raise _damaged(error) from None
    return data


# How an empty seat was named before guests existed, in the app's four languages.
_DEFAULT_SEAT_NAME = re.compile(r"(Player|Spieler|Giocatore|Mängija) [0-9]+")


def _from_version_1(data: dict[str, Any]) -> dict[str, Any]:
    """A version 1 export as version 2: seats get their names, players still called by an empty
    seat's default name ("Player 3") become guests of their games (as the archive's migration does),
    and there is no change log yet."""
    unnamed = {p["id"] for p in data["players"] if _DEFAULT_SEAT_NAME.fullmatch(str(p["name"]))}
    names = {p["id"]: p["name"] for p in data["players"]}
    games = []
    for g in data["games"]:
        seats = list(g["seats"])
        games.append(
            {
                **g,
                "seats": [None if pid in unnamed else pid for pid in seats],
                "seat_names": [names.get(pid, f"Player {k + 1}") for k, pid in enumerate(seats)],
            }
        )
    return {
        **data,
        "version": VERSION,
        "players": [p for p in data["players"] if p["id"] not in unnamed],
        "evenings": [{**e, "players": [pid for pid in e["players"] if pid not in unnamed]} for e in data["evenings"]],
        "games": games,
        "phones": [],
        "changes": [],
    }


def _check_log(data: dict[str, Any]) -> None:
    """The phones and the change log: ids positive and each once, names as the forms take them,
    times as ISO dates, every action one the app writes."""
    phones: set[int] = set()
    for i, phone in enumerate(data["phones"]):
        _unique(_id(phone["id"], f"phones[{i}].id"), phones, f"phones[{i}].id")
        _text(phone.get("name"), f"phones[{i}].name", null=True, length=NAME_LENGTH)
        _time(phone.get("created_at"), f"phones[{i}].created_at")
    seen: set[int] = set()
    for i, change in enumerate(data["changes"]):
        where = f"changes[{i}]"
        _unique(_id(change["id"], f"{where}.id"), seen, f"{where}.id")
        _id(change.get("game_id"), f"{where}.game_id", null=True)
        _id(change.get("hand_id"), f"{where}.hand_id", null=True)
        _time(change.get("at"), f"{where}.at")
        if _id(change.get("phone_id"), f"{where}.phone_id", null=True) not in phones | {None}:
            raise _Damaged(f"{where}.phone_id is not a phone")
        if change.get("action") not in store.ACTIONS:
            raise _Damaged(f"{where}.action is not one this app writes")
        for key in ("before", "after"):
            if change.get(key) is not None and not isinstance(change[key], dict):
                raise _Damaged(f"{where}.{key} is not an entry")


def _shown(value: Any) -> str:
    """A value of the file as JSON writes it (``true``, ``"1"``), cut short to fit in a message."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        text = repr(value)
    return text if len(text) <= 40 else text[:39] + "…"


def _damaged(error: Exception) -> ImportError_:
    return ImportError_(
        N_("The export is damaged (%(error)s); nothing was imported."),
        error=str(error) if isinstance(error, _Damaged) else f"{type(error).__name__}: {error}",
    )


def restore(db: Database, data: Any, replace: bool = False, progress=None) -> dict[str, int]:
    """Load an export into an empty archive (with ``replace``, into this one after erasing it),
    keeping every id; counts of what was restored. ``progress(games done, games in all)`` is told
    after each game (a big archive takes tens of seconds).

    The whole file is checked first; the erasing and the loading are then one transaction, so a
    refused or failing import leaves the archive exactly as it was."""
    data = validate(data)
    try:
        with store.write(db):  # one transaction: erased and loaded together, or neither
            if not replace and not is_empty(db):
                raise ImportError_(N_("The archive is not empty: import restores into an empty one only."))
            _clear(db)  # with --replace everything; otherwise only kept totals an emptied archive may hold
            for p in data["players"]:
                db["players"].insert({"id": int(p["id"]), "name": str(p["name"]), "created_at": str(p["created_at"])})
            for e in data["evenings"]:
                db["evenings"].insert({k: e.get(k) for k in ("id", "date", "place", "note", "created_at")})
                for position, pid in enumerate(e["players"]):
                    db["evening_players"].insert({"evening_id": e["id"], "player_id": int(pid), "position": position})
            for done, g in enumerate(data["games"], start=1):
                names = [
                    str(name) if pid is None else db["players"].get(int(pid))["name"]
                    for pid, name in zip(g["seats"], g["seat_names"])
                ]
                db["games"].insert(
                    {
                        **{k: g.get(k) for k in GAME_COLUMNS},
                        "players": json.dumps(names),
                        "settings": json.dumps(g.get("settings") or {}),
                        "reopened": int(bool(g.get("reopened"))),
                    }
                )
                for seat, pid in enumerate(g["seats"]):
                    db.execute(
                        "insert into game_seats (game_id, seat, player_id) values (?, ?, ?)",
                        [g["id"], seat, None if pid is None else int(pid)],
                    )
                for h in g["hands"]:
                    db["hands"].insert(
                        {
                            **{k: h.get(k) for k in ("id", "lone", "created_at", "updated_at", "deleted_at")},
                            "game_id": g["id"],
                            "sides": json.dumps(h["sides"]),
                            "stock_out": None if h.get("stock_out") is None else int(bool(h["stock_out"])),
                        }
                    )
                store.refresh_results(db, g["id"])
                if progress is not None:
                    progress(done, len(data["games"]))
            for phone in data["phones"]:  # a phone's token stays on the phone: a new one is made here
                db.execute(
                    "insert into phones (id, token, name, created_at) values (?, ?, ?, ?)",
                    [phone["id"], f"imported-{phone['id']}-{secrets.token_hex(8)}", phone.get("name"),
                     phone["created_at"]],
                )  # fmt: skip
            for change in data["changes"]:  # the log comes back as it was, entry by entry
                db.execute(
                    "insert into changes (id, game_id, hand_id, at, phone_id, action, before, after) "
                    "values (?, ?, ?, ?, ?, ?, ?, ?)",
                    [change["id"], change.get("game_id"), change.get("hand_id"), change["at"], change.get("phone_id"),
                     change["action"], None if change.get("before") is None else json.dumps(change["before"]),
                     None if change.get("after") is None else json.dumps(change["after"])],
                )  # fmt: skip
            counts = {"games": len(data["games"]), "hands": sum(len(g["hands"]) for g in data["games"])}
            store.log_change(db, None, None, "archive imported", None, counts, None)
    except (ImportError_, store.Unavailable):  # a busy or full disk is not the file's fault: the caller says so
        raise
    except (KeyError, TypeError, ValueError) as error:
        raise _damaged(error) from None
    except Exception as error:  # a constraint failed: the transaction was rolled back
        raise ImportError_(
            N_("The export does not fit together (%(error)s); nothing was imported."), error=str(error)
        ) from None
    return {
        "players": len(data["players"]),
        "evenings": len(data["evenings"]),
        "games": len(data["games"]),
        "hands": sum(len(g["hands"]) for g in data["games"]),
    }


# A spreadsheet reads a cell starting with one of these as a formula (=HYPERLINK(...), +cmd|...,
# @SUM(...)), or after a tab or carriage return it may: such a text cell (a player named so, or a
# side or rule set named after one) gets a leading apostrophe, so it is shown as the text it is.
# A spreadsheet set up for ";" (German and Italian Excel) splits the file at every ";", so each
# ";"-separated part of a cell is treated the same way (a name "x;=1+1" becomes "x;'=1+1").
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_PLAIN_NUMBER = re.compile(r"[+-]?\d+(\.\d+)?")


def _part(text: str) -> str:
    """One ";"-separated part of a text cell, with an apostrophe ahead of a formula (also one behind
    a quote or spaces, which a spreadsheet may drop)."""
    start = text.lstrip(' "')
    if start.startswith(_FORMULA_START) and not _PLAIN_NUMBER.fullmatch(start.strip('"')):
        return "'" + text
    return text


def _cell(value: Any) -> Any:
    """A CSV cell safe to open in a spreadsheet, split at "," or at ";": numbers (a score of -150) stay numbers."""
    if isinstance(value, str):
        return ";".join(_part(part) for part in value.split(";"))
    return value


class _SafeWriter:
    """``csv.writer`` whose every text cell is neutralised against formula injection."""

    def __init__(self, out: io.StringIO) -> None:
        self._writer = csv.writer(out)

    def writerow(self, row: list[Any]) -> None:
        self._writer.writerow([_cell(value) for value in row])


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
    writer.writerow(["game", "rules", "sides", "hands", "totals", "winner", "margin"])
    for s in sheets:
        result = s.state.result
        writer.writerow(
            [
                s.game.id,
                s.rules.name,
                " vs ".join(s.side_names),
                len(s.rows),
                " : ".join(map(str, s.state.totals)),
                s.side_names[result.winner] if result.finished and result.winner is not None else "",
                result.margin if result.finished else "",
            ]
        )
    writer.writerow([])
    writer.writerow(["player", "games", "won", "balance"])
    for r in standings:
        writer.writerow([r["name"], r["games"], r["won"], r["balance"]])
    return out.getvalue()
