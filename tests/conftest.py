"""Fixtures: an app with a fresh database file per test, its client and CLI runner."""

import re
import shutil

import flask
import jinja2
import pytest

from scorekeeper import create_app
from scorekeeper.storage.db import open_db


class _SharedBytecode(jinja2.BytecodeCache):
    """Compiled templates shared by every app the tests create (one per test): compiling them is
    most of a fresh app's first page. Keyed by each template's source, so an edited template is
    compiled again."""

    def __init__(self) -> None:
        self.compiled: dict[str, bytes] = {}

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        if bucket.key in self.compiled:
            bucket.bytecode_from_string(self.compiled[bucket.key])

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        self.compiled[bucket.key] = bucket.bytecode_to_string()


_COMPILED = _SharedBytecode()
_create_jinja_environment = flask.Flask.create_jinja_environment


def _with_shared_bytecode(self):
    env = _create_jinja_environment(self)
    env.bytecode_cache = _COMPILED
    return env


flask.Flask.create_jinja_environment = _with_shared_bytecode


@pytest.fixture(scope="session")
def migrated_database(tmp_path_factory):
    """An empty database with every migration applied, made once: each test starts from a copy."""
    path = tmp_path_factory.mktemp("template") / "empty.sqlite"
    open_db(str(path)).close()
    return path


@pytest.fixture
def app(tmp_path, migrated_database):
    """An app on a fresh database (a copy of the migrated empty one); CSRF on, as in production."""
    database = tmp_path / "test.sqlite"
    shutil.copy(migrated_database, database)
    return create_app({"TESTING": True, "SECRET_KEY": "test", "DATABASE": str(database)})


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
