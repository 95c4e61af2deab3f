"""The players' ratings kept in step with the results: functions taking a ``sqlite_utils.Database``.

Tables (db.m014_ratings): ``ratings`` holds each player's current rating, ``rating_changes`` each
rated game's rating before and after for each of its players, ``rated_games`` the outcome each
rated game was rated with. Games are rated in game order (by id). Storage calls
``results_written`` whenever it writes a game's results, inside the same transaction, and does
what core.results.rating_step says: a game that newly finished above every rated game is rated from
its players' ratings alone; any other change of a rated outcome (an older game finishing, a
corrected, reopened, deleted or restored game, a merge) recomputes from that game on. ``rebuild``
recomputes the whole history and gives the same figures.

Nothing here opens a transaction: the callers' (transaction.write) hold one.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from sqlite_utils import Database

from scorekeeper.core import ratings, rulesets, sheet
from scorekeeper.core.results import RATE_NEXT, RATED_AS_BEFORE, outcome_key, rating_outcome, rating_step
from scorekeeper.storage.leaderboard import ratings_of

Outcome = ratings.Outcome


def results_written(db: Database, game_id: int, rules: rulesets.RuleSet, running: sheet.Running, rows) -> None:
    """A game's results were just written (``rows``: its players' result rows, with ``player_id`` and
    ``side``): bring the ratings in step, inside the caller's transaction. Nothing to do when the
    game's outcome is the one it was rated with (a hand added to a game in play, a rename)."""
    new = rating_outcome(rules, running, [(r["player_id"], r["side"]) for r in rows])
    row = db.execute("select outcome from rated_games where game_id = ?", [game_id]).fetchone()
    rated_with = row[0] if row else None
    # the last rated game decides only for a game newly counting (core.results.rating_step)
    last = None
    if rated_with is None and new is not None:
        last = db.execute("select max(game_id) from rated_games").fetchone()[0]
    step = rating_step(game_id, new, rated_with, last)
    if step == RATE_NEXT:
        _rate_next(db, game_id, new)
    elif step != RATED_AS_BEFORE:
        recompute(db, game_id)


def game_dropped(db: Database, game_id: int) -> None:
    """A game is being deleted: if it was rated, the games after it are rated again without it
    (called before its rows go; its own are dropped here)."""
    if db.execute("select 1 from rated_games where game_id = ?", [game_id]).fetchone():
        recompute(db, game_id, skip=game_id)


def _rate_next(db: Database, game_id: int, outcome: Outcome) -> None:
    """Rate one game after every rated one, from its players' current ratings."""
    pids = [pid for side in outcome.sides for pid in side.players]
    current = ratings_of(db, pids)
    changes = ratings.rate(current, outcome)
    _store_game(db, game_id, outcome, changes)
    _store_current(db, {pid: after for pid, (_before, after) in changes.items()})


def _store_game(db: Database, game_id: int, outcome: Outcome, changes) -> None:
    db.execute("insert or replace into rated_games (game_id, outcome) values (?, ?)", [game_id, outcome_key(outcome)])
    db.conn.executemany(
        "insert or replace into rating_changes (game_id, player_id, mu_before, sigma_before, mu, sigma, games) "
        "values (?, ?, ?, ?, ?, ?, ?)",
        [
            (game_id, pid, before.mu, before.sigma, after.mu, after.sigma, after.games)
            for pid, (before, after) in changes.items()
        ],
    )


def _store_current(db: Database, current: dict[int, ratings.Rating]) -> None:
    db.conn.executemany(
        "insert into ratings (player_id, mu, sigma, games) values (?, ?, ?, ?) on conflict(player_id) do update "
        "set mu = excluded.mu, sigma = excluded.sigma, games = excluded.games",
        [(pid, r.mu, r.sigma, r.games) for pid, r in current.items()],
    )


def _rules(variant: str, layout: str | None, settings: str | None, target: int | None, cache: dict):
    """The configured rule set of a stored game (cached: a club plays few combinations)."""
    key = (variant, layout, settings, target)
    if key not in cache:
        try:
            base = rulesets.get(variant)
        except KeyError:
            cache[key] = None
        else:
            cache[key] = rulesets.configure(base, json.loads(settings or "{}"), layout, target)
    return cache[key]


def stored_outcomes(db: Database, from_id: int = 0, skip: int | None = None) -> Iterator[tuple[int, Outcome]]:
    """Every rated game from ``from_id`` on, in game order, with its outcome as the stored results say
    (the running figures and the players' result rows), ``skip`` left out."""
    players: dict[int, list[tuple[int, int]]] = {}
    for game_id, pid, side in db.execute(
        "select game_id, player_id, side from player_results where game_id >= ? and finished = 1", [from_id]
    ):
        players.setdefault(game_id, []).append((pid, side))
    cache: dict = {}
    rows = db.execute(
        "select g.id, g.variant, g.layout, g.settings, g.target, r.kept from games g "
        "join game_results r on r.game_id = g.id where g.id >= ? and r.finished = 1 and r.kept is not null "
        "order by g.id",
        [from_id],
    )
    for game_id, variant, layout, settings, target, running in rows:
        if game_id == skip:
            continue
        rules = _rules(variant, layout, settings, target, cache)
        if rules is None:
            continue
        outcome = rating_outcome(rules, sheet.Running.from_dict(json.loads(running)), players.get(game_id, []))
        if outcome is not None:
            yield game_id, outcome


def recompute(db: Database, from_id: int, skip: int | None = None) -> int:
    """Rate again every game from ``from_id`` on (``skip`` left out), from the ratings before it;
    how many games were rated."""
    db.execute("delete from rating_changes where game_id >= ?", [from_id])
    db.execute("delete from rated_games where game_id >= ?", [from_id])
    # each player's rating after his last game before from_id
    db.execute("delete from ratings")
    db.execute(
        "insert into ratings (player_id, mu, sigma, games) select c.player_id, c.mu, c.sigma, c.games "
        "from rating_changes c where c.game_id = (select max(game_id) from rating_changes "
        "where player_id = c.player_id)"
    )
    current = ratings_of(db)
    touched: set[int] = set()
    count = 0
    for game_id, outcome in stored_outcomes(db, from_id, skip):
        changes = ratings.rate(current, outcome)
        _store_game(db, game_id, outcome, changes)
        for pid, (_before, after) in changes.items():
            current[pid] = after
            touched.add(pid)
        count += 1
    _store_current(db, {pid: current[pid] for pid in touched})
    return count


def rebuild(db: Database) -> int:
    """Recompute every rating from the whole history in game order; how many games were rated."""
    return recompute(db, 0)


def snapshot(db: Database) -> dict[str, Any]:
    """Everything kept, to compare two ways of getting there (``rebuild`` against the incremental)."""
    return {
        "ratings": db.execute("select player_id, mu, sigma, games from ratings order by player_id").fetchall(),
        "changes": db.execute(
            "select game_id, player_id, mu_before, sigma_before, mu, sigma, games from rating_changes "
            "order by game_id, player_id"
        ).fetchall(),
        "games": db.execute("select game_id, outcome from rated_games order by game_id").fetchall(),
    }
