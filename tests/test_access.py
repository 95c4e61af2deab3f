"""No way in for strangers: the optional password, read-only links, escaping, security headers."""

import html
import os
import re
import socket
import unicodedata
from urllib.parse import quote, unquote, urljoin, urlsplit

import pytest

from scorekeeper.core import guesses
from scorekeeper.network import addresses
from scorekeeper.web import access
from scorekeeper.web.redirects import safe_path
from tests.conftest import csrf_token, make_app, token_on_page
from tests.helpers import post_hand, quick_hash, side_fields, start_game, totals

LOCKED = {"TESTING": True, "SECRET_KEY": "test", "PASSWORD_HASH": quick_hash("rote drei")}


@pytest.fixture
def locked_app(tmp_path):
    return make_app({**LOCKED, "DATABASE": str(tmp_path / "p.sqlite")})


def _unlock(client, password="rote drei", next_url="/"):
    token = csrf_token(client, "/login")
    return client.post("/login", data={"csrf_token": token, "password": password, "next": next_url})


def test_without_a_password_everything_is_open(client):
    assert client.get("/").status_code == 200
    assert client.get("/login").status_code == 302  # nothing to unlock
    assert "Lock this phone" not in client.get("/").text


def test_a_stranger_sees_only_the_password_page(locked_app):
    stranger = locked_app.test_client()
    for url in ("/", "/games/new/classic", "/history", "/stats", "/players", "/export", "/evenings"):
        response = stranger.get(url)
        assert response.status_code == 302 and response.headers["Location"].startswith("/login"), url
    assert stranger.get("/api/games/1").status_code == 401
    assert stranger.get("/export.json").status_code == 401
    assert "password" in stranger.get("/api/games/1").json["errors"][0]["message"]
    # the shell, the rule tables and the stateless API stay open
    for url in (
        "/login",
        "/sw.js",
        "/manifest.webmanifest",
        "/offline",
        "/rules/classic",
        "/api/variants",
        "/static/style.css",
    ):
        assert stranger.get(url).status_code == 200, url


def test_a_change_without_the_password_is_refused(locked_app):
    owner = locked_app.test_client()
    _unlock(owner)
    game_id = start_game(owner)
    stranger = locked_app.test_client()
    token = csrf_token(stranger, "/login")
    response = stranger.post(
        f"/games/{game_id}/hands/new", data={"csrf_token": token, **side_fields(0), **side_fields(1)}
    )
    assert response.status_code == 401 and "Enter the password first" in response.text
    assert (
        stranger.post(
            f"/games/{game_id}/hands.json", json={"client_key": "x" * 10}, headers={"X-CSRFToken": token}
        ).status_code
        == 401
    )
    assert totals(owner.get(f"/games/{game_id}").text) == [0, 0]


def test_wrong_password_then_right_one_goes_back_where_it_was(locked_app):
    phone = locked_app.test_client()
    assert phone.get("/history").headers["Location"] == "/login?next=/history"
    wrong = _unlock(phone, "schwarze drei", "/history")
    assert wrong.status_code == 403 and "not the password" in wrong.text
    right = _unlock(phone, next_url="/history")
    assert right.status_code == 302 and right.headers["Location"] == "/history"
    assert phone.get("/history").status_code == 200
    assert "Lock this phone" in phone.get("/").text


def test_the_next_page_is_never_another_site(locked_app):
    phone = locked_app.test_client()
    for target in ("https://evil.example/", "//evil.example/", "/\\evil.example"):
        assert _unlock(phone, next_url=target).headers["Location"] == "/"
        phone.post("/logout", data={"csrf_token": csrf_token(phone, "/")})


def test_guessing_is_slowed_down(locked_app):
    phone = locked_app.test_client()
    for _ in range(guesses.FAILURES_ALLOWED):
        assert _unlock(phone, "guess").status_code == 403
    assert _unlock(phone).status_code == 429  # even the right one waits now


def test_locking_the_phone_and_changing_the_password(locked_app):
    phone = locked_app.test_client()
    _unlock(phone)
    assert phone.get("/").status_code == 200
    phone.post("/logout", data={"csrf_token": csrf_token(phone, "/")})
    assert phone.get("/").status_code == 302
    _unlock(phone)
    locked_app.config["PASSWORD_HASH"] = quick_hash("neu")
    assert phone.get("/").status_code == 302  # a new password locks every phone


