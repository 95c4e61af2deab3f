"""The director's grid (docs/tournaments.md): every table of every round of a tournament on one page,
tables down and rounds across, each cell with its sides, totals, hands saved and state, the results
still missing said in words; it follows every save by itself (static/grid.js polls the standings'
version). A tap on a cell opens the table's game as the organiser: a hand entered or corrected there
is on record as the organiser's (a table whose phone died)."""

from __future__ import annotations

from datetime import datetime, timezone

from flask import Blueprint, abort, redirect, render_template, url_for

from scorekeeper.core.club_night import grid as grids
from scorekeeper.core.messages import N_
from scorekeeper.services import tournament_state
from scorekeeper.storage import tournament_records
from scorekeeper.storage.db import generation, get_db
from scorekeeper.web.games.common import mark_from_grid

bp = Blueprint("tournament_grid", __name__)

# What a cell's state says on the page: a sign and a word, never the colour alone (message ids: the
# template translates them).
STATES = {
    grids.NOT_STARTED: ("○", N_("not started")),
    grids.PLAYING: ("►", N_("playing")),
    grids.STOPPED: ("■", N_("stopped")),
    grids.FINISHED: ("✓", N_("finished")),
    grids.CUT: ("■", N_("ended early")),
    grids.OVER: ("■", N_("over")),
    grids.SITS_OUT: ("–", N_("sits out")),
}


@bp.get("/tournaments/<int:tournament_id>/grid")
def grid(tournament_id: int):
    """Tables down, rounds across: each table's game as it stands now, the results still missing first."""
    t = tournament_records.get(get_db(), tournament_id)
    if t is None:
        abort(404)
    rounds = tournament_state.rounds(get_db(), t)
    now = datetime.now(timezone.utc)
    return render_template(
        "tournaments/grid.html",
        t=t,
        grid=grids.grid(t, rounds, now),
        current=rounds[-1] if rounds else None,
        version=generation(get_db()),
        refresh_in=grids.next_change(rounds, now),
        states=STATES,
    )


@bp.get("/tournaments/<int:tournament_id>/grid/games/<int:game_id>")
def open_game(tournament_id: int, game_id: int):
    """A cell tapped: the table's ordinary score sheet, this phone marked as the organiser's for that game
    (its hand form then posts ``by=organiser``, which the change log keeps)."""
    seat = tournament_records.seat_of_game(get_db(), game_id)
    if seat is None or seat.tournament_id != tournament_id:
        abort(404)
    mark_from_grid(game_id)
    return redirect(url_for("games.scoreboard", game_id=game_id))
