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
