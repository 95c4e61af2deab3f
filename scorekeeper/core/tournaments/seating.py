"""The draw and the seating of every round (docs/tournaments.md, "The draw", "Pairs moving between
tables", "Four players changing partners"): who sits where, how many tables and rounds; the
tournament as the archive keeps it. Pure."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Sequence

from scorekeeper.core.messages import N_, Problem

FORMATS = ("final", "mitchell", "rotation")
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
DEFAULT_SEASON_POINTS = (10, 8, 6, 5, 4, 3, 2, 1)  # for places 1, 2, 3 …; a place beyond the list: none
MAX_TABLES = 16  # the standings page shows this many tables without scrolling
WIN, DRAW = 2, 1  # match points of a game won or drawn (a loss: 0)

# the three partnerships of the rotation, as the order of a table's four players (by their seat in the
# draw) around the table: the game's seats 0 and 2 are partners against 1 and 3
ROTATION = ((0, 1, 2, 3), (0, 2, 1, 3), (0, 1, 3, 2))


@dataclass(frozen=True)
class Table:
    """One game of a round: who sits where. ``units`` are the entrants (players, or pairs in the
    Mitchell movement) of each side; ``seats`` the names in the game's seat order."""

    round: int
    table: int
    seats: tuple[str, ...]
    first_dealer: int
    units: tuple[tuple[int, ...], tuple[int, ...]]


@dataclass(frozen=True)
class Bye:
    """An entrant who sits a round out (the Mitchell movement with an odd number of pairs)."""

    round: int
    unit: int


def unit_names(fmt: str, entrants: Sequence[Sequence[str]]) -> list[str]:
    """How each entrant is named: a player, or a pair "Anna & Ben"."""
    return [" & ".join(e) for e in entrants]


def entrant_problems(fmt: str, entrants: Sequence[Sequence[str]]) -> list[Problem]:
    """Whether these entrants can play this format: tables of four players (a multiple of four players
    for ``final`` and ``rotation``; two pairs or more for ``mitchell``), at most MAX_TABLES tables."""
    count = len(entrants)
    if fmt == "mitchell":
        if count < 2:
            return [Problem(None, "entrants", N_("Enter at least two pairs, one pair a line."))]
        if any(len(e) != 2 for e in entrants):
            return [Problem(None, "entrants", N_('Each line is a pair: two names with "&" between them.'))]
        tables = (count + 1) // 2
    else:
        if count < 4:
            return [Problem(None, "entrants", N_("Enter at least four players, one a line."))]
        if count % 4:
            short = 4 - count % 4
            return [
                Problem(
                    None,
                    "entrants",
                    N_(
                        "%(count)s players: the tables seat four each. Add %(short)s more or leave %(over)s out "
                        "(a reserve)."
                    ),
                    {"count": count, "short": short, "over": count % 4},
                )
            ]
        tables = count // 4
    if tables > MAX_TABLES:
        return [Problem(None, "entrants", N_("At most %(tables)s tables."), {"tables": MAX_TABLES})]
    return []


def draw(count: int, seed: int) -> list[int]:
    """The draw by lot: the entrants' indexes in the order they were drawn (the same seed, the same
    draw). An entrant's draw number is its position here plus one; it also breaks the last ties."""
    order = list(range(count))
    random.Random(seed).shuffle(order)
    return order


def tables_of(fmt: str, count: int) -> int:
    """Tables played at: four players a table (an odd number of pairs: one pair sits out each round,
    the Mitchell movement's last table is empty)."""
    return count // 2 if fmt == "mitchell" else count // 4


def rounds_of(fmt: str, count: int) -> int:
    """Rounds the format plays: the preliminary round and the final table (one round when there is a
    single table), one round per table in the Mitchell movement, three Partien in the rotation."""
    if fmt == "final":
        return 1 if count <= 4 else 2
    if fmt == "mitchell":
        return (count + 1) // 2  # every East–West pair meets every North–South place once
    return len(ROTATION)


def seat_label(table: int, seat: int) -> str:
    """A seat as the draw names it: "1.3" is table 1, seat 3."""
    return f"{table}.{seat}"


