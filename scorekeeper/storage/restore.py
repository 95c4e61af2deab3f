"""Restoring an export: the archive erased and the export's rows loaded, keeping every id, inside
the caller's write transaction (services.archive decides when). Every value was checked before
(export_check.validate)."""

from __future__ import annotations

import json
import secrets
from typing import Any

from sqlite_utils import Database

from scorekeeper.storage import changes, results, tournaments
from scorekeeper.storage.backup import GAME_COLUMNS, TOURNAMENT_COLUMNS, TOURNAMENT_JSON

# Every table an export fills or that is derived from them, children first (foreign keys: a
# tournament's rounds and tables refer to it); the kept statistics (player_totals, pair_totals) have
# no foreign key, so nothing else would clear them.
_TABLES = (
    "tournament_log",
    "tournament_games",
    "tournament_rounds",
    "tournaments",
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
    "house_rules",
)


# A hand's columns an export carries as they are (its sides and stock_out are shaped); each null in an
# older file: not confirmed, no client key.
_HAND_COLUMNS = ("id", "lone", "created_at", "updated_at", "deleted_at", "confirmed_at", "confirmed_by", "client_key")


def clear(db: Database) -> None:
    """Delete every row of the archive and of the results and totals derived from it (the change
    log too, whose triggers otherwise refuse any deletion: they are set again in the same transaction)."""
    changes.erase_change_log(db)
    for table in _TABLES:
        db.execute(f"delete from {table}")


def load(db: Database, data: dict[str, Any], progress=None) -> None:
    """Insert a checked export's players, evenings, games with their hands, phones and change log and
    its tournaments (none in an older export), inside the caller's transaction, and keep each game's
    results. ``progress(games done, games in all)`` is told after each game."""
    assert db.conn.in_transaction
    for p in data["players"]:
        db["players"].insert({"id": int(p["id"]), "name": str(p["name"]), "created_at": str(p["created_at"])})
    for e in data["evenings"]:
        _load_evening(db, e)
    for h in data.get("house_rules", []):
        db["house_rules"].insert({**h, "changes": json.dumps(h["changes"], sort_keys=True)})
    for done, g in enumerate(data["games"], start=1):
        _load_game(db, g)
        if progress is not None:
            progress(done, len(data["games"]))
    _load_log(db, data["phones"], data["changes"])
    for t in data.get("tournaments", []):
        _load_tournament(db, t)
        results.refresh_tournament_games(db, int(t["id"]))  # its past rounds' games end with them


def _load_evening(db: Database, e: dict[str, Any]) -> None:
    """One evening and its list of players."""
    db["evenings"].insert({k: e.get(k) for k in ("id", "date", "place", "note", "created_at")})
    for position, pid in enumerate(e["players"]):
        db["evening_players"].insert({"evening_id": e["id"], "player_id": int(pid), "position": position})


def _load_game(db: Database, g: dict[str, Any]) -> None:
    """One game, its seats and its hands, and its results kept."""
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
                **{k: h.get(k) for k in _HAND_COLUMNS},
                "game_id": g["id"],
                "sides": json.dumps(h["sides"]),
                "stock_out": None if h.get("stock_out") is None else int(bool(h["stock_out"])),
            }
        )
    results.refresh_results(db, g["id"])


def _load_log(db: Database, phones: list[dict[str, Any]], log: list[dict[str, Any]]) -> None:
    """The phones (a phone's token stays on the phone: a new one is made here) and the change log,
    entry by entry, as it was."""
    for phone in phones:
        db.execute(
            "insert into phones (id, token, name, created_at) values (?, ?, ?, ?)",
            [phone["id"], f"imported-{phone['id']}-{secrets.token_hex(8)}", phone.get("name"), phone["created_at"]],
        )
    for change in log:
        db.execute(
            "insert into changes (id, game_id, hand_id, at, phone_id, action, before, after, entered_by) "
            "values (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                change["id"],
                change.get("game_id"),
                change.get("hand_id"),
                change["at"],
                change.get("phone_id"),
                change["action"],
                None if change.get("before") is None else json.dumps(change["before"]),
                None if change.get("after") is None else json.dumps(change["after"]),
                change.get("entered_by"),
            ],
        )


def _load_tournament(db: Database, t: dict[str, Any]) -> None:
    """One tournament, its rounds, its tables' games and the organiser's actions, as they were (JSON
    written as ``storage.tournaments`` writes it)."""
    db["tournaments"].insert(
        tournaments.stored(
            {
                **{k: t.get(k) for k in TOURNAMENT_COLUMNS},
                # an export from before byes and ties were chosen: the defaults
                "bye_score": t.get("bye_score") or "average",
                "ties": t.get("ties") or "shared",
                "confirm_hands": int(bool(t.get("confirm_hands"))),  # before the choice existed: off
                "settings": t.get("settings") or {},
                "season_points": t["season_points"],
                "entrants": t["entrants"],
                **{key: t.get(key) for key in TOURNAMENT_JSON},
            }
        )
    )
    _load_tournament_parts(db, t)


def _load_tournament_parts(db: Database, t: dict[str, Any]) -> None:
    """A tournament's rounds, its tables (each a game already restored) and the organiser's actions."""
    for r in t["rounds"]:
        db.execute(
            "insert into tournament_rounds (tournament_id, round, started_at, ended_at) values (?, ?, ?, ?)",
            [t["id"], r["round"], r["started_at"], r.get("ended_at")],
        )
    for table in t["tables"]:
        db.execute(
            "insert into tournament_games (tournament_id, round, table_no, game_id, units) values (?, ?, ?, ?, ?)",
            [
                t["id"],
                table["round"],
                table["table_no"],
                table["game_id"],
                json.dumps([list(u) for u in table["units"]]),
            ],
        )
    for entry in t["log"]:
        db.execute(
            "insert into tournament_log (id, tournament_id, action, detail, at, phone_id) values (?, ?, ?, ?, ?, ?)",
            [
                entry["id"],
                t["id"],
                entry["action"],
                None if entry.get("detail") is None else json.dumps(entry["detail"], sort_keys=True),
                entry["at"],
                entry.get("phone_id"),
            ],
        )
