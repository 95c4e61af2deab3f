"""What every format's seating is made of (docs/tournaments.md, "The draw", "Tables of four, five and
six"): the lot, the tables' sizes, seat labels, a round's table and bye, what a table of five or six
plays. What each format does with them is its own module in ``formats/``. Pure."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from scorekeeper.core import rulesets
from scorekeeper.core.messages import N_, Problem

ROUND_ENDS = ("target", "hands", "minutes")
ACTIONS = (
    "created",
    "changed",
    "draw",
    "round started",
    "round ended",
    "closed",
    "reopened",
    "replaced",
)  # the organiser's, as they are on record
WARNING_MINUTES = 10  # the round timer warns this long before the end
# What the form takes (and so the import): a round "after a number of hands" of 1 to 50 hands, one
# "after a time" of 15 to 300 minutes (its clock counts from its start: docs/tournaments.md, "When a round ends")
ROUND_HANDS = (1, 50)
ROUND_MINUTES = (15, 300)
DEFAULT_SEASON_POINTS = (10, 8, 6, 5, 4, 3, 2, 1)  # for places 1, 2, 3 …; a place beyond the list: none
MAX_TABLES = 16  # the standings page shows this many tables without scrolling
WIN, DRAW = 2, 1  # match points of a game won or drawn (a loss: 0)
TABLE_SIZES = (4, 5, 6)  # players a table seats; four in two partnerships, five and six by their rule sets
FOUR_SIDES = ((0, 2), (1, 3))  # a table of four: seats 1 and 3 against 2 and 4


@dataclass(frozen=True)
class Table:
    """One game of a round: who sits where. ``units`` are the entrants (players, or pairs in the
    Mitchell movement) of each of the game's sides; ``seats`` the names in the game's seat order."""

    round: int
    table: int
    seats: tuple[str, ...]
    first_dealer: int
    units: tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class Bye:
    """An entrant who sits a round out (the Mitchell movement with an odd number of pairs; a Partie at a
    table of five changing partners)."""

    round: int
    unit: int
    table: int = 0  # the table it sits out at (Mitchell: the last, whose North–South place is empty)


def draw(count: int, seed: int) -> list[int]:
    """The draw by lot: the entrants' indexes in the order they were drawn (the same seed, the same
    draw). An entrant's draw number is its position here plus one; it also orders level entrants."""
    order = list(range(count))
    random.Random(seed).shuffle(order)
    return order


def table_sizes(players: int) -> list[int] | None:
    """The tables for this many players (docs/tournaments.md, "Tables of four, five and six"): as many
    tables of four as can be, the rest at one table of five or six, or one of each; None when no mix seats
    them all (fewer than four, or seven)."""
    if players in TABLE_SIZES:
        return [players]
    if players < 8:
        return None
    fours, rest = divmod(players, 4)
    return {0: [4] * fours, 1: [4] * (fours - 1) + [5], 2: [4] * (fours - 1) + [6], 3: [4] * (fours - 2) + [5, 6]}[rest]


def seating_problem(players: int) -> Problem | None:
    """Why this many players cannot sit at tables of four to six, or None."""
    if players < 4:
        return Problem(None, "entrants", N_("Enter at least four players, one a line."))
    if table_sizes(players) is None:
        return Problem(
            None,
            "entrants",
            N_("%(count)s players: tables seat four to six. Add one more or leave one out."),
            {"count": players},
        )
    if len(table_sizes(players) or ()) > MAX_TABLES:
        return Problem(None, "entrants", N_("At most %(tables)s tables."), {"tables": MAX_TABLES})
    return None


def seat_label(table: int, seat: int) -> str:
    """A seat as the draw names it: "1.3" is table 1, seat 3."""
    return f"{table}.{seat}"


def groups(order: Sequence[int], sizes: Sequence[int]) -> list[list[int]]:
    """The draw cut into tables: the first drawn at table 1 in seat order, and so on."""
    out, start = [], 0
    for size in sizes:
        out.append(list(order[start : start + size]))
        start += size
    return out


@dataclass(frozen=True)
class TableRules:
    """What a table of five or six plays: a rule set (or the table's own made from one) and its seating."""

    variant: str
    layout: str
    house_rules_id: int | None = None
    settings: Mapping[str, Any] = field(default_factory=dict)

    @property
    def sides(self) -> tuple[tuple[int, ...], ...]:
        """The game's sides as seat indexes."""
        return tuple(rulesets.get(self.variant).layout(self.layout).sides)
