"""Fixtures: an app with a fresh database file per test, its client and CLI runner."""

import re

import pytest

from scorekeeper import create_app


@pytest.fixture
def app(tmp_path):
    """An app on a fresh database; CSRF on, as in production."""
    return create_app({"TESTING": True, "SECRET_KEY": "test", "DATABASE": str(tmp_path / "test.sqlite")})


@pytest.fixture
def client(app):
    """The Flask test client."""
    return app.test_client()


@pytest.fixture
def runner(app):
    """The Flask CLI runner."""
    return app.test_cli_runner()


def csrf_token(client, url):
    """The CSRF token of the form on a page, as a browser would send it back."""
    page = client.get(url)
    match = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"|name="csrf_token" value="([^"]+)"', page.text)
    assert match, f"no CSRF token on {url}"
    return match.group(1) or match.group(2)
