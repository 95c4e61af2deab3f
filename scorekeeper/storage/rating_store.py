"""The players' ratings in the database: functions taking a ``sqlite_utils.Database``.

Tables (db.m014_ratings): ``ratings`` holds each player's current rating, ``rating_changes`` each
rated game's rating before and after for each of its players, ``rated_games`` the outcome each
rated game was rated with. Games are rated in game order (by id). The store calls
``results_written`` whenever it writes a game's results, inside the same transaction: a game that
newly finished above every rated game is rated from its players' ratings alone; any other change of
a rated outcome (an older game finishing, a corrected, reopened, deleted or restored game, a merge)
recomputes from that game on. ``rebuild`` recomputes the whole history and gives the same figures.

Nothing here opens a transaction: the callers' (store.write) hold one.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from sqlite_utils import Database

from scorekeeper.core import ratings, sheet, variants
from scorekeeper.core.messages import N_, Problem
from scorekeeper.core.models import Player

MAX_ID = 2**63 - 1  # store.MAX_ID (the store imports this module)

Outcome = ratings.Outcome


# --- what a game says -----------------------------------------------------------------------


def _layout_of(rules: variants.RuleSet) -> variants.Layout:
    return rules.layouts[0]


def outcome_of(rules: variants.RuleSet, kept: sheet.Kept, players: Sequence[tuple[int, int]]) -> Outcome | None:
    """A game's outcome for the ratings from its rules, its kept figures and its archive players as
    (player id, side); None if it does not count (not finished, or fewer than two sides with an
    archive player)."""
    seats = sheet.side_seats(rules)
    sides: list[list[int]] = [[] for _ in seats]
    for pid, side in players:
        if 0 <= side < len(sides):
            sides[side].append(pid)
    result = kept.result
    return ratings.outcome(
        sides,
        [len(s) for s in seats],
        _layout_of(rules).playing,
        result.finished,
        result.winner,
        result.leads,
        kept.totals,
    )


def _key(outcome: Outcome | None) -> str | None:
    """The outcome as the store keeps it (equal outcomes, equal texts)."""
    return None if outcome is None else json.dumps(outcome.as_json(), sort_keys=True)


# --- keeping them up to date ------------------------------------------------------------------


def results_written(db: Database, game_id: int, rules: variants.RuleSet, kept: sheet.Kept, rows) -> None:
    """A game's results were just written (``rows``: its players' result rows, with ``player_id`` and
    ``side``): bring the ratings in step, inside the caller's transaction. Nothing to do when the
    game's outcome is the one it was rated with (a hand added to a game in play, a rename)."""
    new = outcome_of(rules, kept, [(r["player_id"], r["side"]) for r in rows])
    row = db.execute("select outcome from rated_games where game_id = ?", [game_id]).fetchone()
    old = row[0] if row else None
    if _key(new) == old:
        return
    last = db.execute("select max(game_id) from rated_games").fetchone()[0]
    if old is None and new is not None and (last is None or game_id > last):
        _rate_next(db, game_id, new)
    else:
        recompute(db, game_id)


def game_dropped(db: Database, game_id: int) -> None:
    """A game is being deleted: if it was rated, the games after it are rated again without it
    (called before its rows go; its own are dropped here)."""
    if db.execute("select 1 from rated_games where game_id = ?", [game_id]).fetchone():
        recompute(db, game_id, skip=game_id)


def _rate_next(db: Database, game_id: int, outcome: Outcome) -> None:
    """Rate one game after every rated one, from its players' current ratings."""
    pids = [pid for side in outcome.sides for pid in side.players]
    current = _ratings_of(db, pids)
    changes = ratings.rate(current, outcome)
    _store_game(db, game_id, outcome, changes)
    _store_current(db, {pid: after for pid, (_before, after) in changes.items()})


def _ratings_of(db: Database, pids: Sequence[int] | None = None) -> dict[int, ratings.Rating]:
    """The current ratings of these players (of everyone without ``pids``); newcomers are left out."""
    if pids is None:
        rows = db.execute("select player_id, mu, sigma, games from ratings").fetchall()
    else:
        marks = ", ".join("?" for _ in pids)
        rows = db.execute(
            f"select player_id, mu, sigma, games from ratings where player_id in ({marks})", list(pids)
        ).fetchall()
    return {pid: ratings.Rating(mu, sigma, games) for pid, mu, sigma, games in rows}


def _store_game(db: Database, game_id: int, outcome: Outcome, changes) -> None:
    db.execute("insert or replace into rated_games (game_id, outcome) values (?, ?)", [game_id, _key(outcome)])
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
            base = variants.get(variant)
        except KeyError:
            cache[key] = None
        else:
            cache[key] = variants.configure(base, json.loads(settings or "{}"), layout, target)
    return cache[key]


def stored_outcomes(db: Database, from_id: int = 0, skip: int | None = None) -> Iterator[tuple[int, Outcome]]:
    """Every rated game from ``from_id`` on, in game order, with its outcome as the stored results say
    (the kept figures and the players' result rows), ``skip`` left out."""
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
    for game_id, variant, layout, settings, target, kept in rows:
        if game_id == skip:
            continue
        rules = _rules(variant, layout, settings, target, cache)
        if rules is None:
            continue
        outcome = outcome_of(rules, sheet.Kept.from_dict(json.loads(kept)), players.get(game_id, []))
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
    current = _ratings_of(db)
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


