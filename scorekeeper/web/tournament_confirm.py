"""The organiser and the hands not confirmed yet (docs/tournaments.md): where a tournament asks the other
side to confirm each hand, its page lists the hands still waiting (round, table, hand, figures, a link to
the hand on its sheet) whenever there are any, a round's end and the next round's start say how many, and
the close waits until none is left. The organiser may confirm one hand or every hand listed, on record as
the organiser's; each as shown (its version), through ``services.confirmations``."""

from __future__ import annotations

from dataclasses import dataclass

from flask import Blueprint, abort, flash, redirect, request, url_for
from flask_babel import gettext, ngettext
from sqlite_utils import Database

from scorekeeper.core import club_night, sheet
from scorekeeper.services import confirmations as service
from scorekeeper.services.verdicts import MISSING, OVERTAKEN, REFUSED, SAVED
from scorekeeper.storage import records, tournament_records
from scorekeeper.storage.db import get_db
from scorekeeper.web import i18n
from scorekeeper.web.games.common import phone_token
from scorekeeper.web.games.confirm import hand_number, posted_number, said

bp = Blueprint("tournament_confirm", __name__)


@dataclass(frozen=True)
class Waiting:
    """A hand not confirmed yet as the organiser's page lists it: where, and each side's names, hand score
    and total after it."""

    round: int
    table: int
    number: int
    game_id: int
    hand_id: int
    version: int
    sides: tuple[tuple[str, int, int], ...]


def listed(db: Database, t: club_night.Tournament) -> list[Waiting]:
    """The tournament's hands not confirmed yet, with their figures (none where it asks for no confirmation)."""
    waiting = tournament_records.unconfirmed(db, t)
    sheets: dict[int, sheet.Sheet] = {}
    out = []
    for u in waiting:
        if u.game_id not in sheets:
            sheets[u.game_id] = sheet.build(records.get_game(db, u.game_id), records.hands(db, u.game_id))
        the_sheet = sheets[u.game_id]
        row = the_sheet.rows[u.number - 1]
        sides = tuple(
            (name, score.score, total)
            for name, score, total in zip(the_sheet.side_names, row.outcome.scores, row.outcome.totals)
        )
        out.append(Waiting(u.round, u.table, u.number, u.game_id, u.hand_id, u.version, sides))
    return out


def say_unconfirmed(tournament_id: int) -> None:
    """After a round's end or start: how many hands still wait for their confirmation (the list is on the page)."""
    t = tournament_records.get(get_db(), tournament_id)
    count = len(tournament_records.unconfirmed(get_db(), t)) if t else 0
    if count:
        flash(
            ngettext(
                "%(num)s hand is not confirmed yet: see the list on this page.",
                "%(num)s hands are not confirmed yet: see the list on this page.",
                count,
            )
        )


def _back(tournament_id: int):
    return redirect(url_for("tournaments.tournament", tournament_id=tournament_id, _anchor="unconfirmed"))


@bp.post("/tournaments/<int:tournament_id>/games/<int:game_id>/hands/<int:hand_id>/confirm")
def confirm_hand(tournament_id: int, game_id: int, hand_id: int):
    """The organiser confirms one hand as the list shows it."""
    version = posted_number("version")
    outcome = service.confirm_hand(
        get_db(), game_id, hand_id, version, None, phone=phone_token(), tournament_id=tournament_id
    )
    if outcome.status == MISSING:
        abort(404)
    seat = tournament_records.seat_of_game(get_db(), game_id)
    if outcome.status == SAVED:
        flash(
            gettext(
                "Round %(round)s, table %(table)s: hand %(number)s confirmed by the organiser.",
                round=seat.round,
                table=seat.table,
                number=hand_number(game_id, hand_id),
            )
        )
    else:
        said(outcome, records.get_game(get_db(), game_id), hand_id)
    return _back(tournament_id)


def _shown() -> dict[int, int]:
    """The hands the list showed, each "hand id:version": 400 for anything else."""
    shown = {}
    for value in request.form.getlist("hand"):
        hand, _, version = value.partition(":")
        if not (hand.isdigit() and version.isdigit() and len(value) < 40):
            abort(400)
        shown[int(hand)] = int(version)
    return shown


@bp.post("/tournaments/<int:tournament_id>/confirm-all")
def confirm_all(tournament_id: int):
    """The organiser confirms every hand the list showed, at once (none if one of them changed since)."""
    outcome = service.confirm_all(get_db(), tournament_id, _shown(), phone=phone_token())
    if outcome.status == MISSING:
        abort(404)
    if outcome.status == SAVED:
        count = outcome.extra["count"]
        flash(ngettext("%(num)s hand confirmed by the organiser.", "%(num)s hands confirmed by the organiser.", count))
    elif outcome.status == OVERTAKEN:
        where = "; ".join(
            gettext("round %(round)s, table %(table)s, hand %(number)s", round=r, table=t, number=n)
            for r, t, n in outcome.extra["changed"]
        )
        flash(
            gettext("Changed meanwhile: %(hands)s. Check them again, then confirm; nothing was confirmed.", hands=where)
        )
    elif outcome.status == REFUSED:
        flash(i18n.problem_message(outcome.problems[0]))
    else:
        flash(gettext("Every hand listed was confirmed already."))
    return _back(tournament_id)
