"""The players' ratings as the pages and the API read them, and fair partners from them. Nothing
here writes (storage.ratings keeps them in step)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Protocol

from sqlite_utils import Database

from scorekeeper.core import ratings, rulesets
from scorekeeper.core.models import Player
from scorekeeper.storage.records import valid_id


class Table(Protocol):
    """Who is to be seated and in which layout (web.partner_requests.TeamRequest)."""

    players: list[Player]
    layout: rulesets.Layout


def ratings_of(db: Database, pids: Sequence[int] | None = None) -> dict[int, ratings.Rating]:
    """The current ratings of these players (of everyone without ``pids``); newcomers are left out."""
    if pids is None:
        rows = db.execute("select player_id, mu, sigma, games from ratings").fetchall()
    else:
        marks = ", ".join("?" for _ in pids)
        rows = db.execute(
            f"select player_id, mu, sigma, games from ratings where player_id in ({marks})", list(pids)
        ).fetchall()
    return {pid: ratings.Rating(mu, sigma, games) for pid, mu, sigma, games in rows}


def current(db: Database) -> dict[int, ratings.Rating]:
    """Every rated player's current rating."""
    return ratings_of(db)


def rating_of(db: Database, pid: int) -> ratings.Rating:
    """A player's current rating (a newcomer's without a rated game)."""
    return ratings_of(db, [pid]).get(pid, ratings.NEWCOMER)


def timeline(db: Database, pid: int) -> list[dict[str, Any]]:
    """A player's rating after each of his rated games, in game order."""
    return [
        {"game_id": g, "mu": mu, "sigma": sigma, "games": games, "rating": ratings.shown(mu, sigma)}
        for g, mu, sigma, games in db.execute(
            "select game_id, mu, sigma, games from rating_changes where player_id = ? order by game_id", [pid]
        )
    ]


def players(db: Database) -> list[dict[str, Any]]:
    """Every player with his rating, as the API gives them: by name; ``rating`` and ``uncertainty``
    null before the first rated game."""
    out = []
    for pid, name, mu, sigma, games in db.execute(
        "select p.id, p.name, k.mu, k.sigma, coalesce(k.games, 0) from players p "
        "left join ratings k on k.player_id = p.id order by p.name collate nocase, p.id"
    ):
        rated = mu is not None
        out.append(
            {
                "id": pid,
                "name": name,
                "games": games,
                "rating": ratings.shown(mu, sigma) if rated else None,
                "uncertainty": round(sigma * ratings.SCALE) if rated else None,
                "provisional": games < ratings.PROVISIONAL,
            }
        )
    return out


def evening_changes(db: Database, evening_id: int) -> list[dict[str, Any]]:
    """Each player's rating before the evening's first rated game and after its last, and the change the
    evening's own games made (``between``: games of other evenings were rated between them, entered
    late, so before and after differ by more than the evening did); biggest gain first."""
    rows = db.execute(
        "select c.player_id, p.name, c.game_id, c.mu_before, c.sigma_before, c.mu, c.sigma, c.games "
        "from rating_changes c join games g on g.id = c.game_id join players p on p.id = c.player_id "
        "where g.evening_id = ? order by c.game_id",
        [evening_id],
    ).fetchall()
    seen: dict[int, dict[str, Any]] = {}
    for pid, name, _game_id, mu_before, sigma_before, mu, sigma, games in rows:
        entry = seen.setdefault(
            pid,
            {"id": pid, "name": name, "games": 0, "before": ratings.shown(mu_before, sigma_before), "change": 0},
        )
        entry["games"] += 1
        entry["after"] = ratings.shown(mu, sigma)
        entry["change"] += entry["after"] - ratings.shown(mu_before, sigma_before)  # this game's own
        entry["provisional"] = games < ratings.PROVISIONAL
    out = [{**e, "between": e["change"] != e["after"] - e["before"]} for e in seen.values()]
    return sorted(out, key=lambda e: (-e["change"], e["name"].lower()))


def fair_partners(db: Database, request: Table, rng: random.Random | None = None) -> list[dict[str, Any]]:
    """Every seating of the request's players in its layout, the closest to even chances first: each
    side's players and chance of winning, and the seats in order (as the new-game form takes them)."""
    layout = request.layout
    names = {p.id: p.name for p in request.players}
    current = ratings_of(db, list(names))
    sizes = [len(s) for s in layout.sides]
    share = min(layout.playing, sizes[0]) / sizes[0] if layout.playing else 1.0
    out = []
    for seating in ratings.fair_seatings([p.id for p in request.players], sizes, current, rng, share):
        seats: list[int] = [0] * layout.players
        for side, seat_list in zip(seating.sides, layout.sides):
            for pid, seat in zip(side, seat_list):
                seats[seat] = pid
        out.append(
            {
                "sides": [
                    {"players": [{"id": pid, "name": names[pid]} for pid in side], "chance": chance}
                    for side, chance in zip(seating.sides, seating.chances)
                ],
                "seats": [{"id": pid, "name": names[pid]} for pid in seats],
            }
        )
    return out


def players_by_id(db: Database, ids: Sequence[int]) -> dict[int, Player]:
    """The archive's players with these ids (an id that is none of theirs left out)."""
    found: dict[int, Player] = {}
    for pid in dict.fromkeys(ids):
        row = db.execute("select id, name from players where id = ?", [pid]).fetchone() if valid_id(pid) else None
        if row is not None:
            found[pid] = Player(row[0], row[1])
    return found
