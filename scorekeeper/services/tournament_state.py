"""A tournament's rounds as they stand, worked out by the core from the stored rows (storage returns
rows, the core builds the state): what the pages and the services ask of a round, a table and a game
at a tournament's table. Reads only."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from sqlite_utils import Database

from scorekeeper.core import club_night
from scorekeeper.storage import tournament_records


def _state(t: club_night.Tournament, row: tournament_records.RoundRow) -> club_night.RoundState:
    """The round's state from its row."""
    return club_night.round_state(t, row.round, row.started_at, row.ended_at, row.tables)


def rounds(db: Database, t: club_night.Tournament) -> list[club_night.RoundState]:
    """Every round started so far, each with its tables as they stand."""
    return [_state(t, row) for row in tournament_records.round_rows(db, t)]


def one_round(db: Database, t: club_night.Tournament, number: int) -> club_night.RoundState | None:
    """One round with its tables as they stand (what a hand's save asks about its table), or None."""
    row = tournament_records.round_row(db, t, number)
    return _state(t, row) if row else None


@dataclass(frozen=True)
class GameTable:
    """A tournament's game where it is played: its tournament, round as it stands and table."""

    tournament: club_night.Tournament
    round: club_night.RoundState
    table: club_night.TableState


def table_of_game(db: Database, game_id: int) -> GameTable | None:
    """A game's tournament, round and table as they stand, or None for a game outside any tournament."""
    seat = tournament_records.seat_of_game(db, game_id)
    t = tournament_records.get(db, seat.tournament_id) if seat else None
    state = one_round(db, t, seat.round) if t else None
    table = state.table(seat.table) if state else None
    return GameTable(t, state, table) if table else None


def round_over(db: Database, game_ids: Iterable[int]) -> frozenset[int]:
    """Of these games, those at an open tournament's table whose round is over for it (its table done,
    or the round ended: docs/tournaments.md, "When a round ends"), which a list shows as such rather
    than as in play. Each round is worked out once, whichever of its games ask."""
    rounds_seen: dict[tuple[int, int], club_night.RoundState | None] = {}
    over = set()
    for game_id in game_ids:
        seat = tournament_records.seat_of_game(db, game_id)
        if seat is None:
            continue
        key = (seat.tournament_id, seat.round)
        if key not in rounds_seen:
            t = tournament_records.get(db, seat.tournament_id)
            rounds_seen[key] = one_round(db, t, seat.round) if t and not t.closed_at else None
        state = rounds_seen[key]
        table = state.table(seat.table) if state else None
        if table is not None and table.done:
            over.add(game_id)
    return frozenset(over)
