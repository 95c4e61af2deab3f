"""The director's grid: every table of every round at a glance, tables down and rounds across, each
cell with its two sides, their totals, the hands saved and the table's state, and the results still
missing (docs/tournaments.md, "When a round ends"). Pure: worked out from the tournament and its
rounds as they stand."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime
from typing import Sequence

from scorekeeper.core.club_night.rounds import RoundState, TableState, next_tables
from scorekeeper.core.club_night.tables import Bye, Table
from scorekeeper.core.club_night.tournament import Tournament

# A cell's state: a round not started yet whose seating is known (or, ``final``'s final table before
# the first round is over, not known yet: no sides); a table playing; a round stopped for everyone
# (its time is up, or in ``final`` a table reached the target) while this table has not saved the
# hand in progress; a table whose round is over; a pair sitting the round out (Mitchell).
NOT_STARTED, PLAYING, STOPPED, FINISHED, SITS_OUT = "not started", "playing", "stopped", "finished", "sits out"
OVER = "over"  # the round is over at a table that saved no hand: nothing finished there
CUT = "ended early"  # a round of a number of hands ended (by the organiser) before this table played them all
STATES = (NOT_STARTED, PLAYING, STOPPED, FINISHED, CUT, OVER, SITS_OUT)

# Why a cell's result is missing: no hand saved at a table whose round is over or has stopped; the
# last hand (the one in progress when the round stopped) not saved yet.
NO_HAND, LAST_HAND = "no hand", "last hand"


@dataclass(frozen=True)
class Cell:
    """One table in one round. ``sides``: the players of each side (a bye: the pair sitting out; empty:
    not known yet); ``totals`` once the round has started; ``missing``: NO_HAND, LAST_HAND or None;
    ``unconfirmed``: the numbers of its hands the other side has not confirmed yet."""

    round: int
    table: int
    state: str
    sides: tuple[tuple[str, ...], ...] = ()
    totals: tuple[int, ...] | None = None
    hands: int = 0
    game_id: int | None = None
    missing: str | None = None
    sitting_out: tuple[str, ...] = ()  # who sits this Partie out at the table (players changing partners at five)
    unconfirmed: tuple[int, ...] = ()


@dataclass(frozen=True)
class Grid:
    """Tables down (``rows``, table 1 first), rounds across (a cell per round; None: the table has no
    game that round, as the tables of ``final`` beside the final table)."""

    rounds: int
    rows: tuple[tuple[Cell | None, ...], ...]

    @property
    def missing(self) -> list[Cell]:
        """The cells whose result is missing, round by round, table by table."""
        found = [cell for row in self.rows for cell in row if cell is not None and cell.missing]
        return sorted(found, key=lambda cell: (cell.round, cell.table))


def _sides(t: Tournament, table: Table | TableState) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(t.side_players(table, side)) for side in range(len(table.units)))


def _played(t: Tournament, state: RoundState, table: TableState, now: datetime) -> Cell:
    """A table of a round that has started: finished once its round is over (over, if it saved no
    hand; ended early, if its round of a number of hands was ended before it had played them all);
    stopped when the round has stopped for everyone and this table has yet to save the hand in
    progress."""
    short = t.round_end == "hands" and not table.finished and len(table.hands) < (t.round_hands or 0)
    if table.done:
        kind = (CUT if short else FINISHED) if table.hands else OVER
    elif state.stop is not None and state.stop <= now:
        kind = STOPPED
    else:
        kind = PLAYING
    hands = len(table.hands)
    missing = None
    if kind != PLAYING and not hands:
        missing = NO_HAND
    elif kind == STOPPED:
        missing = LAST_HAND
    return Cell(
        state.number,
        table.table,
        kind,
        _sides(t, table),
        table.totals,
        hands,
        table.game_id,
        missing,
        unconfirmed=tuple(table.unconfirmed_numbers),
    )


def _bye(t: Tournament, bye: Bye) -> Cell:
    return Cell(bye.round, bye.table, SITS_OUT, (tuple(t.entrants[bye.unit]),))


def _planned(t: Tournament, rounds: Sequence[RoundState], number: int) -> list[Cell]:
    """A round not started yet, as the draw seats it; ``final``'s final table once the first round is
    over (before that: the final table without its pairs)."""
    if number == t.kind.final_round:
        if not (len(rounds) == number - 1 and rounds[-1].complete):
            return [Cell(number, 1, NOT_STARTED)]
        tables, byes = next_tables(t, rounds), []
    else:
        tables, byes = t.kind.plan(t, number)
    return _with_byes(t, [Cell(number, table.table, NOT_STARTED, _sides(t, table)) for table in tables], byes)


def _column(t: Tournament, rounds: Sequence[RoundState], number: int, now: datetime) -> list[Cell]:
    if number > len(rounds):
        return _planned(t, rounds, number)
    state = rounds[number - 1]
    return _with_byes(t, [_played(t, state, table, now) for table in state.tables], state.byes)


def _with_byes(t: Tournament, cells: list[Cell], byes: Sequence[Bye]) -> list[Cell]:
    """A round's cells with who sits out: at a table that plays (a Partie at a table of five) on its cell,
    else a cell of its own (the Mitchell movement's empty table)."""
    out = list(cells)
    for bye in byes:
        at = next((k for k, cell in enumerate(out) if cell.table == bye.table), None)
        if at is None:
            out.append(_bye(t, bye))
        else:
            out[at] = replace(out[at], sitting_out=out[at].sitting_out + tuple(t.entrants[bye.unit]))
    return out


def grid(t: Tournament, rounds: Sequence[RoundState], now: datetime) -> Grid:
    """The grid of a drawn tournament as it stands at ``now`` (before the draw: no rows)."""
    if t.seed is None:
        return Grid(t.rounds, ())
    columns = [_column(t, rounds, number, now) for number in range(1, t.rounds + 1)]
    count = max((cell.table for column in columns for cell in column), default=0)
    rows = tuple(
        tuple(next((cell for cell in column if cell.table == number), None) for column in columns)
        for number in range(1, count + 1)
    )
    return Grid(t.rounds, rows)


def next_change(rounds: Sequence[RoundState], now: datetime) -> int | None:
    """Seconds until the grid changes without anything being saved: a round still being played whose
    time runs out (its tables are stopped then). None when no clock is running."""
    ahead = [(r.stop - now).total_seconds() for r in rounds if not r.complete and r.stop is not None and r.stop > now]
    return int(min(ahead)) + 1 if ahead else None
