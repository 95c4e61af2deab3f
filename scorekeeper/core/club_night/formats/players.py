"""What the formats of single players share (docs/tournaments.md, "The draw", "Tables of four, five and
six"): their entrants' problems and the tables the draw seats them at. Pure."""

from __future__ import annotations

from typing import Sequence

from scorekeeper.core.club_night.formats.model import Tournament
from scorekeeper.core.club_night.tables import Table, groups, seating_problem, table_sizes
from scorekeeper.core.messages import Problem


def player_problems(entrants: Sequence[Sequence[str]]) -> list[Problem]:
    """Players at tables of four to six: at least four, not seven, at most MAX_TABLES tables."""
    problem = seating_problem(len(entrants))
    return [problem] if problem else []


def seated_tables(t: Tournament, rnd: int) -> list[Table]:
    """Every table as drawn: the first drawn at table 1 in seat order, and so on; its sides as the game of
    its size seats them (four: seats 1 and 3 against 2 and 4; five and six: their rule set's), seat 1
    dealing first."""
    tables = []
    for number, group in enumerate(groups(t.order, table_sizes(len(t.entrants)) or []), start=1):
        sides = t.sides_at(len(group))
        if sides is None:
            raise ValueError(f"no rules for a table of {len(group)}")
        units = tuple(tuple(group[seat] for seat in side) for side in sides)
        tables.append(Table(rnd, number, tuple(t.entrants[u][0] for u in group), 0, units))
    return tables