def test_a_read_only_link_follows_the_game_and_changes_nothing(locked_app):
    owner = locked_app.test_client()
    _unlock(owner)
    game_id = start_game(owner)
    post_hand(
        owner, game_id, side_fields(0, went_out="normal", natural=1, melded=200), side_fields(1, melded=50, hand=30)
    )
    page = owner.get(f"/games/{game_id}").text
    link = re.search(r'class="share-url" href="https?://[^/]+(/view/[^"]+)"', page).group(1)
    guest = locked_app.test_client()
    view = guest.get(link)
    assert view.status_code == 200
    assert totals(view.text) == totals(page)
    assert "Enter hand" not in view.text and "Edit hand" not in view.text and "/delete" not in view.text
    assert guest.get(link + "/version").json["version"] >= 1
    assert re.search(r'data-live-url="/view/[^"]+/version"', view.text)
    assert guest.get(f"/games/{game_id}").status_code == 302
    assert guest.get(f"/games/{game_id}/hands/new").status_code == 302
    assert guest.get(link[:-3] + "xyz").status_code == 404  # a forged token


def test_set_password_command_writes_a_hash_to_the_instance_config(tmp_path, monkeypatch):
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(tmp_path))
    (tmp_path / "config.py").write_text("SOMETHING = 1\nPASSWORD = 'old'\n")
    app = make_app({"TESTING": True, "SECRET_KEY": "t", "DATABASE": str(tmp_path / "c.sqlite")})
    result = app.test_cli_runner().invoke(args=["set-password", "--password", "karo"])
    assert result.exit_code == 0, result.output
    config = (tmp_path / "config.py").read_text()
    assert "SOMETHING = 1" in config and "'old'" not in config and "karo" not in config
    assert "PASSWORD_HASH = " in config
    fresh = make_app(None)
    assert access.password_set(fresh)


def test_names_with_html_are_shown_as_text(client):
    game_id = start_game(client, names=["<script>alert(1)</script>", "Bert", "<b>C</b>", "Dora"])
    page = client.get(f"/games/{game_id}").text
    assert "<script>alert(1)</script>" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "<b>C</b>" not in page
    for url in ("/", "/players", "/history", "/stats", f"/games/{game_id}/hands/new"):
        assert "<script>alert" not in client.get(url).text, url


def test_security_headers_on_every_page(client):
    for url in ("/", "/games/new/classic", "/login", "/api/variants", "/nothing-here"):
        headers = client.get(url).headers
        assert (
            "script-src 'self'" in headers["Content-Security-Policy"]
            and "unsafe-inline" not in headers["Content-Security-Policy"]
        )
        assert "frame-ancestors 'none'" in headers["Content-Security-Policy"]
        assert headers["X-Frame-Options"] == "DENY" and headers["X-Content-Type-Options"] == "nosniff"


def test_no_inline_script_in_any_page(client):
    game_id = start_game(client)
    for url in ("/", f"/games/{game_id}", f"/games/{game_id}/hands/new", "/history", "/stats", "/export"):
        page = client.get(url).text
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", page), url
        assert not re.search(r"\son[a-z]+=", page), url


def test_no_debug_mode_and_no_default_secret(tmp_path, monkeypatch):
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(tmp_path))
    app = make_app(None)
    assert not app.debug
    key = (tmp_path / "secret_key").read_text().strip()
    assert app.secret_key == key and len(key) >= 64
    assert oct((tmp_path / "secret_key").stat().st_mode)[-3:] == "600"
    other = tmp_path / "other"
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(other))
    assert make_app(None).secret_key != key  # generated per instance, never a built-in one


def test_the_cached_history_carries_each_phones_own_token(locked_app):
    """History is served from the page cache; the "Lock this phone" form on it must carry the
    token of the phone that asks, or locking would fail on every other phone."""
    first, second = locked_app.test_client(), locked_app.test_client()
    _unlock(first)
    _unlock(second)
    start_game(first)
    tokens = []
    for phone in (first, second):
        page = phone.get("/history").text
        assert "Anna" in page
        tokens.append(
            re.search(r'action="/logout">\s*<input type="hidden" name="csrf_token" value="([^"]+)"', page).group(1)
        )
    assert tokens[0] != tokens[1]
    assert second.post("/logout", data={"csrf_token": tokens[1]}).status_code == 302
    assert second.get("/history").status_code == 302  # locked: the cached page is not served
    start_game(first, names=["Eve", "Finn", "Gus", "Hal"])
    assert "Eve" in first.get("/history").text  # a new game shows at once


