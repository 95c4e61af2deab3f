"""The tests' one app per process (conftest ``_renewed``): renewed for a test, it is the app a fresh
``create_app`` makes on that test's database, with nothing of what the last test did to it."""

import shutil
import threading

import pytest

from tests.conftest import _renewed, make_app
from tests.helpers import NAMES4, post_hand, side_fields, start_game


def _state(value, depth=2):
    """What an object keeps, as plain data to compare: its attributes, locks and threads by type only."""
    if isinstance(value, (type(threading.Lock()), type(threading.RLock()), threading.Condition, threading.Thread)):
        return type(value).__name__
    if isinstance(value, dict):
        return {k: _state(v, depth) for k, v in value.items()} if depth else type(value).__name__
    if isinstance(value, (list, tuple, set, frozenset)) and depth:
        return type(value).__name__, [_state(v, depth - 1) for v in value]
    if hasattr(value, "__dict__") and depth and not callable(value):
        return type(value).__name__, _state(vars(value), depth - 1)
    return value if isinstance(value, (str, int, float, bool, type(None))) else type(value).__name__


def _kept(app):
    """Everything of an app a request can change or a test can set: its configuration, what it keeps
    in ``extensions``, its session cookies' signer and its page cache."""
    return {
        "config": dict(app.config),
        "extensions": {key: _state(value) for key, value in app.extensions.items()},
        "sessions": _state(app.session_interface),
        "pages": _state(app.wsgi_app.cache),
    }


def test_a_renewed_app_is_a_fresh_app_on_the_next_database(tmp_path, migrated_database):
    paths = [str(tmp_path / name) for name in ("first.sqlite", "second.sqlite")]
    for path in paths:
        shutil.copy(migrated_database, path)
    app = _renewed(paths[0])
    client = app.test_client()
    game = start_game(client, names=NAMES4)
    post_hand(client, game, side_fields(0, melded=120, went_out="yes"), side_fields(1, melded=45))
    sheet = client.get(f"/games/{game}")
    assert sheet.status_code == 200 and "Anna" in sheet.text
    assert client.get(f"/games/{game}").text == sheet.text  # served again, from the page cache
    assert client.get("/static/style.css").status_code == 200
    assert client.get("/sw.js").status_code == client.get("/hand.js").status_code == 200  # both kept once made
    app.config["PROPAGATE_EXCEPTIONS"] = False  # what a test may set
    app.config["SOMETHING_ELSE"] = 1

    renewed = _renewed(paths[1])
    fresh = make_app({"TESTING": True, "SECRET_KEY": "test", "DATABASE": paths[1]})
    assert renewed is app
    assert _kept(renewed) == _kept(fresh)
    # the same address with the same cookies: the page cache of the last test must not answer it
    again = client.get(f"/games/{game}")
    assert again.status_code == 404 and "Anna" not in again.text
    assert "Anna" not in client.get("/").text


def test_what_a_test_adds_to_the_shared_app_fails_its_next_renewal(tmp_path, migrated_database):
    """Routes, hooks, template globals: a renewal cannot take them back, so it refuses to go on."""
    paths = [str(tmp_path / name) for name in ("first.sqlite", "second.sqlite", "third.sqlite")]
    for path in paths:
        shutil.copy(migrated_database, path)
    app = _renewed(paths[0])
    app.jinja_env.globals["left_behind"] = "by a test"
    try:
        with pytest.raises(AssertionError, match="make_app"):
            _renewed(paths[1])
    finally:
        del app.jinja_env.globals["left_behind"]
    assert _renewed(paths[2]) is app
