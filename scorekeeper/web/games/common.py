"""What the game pages share: a game or a 404, this phone's token for the change log, whether a sheet
is read-only, the messages a locked game gives."""

from __future__ import annotations

import hashlib
import hmac
import secrets

from flask import (
    abort,
    current_app,
    flash,
    session,
)
from flask_babel import gettext

from scorekeeper.core import sheet
from scorekeeper.core.models import Game
from scorekeeper.services.tournaments import hand_guard
from scorekeeper.services.verdicts import LOCKED, REFUSED
from scorekeeper.storage import records
from scorekeeper.storage.db import get_db
from scorekeeper.web.hand_verdicts import LOCKED_MESSAGE
from scorekeeper.web.i18n import problem_message


def load_game(game_id: int) -> Game:
    """The game or a 404 page."""
    game = records.get_game(get_db(), game_id)
    if game is None:
        abort(404)
    return game


def phone_token() -> str:
    """This phone's token for the change log: made on its first change and kept in its session."""
    if "phone" not in session:
        # Made from the session's form token when there is one, so that two requests sent at once by
        # a new phone (a double tap) name the same phone: its row is then made once, inside the write.
        seed = session.get("csrf_token")
        session["phone"] = (
            hmac.new(current_app.secret_key.encode(), f"phone:{seed}".encode(), hashlib.sha256).hexdigest()[:16]
            if isinstance(seed, str) and seed
            else secrets.token_urlsafe(12)
        )
    return session["phone"]


# A hand entered by the organiser from the director's grid (a table whose phone died): the grid's link
# marks the game in this phone's session, the hand form then posts ``by=organiser``, and the change log
# keeps it as the organiser's (web/tournament_grid.py).
BY_FIELD, ORGANISER = "by", records.ORGANISER
_GRID_GAMES = "grid_games"  # the session's: the games this phone opened from the grid, the newest last
_GRID_KEPT = 64


def mark_from_grid(game_id: int) -> None:
    """This phone opened the game from the director's grid: its hand forms post ``by=organiser``."""
    kept = [g for g in session.get(_GRID_GAMES, []) if g != game_id]
    session[_GRID_GAMES] = kept[-(_GRID_KEPT - 1) :] + [game_id]


def from_grid(game_id: int) -> bool:
    """Whether this phone opened the game from the director's grid."""
    return game_id in session.get(_GRID_GAMES, [])


def entered_by(value) -> str | None:
    """Who a posted hand says entered it (the form's ``by`` field, the queue's ``by``): ORGANISER or None."""
    return ORGANISER if value == ORGANISER else None


def sheet_locked(the_sheet: sheet.Sheet) -> bool:
    """A finished game is kept read-only until it is deliberately reopened."""
    return the_sheet.state.result.finished and not the_sheet.game.reopened


TRANSLATE_LATER = "msgid"  # a flash category: the message is a message id, translated on the page


def no_new_hand(game_id: int, organiser: bool = False) -> str | None:
    """Why a tournament's table takes no new hand now (its round over, the tournament closed), as the
    games' service would refuse the hand when it is sent; None when it takes one (``organiser``: from
    the director's grid, a missing result from its score card). Asked before the hand form is shown,
    so that nobody types a whole hand in vain."""
    guarded = hand_guard(get_db(), game_id, adding=True, organiser=organiser)  # reads only: the service asks it
    return problem_message(guarded.problems[0]) if guarded is not None else None


def finished_message(game_id: int, message: str) -> str:
    """What a finished game says when a hand is asked of it (``message``: LOCKED_MESSAGE or OVER_MESSAGE,
    which say to reopen it): a tournament's game that cannot be reopened on its sheet gives the
    tournament's reason instead (closed: the organiser reopens the tournament; a first round the final
    table has made final), as the games' service does when the change is sent."""
    guarded = hand_guard(get_db(), game_id, adding=False)  # reads only: the service asks it inside its write
    return problem_message(guarded.problems[0]) if guarded is not None else gettext(message)


def saved_category(hand_id: int | None) -> str:
    """The flash category of a message about a hand that was stored: its message id is translated
    where it is shown, and the scoreboard shows the hand's line beside it."""
    return TRANSLATE_LATER if hand_id is None else f"{TRANSLATE_LATER}:hand:{hand_id}"


def said_refused(outcome) -> bool:
    """Flash why a change to a game was not made (a finished game, or a tournament's rule); True if
    it was refused so."""
    if outcome.status == LOCKED:
        flash(gettext(LOCKED_MESSAGE))
        return True
    if outcome.status == REFUSED:
        flash(problem_message(outcome.problems[0]))
        return True
    return False
