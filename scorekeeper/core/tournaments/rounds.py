"""A round as the tables play it: its clock, when it stops, which tables are done, the standings now
and the next round's tables (docs/tournaments.md, "When a round ends"). Pure."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Sequence

from scorekeeper.core.messages import N_, Problem
from scorekeeper.core.tournaments.ranking import Place, Played, final_places, final_table, standings
from scorekeeper.core.tournaments.seating import WARNING_MINUTES, Bye, Table, Tournament, round_plan


@dataclass(frozen=True)
class Clock:
    """A round's timer: minutes from its start, a warning WARNING_MINUTES before the end."""

    started: datetime
    minutes: int

    @property
    def ends(self) -> datetime:
        return self.started + timedelta(minutes=self.minutes)

    def left(self, now: datetime) -> int:
        """Seconds left (0 once time is up)."""
        return max(0, int((self.ends - now).total_seconds()))

    def warning(self, now: datetime) -> bool:
        return 0 < self.left(now) <= WARNING_MINUTES * 60


def stop_moment(
    round_end: str, minutes: int | None, started: datetime, fmt: str, finished_at: Sequence[datetime]
) -> datetime | None:
    """When the round stops for every table still playing (each then finishes the hand in progress):
    at the end of its time, and in ``final`` when the first table's game reaches the target
    (``finished_at``: when each finished game's last hand was saved). None: tables play to their own end."""
    moments = []
    if round_end == "minutes" and minutes:
        moments.append(Clock(started, minutes).ends)
    if fmt == "final" and finished_at:
        moments.append(min(finished_at))
    return min(moments) if moments else None


def table_done(
    round_end: str, hands_limit: int | None, finished: bool, hands: Sequence[datetime], stop: datetime | None
) -> bool:
    """Whether a table's round is over: its game reached the target, or it played the round's number of
    hands, or the round stopped and the table has since saved the hand that was in progress
    (``hands``: when each of its hands was saved)."""
    if finished:
        return True
    if round_end == "hands" and hands_limit and len(hands) >= hands_limit:
        return True
    return stop is not None and any(saved >= stop for saved in hands)


@dataclass(frozen=True)
class TableState:
    """A table's game in a round as the archive has it: seats, each side's totals, when each hand was
    saved, whether the game reached its end; ``done`` once worked out by ``round_state``."""

    round: int
    table: int
    game_id: int
    units: tuple[tuple[int, ...], tuple[int, ...]]
    seats: tuple[str, ...]
    totals: tuple[int, int]
    hands: tuple[datetime, ...]
    finished: bool
    done: bool = False
    hand_ids: tuple[int, ...] = ()  # the hands' numbers, in the order they were saved (across all games)
    ended_by: int | None = None  # the number of the hand that took the game to its end (a finished game)

    @property
    def played(self) -> Played:
        return Played(self.round, self.table, self.units, self.totals, len(self.hands))


@dataclass(frozen=True)
class RoundState:
    """A round as the tables play it: its tables, its byes, when it stops for all, its timer."""

    number: int
    started: datetime
    ended: datetime | None
    tables: tuple[TableState, ...]
    byes: tuple[Bye, ...]
    stop: datetime | None
    clock: Clock | None

    @property
    def complete(self) -> bool:
        """Every table's round is over (or the organiser ended it)."""
        return self.ended is not None or all(t.done for t in self.tables)

    def table(self, number: int) -> TableState | None:
        return next((t for t in self.tables if t.table == number), None)


def _ending_hand(table: TableState) -> int:
    """The number of the hand that took a finished game to its end (its last, when not known)."""
    return table.ended_by if table.ended_by in table.hand_ids else table.hand_ids[-1]


