"""A round as the tables play it: its clock, when it stops, which tables are done, the standings now
and the next round's tables (docs/tournaments.md, "When a round ends"). Pure."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Sequence

from scorekeeper.core.club_night.ranking import Place, Played
from scorekeeper.core.club_night.tables import WARNING_MINUTES, Bye, Table
from scorekeeper.core.club_night.tournament import Tournament
from scorekeeper.core.messages import N_, Problem


@dataclass(frozen=True)
class Clock:
    """A round's timer: minutes from its start, a warning WARNING_MINUTES before the end (made by
    ``clock_of``, which gives none whose end no calendar holds)."""

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


def clock_of(started: datetime, minutes: int) -> Clock | None:
    """A round's timer, or None when its end is beyond the calendar or in its first or last year
    (where a time zone would push it over the edge): a figure no form writes (ROUND_MINUTES) and only
    an edited archive holds counts as a round without a time limit, not as a page that cannot be shown."""
    try:
        ends = started + timedelta(minutes=minutes)
    except OverflowError:
        return None
    return Clock(started, minutes) if datetime.min.year < ends.year < datetime.max.year else None


def stop_moment(
    round_end: str, minutes: int | None, started: datetime, stops_all: bool, finished_at: Sequence[datetime]
) -> datetime | None:
    """When the round stops for every table still playing (each then finishes the hand in progress): at
    the end of its time, and where the format says so (``stops_all``: tables with a final) when the first
    table's game reaches the target (``finished_at``: when each finished game's last hand was saved).
    None: tables play to their own end."""
    moments = []
    clock = clock_of(started, minutes) if round_end == "minutes" and minutes else None
    if clock is not None:
        moments.append(clock.ends)
    if stops_all and finished_at:
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
    units: tuple[tuple[int, ...], ...]
    seats: tuple[str, ...]
    totals: tuple[int, ...]
    hands: tuple[datetime, ...]
    finished: bool
    done: bool = False
    hand_ids: tuple[int, ...] = ()  # the hands' numbers, in the order they were saved (across all games)
    ended_by: int | None = None  # the number of the hand that took the game to its end (a finished game)
    unconfirmed: tuple[int, ...] = ()  # the hands (ids) the other side has not confirmed yet (when it is asked to)

    @property
    def unconfirmed_numbers(self) -> list[int]:
        """The numbers (1, 2 …) in the game of the hands not confirmed yet."""
        return [self.hand_ids.index(i) + 1 for i in self.unconfirmed if i in self.hand_ids]

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

    @property
    def on_the_clock(self) -> bool:
        """Whether the round's clock says when it stops: it has one, and nothing stopped the round sooner
        (in tables with a final, a table at the target stops it for all, with time still on the clock)."""
        return self.clock is not None and (self.stop is None or self.stop >= self.clock.ends)


def _ending_hand(table: TableState) -> int:
    """The number of the hand that took a finished game to its end (its last, when not known)."""
    return table.ended_by if table.ended_by in table.hand_ids else table.hand_ids[-1]


def _first_to_the_target(t: Tournament, tables: Sequence[TableState]) -> TableState | None:
    """Where the format says so, the table whose game reached the target first: that hand stops the
    others; a hand saved after it (a higher number: no two hands share one, as two may share a second) is
    the hand in progress."""
    finishing = [table for table in tables if t.kind.stops_all and table.finished and table.hand_ids]
    return min(finishing, key=_ending_hand) if finishing else None


def hand_may_come_back(
    t: Tournament, state: RoundState, table: TableState, saved: datetime, hand_id: int, organisers=frozenset()
) -> bool:
    """Whether a hand deleted from a table's game may be brought back (Undo) in its round (``table``: as it
    stands without it; ``organisers``: the ids of the hands the organiser entered from the table's score
    card). While the table still plays, yes: it is the hand in progress, as a hand saved now would be. Once
    its round is over: within the round's number of hands, and never a second hand saved after the round
    stopped (its time up, another table at the target) beside the one the table finished then; the
    organiser's hands from a score card are his (docs/tournaments.md, "When a round ends", "The director's
    grid"). Else a table that deleted the hand it finished after the clock, saved another and undid the
    deletion counted two (a review found it)."""
    if not table.done:
        return True
    if t.round_end == "hands" and t.round_hands and len(table.hands) >= t.round_hands:
        return False
    if hand_id in organisers:
        return True
    clock_stop = stop_moment(t.round_end, t.round_minutes, state.started, False, ())
    first = _first_to_the_target(t, state.tables)
    other_first = first is not None and first.table != table.table

    def after_the_stop(moment: datetime, number: int) -> bool:
        """Saved after the round stopped: its time up, or (tables with a final) another table at the target."""
        return (clock_stop is not None and moment >= clock_stop) or (other_first and number > _ending_hand(first))

    late = [i for i, moment in zip(table.hand_ids, table.hands) if i not in organisers and after_the_stop(moment, i)]
    return not (late and after_the_stop(saved, hand_id))


def round_state(
    t: Tournament, number: int, started: datetime, ended: datetime | None, tables: Sequence[TableState]
) -> RoundState:
    """Which tables are done in a round, when it stops, its timer (docs/tournaments.md, "When a round ends")."""
    clock_stop = stop_moment(t.round_end, t.round_minutes, started, False, ())
    first = _first_to_the_target(t, tables)
    first_moment = first.hands[first.hand_ids.index(_ending_hand(first))] if first else None
    moments = [x for x in (clock_stop, first_moment, ended) if x]
    stop = min(moments) if moments else None

    def done(table: TableState) -> bool:
        if ended is not None or table_done(t.round_end, t.round_hands, table.finished, table.hands, clock_stop):
            return True
        return first is not None and any(i > _ending_hand(first) for i in table.hand_ids)

    done_tables = tuple(TableState(**{**table.__dict__, "done": done(table)}) for table in tables)
    byes = tuple(t.kind.plan(t, number)[1]) if t.seed is not None or t.draw_order is not None else ()
    clock = clock_of(started, t.round_minutes) if t.round_end == "minutes" and t.round_minutes else None
    return RoundState(number, started, ended, done_tables, byes, stop, clock)


def ranking(t: Tournament, rounds: Sequence[RoundState]) -> list[Place]:
    """The standings now, by the format's rule: every game played so far counts with its totals as they
    stand; a game without a hand yet counts for nobody (its players come after those with a result). Once
    closed: the places kept at the close."""
    if t.places is not None:
        places = [Place(*row) for row in t.places]
        if t.kind.final_round and places and places[0].line < 0:  # kept before lines: partners two by two
            places = [replace(p, line=i // 2) for i, p in enumerate(places)]
        return places
    return t.kind.ranking(t, rounds)


def next_tables(t: Tournament, rounds: Sequence[RoundState]) -> list[Table]:
    """The tables of the next round (empty when all are played), by the format."""
    return t.kind.next_tables(t, rounds)


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
    SITS_OUT, or FINISHED when it plays no more); empty when that is not known yet (a final table waits
    for every table) or there is no next round."""
    final_round = t.kind.final_round
    if len(rounds) > state.round:  # the next round has started: its tables
        tables, byes = list(rounds[state.round].tables), list(rounds[state.round].byes)
    elif final_round and state.round + 1 == final_round:
        if not (len(rounds) == state.round and rounds[-1].complete and t.rounds >= final_round):
            return []
        tables, byes = next_tables(t, rounds), []
    elif state.round < t.rounds:
        tables, byes = t.kind.plan(t, state.round + 1)
    else:
        return []
    out = []
    for unit in [u for side in state.units for u in side]:
        target = next((x for x in tables if any(unit in side for side in x.units)), None)
        if target is not None:
            out.append((unit, TO_TABLE, target.table))
        elif any(b.unit == unit for b in byes):
            out.append((unit, SITS_OUT, 0))
        else:
            out.append((unit, FINISHED, 0))
    return out