def _names(entrants: Sequence[Sequence[str]], unit: int) -> tuple[str, ...]:
    return tuple(entrants[unit])


def round_plan(
    fmt: str, entrants: Sequence[Sequence[str]], order: Sequence[int], rnd: int
) -> tuple[list[Table], list[Bye]]:
    """The tables (and byes) of round ``rnd`` (1 …) that the movement gives; for ``final``, round 1
    only (the final table comes from the results: ``final_table``)."""
    if fmt == "mitchell":
        return _mitchell(entrants, order, rnd)
    groups = [order[i : i + 4] for i in range(0, len(order), 4)]
    tables = []
    for t, group in enumerate(groups, start=1):
        arrangement = ROTATION[rnd - 1] if fmt == "rotation" else ROTATION[0]
        units = [group[k] for k in arrangement]
        seats = tuple(entrants[u][0] for u in units)
        dealer = arrangement.index(rnd - 1) if fmt == "rotation" else 0  # the deal passes to the left
        tables.append(Table(rnd, t, seats, dealer, ((units[0], units[2]), (units[1], units[3]))))
    return tables, []


def _mitchell(entrants: Sequence[Sequence[str]], order: Sequence[int], rnd: int) -> tuple[list[Table], list[Bye]]:
    """North–South pairs (the first half of the draw) stay at their table; East–West pair k sits at
    table k + round − 1 (counting round from table count back to 1). An odd number of pairs leaves the
    last table's North–South place empty: its East–West pair has a bye."""
    tables_count = (len(order) + 1) // 2
    north_south = list(order[:tables_count])
    east_west = list(order[tables_count:])
    if len(order) % 2:
        east_west, north_south = list(order[tables_count - 1 :]), list(order[: tables_count - 1]) + [None]
    tables, byes = [], []
    for t in range(1, tables_count + 1):
        ns = north_south[t - 1]
        ew = east_west[(t - rnd) % tables_count]  # the pair that started at table t − rnd + 1
        if ns is None:
            byes.append(Bye(rnd, ew))
            continue
        a, b = _names(entrants, ns)
        c, d = _names(entrants, ew)
        tables.append(Table(rnd, t, (a, c, b, d), 0, ((ns,), (ew,))))
    return tables, byes


@dataclass(frozen=True)
class Tournament:
    """A stored tournament: its format, entrants, rules, round end and draw."""

    id: int
    name: str
    format: str
    variant: str
    layout: str | None
    settings: dict
    house_rules_id: int | None
    target: int | None
    round_end: str
    round_hands: int | None
    round_minutes: int | None
    season_points: tuple[int, ...]
    entrants: tuple[tuple[str, ...], ...]
    seed: int | None
    drawn_at: str | None
    closed_at: str | None
    evening_id: int | None
    version: int
    created_at: str
    draw_order: tuple[int, ...] | None = None  # the order drawn, kept at the draw
    entrant_ids: tuple[tuple[int, ...], ...] | None = None  # each entrant's players, from the first round on
    places: tuple[tuple[int, ...], ...] | None = None  # the standings kept at the close (place, unit, figures …)
    bye_score: str = "average"  # what a round sat out counts: "average", "win" or "nothing"
    ties: str = "shared"  # entrants level on everything: "shared" places, or by "lot" (the draw number)

    @property
    def order(self) -> list[int]:
        """The draw (empty before it)."""
        if self.draw_order is not None:
            return list(self.draw_order)
        return [] if self.seed is None else draw(len(self.entrants), self.seed)

    @property
    def rounds(self) -> int:
        return rounds_of(self.format, len(self.entrants))

    @property
    def names(self) -> list[str]:
        return unit_names(self.format, self.entrants)

    def side_players(self, table: Table, side: int) -> list[str]:
        """Who plays on a side (0 or 1) of a table of a round (a ``Table`` or a ``TableState``): a pair
        between tables (Mitchell) as entered, else the partners the draw sat opposite each other (seats
        ``side`` and ``side + 2``)."""
        if self.format == "mitchell":
            return list(self.entrants[table.units[side][0]])
        return [table.seats[side], table.seats[side + 2]]