# --- one rule for every next=, revoked cookies, trusted hosts, private files -----------------------------

# Ways to turn "go back to this page" into "go to another site" that browsers are known to accept.
BYPASSES = [
    "/\t/evil.example/x",
    "/\n/evil.example/x",
    "/\r\n/evil.example/x",
    "\r\nLocation: //evil.example/",
    "/\\evil.example",
    "\\\\evil.example",
    "/\\/evil.example",
    "\\/evil.example",
    "//evil.example",
    "//evil.example/history",
    "///evil.example",
    "////evil.example",
    "/%2F%2Fevil.example",
    "%2F%2Fevil.example",
    "/%2f/evil.example",
    "/%5Cevil.example",
    "/%09/evil.example",
    "https://evil.example/",
    "http:/evil.example",
    "http:evil.example",
    "javascript:alert(1)",
    "JaVaScRiPt:alert(1)",
    " javascript:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    " //evil.example",
    "/ /evil.example",
    "/\x00/evil.example",
    "/\x0b/evil.example",
    "/\u2000/evil.example",
    "/\u2003/evil.example",
    "/\u200a/evil.example",
    "/\u200b/evil.example",
    "/\u2028/evil.example",
    "/\u3000/evil.example",
    "/\ufeff/evil.example",
    "\u3000//evil.example",
    "\ufeff//evil.example",
    "/\u00a0/evil.example",
]


def _stays_on_this_site(location):
    """How a browser reads a Location header (tabs and line breaks dropped, spaces and control
    characters at the ends trimmed, a backslash taken for a slash), decoded once more for a proxy
    that decodes: it must lead to this site."""
    assert location.startswith("/") and not location.startswith("//"), location
    assert not re.search(r"[\x00-\x20\x7f\\]", location), location
    for form in (location, unquote(location)):
        seen = re.sub(r"[\t\n\r]", "", form).strip("".join(map(chr, range(33)))).replace("\\", "/")
        seen = "".join(ch for ch in seen if not ch.isspace() and unicodedata.category(ch) not in ("Cf", "Zs"))
        assert urlsplit(urljoin("http://home.example/", seen)).netloc == "home.example", (location, seen)


@pytest.mark.parametrize("target", BYPASSES)
def test_safe_path_never_leads_to_another_site(target):
    result = safe_path(target)
    _stays_on_this_site(result)
    assert result == "/"  # none of them is a plain path here
    assert safe_path(target, "/history") == "/history"


def test_safe_path_keeps_a_path_on_this_site():
    assert safe_path("/history?player=1&variant=classic") == "/history?player=1&variant=classic"
    assert safe_path("/games/3#hands") == "/games/3#hands"
    assert safe_path("/players/%C3%84nne") == "/players/%C3%84nne"
    assert safe_path("/players/Änne") == "/players/%C3%84nne"  # sent percent-encoded
    assert safe_path(None) == "/" and safe_path("", "/x") == "/x"


@pytest.mark.slow  # a sweep over every case: run by CI, left out of the quick loop
@pytest.mark.parametrize("target", BYPASSES)
def test_every_next_on_the_site_stays_on_the_site(client, locked_app, target):
    """Through the real routes, with and without a password."""
    query = "next=" + quote(target, safe="")
    for response in (client.get(f"/login?{query}"), client.get(f"/prefs?{query}&large=1")):
        assert response.status_code == 302
        _stays_on_this_site(response.headers["Location"])
    phone = locked_app.test_client()
    prefs = phone.get(f"/prefs?{query}")
    assert prefs.status_code == 302
    _stays_on_this_site(prefs.headers["Location"])
    page = phone.get(f"/login?{query}").text
    _stays_on_this_site(html.unescape(re.search(r'name="next" value="([^"]*)"', page).group(1)))
    right = _unlock(phone, next_url=target)
    assert right.status_code == 302 and right.headers["Location"] == "/"


def test_a_form_sent_while_locked_goes_back_to_its_own_page_only(locked_app):
    phone = locked_app.test_client()
    token = csrf_token(phone, "/login")
    for referrer, expected in (
        ("http://localhost/games/1/hands/new", "/games/1/hands/new"),
        ("http://evil.example/games/1", "/"),
        ("http://localhost/\t/evil.example", "/"),
    ):
        page = phone.post("/games/1/hands/new", data={"csrf_token": token}, headers={"Referer": referrer})
        assert page.status_code == 401
        assert re.search(r'name="next" value="([^"]*)"', page.text).group(1) == expected


