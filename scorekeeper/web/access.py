"""Who may look and who may change: an optional password for the whole archive, and read-only links.

Without a password (the default) everyone on the network may use the app, as at a kitchen table.
With ``PASSWORD_HASH`` (written by ``flask --app scorekeeper set-password``) or ``PASSWORD`` in
``instance/config.py``, every page and every change needs the password once per phone (the phone
is then remembered); a game can still be shown to anyone through its read-only link, which lets
them follow the score live and change nothing.

An unlocked phone's session carries a random id of its own. "Lock this phone" revokes that id on
the server, and ``set-password`` starts a new generation, so a copy of an old cookie opens nothing
afterwards; both are kept in a small file beside the database (mode 600), so a restart keeps them.
"""

from __future__ import annotations

import hashlib
import hmac
import math
import os
import re
import secrets
import threading
import time
from datetime import datetime, timezone
from pathlib import Path

import click
from flask import (
    Blueprint,
    Config,
    abort,
    current_app,
    jsonify,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask.cli import with_appcontext
from flask.globals import _cv_request
from flask.sessions import SecureCookieSessionInterface
from flask_babel import gettext
from itsdangerous import BadSignature, URLSafeSerializer, URLSafeTimedSerializer
from werkzeug.security import check_password_hash, generate_password_hash

from scorekeeper.core import guesses
from scorekeeper.storage import sessions
from scorekeeper.storage.db import get_db
from scorekeeper.web import table_seat
from scorekeeper.web.redirects import safe_path, same_site_path

bp = Blueprint("access", __name__)

# Pages anyone may open even when a password is set: logging in, the app shell, the rule tables,
# the stateless scoring API and the read-only links. None of them shows anything of the archive
# (the first step of a new game is not among them: with ``?evening=`` it shows an evening).
OPEN_ENDPOINTS = {
    "static",
    "access.login",
    "access.view",
    "access.view_version",
    "appfiles.service_worker",
    "appfiles.hand_script",  # the hand form's script, as static/hand/ (open like every static file)
    "appfiles.manifest",
    "appfiles.offline",
    "phone.prefs",
    "games.reference",
    "api.list_variants",
    "api.score",
    "api.openapi_document",
    "trust.page",  # the certificate for HTTPS: public, and fetched before the phone can use HTTPS
    "trust.certificate",
}
THROTTLE = "scorekeeper_login_throttle"
SESSIONS = "scorekeeper_sessions"
SCOREBOARD = "scorekeeper_scoreboard_page"


PASSWORD_KEYS = ("PASSWORD_HASH", "PASSWORD")
PASSWORD_FILE = "scorekeeper_password_file"


class PasswordFile:
    """The password as the instance's config file holds it now: ``set-password`` on a running
    server takes effect at the next request (the old password and every old cookie stop working),
    without a restart: it starts a new generation of the sessions, whose change mark the next
    request sees without a system call (storage/sessions.py), and that request looks at the file. A
    file edited by hand is looked at within HAND_EDIT_LOOK seconds. The file is read again only when
    it changed (another inode, time or size). A file that cannot be read or run (half edited) or that
    is gone keeps the password known: the archive is never opened by a broken file."""

    HAND_EDIT_LOOK = 1.0

    def __init__(self, path: str | None) -> None:
        self.path = path
        self.lock = threading.Lock()
        self.stamp: tuple[int, int, int, int] | None = None
        self.seen: bytes | None = None  # the sessions' change mark when the file was last looked at
        self.next_look = 0.0  # when a hand edit is looked for next (time.monotonic)

    def refresh(self, app) -> None:
        if self.path is None:
            return
        mark, now = _sessions(app).change_mark(), time.monotonic()
        if mark is not None and mark == self.seen and now < self.next_look:
            return
        if self._look(app):  # marked as seen only once the file is taken in: the others wait for it
            self.seen, self.next_look = mark, now + self.HAND_EDIT_LOOK

    def _look(self, app) -> bool:
        """Read the file again if it changed; False while it cannot be read (looked at again next time)."""
        stamp = sessions.file_stamp(self.path)
        if stamp is None or stamp == self.stamp:
            return True
        with self.lock:
            if stamp == self.stamp:
                return True
            fresh = Config(app.root_path)
            try:
                fresh.from_pyfile(self.path)
            except Exception:  # noqa: BLE001 - a file being edited: keep what is known, read it again next time
                return False
            for key in PASSWORD_KEYS:
                if key in fresh:
                    app.config[key] = fresh[key]
                else:
                    app.config.pop(key, None)
            self.stamp = stamp
        return True


def _sessions_file(app) -> str | None:
    """``SESSIONS_FILE``, else beside the database (``instance/sessions.json``); None for a database
    in memory."""
    configured = app.config.get("SESSIONS_FILE")
    if configured:
        return str(configured)
    database = str(app.config.get("DATABASE", ""))
    if not database or database == ":memory:" or database.startswith("file:"):
        return None
    return str(Path(database).with_name("sessions.json"))


def _sessions(app=None) -> sessions.Sessions:
    return (app or current_app).extensions[SESSIONS]


def current(app) -> tuple[str, int]:
    """The password and its generation as they are now (read again if ``set-password`` changed
    them): part of the key of every page kept for a cookie (pagecache.FastPages), so no kept page
    outlives a new password."""
    app.extensions[PASSWORD_FILE].refresh(app)
    secret = app.config.get("PASSWORD_HASH") or app.config.get("PASSWORD") or ""
    return str(secret), _sessions(app).current_generation()


def password_set(app=None) -> bool:
    """Whether this instance has a password."""
    config = (app or current_app).config
    return bool(config.get("PASSWORD_HASH") or config.get("PASSWORD"))


def _password_now() -> tuple[str | None, str]:
    """The password as the app knows it now: its hash, and the plain one of an older config file."""
    config = current_app.config
    return config.get("PASSWORD_HASH"), str(config.get("PASSWORD") or "")


def _fingerprint(secret: str | None = None) -> str:
    """What an unlocked phone's session holds: changes when the password or its generation changes,
    so a new password locks out every phone that knew the old one (``secret``: the password's hash or
    plain text it is made for; the app's now when not given)."""
    if secret is None:
        secret = current_app.config.get("PASSWORD_HASH") or current_app.config.get("PASSWORD") or ""
    message = f"{_sessions().current_generation()}:{secret}".encode()
    return hmac.new(current_app.secret_key.encode(), message, hashlib.sha256).hexdigest()[:32]


def unlocked() -> bool:
    """Whether this request may see and change everything."""
    if not password_set():
        return True
    sid = session.get("sid")
    return (
        isinstance(sid, str)
        and hmac.compare_digest(str(session.get("unlocked", "")), _fingerprint())
        and not _sessions().is_revoked(sid)
    )


def _check(password: str, hashed: str | None, plain: str) -> bool:
    """Whether ``password`` is the one given (its hash, else the plain one of an older config file)."""
    if hashed:
        return check_password_hash(hashed, password)
    return hmac.compare_digest(password.encode(), plain.encode())


def guard():
    """Before every request: with a password, a locked phone is sent to the password page (pages),
    or answered 401 (the API and the phone's background requests). A new password in the config
    file is taken up first."""
    current_app.extensions[PASSWORD_FILE].refresh(current_app)
    if unlocked() or request.endpoint in OPEN_ENDPOINTS or request.endpoint is None:
        return None
    if request.blueprint == "api" or request.is_json or request.path.endswith((".json", "/version")):
        return jsonify(
            {
                "errors": [
                    {
                        "side": None,
                        "field": "password",
                        "message": gettext(
                            "This app is protected by a password: open it in the browser and enter the password first."
                        ),
                        "shared": False,
                    }
                ]
            }
        ), 401
    if request.method in ("GET", "HEAD"):
        return redirect(url_for("access.login", next=safe_path(request.full_path.rstrip("?"))))
    return render_template(
        "login.html",
        next=same_site_path(request.referrer, request.host),
        error=gettext("Enter the password first; then send it again."),
    ), 401


def _forget_cached_pages() -> None:
    """Pages kept per cookie (pagecache.FastPages) must not outlive a revoked cookie."""
    cache = getattr(current_app.wsgi_app, "cache", None)
    if cache is not None and hasattr(cache, "entries"):
        with cache.lock:
            cache.entries.clear()


@bp.route("/login", methods=["GET", "POST"])
def login():
    """Enter the password once per phone."""
    target = safe_path(request.values.get("next"), url_for("games.index"))
    if not password_set() or unlocked():
        return redirect(target)
    error = None
    status = 200
    if request.method == "POST":
        address = request.remote_addr or "?"
        throttle: guesses.Throttle = current_app.extensions[THROTTLE]
        slot = throttle.reserve(address)  # before the check: guesses sent at once count too
        busy = throttle.everyone_busy() if slot is None and not throttle.spent(address) else 0.0
        if slot is None and busy > 0:
            # guesses from many addresses: every locked phone waits a little (at most a minute)
            error = gettext(
                "Too many passwords were tried on this app just now, from several phones. "
                "Wait a minute, then try again."
            )
            response = current_app.make_response((render_template("login.html", next=target, error=error), 429))
            response.headers["Retry-After"] = str(max(1, math.ceil(busy)))
            return response
        if slot is None:
            error, status = gettext("Too many wrong passwords. Wait five minutes, then try again."), 429
        elif _check(request.form.get("password", ""), *(known := _password_now())):
            throttle.release(address, slot)
            session.clear()
            session.permanent = True
            session["sid"] = secrets.token_urlsafe(18)
            # of the password checked: one changed during the check (set-password) unlocks nothing
            session["unlocked"] = _fingerprint(known[0] or known[1])
            return redirect(target)
        else:
            error, status = gettext("That is not the password."), 403
    return render_template(
        "login.html", next=target, error=error, forget_pages=bool(request.args.get("locked"))
    ), status


@bp.post("/logout")
def logout():
    """Forget the password on this phone, and on the server: a copy of this cookie opens nothing."""
    sid = session.pop("sid", None)
    session.pop("unlocked", None)
    if isinstance(sid, str):
        _sessions().revoke(sid)
        _forget_cached_pages()
    # the login page then tells the phone's service worker to forget the pages it kept (names, scores)
    return redirect(url_for("access.login", locked=1) if password_set() else url_for("games.index"))


def _serializer() -> URLSafeSerializer:
    return URLSafeSerializer(current_app.secret_key, salt="read-only game link")


def view_token(game_id: int) -> str:
    """The token of a game's read-only link (it cannot be guessed without the instance's secret)."""
    return _serializer().dumps(game_id)


def _game_of(token: str) -> int:
    try:
        game_id = _serializer().loads(token)
    except BadSignature:
        abort(404)
    if not isinstance(game_id, int):
        abort(404)
    return game_id


@bp.get("/view/<token>")
def view(token: str):
    """A game's score sheet, read-only, following the game live (drawn by the page the app gave
    ``init_app``: the score sheet's module imports this one, not the other way round)."""
    return current_app.extensions[SCOREBOARD](_game_of(token), readonly=True, token=token)


@bp.get("/view/<token>/version")
def view_version(token: str):
    """The game's version for a read-only link's live updates (a tournament's game: with its table's
    round state, as the table's phone follows it)."""
    return table_seat.version_answer(get_db(), _game_of(token), datetime.now(timezone.utc))


@click.command("set-password")
@click.option(
    "--password", prompt=True, hide_input=True, confirmation_prompt=True, help="the new password (asked if not given)"
)
@with_appcontext
def set_password_command(password: str) -> None:
    """Set (or with an empty password, remove) the password that guards the archive."""
    path = Path(current_app.instance_path) / "config.py"
    lines = path.read_text().splitlines() if path.exists() else []
    lines = [line for line in lines if not re.match(r"\s*PASSWORD(_HASH)?\s*=", line)]
    if password:
        lines.append(f"PASSWORD_HASH = {generate_password_hash(password)!r}")
    # written whole and private (mode 600) beside, then put in place at once: a running server
    # reads it again at its next request (PasswordFile) and never sees a half-written file
    temporary = path.with_name(f"config.py.{secrets.token_hex(4)}.tmp")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as out:
        out.write("\n".join(lines) + ("\n" if lines else ""))
    os.replace(temporary, path)
    _sessions().new_generation()  # every phone unlocked with the old password is locked
    click.echo(
        "Password set: it holds at once, also for a running score keeper (no restart needed). "
        "Every phone asks for it once."
        if password
        else "Password removed: the running score keeper is open to everyone at once."
    )


class SchemeSessions(SecureCookieSessionInterface):
    """One session cookie per scheme. Over HTTPS it is ``__Secure-session``, flagged Secure (the
    browser never sends it over plain HTTP) and signed apart (its value copied into a plain-HTTP
    cookie opens nothing); plain HTTP keeps its own ``session`` cookie, so the plain-HTTP address
    goes on working, offline queue included, and asks for the password once for itself."""

    SECURE_NAME = "__Secure-session"

    def __init__(self) -> None:
        # the signing serializers by (keys, scheme): Flask makes one for every session opened and
        # saved, and making one runs its JSON serializer once (itsdangerous checks what it gives)
        self._serializers: dict[tuple, URLSafeTimedSerializer] = {}

    @staticmethod
    def _secure() -> bool:
        context = _cv_request.get(None)  # as has_request_context(), asked several times a request
        return context is not None and context.request.is_secure

    def get_cookie_name(self, app) -> str:
        return self.SECURE_NAME if self._secure() else super().get_cookie_name(app)

    def get_cookie_secure(self, app) -> bool:
        return self._secure() or super().get_cookie_secure(app)

    def get_signing_serializer(self, app):
        if not app.secret_key:
            return None
        secure = self._secure()
        key = (tuple(app.config["SECRET_KEY_FALLBACKS"] or ()), app.secret_key, secure)
        made = self._serializers.get(key)
        if made is None:
            made = self._make_serializer(app, secure)
            if len(self._serializers) > 8:  # keys changed while running (a test's app): start again
                self._serializers.clear()
            self._serializers[key] = made
        return made

    def _make_serializer(self, app, secure: bool):
        plain = super().get_signing_serializer(app)
        if plain is None or not secure:
            return plain
        return URLSafeTimedSerializer(
            plain.secret_keys,
            salt="cookie-session-https",
            serializer=self.serializer,
            signer_kwargs=plain.signer_kwargs,
        )

    def open_session(self, app, request):
        """The session as the plain-HTTP server's head check decoded it from this very cookie
        (``HEAD_SESSION``: its data, read once), else decoded here as Flask does."""
        handed = request.environ.pop(HEAD_SESSION, None)
        if handed is not None and not self._secure():
            name, value, data = handed
            if name == self.get_cookie_name(app) and value == request.cookies.get(name):
                return self.session_class(data)
        return super().open_session(app, request)

    def head_handover(self, app, request, session) -> tuple | None:
        """What the head check gives the app's request of the same head (``HEAD_SESSION``): the
        session's data as decoded from its cookie, when nothing changed it since."""
        if session is None or session.modified or self._secure():
            return None
        name = self.get_cookie_name(app)
        return name, request.cookies.get(name), dict(session)


# The environ key of the session the head check decoded (server/head_checks.py), for the app to use
# instead of decoding the same cookie again. No client can set it: a header's key starts with HTTP_.
HEAD_SESSION = "scorekeeper.head_session"


def start_counts(app) -> None:
    """What the app counts and keeps between requests, made from its configuration, none counted
    yet: the wrong guesses, the phones' sessions (beside the database), the password file looked
    at, the session cookies' signers."""
    app.session_interface = SchemeSessions()
    app.extensions[THROTTLE] = guesses.Throttle(
        everyone_allowed=int(app.config.get("LOGIN_GUESSES_EVERYONE", guesses.EVERYONE_ALLOWED)),
        everyone_window=float(app.config.get("LOGIN_GUESSES_EVERYONE_WINDOW", guesses.EVERYONE_WINDOW)),
    )
    app.extensions[SESSIONS] = sessions.Sessions(_sessions_file(app), app.permanent_session_lifetime.total_seconds())
    app.extensions[PASSWORD_FILE] = PasswordFile(app.config.get("CONFIG_FILE"))


def init_app(app, scoreboard_page) -> None:
    """Register the guard, the pages and the command; the app's own count of guesses and sessions.
    ``scoreboard_page(game_id, readonly, token)`` draws a read-only link's score sheet."""
    app.extensions[SCOREBOARD] = scoreboard_page
    start_counts(app)
    app.before_request(guard)
    app.register_blueprint(bp)
    app.cli.add_command(set_password_command)
    app.jinja_env.globals.update(unlocked=unlocked, password_set=password_set, view_token=view_token)
