"""The app's own files: the service worker, the manifest, the hand form's script in one file, the
offline page."""

from __future__ import annotations

from flask import (
    Blueprint,
    current_app,
    render_template,
    send_from_directory,
)

from scorekeeper.web import staticfiles

bp = Blueprint("appfiles", __name__)


@bp.get("/sw.js")
def service_worker():
    """The service worker, served from the root so it may look after every page, with its list of
    files and its cache's name made from static/'s files (staticfiles.service_worker)."""
    return staticfiles.service_worker()


@bp.get("/hand.js")
def hand_script():
    """The hand form's modules (static/hand/) in one file, as the pages load them."""
    return staticfiles.hand_script()


@bp.get("/manifest.webmanifest")
def manifest():
    """The web app manifest (name, icons, colours) that makes the app installable."""
    return send_from_directory(current_app.static_folder, "manifest.webmanifest", mimetype="application/manifest+json")


@bp.get("/offline")
def offline():
    """Shown by the service worker for a page it never saw, while the server cannot be reached."""
    return render_template("offline.html")
