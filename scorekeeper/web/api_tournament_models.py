"""The tournaments' answers of the JSON API as types (docs/api.md, "GET /api/tournaments" and
"GET /api/tournaments/<id>"; docs/tournaments.md): ``GET /api/openapi.json`` is generated from them, as
from the rest of ``api_models``."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field
from typing_extensions import TypedDict

from scorekeeper.core import club_night
from scorekeeper.web.api_models import Count, Id, VariantId

TournamentFormat = Literal[club_night.FORMATS]
RoundEnd = Literal[club_night.ROUND_ENDS]
ByeScore = Literal[club_night.BYE_SCORES]
TieRule = Literal[club_night.TIE_RULES]
Moment = Annotated[str, Field(description="a UTC time, ISO 8601 with its offset")]
SEAT = r"^[1-9][0-9]?\.[1-6]$"  # "table.seat" (core.club_night.seat_label): at most 16 tables of four to six


class TournamentListed(TypedDict, closed=True):
    """A tournament in the list: what it is and how far it has come."""

    id: Id
    name: str
    format: TournamentFormat
    entrants: Annotated[int, Field(ge=2, description="players, or pairs between tables")]
    rounds: Annotated[int, Field(ge=1, description="the rounds the format plays")]
    rounds_started: Count
    drawn: bool
    closed: bool


class TournamentSide(TypedDict, closed=True):
    """One side at a tournament table: its players and its total."""

    players: list[str]
    total: int


class TournamentTable(TypedDict, closed=True):
    """A table of a round: its game, both sides and how far it has come."""

    table: Id
    game: Annotated[Id, Field(description="the table's game (GET /api/games/{id})")]
    sides: Annotated[list[TournamentSide], Field(min_length=2, max_length=3)]
    hands: Count
    over: Annotated[bool, Field(description="the round is over at this table")]
    unconfirmed: Annotated[
        list[Id],
        Field(description="the numbers of its hands the other side has not confirmed yet (confirm_hands); else empty"),
    ]


class TournamentRound(TypedDict, closed=True):
    """A round started: its tables as they stand, who sits it out, when it stops."""

    number: Id
    started_at: Moment
    ended_at: Annotated[str | None, Field(description="when the organiser (or the next round's start) ended it")]
    stops_at: Annotated[
        str | None,
        Field(description="when its tables stop: its clock, a table at the target (tables with a final), or its end"),
    ]
    over: Annotated[bool, Field(description="over at every table")]
    tables: list[TournamentTable]
    sitting_out: Annotated[list[list[str]], Field(description="the entrants with a bye this round")]


class Standing(TypedDict, closed=True):
    """An entrant's place, by the format's rule (docs/tournaments.md, "Ranking and ties")."""

    place: Id
    players: Annotated[list[str], Field(min_length=1, max_length=2)]
    match_points: Count
    points: int
    won: Count
    played: Count
    byes: Count
    shared: Annotated[Count, Field(description="how many entrants (pairs or players) share this place; 1: none")]
    line: Annotated[
        int,
        Field(
            ge=-1, description="partners of one side of tables with a final share a line number; -1: a line of its own"
        ),
    ]
    season_points: Annotated[
        float | None,
        Field(
            ge=0,
            description="by place once the tournament is closed, else null; split evenly where a place is shared "
            "(places 2 and 3 shared with 8 and 6 points: 7 each; may hold a fraction)",
        ),
    ]


class DrawSeat(TypedDict, closed=True):
    """A seat of a table and who sits there."""

    seat: Annotated[
        str,
        Field(
            pattern=SEAT,
            description='"table.seat": "1.3" is table 1, seat 3; at a table of four seats 1 and 3 partners against '
            "2 and 4 (five and six: as the table's rule set seats them)",
        ),
    ]
    name: str


class DrawTable(TypedDict, closed=True):
    """A table of a round as the draw seats it: its seats in the game's order and the seat that deals first."""

    table: Id
    seats: Annotated[list[DrawSeat], Field(min_length=4, max_length=6)]
    first_dealer: Annotated[str, Field(pattern=SEAT, description="the seat that deals the first hand")]


class DrawRound(TypedDict, closed=True):
    """A round's seating: started, as its games were seated; not started yet, as the movement fixes it."""

    number: Id
    started: Annotated[bool, Field(description="false: not started yet, seated as the movement fixes it")]
    tables: list[DrawTable]
    sitting_out: Annotated[list[list[str]], Field(description="the entrants with a bye this round")]


class TableRules(TypedDict, closed=True):
    """What a table of five or six plays (docs/tournaments.md, "Tables of four, five and six")."""

    players: Annotated[int, Field(ge=5, le=6, description="the table's size")]
    variant: VariantId
    layout: Annotated[str, Field(description="its seating (the rule set's layout for that many players)")]
    house_rules: Annotated[Id | None, Field(description="the table's own rule set it plays, or null")]


class Tournament(TypedDict, closed=True):
    """A tournament: its settings, its entrants, every round started and the standings."""

    id: Id
    name: str
    format: TournamentFormat
    variant: VariantId
    house_rules: Annotated[Id | None, Field(description="the table's own rule set it plays, or null")]
    target: Annotated[int | None, Field(description="the games' target; null: the rule set's")]
    round_end: RoundEnd
    round_hands: Annotated[int | None, Field(ge=1, description="hands a round (round_end hands)")]
    round_minutes: Annotated[int | None, Field(ge=1, description="minutes a round (round_end minutes)")]
    rounds: Annotated[int, Field(ge=1, description="the rounds the format plays")]
    bye_score: Annotated[ByeScore, Field(description="what a round sat out counts: the pair's average, a win, nothing")]
    ties: Annotated[TieRule, Field(description="entrants level on everything: shared places, or by lot (draw number)")]
    confirm_hands: Annotated[bool, Field(description="the other side confirms each hand saved at a table")]
    table_rules: Annotated[list[TableRules], Field(description="what its tables of five and six play, where chosen")]
    table_sizes: Annotated[list[int], Field(description="the players at each table the draw makes, table 1 first")]
    season_points: Annotated[list[Count], Field(description="by place: the first for place 1, …")]
    entrants: Annotated[list[list[str]], Field(description="players (one name) or pairs (two), as listed")]
    drawn_at: Annotated[str | None, Field(description="when the seats were drawn by lot; null before the draw")]
    closed_at: Annotated[str | None, Field(description="when it was closed: its standings are final; else null")]
    evening: Annotated[Id | None, Field(description="its evening in the archive, from round 1 on")]
    draw_numbers: Annotated[
        list[Id] | None, Field(description="each entrant's draw number, in the order of entrants; null before the draw")
    ]
    seating: Annotated[
        list[DrawRound],
        Field(description="every round's seats known so far: the rounds started, then those the movement fixes"),
    ]
    played: Annotated[list[TournamentRound], Field(description="every round started, the first first")]
    standings: Annotated[list[Standing], Field(description="best first; empty before round 1")]
