"""Access checks beside tests/test_access.py:
a phone without the password keeps the small request-size limit, even on the import."""

import io

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
