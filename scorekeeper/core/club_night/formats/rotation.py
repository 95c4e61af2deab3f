"""Players changing partners (docs/tournaments.md, "Players changing partners"): each table plays a
Partie a round with other partners, until each player has partnered every other at the table exactly
once: a table of four three Partien, a table of five five (four play, each sits out once), a table of
six five Partien in three pairs. Each player's points per Partie played decide. Pure."""

from __future__ import annotations

from typing import Sequence

from scorekeeper.core.club_night.formats.model import Format, RoundState, Tournament, by_the_movement
from scorekeeper.core.club_night.formats.players import player_problems
from scorekeeper.core.club_night.ranking import Place, standings
from scorekeeper.core.club_night.tables import FOUR_SIDES, Bye, Table, groups, table_sizes
from scorekeeper.core.messages import N_

# a table of four: the three partnerships as the order of its four players (by their seat in the draw)
# around the table: the game's seats 0 and 2 are partners against 1 and 3
FOUR = ((0, 1, 2, 3), (0, 2, 1, 3), (0, 1, 3, 2))
PARTIEN = {4: len(FOUR), 5: 5, 6: 5}


def five(partie: int) -> tuple[int, tuple[tuple[int, int], tuple[int, int]]]:
    """A table of five's Partie (0 …): who sits out and the two partnerships, each pair of the five
    partnering exactly once in the five Partien: player k sits out, k+1 & k+4 against k+2 & k+3 (mod 5)."""
    k = partie
    return k, (((k + 1) % 5, (k + 4) % 5), ((k + 2) % 5, (k + 3) % 5))


def six(partie: int) -> tuple[tuple[int, int], ...]:
    """A table of six's Partie (0 …): three partnerships, each pair of the six partnering exactly once in
    the five Partien: 5 & k, k+1 & k+4, k+2 & k+3 (mod 5)."""
    k = partie
    return ((5, k), ((k + 1) % 5, (k + 4) % 5), ((k + 2) % 5, (k + 3) % 5))


def _rounds(count: int) -> int:
    """As many rounds as the table with the most Partien plays."""
    return max((PARTIEN[size] for size in table_sizes(count) or ()), default=len(FOUR))


def _seated(rnd: int, number: int, pairs: Sequence[Sequence[int]], sides, entrants, dealer: int = 0) -> Table:
    """A Partie's table: each partnership to the game's side of its index, in its seats."""
    seats: list[int] = [0] * sum(len(side) for side in sides)
    for side, pair in zip(sides, pairs):
        for seat, unit in zip(side, pair):
            seats[seat] = unit
    return Table(rnd, number, tuple(entrants[u][0] for u in seats), dealer, tuple(tuple(p) for p in pairs))


def _plan(t: Tournament, rnd: int) -> tuple[list[Table], list[Bye]]:
    """Round ``rnd``'s Partie at every table that still has one (a table of four plays three); at a table
    of four the first deal passes to the left each Partie, elsewhere seat 1 deals."""
    tables, byes = [], []
    for number, group in enumerate(groups(t.order, table_sizes(len(t.entrants)) or []), start=1):
        if rnd > PARTIEN[len(group)]:
            continue
        if len(group) == 4:
            arrangement = FOUR[rnd - 1]
            units = [group[k] for k in arrangement]
            pairs = ((units[0], units[2]), (units[1], units[3]))
            tables.append(_seated(rnd, number, pairs, FOUR_SIDES, t.entrants, arrangement.index(rnd - 1)))
        elif len(group) == 5:
            out, pairs = five(rnd - 1)
            byes.append(Bye(rnd, group[out], number))
            tables.append(_seated(rnd, number, [[group[k] for k in p] for p in pairs], FOUR_SIDES, t.entrants))
        else:
            sides = t.sides_at(6)
            if sides is None or len(sides) != 3:
                raise ValueError("a table of six changing partners plays in three pairs")
            tables.append(_seated(rnd, number, [[group[k] for k in p] for p in six(rnd - 1)], sides, t.entrants))
    return tables, byes


def _ranking(t: Tournament, rounds: Sequence[RoundState]) -> list[Place]:
    """Points per Partie played, then match points per Partie (all three the same count at tables of four)."""
    games = [table.played for r in rounds for table in r.tables]
    return standings(len(t.entrants), t.order, games, (), t.bye_score, t.ties, per_game=True)


ROTATION = Format(
    key="rotation",
    name=N_("Players changing partners"),
    hint=N_(
        "Each table plays a Partie a round with other partners (four players: three Partien; five or six: "
        "five). Each player's points per Partie decide."
    ),
    ranking_rule=N_("Ranked by points per Partie played, then match points."),
    pairs=False,
    shows_match_points=False,
    stops_all=False,
    ranks_per_game=True,
    final_round=None,
    sizes=table_sizes,
    problems=player_problems,
    rounds=_rounds,
    plan=_plan,
    next_tables=by_the_movement(_plan, _rounds),
    ranking=_ranking,
    own_rules=lambda sizes: {6: 3} if 6 in sizes else {},  # a table of five plays the four-player rules
    played_sizes=lambda sizes: {4} | ({6} & set(sizes)),
)