# --- what the pages read ------------------------------------------------------------------------


def current(db: Database) -> dict[int, ratings.Rating]:
    """Every rated player's current rating."""
    return _ratings_of(db)


def rating_of(db: Database, pid: int) -> ratings.Rating:
    """A player's current rating (a newcomer's without a rated game)."""
    return _ratings_of(db, [pid]).get(pid, ratings.NEWCOMER)


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
    """Each player's rating before the evening's first rated game and after its last, biggest gain first."""
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
            {"id": pid, "name": name, "games": 0, "before": ratings.shown(mu_before, sigma_before)},
        )
        entry["games"] += 1
        entry["after"] = ratings.shown(mu, sigma)
        entry["provisional"] = games < ratings.PROVISIONAL
    out = [{**e, "change": e["after"] - e["before"]} for e in seen.values()]
    return sorted(out, key=lambda e: (-e["change"], e["name"].lower()))


# --- fair partners ------------------------------------------------------------------------------

DEFAULT_RULES = {4: "classic", 6: "six-3x2"}
_IDS = re.compile(r"[0-9]{1,19}(,[0-9]{1,19})*")


def partner_layouts(rules: variants.RuleSet, count: int) -> list[variants.Layout]:
    """The rule set's layouts for ``count`` players in sides of partners all of one size."""
    return [
        layout
        for layout in rules.layouts
        if layout.players == count
        and len(layout.sides) > 1
        and len({len(s) for s in layout.sides}) == 1
        and len(layout.sides[0]) > 1
    ]


def partner_rule_sets(count: int | None = None) -> list[variants.RuleSet]:
    """The rule sets with partnerships for ``count`` players (4 or 6 without)."""
    return [
        rules
        for rules in variants.RULE_SETS.values()
        if any(partner_layouts(rules, n) for n in ((count,) if count else (4, 6)))
    ]


@dataclass(frozen=True)
class TeamRequest:
    """Who is to be seated, by which rules and layout (a layout of those rules for that many)."""

    players: list[Player]
    rules: variants.RuleSet
    layout: variants.Layout


def team_request(
    db: Database, players: str | None, variant: str | None = None, layout: str | None = None
) -> tuple[TeamRequest | None, list[Problem]]:
    """Read a request for fair partners: ``players`` as ids joined by commas (4 or 6 different
    players of the archive), ``variant`` a rule set with partnerships for that many (by default
    classic for 4, six-3x2 for 6), ``layout`` one of its layouts for them (by default its first)."""
    problems: list[Problem] = []
    if not players or not _IDS.fullmatch(players):
        return None, [Problem(None, "players", N_("Give the players' ids joined by commas, e.g. 1,2,3,4."))]
    ids = [int(x) for x in players.split(",")]
    if len(ids) not in (4, 6):
        problems.append(Problem(None, "players", N_("Give 4 or 6 players.")))
    if len(set(ids)) != len(ids):
        problems.append(Problem(None, "players", N_("Give each player once.")))
    found: dict[int, Player] = {}
    for pid in dict.fromkeys(ids):
        row = db.execute("select id, name from players where id = ?", [pid]).fetchone() if pid <= MAX_ID else None
        if row is None:
            problems.append(Problem(None, "players", N_("There is no player %(id)s."), {"id": pid}))
        else:
            found[pid] = Player(row[0], row[1])
    rules = variants.RULE_SETS.get(variant or DEFAULT_RULES.get(len(ids), "classic"))
    if rules is None:
        known = ", ".join(r.id for r in partner_rule_sets())
        problems.append(Problem(None, "variant", N_("Unknown variant; use one of: %(known)s."), {"known": known}))
    elif len(ids) in (4, 6):
        layouts = partner_layouts(rules, len(ids))
        chosen = [x for x in layouts if layout in (None, "", x.key)]
        if not layouts:
            known = ", ".join(r.id for r in partner_rule_sets(len(ids)))
            problems.append(
                Problem(
                    None,
                    "variant",
                    N_("%(rules)s has no partnerships for %(count)s players; use one of: %(known)s."),
                    {"rules": rules.id, "count": len(ids), "known": known},
                )
            )
        elif not chosen:
            keys = ", ".join(x.key for x in layouts)
            problems.append(
                Problem(
                    None, "layout", N_("Unknown layout; %(rules)s has: %(keys)s."), {"rules": rules.id, "keys": keys}
                )
            )
    if problems:
        return None, problems
    return TeamRequest([found[pid] for pid in ids], rules, chosen[0]), []


def fair_partners(db: Database, request: TeamRequest, rng: random.Random | None = None) -> list[dict[str, Any]]:
    """Every seating of the request's players in its layout, the closest to even chances first: each
    side's players and chance of winning, and the seats in order (as the new-game form takes them)."""
    layout = request.layout
    names = {p.id: p.name for p in request.players}
    current = _ratings_of(db, list(names))
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
