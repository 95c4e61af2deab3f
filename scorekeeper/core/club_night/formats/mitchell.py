"""Pairs moving between tables (docs/tournaments.md, "Pairs moving between tables"): North–South pairs
keep their table, East–West pairs move to the next higher table after each round (the last to table 1).
An odd number of pairs leaves the last table's North–South place empty: the East–West pair that comes
to it sits the round out. Pure."""

from __future__ import annotations

from typing import Sequence

from scorekeeper.core.club_night.formats.model import Format, RoundState, Tournament, by_the_movement
from scorekeeper.core.club_night.ranking import Place, standings
from scorekeeper.core.club_night.tables import MAX_TABLES, Bye, Table
from scorekeeper.core.messages import N_, Problem


def _problems(entrants: Sequence[Sequence[str]]) -> list[Problem]:
    """Two pairs or more, each line a pair, at most MAX_TABLES tables."""
    if len(entrants) < 2:
        return [Problem(None, "entrants", N_("Enter at least two pairs, one pair a line."))]
    if any(len(e) != 2 for e in entrants):
        return [Problem(None, "entrants", N_('Each line is a pair: two names with "&" between them.'))]
    if (len(entrants) + 1) // 2 > MAX_TABLES:
        return [Problem(None, "entrants", N_("At most %(tables)s tables."), {"tables": MAX_TABLES})]
    return []


def _sizes(count: int) -> list[int] | None:
    """Two pairs a table; an odd number of pairs plays at the tables it fills."""
    return [4] * (count // 2) if count >= 2 else None


def _rounds(count: int) -> int:
    """Every East–West pair meets every North–South place once."""
    return (count + 1) // 2


def _plan(t: Tournament, rnd: int) -> tuple[list[Table], list[Bye]]:
    """North–South pairs (the first half of the draw) stay at their table; East–West pair k sits at table
    k + round − 1. An odd number of pairs leaves the last table's North–South place empty: a bye."""
    order = t.order
    tables_count = (len(order) + 1) // 2
    north_south = list(order[:tables_count])
    east_west = list(order[tables_count:])
    if len(order) % 2:
        east_west, north_south = list(order[tables_count - 1 :]), list(order[: tables_count - 1]) + [None]
    tables, byes = [], []
    for number in range(1, tables_count + 1):
        ns = north_south[number - 1]
        ew = east_west[(number - rnd) % tables_count]  # the pair that started at table number − rnd + 1
        if ns is None:
            byes.append(Bye(rnd, ew, number))
            continue
        a, b = t.entrants[ns]
        c, d = t.entrants[ew]
        tables.append(Table(rnd, number, (a, c, b, d), 0, ((ns,), (ew,))))
    return tables, byes


def _ranking(t: Tournament, rounds: Sequence[RoundState]) -> list[Place]:
    """Match points, then points, then (two level) their own game; a bye as the tournament chose."""
    games = [table.played for r in rounds for table in r.tables]
    byes = [b for r in rounds for b in r.byes]
    return standings(
        len(t.entrants), t.order, games, byes, t.bye_score, t.ties, match_points_first=True, head_to_head=True
    )


MITCHELL = Format(
    key="mitchell",
    name=N_("Pairs moving between tables"),
    hint=N_("Pairs keep their seats; after each round East–West move one table up. Standings by wins, then points."),
    ranking_rule=N_("Ranked by match points (a win 2, a draw 1), then points, then their own game."),
    pairs=True,
    shows_match_points=True,
    stops_all=False,
    ranks_per_game=False,
    final_round=None,
    sizes=_sizes,
    problems=_problems,
    rounds=_rounds,
    plan=_plan,
    next_tables=by_the_movement(_plan, _rounds),
    ranking=_ranking,
    own_rules=lambda sizes: {},
    played_sizes=lambda sizes: {4},
)
