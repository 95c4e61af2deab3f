"""What a phone is told when something refuses a request as a whole: a missing page, a body far
too large, an expired form, a busy or broken disk, a bug. Pages get a page, JSON gets the one
JSON shape of a refusal (``answers``)."""

from __future__ import annotations

import sqlite3

from flask import current_app, render_template, request
from flask_babel import gettext
from flask_wtf.csrf import CSRFError

from scorekeeper.core.messages import N_
from scorekeeper.storage import disk
from scorekeeper.web import json_errors

RETRY_AFTER = 5  # seconds a phone waits before sending again what the disk could not take

DISK_MESSAGES = {
    "busy": N_(
        "Another program is using the archive just now (a backup?). Nothing was saved: wait a moment and send it again."
    ),
    "read-only": N_(
        "Cannot save: the disk is read-only. Nothing was saved; what was saved before is safe. "
        "Make the disk writable on the computer running the score keeper, then send it again."
    ),
    "full": N_(
        "Cannot save: the disk is full. Nothing was saved; what was saved before is safe. "
        "Free some space on the computer running the score keeper, then send it again."
    ),
    "replaced": N_(
        "Cannot save: the archive file was deleted or replaced on the computer running the score keeper. "
        "Nothing was saved. Restart the score keeper there, then send it again."
    ),
    "io": N_(
        "Cannot save: the disk reports an error. Nothing was saved; what was saved before is safe. "
        "Check the computer running the score keeper, then send it again."
    ),
}


def wants_json() -> bool:
    """Whether the request is one of the JSON API's or the phones' background requests."""
    return request.is_json or request.path.startswith("/api/") or request.path.endswith(".json")


def disk_message(trouble: disk.Unavailable) -> str:
    """What to tell a phone whose change the disk could not take, in its language."""
    return gettext(DISK_MESSAGES.get(trouble.reason, DISK_MESSAGES["io"]))


def _page(title: str, message: str, status: int):
    return render_template("error.html", title=title, message=message), status


def not_found(error):
    """A friendly page for a game or hand that does not exist."""
    message = gettext("There is nothing here. The game or hand may have been deleted.")
    if wants_json():
        return json_errors.json_error("id", message, 404)
    return _page(gettext("Not found"), message, 404)


def too_large(error):
    """A body far larger than any form or archive: refused with a message, not a crash."""
    message = gettext("This is far too large to be a score.")
    if wants_json():
        return json_errors.json_error("body", message, 413)
    return _page(gettext("Too large"), message, 413)


def wrong_method(error):
    """A request of a kind an address does not take (a visit to a button's address, a PUT to the
    API): JSON in the one shape of a refusal, naming the kinds it takes, or a page saying what the
    address is for; the ``Allow`` header kept (HTTP asks for it)."""
    allowed = sorted(error.valid_methods or ())
    if wants_json():
        message = gettext("This address takes only %(methods)s.", methods=", ".join(allowed))
        response, status = json_errors.json_error("method", message, 405)
    else:
        message = gettext(
            "This address belongs to a button or a form of the app and is not opened on its own. "
            "Go back to the page and use its button."
        )
        response, status = _page(gettext("Not opened this way"), message, 405)
        response = current_app.make_response((response, status))
    if allowed:
        response.headers["Allow"] = ", ".join(allowed)
    return response, status


def server_error(error):
    """Should never happen; if it does, say so plainly (what was saved before is safe)."""
    message = gettext("Something went wrong on the server. What was saved before is safe; go back and try again.")
    if wants_json():
        return json_errors.json_error("server", message, 500)
    return _page(gettext("Something went wrong"), message, 500)


def csrf_error(error):
    """The form was too old or came from elsewhere: ask to reload rather than fail (a phone's
    queue, sending JSON, is told which field so it can take a fresh token)."""
    message = gettext(
        "This form has expired or did not come from this app. Go back, reload the page and send it again."
    )
    if request.is_json or request.path.endswith(".json"):
        return json_errors.json_error("csrf_token", message, 400)
    return _page(gettext("Please try again"), message, 400)


def database_trouble(error: sqlite3.OperationalError):
    """A read that the disk refuses (a read-only folder SQLite cannot open its shared-memory file
    in, a failing disk): the same clear 503 as a refused save; anything else is a real error."""
    trouble = disk.unavailable(error)
    if trouble is None:
        return server_error(error)
    return disk_trouble(trouble)


def disk_trouble(error: disk.Unavailable):
    """A busy, read-only, full or failing disk: 503 with Retry-After, quickly, never a generic
    500; nothing was written, and a phone's queue keeps the hand and sends it again later."""
    message = disk_message(error)
    if wants_json():
        response, status = json_errors.json_error("database", message, 503)
    else:
        response, status = _page(gettext("Not saved"), message, 503)
        response = current_app.make_response((response, status))
    response.headers["Retry-After"] = str(RETRY_AFTER)
    return response, 503


HANDLERS = {
    404: not_found,
    405: wrong_method,
    413: too_large,
    500: server_error,
    CSRFError: csrf_error,
    sqlite3.OperationalError: database_trouble,
    disk.Unavailable: disk_trouble,
}


def init_app(app) -> None:
    """Register the handlers."""
    for refusal, handler in HANDLERS.items():
        app.register_error_handler(refusal, handler)
