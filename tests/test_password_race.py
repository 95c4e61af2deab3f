"""Guessing the password from many connections at once: still at most five guesses checked.

Against the real server (waitress, eight threads) with real HTTP: the count of guesses must hold
however the requests arrive, not only one after another as the test client sends them.
"""

import http.client
import re
import threading
from urllib.parse import urlencode

import pytest
from werkzeug.security import generate_password_hash

from scorekeeper import access, create_app
from tests.helpers import served

GUESSES = 30


@pytest.fixture
def server(tmp_path):
    """The app with a password (a hash: checking one takes a while) served by waitress on a free port."""
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "race",
            "DATABASE": str(tmp_path / "race.sqlite"),
            "PASSWORD_HASH": generate_password_hash("pik dame"),
        }
    )
    with served(app) as port:
        yield port


def _login_form(port):
    """A CSRF token and the session cookie that goes with it, as a browser gets them."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    connection.request("GET", "/login")
    response = connection.getresponse()
    page = response.read().decode()
    cookie = response.getheader("Set-Cookie").split(";", 1)[0]
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    connection.close()
    return token, cookie


def _post_password(port, token, cookie, password, ready=None):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    connection.connect()
    body = urlencode({"csrf_token": token, "password": password, "next": "/"})
    headers = {"Content-Type": "application/x-www-form-urlencoded", "Cookie": cookie}
    if ready is not None:
        ready.wait()  # every thread sends at the same instant
    connection.request("POST", "/login", body=body, headers=headers)
    response = connection.getresponse()
    response.read()
    connection.close()
    return response.status


def test_thirty_guesses_at_once_check_at_most_five(server):
    token, cookie = _login_form(server)
    ready = threading.Barrier(GUESSES)
    statuses = [None] * GUESSES

    def guess(i):
        statuses[i] = _post_password(server, token, cookie, f"falsch {i}", ready)

    threads = [threading.Thread(target=guess, args=(i,)) for i in range(GUESSES)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    checked, refused = statuses.count(403), statuses.count(429)
    assert checked + refused == GUESSES, statuses
    assert checked <= access.FAILURES_ALLOWED, f"{checked} of {GUESSES} passwords were checked"
    assert checked == access.FAILURES_ALLOWED  # the first five are checked, not fewer
    # and the right one now waits too
    assert _post_password(server, token, cookie, "pik dame") == 429
