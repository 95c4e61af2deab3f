"""The web app: ``create_app`` builds the Flask app from the blueprints, the storage and the checks."""

from __future__ import annotations

import os
import secrets
from pathlib import Path

from flask import Flask, session
from flask_wtf.csrf import CSRFProtect

from scorekeeper.network import addresses
from scorekeeper.storage import db
from scorekeeper.web import (
    access,
    api,
    appfiles,
    archive,
    errors,
    games,
    house_rules,
    house_transfer,
    i18n,
    limits,
    pagecache,
    partners,
    phone,
    pictures,
    staticfiles,
    tournament_confirm,
    tournament_entrants,
    tournament_grid,
    tournament_paper,
    tournaments,
    trust,
)
from scorekeeper.web.games import sheets

ROOT = Path(__file__).resolve().parent.parent.parent  # the repository: templates/, static/, instance/
csrf = CSRFProtect()


def _secret_key(instance_path: str) -> str:
    """The instance's secret key: generated on first run and kept in ``instance/secret_key``."""
    path = Path(instance_path) / "secret_key"
    if not path.exists():
        with os.fdopen(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "w") as out:
            out.write(secrets.token_hex(32))
    return path.read_text().strip()


def _private_database(database: str) -> None:
    """The database and its -wal and -shm files readable by this user only (mode 600): created so
    before SQLite opens it (SQLite gives the -wal and -shm files the database's mode), and set so
    on the files of an older instance."""
    if not database or database == ":memory:" or database.startswith("file:"):
        return
    if not os.path.exists(database):
        os.close(os.open(database, os.O_WRONLY | os.O_CREAT, 0o600))
    for path in (database, f"{database}-wal", f"{database}-shm"):
        # others lose their access; the owner's is kept: a read-only archive (a read-only disk, or
        # files made read-only) still starts and is served to read, its saves answered 503
        try:
            mode = os.stat(path).st_mode & 0o777
            if mode & 0o077:
                os.chmod(path, mode & 0o700)
        except OSError:
            pass


DEFAULTS = dict(
    # A hand can take an hour to play: the form opened before it must still save after it.
    WTF_CSRF_TIME_LIMIT=None,
    # A phone that knows the password (or the language, the text size) is remembered for a season.
    PERMANENT_SESSION_LIFETIME=180 * 24 * 3600,
    SESSION_COOKIE_SAMESITE="Lax",
    # The cookie is sent again only when it changes: a repeat page view stays cacheable (pagecache).
    SESSION_REFRESH_EACH_REQUEST=False,
    # Bodies (limits.py): any request at most 1 MB (the archive import alone takes more, from a
    # phone that may write: archive.IMPORT_MAX_BYTES); a form's text at most 256 KB, urlencoded
    # or multipart, in at most 1000 fields. The servers are given the largest (limits.largest_body).
    MAX_CONTENT_LENGTH=limits.BODY_MAX_BYTES,
    MAX_FORM_MEMORY_SIZE=limits.FORM_MAX_BYTES,
    MAX_FORM_PARTS=limits.FORM_MAX_FIELDS,
)
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "frame-ancestors 'none'; form-action 'self'; base-uri 'none'"
)


def create_app(test_config: dict | None = None) -> Flask:
    """Create the app: config from the mapping or ``instance/config.py``, CSRF, database, blueprints."""
    app = Flask(
        "scorekeeper",
        instance_path=os.environ.get("SCOREKEEPER_INSTANCE", str(ROOT / "instance")),
        template_folder=str(ROOT / "templates"),
        static_folder=str(ROOT / "static"),
    )
    os.makedirs(app.instance_path, exist_ok=True)
    _configure(app, test_config)
    _guard(app)
    i18n.init_app(app)
    db.init_app(app)
    app.register_blueprint(games.bp)  # home, a new game, the score sheet, hands, the change log
    app.register_blueprint(appfiles.bp)  # the service worker, the manifest, the hand script, the offline page
    app.register_blueprint(phone.bp)  # this phone's display choices and its name
    app.register_blueprint(house_rules.bp)  # the table's own rule sets
    app.register_blueprint(house_transfer.bp)  # a rule set passed to another table: its file, its import
    app.register_blueprint(partners.bp)  # fair partners for an evening
    app.register_blueprint(archive.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(tournaments.bp)
    app.register_blueprint(tournament_grid.bp)  # the director's grid of a tournament
    app.register_blueprint(tournament_paper.bp)  # the guide cards and score cards to print
    app.register_blueprint(tournament_entrants.bp)  # who has come, and a no-show's seat given to another
    app.register_blueprint(tournament_confirm.bp)  # the organiser confirms the hands not confirmed yet
    app.register_blueprint(pictures.bp)  # a finished result as a PNG to look at and to send
    app.register_blueprint(trust.bp)  # the certificate for HTTPS, to trust once per phone (network/tls.py)
    csrf.exempt(api.bp)  # read-only and stateless: no endpoint there changes anything (see docs/api.md)
    errors.init_app(app)
    app.after_request(_keep_the_session)
    app.after_request(_security_headers)
    app.jinja_env.globals["hand_script_url"] = staticfiles.hand_script_url  # the hand form's modules in one file
    limits.tell_head_answers(app)  # a body that came with its head: the server closes after their answer
    app.wsgi_app = pagecache.FastPages(app.wsgi_app, app)
    return app


def _configure(app: Flask, test_config: dict | None) -> None:
    """The defaults, then the instance's config.py (or the test's mapping), a secret key, the
    database file private, and the host names this app answers to."""
    app.config.from_mapping(DATABASE=os.path.join(app.instance_path, "scorekeeper.sqlite"), **DEFAULTS)
    if test_config is None:
        app.config.from_pyfile(os.path.join(app.instance_path, "config.py"), silent=True)
        # its password is read again when set-password changes it on a running server (access.PasswordFile)
        app.config.setdefault("CONFIG_FILE", os.path.join(app.instance_path, "config.py"))
    else:
        app.config.from_mapping(test_config)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _secret_key(app.instance_path)
    _private_database(app.config["DATABASE"])
    # answer only to this machine's own names and addresses (and the owner's EXTRA_HOSTS): no
    # foreign name pointed at this machine (DNS rebinding) reaches the archive; others get 400
    if app.config.get("TRUSTED_HOSTS") is None:
        app.config["TRUSTED_HOSTS"] = addresses.own_names(app.config.get("EXTRA_HOSTS", ()))
    app.request_class = limits.Request


def _guard(app: Flask) -> None:
    """Before anything reads a body (the CSRF check reads the form): a body over the limit (413), a
    locked phone (access.guard), a change without the session's form token; in this order. The
    plain-HTTP server asks the same three from a request's head, before it receives a body
    (server/head_checks.py)."""
    app.before_request(limits.refuse_large_body)
    access.init_app(app, sheets.scoreboard_page)
    app.before_request(limits.refuse_without_csrf_session)
    app.extensions[limits.HEAD_CHECKS] = (limits.refuse_large_body, access.guard, limits.refuse_without_csrf_session)
    csrf.init_app(app)


def _keep_the_session(response):
    """A phone's session (its form token, its unlocked password) outlives closing the browser: a
    hand waiting in the phone's queue must still be accepted the next morning."""
    if session and not session.permanent:
        session.permanent = True
    return response


def _security_headers(response):
    """No inline script, no framing, no content sniffing; then the answer compressed (pagecache)."""
    response.headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
    response.headers.setdefault("X-Frame-Options", "DENY")
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("Referrer-Policy", "same-origin")
    return pagecache.compress(response)
