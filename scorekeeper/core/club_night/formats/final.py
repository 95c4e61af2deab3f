"""Tables with a final (docs/tournaments.md, "Tables with a final"): players drawn to seats at tables of
four, five and six; round 1 ends for everyone when a side at one table reaches the target; each table's
winning side qualifies and the best meet at the final table (round 2). Pure."""

from __future__ import annotations

from fractions import Fraction
from typing import Sequence

from scorekeeper.core.club_night.formats.model import Format, RoundState, Tournament
from scorekeeper.core.club_night.formats.players import player_problems, seated_tables
from scorekeeper.core.club_night.ranking import (
    Place,
    Played,
    has_no_result,
    lead,
    level_tiers,
    places_of,
    tally,
)
from scorekeeper.core.club_night.tables import Bye, Table, table_sizes
from scorekeeper.core.messages import N_


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
    """each table's winning side, best first by its lead per hand, then the draw number."""
    return [side for _lead, side in _qualified(order, games)]


def final_table(t: Tournament, games: Sequence[Played]) -> Table | None:
    """``final``'s final table (round 2, table 1; docs/tournaments.md, "Tables with a final"): every
    table's winning side when two or three tables sent one and they fit a table the tournament plays
    (two pairs: a table of four; a pair and three: of five; three pairs or two trios: of six, as its rule
    sets seat them); else the best two that fit a table (in the qualifiers' order: the best with the next
    best that fits it, …). The best qualifier sits first and deals. None while fewer than two tables sent
    a side, or when no two fit a table."""
    ranked = qualifiers(t.order, games)
    candidates = [ranked] if 2 <= len(ranked) <= 3 else []
    candidates += [[a, b] for i, a in enumerate(ranked) for b in ranked[i + 1 :]]
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
    stats = tally(count, games, (), "nothing")
    lead_of = {side: value for value, side in _qualified(order, prelim)}
    lot = {u: i for i, u in enumerate(order)}
    first = lambda side: min(lot.get(u, u) for u in side)  # noqa: E731
    tiers: list[list[tuple[int, ...]]] = []
    if final:
        totals = dict(zip((tuple(side) for side in final[0].units), final[0].totals))
        key = lambda side: (-totals[side], -lead_of.get(side, 0))  # noqa: E731
        tiers += level_tiers(sorted(totals, key=lambda side: (*key(side), first(side))), key)
    done = {side for tier in tiers for side in tier}
    rest = sorted((side for side in lead_of if side not in done), key=lambda side: (-lead_of[side], first(side)))
    tiers += level_tiers(rest, lambda side: lead_of[side])
    done |= set(rest)
    seated = list(pairs) or [tuple(side) for g in prelim for side in g.units]
    others = [tuple(side) for side in seated if tuple(side) not in done]
    side_key = lambda side: (has_no_result(stats[side[0]]), -stats[side[0]][1], -stats[side[0]][0])  # noqa: E731
    tiers += level_tiers(sorted(others, key=lambda side: (*side_key(side), first(side))), side_key)
    return [
        Place(place, u, *stats[u], tied=tied, line=line, lead=lead_of.get(side))  # type: ignore[misc]
        for line, (place, tied, side) in enumerate(places_of(tiers, ties))
        for u in side
    ]


def _rounds(count: int) -> int:
    """The first round and the final table; one table plays no final."""
    return 1 if len(table_sizes(count) or ()) <= 1 else 2


def _plan(t: Tournament, rnd: int) -> tuple[list[Table], list[Bye]]:
    """Round 1 by the draw (the final table comes from its results)."""
    return (seated_tables(t, rnd), []) if rnd == 1 else ([], [])


def _next_tables(t: Tournament, rounds: Sequence[RoundState]) -> list[Table]:
    number = len(rounds) + 1
    if number > _rounds(len(t.entrants)):
        return []
    if number == 1:
        return seated_tables(t, 1)
    final = final_table(t, [table.played for table in rounds[0].tables])
    return [final] if final else []


def _ranking(t: Tournament, rounds: Sequence[RoundState]) -> list[Place]:
    sides = [side for table in rounds[0].tables for side in table.units] if rounds else []
    return final_places(t, [table.played for r in rounds for table in r.tables], sides)


def _final_sizes(sizes: Sequence[int]) -> set[int]:
    """The sizes the final table may have: two pairs (four), three tables' winning pairs (six), and with a
    table of five or six, whose winning side may be three players, five or six."""
    if len(sizes) < 2:
        return set()
    found = {4} | ({6} if len(sizes) == 3 else set())
    return found | ({5, 6} if set(sizes) - {4} else set())


FINAL = Format(
    key="final",
    name=N_("Tables with a final"),
    hint=N_(
        "Seats drawn by lot; the round ends when one table reaches the target; the best pairs meet at a final table."
    ),
    ranking_rule=N_(
        "The final table decides places 1 and 2; then the winning pairs by their lead per hand, then points."
    ),
    pairs=False,
    shows_match_points=False,
    stops_all=True,
    ranks_per_game=False,
    final_round=2,
    sizes=table_sizes,
    problems=player_problems,
    rounds=_rounds,
    plan=_plan,
    next_tables=_next_tables,
    ranking=_ranking,
    own_rules=lambda sizes: {size: None for size in sizes if size != 4},
    played_sizes=lambda sizes: set(sizes) | _final_sizes(sizes),
)
