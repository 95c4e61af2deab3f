"""The ranking and its tie rules, the final table and the season points (docs/tournaments.md,
"Ranking and ties", "A pair that sits out", "Shared places", "Tables with a final", "Season
points"). Pure."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from itertools import groupby
from typing import TYPE_CHECKING, Callable, Sequence

from scorekeeper.core.tournaments.tables import DRAW, WIN, Bye, Table

if TYPE_CHECKING:
    from scorekeeper.core.tournaments.tournament import Tournament

BYE_SCORES = ("average", "win", "nothing")  # what a round sat out counts: the pair's average (the default)
TIE_RULES = ("shared", "lot")  # entrants level on every criterion share the place, or the draw number decides


@dataclass(frozen=True)
class Played:
    """A table's game as the ranking needs it: each side's units and totals, how many hands it saved."""

    round: int
    table: int
    units: tuple[tuple[int, ...], ...]
    totals: tuple[int, ...]
    hands: int = 0


@dataclass(frozen=True)
class Place:
    """One line of the standings: the place, the unit, its match points (a bye's included), points, games
    won and played, rounds sat out, how many lines (players, or pairs) share the place (1: none), and
    the line it stands on (partners of tables with a final: one line for their side)."""

    place: int
    unit: int
    match_points: int
    points: int
    won: int
    played: int
    byes: int = 0
    tied: int = 1
    line: int = -1  # -1: a line of its own


def side_winner(totals: Sequence[int]) -> int | None:
    """The side with the most points (None: two or more share the most, a draw)."""
    best = max(totals)
    return totals.index(best) if list(totals).count(best) == 1 else None


def match_points(totals: Sequence[int], side: int) -> int:
    """A side's match points in a game: 2 for the most points alone, 1 for the most points shared, else 0."""
    best = max(totals)
    if totals[side] != best:
        return 0
    return WIN if list(totals).count(best) == 1 else DRAW


def lead(totals: Sequence[int]) -> int:
    """How far the side with the most points is ahead of the next."""
    top = sorted(totals, reverse=True)
    return top[0] - top[1]


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
                s[0] += match_points(g.totals, side)
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
    count: int,
    order: Sequence[int],
    games: Sequence[Played],
    byes: Sequence[Bye] = (),
    bye_score: str = "average",
    ties: str = "shared",
    *,
    match_points_first: bool = False,
    head_to_head: bool = False,
    per_game: bool = False,
) -> list[Place]:
    """The ranking (docs/tournaments.md, "Ranking and ties"): points (each player counts his side's total),
    then match points; or match points first (pairs between tables), then (two level) the game the two
    played against each other (``head_to_head``); or by points and match points per game played
    (``per_game``: players changing partners at tables that play different numbers of Partien). Byes count
    as ``bye_score`` says. Entrants level on all of it share the place (``ties`` "shared"), or the draw
    number decides ("lot"). An entrant with nothing counted yet comes last."""
    stats = _figures(count, games, byes, bye_score)
    lot = {u: i for i, u in enumerate(order)}

    def key(u: int) -> tuple:
        mp, points, _won, played = stats[u][:4]
        if per_game and played:
            mp, points = Fraction(mp, played), Fraction(points, played)
        return (_no_result(stats[u]), -mp, -points) if match_points_first else (_no_result(stats[u]), -points, -mp)

    ranked = sorted(range(count), key=lambda u: (*key(u), lot.get(u, u)))
    tiers = _tiers(ranked, key)
    if head_to_head:
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
        if g.hands and winner is not None and a in sides[winner] and any(b in x for x in sides if x != sides[winner]):
            return True
    return False


def lead_per_hand(g: Played) -> Fraction:
    """How far a table's winning side led the next, per hand its table played: the measure that ranks
    the qualifiers whatever the number of hands their tables got in (docs/tournaments.md, "Tables with a
    final")."""
    return Fraction(lead(g.totals), g.hands)


def _qualified(order: Sequence[int], games: Sequence[Played]) -> list[tuple[Fraction, tuple[int, ...]]]:
    """Each table's winning side (level at the top: the side whose first player was drawn first) with its
    lead per hand, best first (level: the draw number first). Tables without a hand send nobody."""
    lot = {u: i for i, u in enumerate(order)}
    pairs = []
    for g in games:
        if not g.hands:
            continue
        best = max(g.totals)
        top = [side for side, total in enumerate(g.totals) if total == best]
        winner = min(top, key=lambda side: min(lot[u] for u in g.units[side]))
        pairs.append((lead_per_hand(g), tuple(g.units[winner])))
    return sorted(pairs, key=lambda p: (-p[0], min(lot[u] for u in p[1])))


