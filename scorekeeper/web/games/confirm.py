"""The other side confirms each hand (docs/tournaments.md), on the table's own phone: after a hand is saved
at a table of a tournament that asks for it, the score sheet shows the hand's figures with a button per
side ("Confirmed by Anna & Ben"). The app cannot know which side typed the hand, so it offers every side's
button and keeps which side confirmed; the players hand the phone to the side that did not enter it, as
East confirms what North entered on a Bridgemate. Each tap goes through ``services.confirmations``."""

from __future__ import annotations

from flask import abort, flash, redirect, request, url_for
from flask_babel import gettext

from scorekeeper.core import sheet
from scorekeeper.core.models import Game
from scorekeeper.services import confirmations as service
from scorekeeper.services.verdicts import MISSING, OVERTAKEN, REFUSED, SAVED, UNCHANGED, Verdict
from scorekeeper.storage import records
from scorekeeper.storage.db import get_db
from scorekeeper.web import i18n
from scorekeeper.web.games.blueprint import bp
from scorekeeper.web.games.common import load_game, phone_token


@bp.app_template_global()
def confirmer_name(side_names, confirmed_by: str | None) -> str:
    """Who confirmed a hand, as the pages say it: a side's names ("Anna & Ben"), or "the organiser"."""
    side = records.confirming_side(confirmed_by)
    if side is not None and side < len(side_names):
        return side_names[side]
    return gettext("the organiser")


def hand_number(game_id: int, hand_id: int) -> int:
    """A hand's number in its game (deleted hands left out; 0: not one of its hands now)."""
    ids = [h.id for h in records.hands(get_db(), game_id)]
    return ids.index(hand_id) + 1 if hand_id in ids else 0


def said(outcome: Verdict, game: Game, hand_id: int) -> None:
    """Flash what a confirmation came to (a page's or the organiser's)."""
    names = sheet.side_names(game, sheet.rules_for(game))
    number = hand_number(game.id, hand_id)
    if outcome.status == SAVED:
        flash(
            gettext(
                "Hand %(number)s confirmed by %(names)s.",
                number=number,
                names=confirmer_name(names, outcome.extra["by"]),
            )
        )
    elif outcome.status == UNCHANGED:
        by = confirmer_name(names, outcome.extra["by"])
        flash(gettext("Hand %(number)s was confirmed already, by %(names)s.", number=number, names=by))
    elif outcome.status == OVERTAKEN:
        flash(gettext("Hand %(number)s changed meanwhile: check it again, then confirm it.", number=number))
    elif outcome.status == REFUSED:
        flash(i18n.problem_message(outcome.problems[0]))


def posted_number(name: str) -> int:
    """A whole number the confirmation's form posts (the version shown, the side): 400 without one."""
    value = request.form.get(name, "")
    if not value.isdigit() or len(value) > 18:
        abort(400)
    return int(value)


@bp.post("/games/<int:game_id>/hands/<int:hand_id>/confirm")
def confirm_hand(game_id: int, hand_id: int):
    """A side taps "Confirmed by …" under a hand's figures: the hand as shown (its version) is confirmed."""
    game = load_game(game_id)
    version, side = posted_number("version"), posted_number("side")
    outcome = service.confirm_hand(get_db(), game_id, hand_id, version, side, phone=phone_token())
    if outcome.status == MISSING:
        abort(404)
    said(outcome, game, hand_id)
    return redirect(url_for("games.scoreboard", game_id=game_id))
