"""A club night at several tables (docs/tournaments.md): the draw by lot, the seating of every round
by the format's movement, when a table's round is over, the ranking with its tie rules, the final
table and the season points. Pure: no Flask, no database; the storage keeps what is decided here.

The formats, one module each in ``formats/`` with their registry (``formats/__init__.py``):

- ``final`` — tables with a final: players drawn to seats at tables of four, five and six ("1.3" =
  table 1, seat 3). Round 1 ends for everyone when a side at one table reaches the target: every other
  table finishes the hand in progress. Each table's winning side qualifies; the tables' winners meet at
  the final table where they fit one, else the best two (round 2).
- ``mitchell`` — pairs moving between tables: North–South pairs keep their table, East–West pairs
  move to the next higher table after each round (the last to table 1). An odd number of pairs adds
  an empty North–South place at the last table: the East–West pair that comes to it sits the round
  out (a bye).
- ``rotation`` — players changing partners: a table of four plays three Partien, N–S against E–W,
  then N–E against S–W, then N–W against S–E; a table of five five Partien (one sits out each), a
  table of six five Partien in three pairs; every two players of a table partner once.
"""

from scorekeeper.core.club_night import formats
from scorekeeper.core.club_night.entrants import NAME_MOST, PAIR_SPLIT, names_problem, pairs, parse_entrants
from scorekeeper.core.club_night.formats import FORMATS, Format
from scorekeeper.core.club_night.formats import get as format_of
from scorekeeper.core.club_night.formats.final import final_places, final_table, lead_per_hand, qualifiers
from scorekeeper.core.club_night.ranking import BYE_SCORES, TIE_RULES, Place, Played, per_game, place_lines, standings
from scorekeeper.core.club_night.rounds import (
    FINISHED,
    SITS_OUT,
    TO_TABLE,
    Clock,
    RoundState,
    TableState,
    clock_of,
    hand_may_come_back,
    next_tables,
    ranking,
    round_state,
    start_problem,
    stop_moment,
    table_done,
    where_next,
)
from scorekeeper.core.club_night.season import (
    SEASON_PLACES_MOST,
    SEASON_POINTS_MOST,
    points_grow,
    points_text,
    season_points,
    season_table,
)
from scorekeeper.core.club_night.tables import (
    ACTIONS,
    DEFAULT_SEASON_POINTS,
    MAX_TABLES,
    ROUND_ENDS,
    ROUND_HANDS,
    ROUND_MINUTES,
    WARNING_MINUTES,
    Bye,
    Table,
    TableRules,
    draw,
    seat_label,
    table_sizes,
)
from scorekeeper.core.club_night.tournament import Tournament
from scorekeeper.core.messages import N_, Problem

# what the rest of the app reads from a club night, by its one name (``club_night.standings``)
__all__ = [
    "Bye",
    "FINISHED",
    "Played",
    "per_game",
    "hand_may_come_back",
    "SITS_OUT",
    "TO_TABLE",
    "ACTIONS",
    "BYE_SCORES",
    "DEFAULT_SEASON_POINTS",
    "FORMATS",
    "MAX_TABLES",
    "NAME_MOST",
    "PAIR_SPLIT",
    "ROUND_ENDS",
    "ROUND_HANDS",
    "ROUND_MINUTES",
    "SEASON_PLACES_MOST",
    "SEASON_POINTS_MOST",
    "TIE_RULES",
    "WARNING_MINUTES",
    "Clock",
    "Format",
    "Place",
    "RoundState",
    "Table",
    "TableRules",
    "TableState",
    "Tournament",
    "clock_of",
    "draw",
    "entrant_problems",
    "final_places",
    "final_table",
    "format_of",
    "formats",
    "lead_per_hand",
    "names_problem",
    "next_tables",
    "pairs",
    "parse_entrants",
    "place_lines",
    "points_grow",
    "points_text",
    "qualifiers",
    "ranking",
    "round_plan",
    "round_state",
    "rounds_of",
    "season_points",
    "season_table",
    "seat_label",
    "standings",
    "start_problem",
    "stop_moment",
    "table_done",
    "table_rules_problem",
    "table_sizes",
    "tables_of",
    "where_next",
]


def entrant_problems(fmt: str, entrants) -> list:
    """Why these entrants cannot play this format (an empty list: they can)."""
    return format_of(fmt).problems(entrants)


def tables_of(fmt: str, count: int) -> int:
    """The tables a format plays at for this many entrants."""
    return format_of(fmt).tables(count)


def rounds_of(fmt: str, count: int) -> int:
    """The rounds a format plays for this many entrants."""
    return format_of(fmt).rounds(count)


def round_plan(t: Tournament, rnd: int):
    """A round's tables and byes by the tournament's movement (tables with a final: round 1 only)."""
    return t.kind.plan(t, rnd)


def table_rules_problem(fmt: str, count: int, table_rules) -> Problem | None:
    """Why the rules chosen for tables of five and six do not do for this many entrants, or None: a size
    the draw makes must have its rules (field ``rules_5`` or ``rules_6``), with the sides its format needs."""
    kind = format_of(fmt)
    for size, sides in kind.own_rules(kind.sizes(count) or ()).items():
        rules = table_rules.get(size)
        if rules is None:
            return Problem(None, f"rules_{size}", N_("Choose the rules a table of %(size)s plays."), {"size": size})
        if sides is not None and len(rules.sides) != sides:
            return Problem(
                None, f"rules_{size}", N_("Players changing partners at a table of six play in three pairs.")
            )
    return None
