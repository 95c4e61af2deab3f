"""The ranking and its tie rules, the final table and the season points (docs/tournaments.md,
"Ranking and ties", "A pair that sits out", "Shared places", "Tables with a final", "Season
points"). Pure."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from itertools import groupby
from typing import Callable, Sequence

from scorekeeper.core.tournaments.seating import DRAW, WIN, Bye, Table, Tournament

BYE_SCORES = ("average", "win", "nothing")  # what a round sat out counts: the pair's average (the default)
TIE_RULES = ("shared", "lot")  # entrants level on every criterion share the place, or the draw number decides


@dataclass(frozen=True)
class Played:
    """A table's game as the ranking needs it: each side's units and totals, how many hands it saved."""

    round: int
    table: int
    units: tuple[tuple[int, ...], tuple[int, ...]]
    totals: tuple[int, int]
    hands: int = 0


@dataclass(frozen=True)
class Place:
    """One line of the standings: the place, the unit, its match points (a bye's included), points, games
    won and played, rounds sat out, and how many lines (players, or pairs) share the place (1: none)."""

    place: int
    unit: int
    match_points: int
    points: int
    won: int
    played: int
    byes: int = 0
    tied: int = 1


def side_winner(totals: Sequence[int]) -> int | None:
    """The side with more points (None: a draw)."""
    if totals[0] == totals[1]:
        return None
    return 0 if totals[0] > totals[1] else 1


def _figures(count: int, games: Sequence[Played], byes: Sequence[Bye], bye_score: str) -> dict[int, list[int]]:
    """Each unit's match points, points, games won and played, byes. Only games with a hand saved count
    (docs/tournaments.md, "Ranking and ties"); a bye counts as ``bye_score`` says ("A pair that sits out")."""
    stats = {u: [0, 0, 0, 0, 0] for u in range(count)}  # match points, points, won, played, byes
    for g in games:
        if not g.hands:
            continue
        winner = side_winner(g.totals)
        for side, units in enumerate(g.units):
            for u in units:
                s = stats[u]
                s[0] += DRAW if winner is None else (WIN if winner == side else 0)
                s[1] += g.totals[side]
                s[2] += winner == side
                s[3] += 1
    for bye in byes:
        stats[bye.unit][4] += 1
    for s in stats.values():
        s[0], s[1] = s[0] + s[4] * bye_match_points(s, bye_score), s[1] + s[4] * bye_points(s, bye_score)
    return stats


def bye_match_points(stats: Sequence[int], bye_score: str) -> int:
    """A bye's match points: a win's 2, nothing, or the pair's average of its games so far, rounded
    down to a whole match point (no game played yet: none yet)."""
    if bye_score == "win":
        return WIN
    return stats[0] // stats[3] if bye_score == "average" and stats[3] else 0


def bye_points(stats: Sequence[int], bye_score: str) -> int:
    """A bye's points: the pair's average of its games so far, rounded down to a multiple of 5 (with a
    win too; with nothing, none)."""
    return stats[1] // stats[3] // 5 * 5 if bye_score != "nothing" and stats[3] else 0


def _no_result(s: Sequence[int]) -> bool:
    """An entrant with nothing to count yet (no game with a hand, nothing from a bye) ranks after the others."""
    return s[3] == 0 and s[0] == 0 and s[1] == 0


def _tiers(ranked: Sequence, key: Callable) -> list[list]:
    """Consecutive entries level on ``key`` as one tier each (``ranked`` is sorted by it)."""
    return [list(tier) for _k, tier in groupby(ranked, key=key)]


def _placed(tiers: Sequence[Sequence], ties: str) -> list[tuple[int, int, object]]:
    """Places for tiers of level entries, best first: (place, how many share it, entry). Shared: a tier
    holds one place and the next tier's place counts them all ("1, 2, 2, 4"); by lot each entry its own
    (the tiers are in the draw's order within)."""
    out, place = [], 1
    for tier in tiers:
        for k, entry in enumerate(tier):
            out.append((place, len(tier), entry) if ties == "shared" else (place + k, 1, entry))
        place += len(tier)
    return out


def standings(
    fmt: str,
    count: int,
    order: Sequence[int],
    games: Sequence[Played],
    byes: Sequence[Bye] = (),
    bye_score: str = "average",
    ties: str = "shared",
) -> list[Place]:
    """The ranking by the format's rule (docs/tournaments.md, "Ranking and ties"):

    - ``mitchell``: match points (a win 2, a draw 1, a bye as ``bye_score`` says), then points, then (two
      pairs level) the game the two played against each other;
    - ``rotation`` and ``final``'s others: points (each player counts his side's total), then match points.

    Entrants level on all of it share the place (``ties`` "shared"), or the draw number decides ("lot").
    An entrant with nothing counted yet comes last."""
    stats = _figures(count, games, byes, bye_score)
    lot = {u: i for i, u in enumerate(order)}
    if fmt == "mitchell":
        key = lambda u: (_no_result(stats[u]), -stats[u][0], -stats[u][1])  # noqa: E731
    else:
        key = lambda u: (_no_result(stats[u]), -stats[u][1], -stats[u][0])  # noqa: E731
    ranked = sorted(range(count), key=lambda u: (*key(u), lot.get(u, u)))
    tiers = _tiers(ranked, key)
    if fmt == "mitchell":
        tiers = [part for tier in tiers for part in _head_to_head(tier, games)]
    return [
        Place(place, u, *stats[u], tied=tied)  # type: ignore[misc]
        for place, tied, u in _placed(tiers, ties)
    ]


def _head_to_head(tier: list[int], games: Sequence[Played]) -> list[list[int]]:
    """Two pairs level on match points and points: the one that won their own game goes first (three or
    more level, or two that drew or never met: still level)."""
    if len(tier) == 2:
        a, b = tier
        if _beat(a, b, games):
            return [[a], [b]]
        if _beat(b, a, games):
            return [[b], [a]]
    return [tier]


def _beat(a: int, b: int, games: Sequence[Played]) -> bool:
    """Whether ``a`` won a game (with a hand saved) against ``b``."""
    for g in games:
        sides = [set(units) for units in g.units]
        winner = side_winner(g.totals)
        if g.hands and winner is not None and a in sides[winner] and b in sides[1 - winner]:
            return True
    return False


def lead_per_hand(g: Played) -> Fraction:
    """How far a table's winning pair led, per hand its table played: the measure that ranks the
    qualifiers whatever the number of hands their tables got in (docs/tournaments.md, "Tables with a
    final")."""
    return Fraction(abs(g.totals[0] - g.totals[1]), g.hands)


def _qualified(order: Sequence[int], games: Sequence[Played]) -> list[tuple[Fraction, tuple[int, ...]]]:
    """Each table's winning pair (a drawn table: the side whose first player was drawn first) with its
    lead per hand, best first (level: the draw number first). Tables without a hand send nobody."""
    lot = {u: i for i, u in enumerate(order)}
    pairs = []
    for g in games:
        if not g.hands:
            continue
        winner = side_winner(g.totals)
        if winner is None:
            winner = min((0, 1), key=lambda side: min(lot[u] for u in g.units[side]))
        pairs.append((lead_per_hand(g), tuple(g.units[winner])))
    return sorted(pairs, key=lambda p: (-p[0], min(lot[u] for u in p[1])))


def qualifiers(order: Sequence[int], games: Sequence[Played]) -> list[tuple[int, ...]]:
    """``final``: each table's winning pair, best first by its lead per hand, then the draw number."""
    return [pair for _lead, pair in _qualified(order, games)]


def final_table(entrants: Sequence[Sequence[str]], order: Sequence[int], games: Sequence[Played]) -> Table | None:
    """``final``: the two best qualifying pairs meet at the final table (round 2, table 1); the better pair
    sits at seats 1 and 3 and deals first. None while fewer than two tables have a hand saved."""
    best = qualifiers(order, games)[:2]
    if len(best) < 2:
        return None
    first, second = best
    seats = (entrants[first[0]][0], entrants[second[0]][0], entrants[first[1]][0], entrants[second[1]][0])
    return Table(2, 1, seats, 0, (first, second))


def final_places(
    count: int, order: Sequence[int], games: Sequence[Played], ties: str = "shared", pairs=()
) -> list[Place]:
    """``final``'s places: the final's winning pair first, its other pair second (a drawn final: the better
    qualifier first); then the other qualifying pairs by their lead per hand; then every other pair by
    points, then match points; partners hold their pair's place. A finalist's figures add both rounds.
    Without a final table yet: the qualifiers first, by their lead per hand. ``pairs``: the partners of
    round 1 as seated (a table without a hand still seats its pairs)."""
    prelim = [g for g in games if g.round == 1]
    final = [g for g in games if g.round == 2 and g.hands]
    stats = _figures(count, games, (), "nothing")
    lead = {pair: value for value, pair in _qualified(order, prelim)}
    lot = {u: i for i, u in enumerate(order)}
    first = lambda pair: min(lot.get(u, u) for u in pair)  # noqa: E731
    tiers: list[list[tuple[int, ...]]] = []
    if final:
        winner = side_winner(final[0].totals)
        both = [tuple(side) for side in final[0].units]
        if winner is not None:
            tiers += [[both[winner]], [both[1 - winner]]]
        else:  # a drawn final: the better qualifier first
            tiers += _tiers(sorted(both, key=lambda p: (-lead[p], first(p))), lambda p: lead[p])
    done = {pair for tier in tiers for pair in tier}
    rest = sorted((p for p in lead if p not in done), key=lambda p: (-lead[p], first(p)))
    tiers += _tiers(rest, lambda p: lead[p])
    done |= set(rest)
    seated = list(pairs) or [tuple(side) for g in prelim for side in g.units]
    others = [tuple(p) for p in seated if tuple(p) not in done]
    pair_key = lambda p: (_no_result(stats[p[0]]), -stats[p[0]][1], -stats[p[0]][0])  # noqa: E731
    tiers += _tiers(sorted(others, key=lambda p: (*pair_key(p), first(p))), pair_key)
    return [
        Place(place, u, *stats[u], tied=tied)  # type: ignore[misc]
        for place, tied, pair in _placed(tiers, ties)
        for u in pair
    ]


def place_lines(fmt: str, places: Sequence[Place]) -> list[list[Place]]:
    """The standings' lines: one an entrant, where partners of tables with a final (ranked as two players)
    stand on one line holding their pair's place."""
    size = 2 if fmt == "final" else 1
    return [list(places[i : i + size]) for i in range(0, len(places), size)]


def season_points(place: int, table: Sequence[int], tied: int = 1) -> Fraction:
    """The season points of a place (1 …) by the tournament's table of points; ``tied`` entrants sharing
    it split the points of the places they hold evenly (places 2 and 3 shared: (8 + 6) / 2 = 7 each;
    a place beyond the list: none)."""
    held = [table[p - 1] if 0 < p <= len(table) else 0 for p in range(place, place + max(1, tied))]
    return Fraction(sum(held), len(held))


def points_text(points: Fraction | int) -> str:
    """Season points as people write them: whole, or with up to two decimals (7, 5.5, 6.67)."""
    value = Fraction(points)
    if value.denominator == 1:
        return str(value.numerator)
    return f"{float(value):.2f}".rstrip("0")


@dataclass(frozen=True)
class SeasonRow:
    """A player's line in the season's table: ``place`` None for a player below the ladder's minimum of
    evenings; ``counted`` the tournaments (by id) whose points count, ``played`` all he played."""

    place: int | None
    name: str
    points: Fraction
    played: int
    firsts: int
    counted: tuple[int, ...] = ()
    tied: int = 1


def season_table(
    results: Sequence[tuple[Tournament, Sequence[Place]]], best: int | None = None, minimum: int | None = None
) -> list[SeasonRow]:
    """Season points summed over tournaments (each player of a pair gets the pair's points, split where a
    place is shared; a player is known by his id in the archive, so a rename or a different spelling counts
    as the same one), ranked by points, then first places, then tournaments played; players level on all
    three share the place (docs/tournaments.md, "Season points"). A ladder: only a player's ``best``
    evenings count, and only players with at least ``minimum`` evenings are ranked (the others follow,
    without a place)."""
    totals: dict[object, list] = {}
    for t, places in results:  # the newest first: its spelling names the row
        for p in places:
            ids = t.entrant_ids[p.unit] if t.entrant_ids else (None,) * len(t.entrants[p.unit])
            for name, pid in zip(t.entrants[p.unit], ids):
                row = totals.setdefault(pid if pid is not None else name.casefold(), [name, []])
                row[1].append((season_points(p.place, t.season_points, p.tied), p.place == 1, t.id))
    rows = []
    for name, evenings in totals.values():
        kept = sorted(evenings, key=lambda e: -e[0])[: best or None]
        points = sum((e[0] for e in kept), Fraction(0))
        rows.append((name, points, len(evenings), sum(e[1] for e in evenings), tuple(e[2] for e in kept)))
    ranked_key = lambda r: (-r[1], -r[3], -r[2])  # noqa: E731
    ladder = [r for r in rows if r[2] >= (minimum or 0)]
    below = sorted((r for r in rows if r[2] < (minimum or 0)), key=lambda r: (*ranked_key(r), r[0].casefold()))
    ladder.sort(key=lambda r: (*ranked_key(r), r[0].casefold()))
    placed = _placed(_tiers(ladder, ranked_key), "shared")
    return [
        SeasonRow(place, name, points, played, firsts, counted, tied)
        for place, tied, (name, points, played, firsts, counted) in placed
    ] + [SeasonRow(None, name, points, played, firsts, counted) for name, points, played, firsts, counted in below]