def round_state(
    t: Tournament, number: int, started: datetime, ended: datetime | None, tables: Sequence[TableState]
) -> RoundState:
    """Which tables are done in a round, when it stops, its timer (docs/tournaments.md, "When a round ends")."""
    clock_stop = stop_moment(t.round_end, t.round_minutes, started, t.format, ())
    # ``final``: the first hand that took a table to the target stops the others; a hand saved after it
    # (a higher number: no two hands share one, as two may share a second) is the hand in progress
    finishing = [table for table in tables if t.format == "final" and table.finished and table.hand_ids]
    first = min(finishing, key=_ending_hand) if finishing else None
    first_moment = first.hands[first.hand_ids.index(_ending_hand(first))] if first else None
    moments = [x for x in (clock_stop, first_moment, ended) if x]
    stop = min(moments) if moments else None

    def done(table: TableState) -> bool:
        if ended is not None or table_done(t.round_end, t.round_hands, table.finished, table.hands, clock_stop):
            return True
        return first is not None and any(i > _ending_hand(first) for i in table.hand_ids)

    done_tables = tuple(TableState(**{**table.__dict__, "done": done(table)}) for table in tables)
    byes = tuple(round_plan(t.format, t.entrants, t.order, number)[1]) if t.format == "mitchell" else ()
    clock = Clock(started, t.round_minutes) if t.round_end == "minutes" and t.round_minutes else None
    return RoundState(number, started, ended, done_tables, byes, stop, clock)


def ranking(t: Tournament, rounds: Sequence[RoundState]) -> list[Place]:
    """The standings now: every game played so far counts with its totals as they stand; a game without a
    hand yet counts for nobody (its players come after those with a result)."""
    if t.places is not None:  # closed: the standings as they were kept at the close
        return [Place(*row) for row in t.places]
    games = [table.played for r in rounds for table in r.tables]
    if t.format == "final":
        pairs = [side for table in rounds[0].tables for side in table.units] if rounds else []
        return final_places(len(t.entrants), t.order, games, t.ties, pairs)
    byes = [b for r in rounds for b in r.byes]
    return standings(t.format, len(t.entrants), t.order, games, byes, t.bye_score, t.ties)


def next_tables(t: Tournament, rounds: Sequence[RoundState]) -> list[Table]:
    """The tables of the next round (empty when all are played): by the movement, or ``final``'s final table."""
    number = len(rounds) + 1
    if number > t.rounds:
        return []
    if t.format == "final" and number == 2:
        final = final_table(t.entrants, t.order, [table.played for table in rounds[0].tables])
        return [final] if final else []
    return round_plan(t.format, t.entrants, t.order, number)[0]


def start_problem(t: Tournament, rounds: Sequence[RoundState]) -> Problem | None:
    """Why the next round cannot start now, or None: before the draw, after the close, while a round
    is being played, once every round is played."""
    if t.closed_at:
        return Problem(None, "tournament", N_("The tournament is closed."))
    if t.seed is None:
        return Problem(None, "tournament", N_("Draw the seats first."))
    if rounds and not rounds[-1].complete:
        return Problem(None, "tournament", N_("Round %(round)s is still being played."), {"round": rounds[-1].number})
    if len(rounds) >= t.rounds:
        return Problem(None, "tournament", N_("Every round has been played."))
    if rounds and not next_tables(t, rounds):
        return Problem(None, "tournament", N_("Fewer than two tables saved a hand: there is no final table to play."))
    return None


TO_TABLE, SITS_OUT, FINISHED = "table", "sits out", "finished"


def where_next(t: Tournament, rounds: Sequence[RoundState], state: TableState) -> list[tuple[int, str, int]]:
    """Where each entrant of a table whose round is over goes next: (entrant, TO_TABLE and its number,
    SITS_OUT, or FINISHED in ``final`` for those not at the final table); empty when that is not known
    yet (the final table waits for every table) or there is no next round."""
    if len(rounds) > state.round:  # the next round has started: its tables
        tables, byes = list(rounds[state.round].tables), list(rounds[state.round].byes)
    elif t.format == "final":
        if not (state.round == 1 and len(rounds) == 1 and rounds[0].complete and t.rounds > 1):
            return []
        tables, byes = next_tables(t, rounds), []
    elif state.round < t.rounds:
        tables, byes = round_plan(t.format, t.entrants, t.order, state.round + 1)
    else:
        return []
    out = []
    for unit in [u for side in state.units for u in side]:
        target = next((x for x in tables if any(unit in side for side in x.units)), None)
        if target is not None:
            out.append((unit, TO_TABLE, target.table))
        elif any(b.unit == unit for b in byes):
            out.append((unit, SITS_OUT, 0))
        elif t.format == "final":
            out.append((unit, FINISHED, 0))
    return out
