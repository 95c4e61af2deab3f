"""A club night at several tables (docs/tournaments.md): the draw by lot, the seating of every round
by the format's movement, when a table's round is over, the ranking with its tie rules, the final
table and the season points. Pure: no Flask, no database; the storage keeps what is decided here.

Three formats:

- ``final`` — tables with a final: players drawn to seats ("1.3" = table 1, seat 3; seats 1 and 3
  are partners against 2 and 4). Round 1 ends for everyone when a side at one table reaches the
  target: every other table finishes the hand in progress. The winning pair of each table qualifies;
  the two best qualifying pairs play the final table (round 2).
- ``mitchell`` — pairs moving between tables: North–South pairs keep their table, East–West pairs
  move to the next higher table after each round (the last to table 1). An odd number of pairs adds
  an empty North–South place at the last table: the East–West pair that comes to it sits the round
  out (a bye).
- ``rotation`` — four players changing partners: each table of four plays three Partien, N–S against
  E–W, then N–E against S–W, then N–W against S–E, the first deal passing to the left each Partie.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Sequence

from scorekeeper.core.messages import N_, Problem

FORMATS = ("final", "mitchell", "rotation")
ROUND_ENDS = ("target", "hands", "minutes")
ACTIONS = ("created", "draw", "round started", "round ended", "closed")  # the organiser's, as they are on record
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


@dataclass(frozen=True)
class Played:
    """A table's game as the ranking needs it: each side's units and totals, whether it is over."""

    round: int
    table: int
    units: tuple[tuple[int, ...], tuple[int, ...]]
    totals: tuple[int, int]
    hands: int = 0


@dataclass(frozen=True)
class Place:
    """One line of the standings: the place, the unit, its match points (2 a win, 1 a draw, 2 a bye),
    points, games won and played."""

    place: int
    unit: int
    match_points: int
    points: int
    won: int
    played: int
    byes: int = 0


def unit_names(fmt: str, entrants: Sequence[Sequence[str]]) -> list[str]:
    """How each entrant is named: a player, or a pair "Anna & Ben"."""
    return [" & ".join(e) for e in entrants]


def players_per_unit(fmt: str) -> int:
    """Players in one entrant: a pair in the Mitchell movement, else one."""
    return 2 if fmt == "mitchell" else 1


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
    """Tables needed: four players a table."""
    return (count + 1) // 2 if fmt == "mitchell" else count // 4


def rounds_of(fmt: str, count: int) -> int:
    """Rounds the format plays: the preliminary round and the final table (one round when there is a
    single table), one round per table in the Mitchell movement, three Partien in the rotation."""
    if fmt == "final":
        return 1 if count <= 4 else 2
    if fmt == "mitchell":
        return tables_of(fmt, count)
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


def side_winner(totals: Sequence[int]) -> int | None:
    """The side with more points (None: a draw)."""
    if totals[0] == totals[1]:
        return None
    return 0 if totals[0] > totals[1] else 1


def standings(
    fmt: str, count: int, order: Sequence[int], games: Sequence[Played], byes: Sequence[Bye] = ()
) -> list[Place]:
    """The ranking by the format's rule (docs/tournaments.md, "Ranking and ties"):

    - ``mitchell``: match points (a win 2, a draw 1, a bye 2), then points, then the game the two
      played against each other, then the draw number. A bye's points are the pair's average of its
      games (rounded down to a multiple of 5).
    - ``rotation`` and ``final``'s preliminary round: points (each player counts his side's total),
      then match points, then the draw number.
    """
    stats = {u: [0, 0, 0, 0, 0] for u in range(count)}  # match points, points, won, played, byes
    for g in games:
        winner = side_winner(g.totals)
        for side, units in enumerate(g.units):
            for u in units:
                s = stats[u]
                s[0] += DRAW if winner is None else (WIN if winner == side else 0)
                s[1] += g.totals[side]
                s[2] += winner == side
                s[3] += 1
    for bye in byes:
        s = stats[bye.unit]
        s[4] += 1
        s[0] += WIN
    if fmt == "mitchell":
        for u, s in stats.items():  # a bye counts the pair's average points
            if s[4] and s[3]:
                s[1] += s[4] * (s[1] // s[3] // 5 * 5)
    lot = {u: i for i, u in enumerate(order)}
    if fmt == "mitchell":
        key = lambda u: (-stats[u][0], -stats[u][1], lot.get(u, u))  # noqa: E731
    else:
        key = lambda u: (-stats[u][1], -stats[u][0], lot.get(u, u))  # noqa: E731
    ranked = sorted(range(count), key=key)
    if fmt == "mitchell":
        ranked = _head_to_head(ranked, stats, games)
    return [
        Place(i + 1, u, stats[u][0], stats[u][1], stats[u][2], stats[u][3], stats[u][4]) for i, u in enumerate(ranked)
    ]


def _head_to_head(ranked: list[int], stats, games: Sequence[Played]) -> list[int]:
    """Two pairs level on match points and points: the one that won their own game goes first."""
    out = list(ranked)
    i = 0
    while i < len(out) - 1:
        a, b = out[i], out[i + 1]
        level = stats[a][:2] == stats[b][:2]
        third = i + 2 < len(out) and stats[out[i + 2]][:2] == stats[a][:2]
        before = i > 0 and stats[out[i - 1]][:2] == stats[a][:2]
        if level and not third and not before and _beat(b, a, games):
            out[i], out[i + 1] = b, a
        i += 1
    return out


def _beat(a: int, b: int, games: Sequence[Played]) -> bool:
    """Whether ``a`` won a game against ``b``."""
    for g in games:
        sides = [set(units) for units in g.units]
        winner = side_winner(g.totals)
        if winner is not None and a in sides[winner] and b in sides[1 - winner]:
            return True
    return False


def qualifiers(order: Sequence[int], games: Sequence[Played]) -> list[tuple[int, ...]]:
    """``final``: each table's winning pair (a drawn table: the side whose first player has the
    lower draw number), best first: more points, then the lower draw number of its first player."""
    lot = {u: i for i, u in enumerate(order)}
    pairs = []
    for g in games:
        winner = side_winner(g.totals)
        if winner is None:
            winner = min((0, 1), key=lambda side: min(lot[u] for u in g.units[side]))
        pairs.append((g.totals[winner], tuple(g.units[winner])))
    pairs.sort(key=lambda p: (-p[0], min(lot[u] for u in p[1])))
    return [p[1] for p in pairs]


def final_table(entrants: Sequence[Sequence[str]], order: Sequence[int], games: Sequence[Played]) -> Table:
    """``final``: the two best qualifying pairs meet at the final table (round 2, table 1); the better
    pair sits at seats 1 and 3 and deals first."""
    first, second = qualifiers(order, games)[:2]
    seats = (entrants[first[0]][0], entrants[second[0]][0], entrants[first[1]][0], entrants[second[1]][0])
    return Table(2, 1, seats, 0, (first, second))


def final_places(count: int, order: Sequence[int], games: Sequence[Played]) -> list[Place]:
    """``final``'s places once the final table is played: its winning pair first, its other pair
    second (each partner holds the pair's place); then the other qualifying pairs and then every
    other player by the preliminary ranking. Without a final table (one table): the preliminary
    ranking, partners sharing their pair's place."""
    prelim = [g for g in games if g.round == 1]
    final = [g for g in games if g.round == 2]
    ranking = standings("final", count, order, prelim)
    base = {p.unit: p for p in ranking}
    rank = {p.unit: p.place for p in ranking}
    groups: list[tuple[int, ...]] = []
    if final:
        winner = side_winner(final[0].totals)
        winner = 0 if winner is None else winner  # a drawn final: the better qualifier (seats 1 and 3)
        groups += [tuple(final[0].units[winner]), tuple(final[0].units[1 - winner])]
    groups += [pair for pair in qualifiers(order, prelim) if pair not in groups]
    others = [tuple(side) for g in prelim for side in g.units if tuple(side) not in groups]
    groups += sorted(others, key=lambda pair: min(rank[u] for u in pair))
    return [
        Place(place, u, base[u].match_points, base[u].points, base[u].won, base[u].played)
        for place, group in enumerate(groups, start=1)
        for u in group
    ]


def season_points(place: int, table: Sequence[int]) -> int:
    """The season points of a place (1 …) by the tournament's table of points."""
    return table[place - 1] if 0 < place <= len(table) else 0


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

    @property
    def order(self) -> list[int]:
        """The draw (empty before it)."""
        return [] if self.seed is None else draw(len(self.entrants), self.seed)

    @property
    def rounds(self) -> int:
        return rounds_of(self.format, len(self.entrants))

    @property
    def names(self) -> list[str]:
        return unit_names(self.format, self.entrants)


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


def round_state(
    t: Tournament, number: int, started: datetime, ended: datetime | None, tables: Sequence[TableState]
) -> RoundState:
    """Which tables are done in a round, when it stops, its timer (docs/tournaments.md, "When a round ends")."""
    clock_stop = stop_moment(t.round_end, t.round_minutes, started, t.format, ())
    # ``final``: the first hand that took a table to the target stops the others; a hand saved after it
    # (a higher number: no two hands share one, as two may share a second) is the hand in progress
    finishing = [table for table in tables if t.format == "final" and table.finished and table.hand_ids]
    first = min(finishing, key=lambda table: table.hand_ids[-1]) if finishing else None
    stop = (
        min(x for x in (clock_stop, first and first.hands[-1], ended) if x) if (clock_stop or first or ended) else None
    )

    def done(table: TableState) -> bool:
        if ended is not None or table_done(t.round_end, t.round_hands, table.finished, table.hands, clock_stop):
            return True
        return first is not None and any(i > first.hand_ids[-1] for i in table.hand_ids)

    done_tables = tuple(TableState(**{**table.__dict__, "done": done(table)}) for table in tables)
    byes = tuple(round_plan(t.format, t.entrants, t.order, number)[1]) if t.format == "mitchell" else ()
    clock = Clock(started, t.round_minutes) if t.round_end == "minutes" and t.round_minutes else None
    return RoundState(number, started, ended, done_tables, byes, stop, clock)


def ranking(t: Tournament, rounds: Sequence[RoundState]) -> list[Place]:
    """The standings now: every game played so far counts with its totals as they stand."""
    games = [table.played for r in rounds for table in r.tables]
    if t.format == "final":
        return final_places(len(t.entrants), t.order, games)
    byes = [b for r in rounds for b in r.byes]
    return standings(t.format, len(t.entrants), t.order, games, byes)


def next_tables(t: Tournament, rounds: Sequence[RoundState]) -> list[Table]:
    """The tables of the next round (empty when all are played): by the movement, or ``final``'s final table."""
    number = len(rounds) + 1
    if number > t.rounds:
        return []
    if t.format == "final" and number == 2:
        return [final_table(t.entrants, t.order, [table.played for table in rounds[0].tables])]
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
    return None


@dataclass(frozen=True)
class SeasonRow:
    """A player's line in the season's table."""

    place: int
    name: str
    points: int
    played: int
    firsts: int


def season_table(results: Sequence[tuple[Tournament, Sequence[Place]]]) -> list[SeasonRow]:
    """Season points summed over tournaments (each player of a pair gets the pair's points), ranked by
    points, then first places, then tournaments played, then name (docs/tournaments.md, "Season points")."""
    totals: dict[str, list[int]] = {}
    for t, places in results:
        for p in places:
            for name in t.entrants[p.unit]:
                row = totals.setdefault(name, [0, 0, 0])
                row[0] += season_points(p.place, t.season_points)
                row[1] += 1
                row[2] += p.place == 1
    ranked = sorted(totals.items(), key=lambda item: (-item[1][0], -item[1][2], -item[1][1], item[0].casefold()))
    return [SeasonRow(i + 1, name, *row) for i, (name, row) in enumerate(ranked)]
