"""The floor of an honest save on this stack: a minimal Flask app served like the score keeper
(waitress, same threads) whose form POST does what any save must and nothing else: the CSRF check
(Flask-WTF), a session write (the cookie set again), one row committed to SQLite in WAL mode with
``synchronous = FULL`` (on the disk before the answer), and a redirect.

.venv/bin/python benchmarks/floor.py --port 8102 --database /tmp/floor.sqlite

``GET /form`` gives the form's CSRF token (as the hand form does); ``POST /`` saves (302).
"""

from __future__ import annotations

import argparse
import sqlite3
import threading

from flask import Flask, redirect, request, session
from flask_wtf.csrf import CSRFProtect, generate_csrf
from waitress import serve

app = Flask(__name__)
app.config.update(SECRET_KEY="floor", WTF_CSRF_TIME_LIMIT=None)
CSRFProtect(app)
local = threading.local()


def connection() -> sqlite3.Connection:
    """This thread's connection, opened once, as the score keeper keeps one per thread."""
    if not hasattr(local, "db"):
        local.db = sqlite3.connect(app.config["DATABASE"], isolation_level=None)
        local.db.execute("PRAGMA journal_mode = WAL")
        local.db.execute("PRAGMA synchronous = FULL")
        local.db.execute("PRAGMA busy_timeout = 2000")
    return local.db


@app.get("/form")
def form():
    """The form's token."""
    return f'<input name="csrf_token" value="{generate_csrf()}">'


@app.post("/")
def save():
    """One row, committed; a session write; a redirect."""
    db = connection()
    db.execute("BEGIN IMMEDIATE")
    db.execute("insert into saves (client_key, body) values (?, ?)", (request.form["client_key"], len(request.form)))
    db.execute("COMMIT")
    session["saved"] = session.get("saved", 0) + 1
    return redirect("/form")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=8102)
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument("--database", required=True)
    args = parser.parse_args()
    app.config["DATABASE"] = args.database
    with sqlite3.connect(args.database) as db:
        db.execute("PRAGMA journal_mode = WAL")
        db.execute("create table if not exists saves (id integer primary key, client_key text unique, body integer)")
    serve(app, host="127.0.0.1", port=args.port, threads=args.threads, ident="floor")
