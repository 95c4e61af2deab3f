"""Who may look and who may change: an optional password for the whole archive, and read-only links.

Without a password (the default) everyone on the network may use the app, as at a kitchen table.
With ``PASSWORD_HASH`` (written by ``flask --app scorekeeper set-password``) or ``PASSWORD`` in
``instance/config.py``, every page and every change needs the password once per phone (the phone
is then remembered); a game can still be shown to anyone through its read-only link, which lets
them follow the score live and change nothing.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import threading
import time
from pathlib import Path

import click
from flask import (
    Blueprint,
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
from flask_babel import gettext
from itsdangerous import BadSignature, URLSafeSerializer
from werkzeug.security import check_password_hash, generate_password_hash

bp = Blueprint("access", __name__)

# Pages anyone may open even when a password is set: logging in, the app shell, the rule tables,
# the stateless scoring API and the read-only links.
OPEN_ENDPOINTS = {
    "static",
    "access.login",
    "access.view",
    "access.view_version",
    "games.service_worker",
    "games.manifest",
    "games.offline",
    "games.prefs",
    "games.reference",
    "games.choose_rules",
    "api.list_variants",
    "api.score",
}
FAILURES_ALLOWED = 5  # wrong passwords per address ...
FAILURE_WINDOW = 300  # ... within this many seconds, then a pause
_failures: dict[str, list[float]] = {}
_failures_lock = threading.Lock()


def password_set(app=None) -> bool:
    """Whether this instance has a password."""
    config = (app or current_app).config
    return bool(config.get("PASSWORD_HASH") or config.get("PASSWORD"))


def _fingerprint() -> str:
    """What an unlocked phone's session holds: changes when the password changes, so a new password
    locks out every phone that knew the old one."""
    secret = current_app.config.get("PASSWORD_HASH") or current_app.config.get("PASSWORD") or ""
    return hmac.new(current_app.secret_key.encode(), secret.encode(), hashlib.sha256).hexdigest()[:32]


def unlocked() -> bool:
    """Whether this request may see and change everything."""
    return not password_set() or hmac.compare_digest(session.get("unlocked", ""), _fingerprint())


def _check(password: str) -> bool:
    config = current_app.config
    if config.get("PASSWORD_HASH"):
        return check_password_hash(config["PASSWORD_HASH"], password)
    return hmac.compare_digest(password.encode(), str(config.get("PASSWORD", "")).encode())


def _too_many(address: str) -> bool:
    now = time.monotonic()
    with _failures_lock:
        recent = [t for t in _failures.get(address, []) if now - t < FAILURE_WINDOW]
        _failures[address] = recent
        return len(recent) >= FAILURES_ALLOWED


def _failed(address: str) -> None:
    with _failures_lock:
        _failures.setdefault(address, []).append(time.monotonic())


def guard():
    """Before every request: with a password, a locked phone is sent to the password page (pages),
    or answered 401 (the API and the phone's background requests)."""
    if unlocked() or request.endpoint in OPEN_ENDPOINTS or request.endpoint is None:
        return None
    if request.blueprint == "api" or request.is_json or request.path.endswith(".json"):
        return jsonify(
            {
                "errors": [
                    {
                        "side": None,
                        "field": "password",
                        "message": gettext(
                            "This app is protected by a password: open it in the browser and enter the password first."
                        ),
                    }
                ]
            }
        ), 401
    if request.method in ("GET", "HEAD"):
        return redirect(url_for("access.login", next=request.full_path.rstrip("?")))
    return render_template(
        "login.html", next=request.referrer or "/", error=gettext("Enter the password first; then send it again.")
    ), 401


def _safe_next(target: str | None) -> str:
    """Only a path on this site (never another site) to go back to after the password."""
    if target and target.startswith("/") and not target.startswith("//") and not re.search(r"[\\\r\n]", target):
        return target
    return url_for("games.index")


@bp.route("/login", methods=["GET", "POST"])
def login():
    """Enter the password once per phone."""
    target = _safe_next(request.values.get("next"))
    if not password_set() or unlocked():
        return redirect(target)
    error = None
    status = 200
    if request.method == "POST":
        address = request.remote_addr or "?"
        if _too_many(address):
            error, status = gettext("Too many wrong passwords. Wait five minutes, then try again."), 429
        elif _check(request.form.get("password", "")):
            session.clear()
            session.permanent = True
            session["unlocked"] = _fingerprint()
            return redirect(target)
        else:
            _failed(address)
            error, status = gettext("That is not the password."), 403
    return render_template("login.html", next=target, error=error), status


@bp.post("/logout")
def logout():
    """Forget the password on this phone."""
    session.pop("unlocked", None)
    return redirect(url_for("access.login") if password_set() else url_for("games.index"))


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
    """A game's score sheet, read-only, following the game live."""
    from . import games

    return games.scoreboard_page(_game_of(token), readonly=True, token=token)


@bp.get("/view/<token>/version")
def view_version(token: str):
    """The game's version for a read-only link's live updates."""
    from . import api

    return api.game_version(_game_of(token))


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
    path.write_text("\n".join(lines) + ("\n" if lines else ""))
    path.chmod(0o600)
    click.echo(
        "Password set; restart the app. Every phone asks for it once."
        if password
        else "Password removed; restart the app."
    )


def init_app(app) -> None:
    """Register the guard, the pages and the command."""
    app.before_request(guard)
    app.register_blueprint(bp)
    app.cli.add_command(set_password_command)
    app.jinja_env.globals.update(unlocked=unlocked, password_set=password_set, view_token=view_token)
