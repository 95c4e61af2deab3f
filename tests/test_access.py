"""No way in for strangers: the optional password, read-only links, escaping, security headers."""

import re

import pytest
from werkzeug.security import generate_password_hash

from scorekeeper import access, create_app
from tests.conftest import csrf_token
from tests.helpers import post_hand, side_fields, start_game, totals


@pytest.fixture
def locked_app(tmp_path):
    access._failures.clear()
    return create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "DATABASE": str(tmp_path / "p.sqlite"),
            "PASSWORD_HASH": generate_password_hash("rote drei"),
        }
    )


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
    for _ in range(access.FAILURES_ALLOWED):
        assert _unlock(phone, "guess").status_code == 403
    assert _unlock(phone).status_code == 429  # even the right one waits now


def test_locking_the_phone_and_changing_the_password(locked_app):
    phone = locked_app.test_client()
    _unlock(phone)
    assert phone.get("/").status_code == 200
    phone.post("/logout", data={"csrf_token": csrf_token(phone, "/")})
    assert phone.get("/").status_code == 302
    _unlock(phone)
    locked_app.config["PASSWORD_HASH"] = generate_password_hash("neu")
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
    app = create_app({"TESTING": True, "SECRET_KEY": "t", "DATABASE": str(tmp_path / "c.sqlite")})
    result = app.test_cli_runner().invoke(args=["set-password", "--password", "karo"])
    assert result.exit_code == 0, result.output
    config = (tmp_path / "config.py").read_text()
    assert "SOMETHING = 1" in config and "'old'" not in config and "karo" not in config
    assert "PASSWORD_HASH = " in config
    fresh = create_app(None)
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
    app = create_app(None)
    assert not app.debug
    key = (tmp_path / "secret_key").read_text().strip()
    assert app.secret_key == key and len(key) >= 64
    assert oct((tmp_path / "secret_key").stat().st_mode)[-3:] == "600"
    other = tmp_path / "other"
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(other))
    assert create_app(None).secret_key != key  # generated per instance, never a built-in one


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
            re.search(r'action="/logout"><input type="hidden" name="csrf_token" value="([^"]+)"', page).group(1)
        )
    assert tokens[0] != tokens[1]
    assert second.post("/logout", data={"csrf_token": tokens[1]}).status_code == 302
    assert second.get("/history").status_code == 302  # locked: the cached page is not served
    start_game(first, names=["Eve", "Finn", "Gus", "Hal"])
    assert "Eve" in first.get("/history").text  # a new game shows at once
