"""The ranking and its tie rules, the final table and the season points (docs/tournaments.md,
"Ranking and ties", "Tables with a final", "Season points"). Pure."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from scorekeeper.core.tournaments.seating import DRAW, WIN, Bye, Table, Tournament


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
class SeasonRow:
    """A player's line in the season's table."""

    place: int
    name: str
    points: int
    played: int
    firsts: int


def season_table(results: Sequence[tuple[Tournament, Sequence[Place]]]) -> list[SeasonRow]:
    """Season points summed over tournaments (each player of a pair gets the pair's points; a player is
    known by his id in the archive, so a rename or a different spelling counts as the same one), ranked
    by points, then first places, then tournaments played, then name (docs/tournaments.md, "Season points")."""
    totals: dict[object, list] = {}
    for t, places in results:  # the newest first: its spelling names the row
        for p in places:
            ids = t.entrant_ids[p.unit] if t.entrant_ids else (None,) * len(t.entrants[p.unit])
            for name, pid in zip(t.entrants[p.unit], ids):
                row = totals.setdefault(pid if pid is not None else name.casefold(), [name, 0, 0, 0])
                row[1] += season_points(p.place, t.season_points)
                row[2] += 1
                row[3] += p.place == 1
    ranked = sorted(totals.values(), key=lambda r: (-r[1], -r[3], -r[2], r[0].casefold()))
    return [SeasonRow(i + 1, *row) for i, row in enumerate(ranked)]
