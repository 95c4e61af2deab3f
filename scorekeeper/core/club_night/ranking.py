"""The ranking and its tie rules, as every format uses them (docs/tournaments.md, "Ranking and ties",
"A pair that sits out", "Shared places"): match points and points, byes, places shared or by lot,
the standings' lines. Pure."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from itertools import groupby
from typing import Callable, Sequence

from scorekeeper.core.club_night.tables import DRAW, WIN, Bye

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
    the line it stands on (partners of tables with a final: one line for their side); in tables with a
    final, a qualifier's lead per hand in round 1, which ranks the qualifiers (None for anyone else)."""

    place: int
    unit: int
    match_points: int
    points: int
    won: int
    played: int
    byes: int = 0
    tied: int = 1
    line: int = -1  # -1: a line of its own
    lead: Fraction | None = None


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


def tally(count: int, games: Sequence[Played], byes: Sequence[Bye], bye_score: str) -> dict[int, list[int]]:
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


def has_no_result(s: Sequence[int]) -> bool:
    """An entrant with nothing to count yet (no game with a hand, nothing from a bye) ranks after the others."""
    return s[3] == 0 and s[0] == 0 and s[1] == 0


def level_tiers(ranked: Sequence, key: Callable) -> list[list]:
    """Consecutive entries level on ``key`` as one tier each (``ranked`` is sorted by it)."""
    return [list(tier) for _k, tier in groupby(ranked, key=key)]


def places_of(tiers: Sequence[Sequence], ties: str) -> list[tuple[int, int, object]]:
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
    stats = tally(count, games, byes, bye_score)
    lot = {u: i for i, u in enumerate(order)}

    def key(u: int) -> tuple:
        mp, points, _won, played = stats[u][:4]
        if per_game and played:
            mp, points = Fraction(mp, played), Fraction(points, played)
        return (
            (has_no_result(stats[u]), -mp, -points) if match_points_first else (has_no_result(stats[u]), -points, -mp)
        )

    ranked = sorted(range(count), key=lambda u: (*key(u), lot.get(u, u)))
    tiers = level_tiers(ranked, key)
    if head_to_head:
        tiers = [part for tier in tiers for part in _head_to_head(tier, games)]
    return [
        Place(place, u, *stats[u], tied=tied)  # type: ignore[misc]
        for place, tied, u in places_of(tiers, ties)
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


def per_game(points: int, played: int) -> int:
    """Points per game played as the standings write them: the nearest whole point, a half always up
    (1490 in 4: 373; 755 in 2: 378), so two figures are never rounded two ways."""
    return (2 * points + played) // (2 * played)
