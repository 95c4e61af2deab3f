"""Tables with a final (docs/tournaments.md, "Tables with a final"): players drawn to seats at tables of
four, five and six; round 1 ends for everyone when a side at one table reaches the target; each table's
winning side qualifies and the best meet at the final table (round 2). Pure."""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from scorekeeper.core.messages import N_
from scorekeeper.core.tournaments.formats.model import Format
from scorekeeper.core.tournaments.formats.players import player_problems, seated_tables
from scorekeeper.core.tournaments.ranking import Place, final_places, final_table
from scorekeeper.core.tournaments.tables import Bye, Table, table_sizes

if TYPE_CHECKING:
    from scorekeeper.core.tournaments.rounds import RoundState
    from scorekeeper.core.tournaments.tournament import Tournament


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
    scores_byes=False,
    final_round=2,
    sizes=table_sizes,
    problems=player_problems,
    rounds=_rounds,
    plan=_plan,
    next_tables=_next_tables,
    ranking=_ranking,
)
