"""The Canasta score keeper: ``create_app`` builds the Flask app."""

from __future__ import annotations

import os
import secrets
from pathlib import Path

from flask import Flask, jsonify, render_template, request, session
from flask_babel import gettext
from flask_wtf.csrf import CSRFError, CSRFProtect

ROOT = Path(__file__).resolve().parent.parent
csrf = CSRFProtect()


def _secret_key(instance_path: str) -> str:
    """The instance's secret key: generated on first run and kept in ``instance/secret_key``."""
    path = Path(instance_path) / "secret_key"
    if not path.exists():
        path.write_text(secrets.token_hex(32))
        path.chmod(0o600)
    return path.read_text().strip()


def create_app(test_config: dict | None = None) -> Flask:
    """Create the app: config from the mapping or ``instance/config.py``, CSRF, database, blueprints."""
    app = Flask(
        __name__,
        instance_path=os.environ.get("SCOREKEEPER_INSTANCE", str(ROOT / "instance")),
        template_folder=str(ROOT / "templates"),
        static_folder=str(ROOT / "static"),
    )
    os.makedirs(app.instance_path, exist_ok=True)
    app.config.from_mapping(
        DATABASE=os.path.join(app.instance_path, "scorekeeper.sqlite"),
        # A hand can take an hour to play: the form opened before it must still save after it.
        WTF_CSRF_TIME_LIMIT=None,
        # A phone that knows the password (or the language, the text size) is remembered for a season.
        PERMANENT_SESSION_LIFETIME=180 * 24 * 3600,
        SESSION_COOKIE_SAMESITE="Lax",
        # The cookie is sent again only when it changes: a repeat page view stays cacheable (pagecache).
        SESSION_REFRESH_EACH_REQUEST=False,
        MAX_CONTENT_LENGTH=8
        * 1024
        * 1024,  # far above any form; the archive import alone takes more (archive.IMPORT_MAX_BYTES)
    )
    if test_config is None:
        app.config.from_pyfile(os.path.join(app.instance_path, "config.py"), silent=True)
    else:
        app.config.from_mapping(test_config)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _secret_key(app.instance_path)

    csrf.init_app(app)

    from . import access, api, archive, db, games, i18n, pagecache

    access.init_app(app)
    i18n.init_app(app)
    db.init_app(app)
    app.register_blueprint(games.bp)
    app.register_blueprint(archive.bp)
    app.register_blueprint(api.bp)
    csrf.exempt(api.bp)  # read-only and stateless: no endpoint there changes anything (see docs/api.md)

    @app.errorhandler(404)
    def not_found(error):
        """A friendly page for a game or hand that does not exist."""
        return render_template(
            "error.html",
            title=gettext("Not found"),
            message=gettext("There is nothing here. The game or hand may have been deleted."),
        ), 404

    @app.errorhandler(413)
    def too_large(error):
        """A body far larger than any form or archive: refused with a message, not a crash."""
        if request.is_json or request.path.startswith("/api/") or request.path.endswith(".json"):
            return jsonify(
                {
                    "errors": [
                        {"side": None, "field": "body", "message": gettext("This is far too large to be a score.")}
                    ]
                }
            ), 413
        return render_template(
            "error.html", title=gettext("Too large"), message=gettext("This is far too large to be a score.")
        ), 413

    @app.errorhandler(500)
    def server_error(error):
        """Should never happen; if it does, say so plainly (what was saved before is safe)."""
        return render_template(
            "error.html",
            title=gettext("Something went wrong"),
            message=gettext(
                "Something went wrong on the server. What was saved before is safe; go back and try again."
            ),
        ), 500

    @app.errorhandler(CSRFError)
    def csrf_error(error):
        """The form was too old or came from elsewhere: ask to reload rather than fail (a phone's
        queue, sending JSON, is told which field so it can take a fresh token)."""
        message = gettext(
            "This form has expired or did not come from this app. Go back, reload the page and send it again."
        )
        if request.is_json or request.path.endswith(".json"):
            return jsonify({"errors": [{"side": None, "field": "csrf_token", "message": message}]}), 400
        return render_template(
            "error.html",
            title=gettext("Please try again"),
            message=gettext(
                "This form has expired or did not come from this app. Go back, reload the page and send it again."
            ),
        ), 400

    @app.after_request
    def keep_the_session(response):
        """A phone's session (its form token, its unlocked password) outlives closing the browser:
        a hand waiting in the phone's queue must still be accepted the next morning."""
        if session and not session.permanent:
            session.permanent = True
        return response

    @app.after_request
    def security_headers(response):
        """No inline script, no framing, no content sniffing."""
        response.headers.setdefault(
            "Content-Security-Policy",
            "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; frame-ancestors 'none'; form-action 'self'; base-uri 'none'",
        )
        response.headers.setdefault("X-Frame-Options", "DENY")
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "same-origin")
        return pagecache.compress(response)

    app.wsgi_app = pagecache.FastPages(app.wsgi_app, app)
    return app
