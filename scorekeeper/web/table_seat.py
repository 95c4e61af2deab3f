"""Where a tournament's game is played and how its table's round stands, for the pages that show the
game (the score sheet's line about it) and for the phones that follow it live: a table's phone learns
that its round has stopped or is over even when nothing was saved at its own table (docs/tournaments.md,
"When a round ends")."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from flask import Response, abort, jsonify
from sqlite_utils import Database

from scorekeeper.services import tournament_state
from scorekeeper.storage import records

PLAYING, STOPPED, DONE, CLOSED = "playing", "stopped", "done", "closed"


@dataclass(frozen=True)
class TableSeat:
    """A tournament's game: its tournament, round and table, and its round's state at this table
    (PLAYING, STOPPED: each table finishes the hand in progress, DONE, CLOSED: the tournament is closed and
    its games read-only); ``ends``: a timed round's end; what ends a round (``round_end``: "target",
    "hands" or "minutes", with ``round_length`` its hands or minutes); ``confirms``: the other side confirms
    each hand (docs/tournaments.md)."""

    id: int
    name: str
    round: int
    table: int
    state: str
    ends: datetime | None = None
    round_end: str = "target"
    round_length: int | None = None
    confirms: bool = False

    @property
    def done(self) -> bool:
        return self.state in (DONE, CLOSED)

    @property
    def closed(self) -> bool:
        return self.state == CLOSED

    def live_version(self, game_version: int) -> str:
        """What the phones following the game compare: the game's version and its table's state."""
        return f"{game_version}.{self.state[0]}"


def version_answer(db: Database, game_id: int, now: datetime) -> Response:
    """What a phone following a game polls, never cached: the game's version, with its table's round
    state for a tournament's game (a round stopped or ended elsewhere, a close, shows at once); 404."""
    version = records.game_version(db, game_id)
    if version is None:
        abort(404)
    seat = seat_of(db, game_id, now)
    response = jsonify({"version": seat.live_version(version) if seat else version})
    response.headers["Cache-Control"] = "no-store"
    return response


def seat_of(db: Database, game_id: int, now: datetime) -> TableSeat | None:
    """The seat of a tournament's game now, or None for any other game."""
    at = tournament_state.table_of_game(db, game_id)
    if at is None:
        return None
    t, state, table = at.tournament, at.round, at.table
    if t.closed_at:
        kind = CLOSED
    elif table.done:
        kind = DONE
    elif state.stop is not None and state.stop <= now:
        kind = STOPPED
    else:
        kind = PLAYING
    length = {"hands": t.round_hands, "minutes": t.round_minutes}.get(t.round_end)
    ends = state.clock.ends if state.clock else None
    return TableSeat(
        t.id,
        t.name,
        state.number,
        table.table,
        kind,
        ends,
        t.round_end if length else "target",
        length,
        t.confirm_hands,
    )
