"""The season (docs/tournaments.md, "Season points"): each closed tournament's season points by place,
split where a place is shared, summed per player, with shared ranks and a ladder. Pure."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Sequence

from scorekeeper.core.club_night.ranking import Place, level_tiers, places_of
from scorekeeper.core.club_night.tournament import Tournament

# What the form takes (and so the import): season points for 1 to 64 places, each 0 to 9999 (four
# digits), none more than the place before
SEASON_PLACES_MOST = 64
SEASON_POINTS_MOST = 9999


def points_grow(table: Sequence[int]) -> bool:
    """Whether a place of the table of season points gets more than the place before it (refused)."""
    return any(later > earlier for earlier, later in zip(table, table[1:]))


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
    placed = places_of(level_tiers(ladder, ranked_key), "shared")
    return [
        SeasonRow(place, name, points, played, firsts, counted, tied)
        for place, tied, (name, points, played, firsts, counted) in placed
    ] + [SeasonRow(None, name, points, played, firsts, counted) for name, points, played, firsts, counted in below]
