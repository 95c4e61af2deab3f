"""The app's own files and choices: the service worker, the manifest, the display choices, the offline
page."""

from __future__ import annotations

from flask import (
    current_app,
    redirect,
    render_template,
    request,
    send_from_directory,
)

from scorekeeper.web import i18n, staticfiles
from scorekeeper.web.redirects import safe_path


def service_worker():
    """The service worker, served from the root so it may look after every page, with its list of
    files and its cache's name made from static/'s files (staticfiles.service_worker)."""
    return staticfiles.service_worker()


def hand_script():
    """The hand form's modules (static/hand/) in one file, as the pages load them."""
    return staticfiles.hand_script()


def manifest():
    """The web app manifest (name, icons, colours) that makes the app installable."""
    return send_from_directory(current_app.static_folder, "manifest.webmanifest", mimetype="application/manifest+json")


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


def offline():
    """Shown by the service worker for a page it never saw, while the server cannot be reached."""
    return render_template("offline.html")