def test_each_app_counts_its_own_wrong_passwords(tmp_path):
    first = make_app({**LOCKED, "DATABASE": str(tmp_path / "a.sqlite")})
    second = make_app({**LOCKED, "DATABASE": str(tmp_path / "b.sqlite")})
    for _ in range(guesses.FAILURES_ALLOWED):
        assert _unlock(first.test_client(), "guess").status_code == 403
    assert _unlock(first.test_client(), "guess").status_code == 429
    assert _unlock(second.test_client(), "guess").status_code == 403  # no count shared between apps
    assert not hasattr(access, "_failures")


def test_the_right_password_is_not_held_against_the_address(locked_app):
    for _ in range(guesses.FAILURES_ALLOWED + 2):
        phone = locked_app.test_client()
        assert _unlock(phone).status_code == 302  # a family unlocking one phone after another


def _cookie(client):
    return client.get_cookie("session").value


def test_locking_the_phone_revokes_its_cookie_on_the_server(locked_app, tmp_path):
    phone = locked_app.test_client()
    _unlock(phone)
    game_id = start_game(phone)
    assert phone.get("/export.json").status_code == 200
    for _ in range(2):  # the score sheet, kept for this very cookie (pagecache.FastPages)
        assert phone.get(f"/games/{game_id}").status_code == 200
    copied = _cookie(phone)
    locked = phone.post("/logout", data={"csrf_token": csrf_token(phone, "/history")})
    assert locked.status_code == 302
    said = "This phone is locked: the pages it kept are forgotten, and the score keeper opens again with the password."
    assert said in phone.get(locked.headers["Location"]).text  # the phone says why it asks for the password
    assert said not in locked_app.test_client().get("/login").text  # a phone never unlocked: just the password
    thief = locked_app.test_client()
    thief.set_cookie("session", copied)
    assert thief.get("/export.json").status_code == 401
    assert thief.get(f"/games/{game_id}").status_code == 302
    assert thief.get("/history").status_code == 302
    # kept in the instance (mode 600): a restart does not bring the cookie back
    sessions = tmp_path / "sessions.json"
    assert oct(sessions.stat().st_mode)[-3:] == "600"
    restarted = make_app({**LOCKED, "DATABASE": str(tmp_path / "p.sqlite")})
    again = restarted.test_client()
    again.set_cookie("session", copied)
    assert again.get("/export.json").status_code == 401
    # the phone itself unlocks again with the password, under a new id
    _unlock(phone)
    assert phone.get("/export.json").status_code == 200


def test_a_new_password_revokes_every_phone_at_once(tmp_path, monkeypatch):
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(tmp_path))
    (tmp_path / "config.py").write_text(f"PASSWORD_HASH = {quick_hash('alt')!r}\n")
    app = make_app(None)
    phone = app.test_client()
    _unlock(phone, "alt")
    assert phone.get("/export.json").status_code == 200
    copied = _cookie(phone)
    result = app.test_cli_runner().invoke(args=["set-password", "--password", "neu"])
    assert result.exit_code == 0, result.output
    assert oct((tmp_path / "config.py").stat().st_mode)[-3:] == "600"
    thief = app.test_client()
    thief.set_cookie("session", copied)
    assert thief.get("/export.json").status_code == 401  # before the restart already
    restarted = make_app(None)
    thief = restarted.test_client()
    thief.set_cookie("session", copied)
    assert thief.get("/export.json").status_code == 401
    _unlock(phone, "neu")
    assert phone.get("/export.json").status_code == 200  # the running app takes the new password at once
    fresh = restarted.test_client()
    _unlock(fresh, "neu")
    assert fresh.get("/export.json").status_code == 200


