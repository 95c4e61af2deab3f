"""This phone's own choices: its display (large type, language) and its name on the change log."""

from __future__ import annotations

from flask import Blueprint, flash, redirect, request, url_for
from flask_babel import gettext

from scorekeeper.core import names
from scorekeeper.services import phones as phone_service
from scorekeeper.storage.db import get_db
from scorekeeper.web import i18n
from scorekeeper.web.games.common import phone_token
from scorekeeper.web.redirects import safe_path

bp = Blueprint("phone", __name__)


@bp.get("/prefs")
def prefs():
    """Remember a display choice (large type, language) in a cookie and go back to the page."""
    # only a path on this site, by the one rule every next= follows (redirects.safe_path)
    response = redirect(safe_path(request.args.get("next")))
    large = request.args.get("large")
    if large in ("1", "0"):
        response.set_cookie("large", large, max_age=365 * 24 * 3600, samesite="Lax")
    lang = request.args.get("lang")
    if lang in i18n.LANGUAGES:
        response.set_cookie("lang", lang, max_age=365 * 24 * 3600, samesite="Lax")
    return response


@bp.post("/phone/name")
def name_phone():
    """This phone names itself once ("Anna's phone"); the change log shows the name."""
    name = names.normal(request.form.get("name", ""))[:40]
    back = safe_path(request.form.get("next"), url_for("games.index"))
    if not name or any(ord(c) < 32 for c in name):
        flash(gettext("Give the phone a name of up to 40 characters."))
    elif names.invisible(name):
        flash(gettext(names.INVISIBLE))
    else:
        verdict = phone_service.name_phone(get_db(), phone_token(), name)
        if verdict.ok:
            flash(gettext("This phone is now called %(name)s.", name=name))
        else:
            flash(i18n.problem_message(verdict.problems[0]))
    return redirect(back)
