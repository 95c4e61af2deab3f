"""The shape of a club night's format (docs/tournaments.md): its names and hints, who enters (players
or pairs), how its tables and rounds follow from the entrants and the draw, what ends a round for all
and how it ranks. One module per format fills one in; ``formats/__init__.py`` keeps the registry. Pure."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Sequence

from scorekeeper.core.club_night.ranking import Place
from scorekeeper.core.club_night.tables import Bye, Table
from scorekeeper.core.messages import Problem

# A tournament (core/club_night/tournament.py) and a round as its tables play it (rounds.py): the formats
# read them and are named by them, so they are not imported here (that would make a cycle)
Tournament = Any
RoundState = Any


@dataclass(frozen=True)
class Format:
    """A format: its words (for the form, the pages and the big screen) and its rules as functions."""

    key: str
    name: str  # the form's name of it
    hint: str  # the form's line under it
    ranking_rule: str  # under the standings: how they are ranked
    pairs: bool  # entered as pairs ("Anna & Ben", one a line) rather than players
    shows_match_points: bool  # the standings show match points first
    stops_all: bool  # the first table at the target stops every table's round
    ranks_per_game: bool  # ranked by points per game played (tables play different numbers of games)
    final_round: int | None  # the round the first round's winners play (None: there is none)
    sizes: Callable[[int], list[int] | None]  # the tables' sizes for this many entrants (None: cannot seat)
    problems: Callable[[Sequence[Sequence[str]]], list[Problem]]  # why these entrants cannot play it
    rounds: Callable[[int], int]  # the rounds it plays for this many entrants
    plan: Callable[[Tournament, int], tuple[list[Table], list[Bye]]]  # a round's tables by the movement
    next_tables: Callable[[Tournament, Sequence[RoundState]], list[Table]]  # the next round's tables
    ranking: Callable[[Tournament, Sequence[RoundState]], list[Place]]  # the standings now
    own_rules: Callable[[Sequence[int]], dict[int, int | None]]  # sizes of its tables whose rules are chosen:
    # for each, the sides its game must have (None: any)
    played_sizes: Callable[[Sequence[int]], set[int]]  # every size of table it may play (the draw's, its final's)

    def tables(self, count: int) -> int:
        """The tables played at for this many entrants."""
        return len(self.sizes(count) or ())

    def planned_rounds(self, count: int) -> int:
        """The rounds whose seating the draw fixes (a final table's comes from the results)."""
        return (
            self.final_round - 1 if self.final_round and self.rounds(count) >= self.final_round else self.rounds(count)
        )


def by_the_movement(plan: Callable, rounds: Callable[[int], int]) -> Callable:
    """A format's next tables where the draw fixes every round: the next round's by its plan, none once
    all are played."""

    def next_tables(t: Tournament, played: Sequence[RoundState]) -> list[Table]:
        number = len(played) + 1
        return plan(t, number)[0] if number <= rounds(len(t.entrants)) else []

    return next_tables