def test_a_new_password_holds_at_once_on_the_running_server_and_its_page_cache(tmp_path, monkeypatch):
    """set-password while the server runs (another process): an old cookie gets no page, not even
    the score sheet kept for it in the page cache, and the old password stops working at once."""
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(tmp_path))
    (tmp_path / "config.py").write_text(f"EXTRA_HOSTS = []\nPASSWORD_HASH = {quick_hash('alt')!r}\n")
    app = make_app(None)
    phone = app.test_client()
    _unlock(phone, "alt")
    game_id = start_game(phone)
    for _ in range(2):  # the second is served from the page cache (pagecache.FastPages)
        page = phone.get(f"/games/{game_id}")
        assert page.status_code == 200 and "Anna" in page.text
    copied = _cookie(phone)
    other_process = make_app(None)
    result = other_process.test_cli_runner().invoke(args=["set-password", "--password", "neu"])
    assert result.exit_code == 0, result.output
    assert "no restart" in result.output
    thief = app.test_client()
    thief.set_cookie("session", copied)
    for url in (f"/games/{game_id}", "/history", "/"):
        answer = thief.get(url)
        assert answer.status_code == 302 and "/login" in answer.headers["Location"], url
        assert "Anna" not in answer.text
    assert phone.get(f"/games/{game_id}").status_code == 302  # the phone itself too
    guest = app.test_client()
    assert _unlock(guest, "alt").status_code == 403  # the old password no longer opens anything
    assert guest.get("/export.json").status_code == 401
    assert _unlock(guest, "neu").status_code == 302
    assert guest.get(f"/games/{game_id}").status_code == 200
    assert (tmp_path / "config.py").read_text().startswith("EXTRA_HOSTS = []\n")  # the rest of the file is kept
    # the password removed: open to everyone at once
    assert other_process.test_cli_runner().invoke(args=["set-password", "--password", ""]).exit_code == 0
    assert app.test_client().get(f"/games/{game_id}").status_code == 200


def test_a_config_file_being_edited_never_opens_the_archive(tmp_path, monkeypatch):
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(tmp_path))
    config = tmp_path / "config.py"
    config.write_text(f"PASSWORD_HASH = {quick_hash('alt')!r}\n")
    app = make_app(None)
    assert app.test_client().get("/history").status_code == 302
    config.write_text("PASSWORD_HASH = 'half")  # an editor saving half a line: not read
    assert app.test_client().get("/history").status_code == 302
    config.unlink()  # gone: the password known is kept
    assert app.test_client().get("/history").status_code == 302


def test_only_this_machines_names_are_answered(client):
    for host in ("evil.example", "evil.example:8000", "localhost.evil.example", "127.0.0.1.nip.io"):
        for url in ("/", "/login", "/api/variants", "/export.json"):
            response = client.get(url, headers={"Host": host})
            assert response.status_code == 400, (host, url)
            assert f"//{host}" not in response.text  # no link built on it
    hostname = socket.gethostname().lower()
    for host in ("localhost", "localhost:8000", "127.0.0.1:8000", "[::1]:8000", hostname, "192.168.1.20:8000"):
        assert client.get("/", headers={"Host": host}).status_code == 200, host
    for address in addresses.lan_addresses():
        assert client.get("/", headers={"Host": f"{address}:8000"}).status_code == 200, address


def test_the_owner_adds_names_in_the_instance_config(tmp_path, monkeypatch):
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(tmp_path))
    (tmp_path / "config.py").write_text("EXTRA_HOSTS = ['canasta.fritz.box', 'Karten.Example.Org']\n")
    app = make_app(None)
    phone = app.test_client()
    assert phone.get("/", headers={"Host": "canasta.fritz.box:8000"}).status_code == 200
    assert phone.get("/", headers={"Host": "karten.example.org"}).status_code == 200
    assert phone.get("/", headers={"Host": "evil.example"}).status_code == 400
    game_id = start_game(phone)
    page = phone.get(f"/games/{game_id}", headers={"Host": "canasta.fritz.box:8000"}).text
    assert f"http://canasta.fritz.box:8000/games/{game_id}" in page


def test_the_database_is_private(tmp_path):
    database = tmp_path / "private.sqlite"
    app = make_app({"TESTING": True, "SECRET_KEY": "t", "DATABASE": str(database)})
    start_game(app.test_client())
    files = [database, tmp_path / "private.sqlite-wal", tmp_path / "private.sqlite-shm"]
    assert files[0].exists() and any(f.exists() for f in files[1:])  # WAL mode: the side files are there
    for path in files:
        if path.exists():
            assert oct(path.stat().st_mode)[-3:] == "600", path
    # an older instance's database, readable by all, is made private on the next start
    old = tmp_path / "old.sqlite"
    for path in (old, tmp_path / "old.sqlite-wal"):
        path.write_bytes(b"")
        path.chmod(0o644)
    make_app({"TESTING": True, "SECRET_KEY": "t", "DATABASE": str(old)})
    assert oct(old.stat().st_mode)[-3:] == "600"
    assert oct((tmp_path / "old.sqlite-wal").stat().st_mode)[-3:] == "600"


