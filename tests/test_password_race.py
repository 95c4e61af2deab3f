"""Guessing the password from many connections at once: still at most five guesses checked.

Against the real server (waitress, eight threads) with real HTTP: the count of guesses must hold
however the requests arrive, not only one after another as the test client sends them.
"""

import http.client
import re
import threading
import time
from urllib.parse import urlencode

import pytest
from werkzeug.security import generate_password_hash

from scorekeeper.core.guesses import EVERYONE_ALLOWED, FAILURES_ALLOWED
from tests.conftest import make_app
from tests.helpers import served

GUESSES = 30


@pytest.fixture
def server(tmp_path):
    """The app with a password (a hash: checking one takes a while) served by waitress on a free port."""
    app = make_app(
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
    assert checked <= FAILURES_ALLOWED, f"{checked} of {GUESSES} passwords were checked"
    assert checked == FAILURES_ALLOWED  # the first five are checked, not fewer
    # and the right one now waits too
    assert _post_password(server, token, cookie, "pik dame") == 429


ADDRESSES = 30  # loopback addresses (127.0.0.2 ...), each sending two guesses: within its own limit


def _post_from(port, address, token, cookie, password, ready=None):
    """A password posted from another loopback address (its own connection, bound there)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60, source_address=(address, 0))
    connection.connect()
    body = urlencode({"csrf_token": token, "password": password, "next": "/"})
    headers = {"Content-Type": "application/x-www-form-urlencoded", "Cookie": cookie}
    if ready is not None:
        ready.wait()
    connection.request("POST", "/login", body=body, headers=headers)
    response = connection.getresponse()
    page = response.read().decode()
    connection.close()
    return response.status, page, response.getheader("Retry-After")


@pytest.mark.slow
def test_guesses_from_many_addresses_are_limited_in_all_and_the_owner_waits_briefly(tmp_path):
    """30 addresses × 2 guesses at once (each address within its own five): at most 20 checked in
    all; then the right password, from an address that guessed nothing, waits too (the page says a
    minute; here the window is 6 s) and is let in once the window has passed."""
    window = 6.0
    app = make_app(
        {
            "TESTING": True,
            "SECRET_KEY": "race",
            "DATABASE": str(tmp_path / "many.sqlite"),
            "PASSWORD_HASH": generate_password_hash("pik dame"),
            "LOGIN_GUESSES_EVERYONE_WINDOW": window,
        }
    )
    with served(app) as port:
        token, cookie = _login_form(port)
        guesses = [(f"127.0.0.{2 + i % ADDRESSES}", f"falsch {i}") for i in range(2 * ADDRESSES)]
        ready = threading.Barrier(len(guesses))
        answers = [None] * len(guesses)

        def guess(i):
            answers[i] = _post_from(port, guesses[i][0], token, cookie, guesses[i][1], ready)

        started = time.monotonic()
        threads = [threading.Thread(target=guess, args=(i,)) for i in range(len(guesses))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
        statuses = [answer[0] for answer in answers]
        checked, refused = statuses.count(403), statuses.count(429)
        assert checked + refused == len(guesses), statuses
        assert checked == EVERYONE_ALLOWED, f"{checked} of {len(guesses)} passwords were checked"
        assert time.monotonic() - started < window, "the guesses took longer than the window: nothing was tested"
        status, page, retry = _post_from(port, "127.0.0.200", token, cookie, "pik dame")
        assert status == 429 and "Wait a minute" in page and 1 <= int(retry) <= window
        time.sleep(window)
        status, _, _ = _post_from(port, "127.0.0.200", token, cookie, "pik dame")
        assert status == 302  # the owner is in again once the window has passed