def qualifiers(order: Sequence[int], games: Sequence[Played]) -> list[tuple[int, ...]]:
    """``final``: each table's winning side, best first by its lead per hand, then the draw number."""
    return [side for _lead, side in _qualified(order, games)]


def final_table(t: Tournament, games: Sequence[Played]) -> Table | None:
    """``final``'s final table (round 2, table 1; docs/tournaments.md, "Tables with a final"): every
    table's winning side when two or three tables sent one and they fit a table the tournament plays
    (two pairs: a table of four; a pair and three: of five; three pairs or two trios: of six, as its rule
    sets seat them); else the two best that fit; else the two best pairs. The best qualifier sits first
    and deals. None while fewer than two tables sent a side."""
    ranked = qualifiers(t.order, games)
    candidates = [ranked] if 2 <= len(ranked) <= 3 else []
    candidates += [ranked[:2], [side for side in ranked if len(side) == 2][:2]]
    for sides in candidates:
        layout = _fitting(t, sides) if len(sides) >= 2 else None
        if layout is not None:
            seats: list[int] = [0] * sum(len(side) for side in layout)
            units = [()] * len(layout)
            free = list(range(len(layout)))
            for side in sides:  # each qualifier to the first free side of its size, the best first
                k = next(k for k in free if len(layout[k]) == len(side))
                free.remove(k)
                units[k] = side
                for seat, unit in zip(layout[k], side):
                    seats[seat] = unit
            dealer = layout[units.index(sides[0])][0]
            return Table(2, 1, tuple(t.entrants[u][0] for u in seats), dealer, tuple(units))
    return None


def _fitting(t: Tournament, sides: Sequence[tuple[int, ...]]) -> tuple[tuple[int, ...], ...] | None:
    """The sides (seat indexes) of a table the tournament plays that seats these qualifiers as its sides."""
    layout = t.sides_at(sum(len(side) for side in sides))
    if layout is None or sorted(len(x) for x in layout) != sorted(len(side) for side in sides):
        return None
    return layout


def final_places(t: Tournament, games: Sequence[Played], pairs: Sequence[Sequence[int]] = ()) -> list[Place]:
    """``final``'s places: the final table's sides by their totals (level: the better qualifier first);
    then the other qualifiers by their lead per hand; then every other side of round 1 by points, then
    match points; partners hold their side's place, on one line. A finalist's figures add both rounds.
    Without a final table yet: the qualifiers first, by their lead per hand. ``pairs``: the sides of
    round 1 as seated (a table without a hand still seats its sides)."""
    count, order, ties = len(t.entrants), t.order, t.ties
    prelim = [g for g in games if g.round == 1]
    final = [g for g in games if g.round == 2 and g.hands]
    stats = _figures(count, games, (), "nothing")
    lead_of = {side: value for value, side in _qualified(order, prelim)}
    lot = {u: i for i, u in enumerate(order)}
    first = lambda side: min(lot.get(u, u) for u in side)  # noqa: E731
    tiers: list[list[tuple[int, ...]]] = []
    if final:
        totals = dict(zip((tuple(side) for side in final[0].units), final[0].totals))
        key = lambda side: (-totals[side], -lead_of.get(side, 0))  # noqa: E731
        tiers += _tiers(sorted(totals, key=lambda side: (*key(side), first(side))), key)
    done = {side for tier in tiers for side in tier}
    rest = sorted((side for side in lead_of if side not in done), key=lambda side: (-lead_of[side], first(side)))
    tiers += _tiers(rest, lambda side: lead_of[side])
    done |= set(rest)
    seated = list(pairs) or [tuple(side) for g in prelim for side in g.units]
    others = [tuple(side) for side in seated if tuple(side) not in done]
    side_key = lambda side: (_no_result(stats[side[0]]), -stats[side[0]][1], -stats[side[0]][0])  # noqa: E731
    tiers += _tiers(sorted(others, key=lambda side: (*side_key(side), first(side))), side_key)
    return [
        Place(place, u, *stats[u], tied=tied, line=line)  # type: ignore[misc]
        for line, (place, tied, side) in enumerate(_placed(tiers, ties))
        for u in side
    ]


def place_lines(places: Sequence[Place]) -> list[list[Place]]:
    """The standings' lines: one an entrant, where partners of tables with a final (ranked as players)
    stand on one line holding their side's place."""
    lines: list[list[Place]] = []
    for p in places:
        if p.line >= 0 and lines and lines[-1][0].line == p.line:
            lines[-1].append(p)
        else:
            lines.append([p])
    return lines


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