def test_the_server_sets_a_private_umask(monkeypatch):
    from scorekeeper import __main__ as main_module

    calls = []
    monkeypatch.setattr(main_module, "serve", lambda *args, **kwargs: calls.append(os.umask(0o022)))
    monkeypatch.setattr(main_module, "create_app", lambda: None)
    monkeypatch.setattr(main_module, "close_for_exit", lambda app: None)
    monkeypatch.setattr(main_module, "lan_addresses", lambda: ())
    monkeypatch.setattr("sys.argv", ["scorekeeper"])
    before = os.umask(0o022)
    try:
        main_module.main()
    finally:
        os.umask(before)
    assert calls == [0o077]


def test_the_console_does_not_report_the_queue_depth_of_ordinary_play(monkeypatch, caplog):
    """waitress warns "Task queue depth is 1" whenever a request waits for a thread: not an error."""
    import logging

    from waitress.utilities import logger as waitress_logger
    from waitress.utilities import queue_logger

    from scorekeeper import __main__ as main_module

    def serve(*args, **kwargs):
        queue_logger.warning("Task queue depth is %d", 1)
        waitress_logger.error("a real error")

    monkeypatch.setattr(main_module, "serve", serve)
    monkeypatch.setattr(main_module, "create_app", lambda: None)
    monkeypatch.setattr(main_module, "close_for_exit", lambda app: None)
    monkeypatch.setattr(main_module, "lan_addresses", lambda: ())
    monkeypatch.setattr("sys.argv", ["scorekeeper"])
    monkeypatch.setattr(queue_logger, "level", queue_logger.level)  # restored after the test
    before = os.umask(0o022)
    try:
        with caplog.at_level(logging.WARNING):
            main_module.main()
    finally:
        os.umask(before)
    messages = [record.getMessage() for record in caplog.records]
    assert "a real error" in messages
    assert not any("queue depth" in message for message in messages)


def test_no_internal_header_leaves_the_app(client, locked_app):
    game_id = start_game(client)
    answers = [client.head(f"/games/{game_id}"), client.head("/history")]
    for _ in range(2):  # rendered, then from the cache
        answers += [client.get(f"/games/{game_id}"), client.get("/history"), client.head(f"/games/{game_id}")]
    answers.append(client.get(f"/games/{game_id}", headers={"Accept-Encoding": "gzip"}))
    phone = locked_app.test_client()
    _unlock(phone)
    game_id = start_game(phone)
    link = re.search(r'class="share-url" href="https?://[^/]+(/view/[^"]+)"', phone.get(f"/games/{game_id}").text)
    guest = locked_app.test_client()
    answers += [guest.get(link.group(1)), guest.get(link.group(1)), guest.head(link.group(1))]
    for response in answers:
        assert response.status_code == 200
        assert "X-Page-Cache" not in response.headers, response.request.path


def test_a_phone_unlocked_over_https_gets_a_secure_cookie_that_plain_http_does_not_take(locked_app):
    """Over HTTPS the session cookie is Secure (and apart from the plain-HTTP one); its value sent
    over plain HTTP, under either name, opens nothing there; plain HTTP keeps its own cookie."""
    phone = locked_app.test_client()
    token = token_on_page(phone, "https://localhost/login")  # the HTTPS login page's own form
    response = phone.post(
        "https://localhost/login",
        data={"csrf_token": token, "password": "rote drei", "next": "/history"},
        headers={"Referer": "https://localhost/login"},  # as a browser sends it (the CSRF check over HTTPS)
    )
    assert response.status_code == 302
    cookies = [c for c in response.headers.getlist("Set-Cookie") if "session" in c.split("=")[0]]
    assert cookies and all("; Secure" in c for c in cookies), cookies
    name, value = cookies[-1].split(";")[0].split("=", 1)
    assert phone.get("https://localhost/history").status_code == 200
    for plain_name in (name, "session"):
        stranger = locked_app.test_client()
        stranger.set_cookie(plain_name, value, domain="localhost")
        assert stranger.get("http://localhost/history").status_code == 302  # to the password page
    plain = locked_app.test_client()  # plain HTTP still works with its own cookie (and its own password entry)
    assert _unlock(plain, next_url="/history").status_code == 302
    assert plain.get("http://localhost/history").status_code == 200
    assert not any("; Secure" in c for c in _unlock(locked_app.test_client()).headers.getlist("Set-Cookie"))
