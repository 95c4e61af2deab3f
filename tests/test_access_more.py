"""Access checks beside tests/test_access.py:
a phone without the password keeps the small request-size limit, even on the import."""

import io

from scorekeeper.storage import sessions
from tests.conftest import make_app


def test_a_locked_phone_keeps_the_small_limit(tmp_path):
    locked = make_app(
        {"TESTING": True, "SECRET_KEY": "test", "DATABASE": str(tmp_path / "l.sqlite"), "PASSWORD": "secret"}
    ).test_client()
    body = b"{}" + b" " * (9 * 1024 * 1024)
    response = locked.post(
        "/import", data={"file": (io.BytesIO(body), "archive.json")}, content_type="multipart/form-data"
    )
    assert response.status_code == 413


def test_a_phone_locked_or_a_new_password_in_another_process_holds_at_the_next_request(tmp_path):
    """The sessions file is read without its lock until it changes (storage/sessions.py): what
    another process writes to it (here a second Sessions on the same file) holds at the next look."""
    path = str(tmp_path / "sessions.json")
    server, other = sessions.Sessions(path, 3600), sessions.Sessions(path, 3600)
    assert not server.is_revoked("phone-a") and server.current_generation() == 0
    other.revoke("phone-a")
    assert server.is_revoked("phone-a")
    other.new_generation()
    assert server.current_generation() == 1 and not server.is_revoked("phone-a")
    server.revoke("phone-b")  # read the other's change first, then written: both are kept
    assert other.is_revoked("phone-b") and other.current_generation() == 1


def test_a_served_page_looks_at_neither_file_until_one_changes(tmp_path, monkeypatch):
    """The page cache asks for the password and the sessions' generation before every score sheet it
    serves again; nothing changed, that costs no look at either file (storage/sessions.py, the change
    mark). set-password in another process is seen at the next request, a hand edit of the config file
    within PasswordFile.HAND_EDIT_LOOK."""
    from scorekeeper.web import access
    from tests.helpers import start_game

    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(tmp_path))
    # the looks that come anyway once a second (a change that moved no mark) are put off for the test
    monkeypatch.setattr(access.PasswordFile, "HAND_EDIT_LOOK", 3600.0)
    monkeypatch.setattr(sessions, "LOOK_ANYWAY", 3600.0)
    config = tmp_path / "config.py"
    config.write_text("EXTRA_HOSTS = []\n")
    app = make_app(None)
    phone = app.test_client()
    game_id = start_game(phone)
    assert phone.get(f"/games/{game_id}").status_code == 200
    looked = []
    real_stamp = sessions.file_stamp
    monkeypatch.setattr(sessions, "file_stamp", lambda path: looked.append(path) or real_stamp(path))
    for _ in range(5):
        assert phone.get(f"/games/{game_id}").status_code == 200
    assert looked == []
    # set-password from another process: the next request looks, and the phone is asked for it
    other_process = make_app(None)
    assert other_process.test_cli_runner().invoke(args=["set-password", "--password", "neu"]).exit_code == 0
    answer = phone.get(f"/games/{game_id}")
    assert answer.status_code == 302 and "/login" in answer.headers["Location"]
    assert str(config) in looked and str(tmp_path / "sessions.json") in looked
    # the password taken out by hand: seen once a look for hand edits is due, not before
    config.write_text("EXTRA_HOSTS = []\n")
    assert app.test_client().get(f"/games/{game_id}").status_code == 302
    app.extensions[access.PASSWORD_FILE].next_look = 0.0  # as HAND_EDIT_LOOK seconds later
    assert app.test_client().get(f"/games/{game_id}").status_code == 200


def test_a_sessions_file_changed_without_its_mark_is_seen_within_a_second(tmp_path):
    """A sessions file written by something that did not move its change mark (a process that could not
    open the mark, an older version) is looked at anyway once sessions.LOOK_ANYWAY has passed."""
    import json

    path = tmp_path / "sessions.json"
    server = sessions.Sessions(str(path), 3600)
    assert server.current_generation() == 0
    server.next_look = float("inf")  # within the second (however slow this machine is)
    path.write_text(json.dumps({"generation": 4, "revoked": {}}))  # the mark left as it was
    assert server.current_generation() == 0  # not looked at yet: nothing said it changed
    server.next_look = 0.0  # as LOOK_ANYWAY seconds later
    assert server.current_generation() == 4


def test_a_password_changed_while_it_is_checked_unlocks_nothing(tmp_path, monkeypatch):
    """set-password while a phone's password is being checked (the hash takes a moment): the phone is
    unlocked for the password it typed, which is no longer the password, so it opens nothing."""
    from scorekeeper.web import access
    from tests.conftest import csrf_token
    from tests.helpers import quick_hash

    app = make_app(
        {"TESTING": True, "SECRET_KEY": "t", "DATABASE": str(tmp_path / "c.sqlite"), "PASSWORD_HASH": quick_hash("alt")}
    )
    phone = app.test_client()
    token = csrf_token(phone, "/login")
    checked = access.check_password_hash

    def changed_meanwhile(hashed: str, password: str) -> bool:
        right = checked(hashed, password)
        app.config["PASSWORD_HASH"] = quick_hash("neu")  # set-password, while the old one was checked
        return right

    monkeypatch.setattr(access, "check_password_hash", changed_meanwhile)
    assert phone.post("/login", data={"csrf_token": token, "password": "alt"}).status_code == 302
    monkeypatch.setattr(access, "check_password_hash", checked)
    assert phone.get("/history").status_code == 302  # sent to the password page: the old one opened nothing
    assert phone.get("/export.json").status_code == 401
