"""Fixtures: an app with a fresh database file per test, its client and CLI runner."""

import ast
import copy
import gc
import importlib.metadata
import os
import re
import shutil
import signal
import sqlite3
import sys

import jinja2
import pytest
from werkzeug.routing import rules

# The app and Flask are imported where an app is made or asked, not here: the xdist controller of the
# quick loop (``-n 2``) loads this file and makes no app; importing them there delayed the workers'
# start by 0.3 s a run (2026-12-07). The workers import them with the first test module.


class _SharedBytecode(jinja2.BytecodeCache):
    """Compiled templates shared by every app a test process creates (the fixture's one and those
    tests make themselves): compiling them is most of a fresh app's first page. The code objects
    themselves are kept (a ``Bucket``'s ``code``), so no app unmarshals them again, with the checksum
    of the source they were compiled from: an edited template is compiled again. Behind them, Jinja's
    own file cache (``FileSystemBytecodeCache``: its per-user folder in the system's temporary
    folder, files written whole and renamed, each checked against its source and Jinja's version when
    read): a template compiled by one test process or run is read by the next instead of compiled
    again (compiling the 45 templates takes 0.8 s of CPU, in each process of each run: measured
    2026-11-29). Jinja's own interface for a bytecode cache, set before the app loads a template."""

    def __init__(self) -> None:
        self.compiled: dict[str, tuple[str, object]] = {}
        self.on_disk = jinja2.FileSystemBytecodeCache()

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        kept = self.compiled.get(bucket.key)
        if kept is not None and kept[0] == bucket.checksum:
            bucket.code = kept[1]
            return
        try:
            self.on_disk.load_bytecode(bucket)  # leaves ``code`` None unless the file is this source's
        except (OSError, EOFError, ValueError, TypeError):  # unreadable: compiled again, and written
            bucket.reset()
        if bucket.code is not None:
            self.compiled[bucket.key] = (bucket.checksum, bucket.code)

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        self.compiled[bucket.key] = (bucket.checksum, bucket.code)
        try:
            self.on_disk.dump_bytecode(bucket)
        except OSError:  # a full or read-only temporary folder: the next process compiles it too
            pass


_COMPILED = _SharedBytecode()


def make_app(config: dict | None = None):
    """``create_app(config)``, its templates compiled once per test process (about 70 ms of CPU
    saved per app that renders pages)."""
    from scorekeeper import create_app  # here, not at the top: see the imports

    app = create_app(config)
    app.jinja_env.bytecode_cache = _COMPILED
    return app


# The one patch of a library's internals left (issue 30, item 7), kept for what it saves: werkzeug
# writes and compiles a Python function for each URL rule of each app (Rule._compile_builder). A
# create_app of the 94 rules takes 45-46 ms of CPU without it and 7-9 ms with it (30 apps in one
# process, 2026-11-28, werkzeug 3.1.9). The ``app`` fixture's one app per process (``_renewed``) left
# about 135 apps to make in the quick loop (tests that need a second app, another configuration or
# the making itself): about 5 s of CPU, some 2.5 s of its wall time on 2 cores. The function depends
# only on the rule, its parts and its defaults (a rule with a default for one of its variables is
# compiled afresh); it is bound to each rule as werkzeug binds it. Another minor version of werkzeug
# is left unpatched (slower, never wrong).
_CHECKED_WERKZEUG = "3.1."
_BUILDERS: dict[tuple, object] = {}
_compile_builder = rules.Rule._compile_builder


def _shared_builder(self, append_unknown=True):
    """A rule's URL builder, shared by every app the tests create."""
    defaults = self.defaults or {}
    if any(dynamic and name in defaults for dynamic, name in self._trace):
        return _compile_builder(self, append_unknown)
    key = (self.rule, tuple(self._trace), tuple(defaults), append_unknown)
    if key not in _BUILDERS:
        _BUILDERS[key] = _compile_builder(self, append_unknown)
    return _BUILDERS[key]


if importlib.metadata.version("werkzeug").startswith(_CHECKED_WERKZEUG):
    rules.Rule._compile_builder = _shared_builder

# Hypothesis loads every package's "hypothesis" entry point when it is first imported: here only
# trio's (a dependency of Selenium), for trio's own tests, which imports trio (0.15 s of each process
# that imports Hypothesis, and its pytest plugin imports it in the controller at the end of every run:
# 0.3 s of the quick loop's wall time, 2026-12-07). Hypothesis's documented switch turns them off; the
# workers inherit it.
os.environ.setdefault("HYPOTHESIS_NO_PLUGINS", "1")

_MEMORY = "/dev/shm"
_WHOLE_MODULE_MARK = re.compile(r"^pytestmark = pytest\.mark\.(\w+)\b", re.MULTILINE)
_MARK_EXPRESSION_NODES = (ast.Expression, ast.BoolOp, ast.And, ast.Or, ast.UnaryOp, ast.Not, ast.Name, ast.Load)


def _left_out(markexpr: str, mark: str) -> bool:
    """Whether ``-m markexpr`` leaves out every test marked ``mark``, whatever other marks it has. A
    mark expression of names, ``and``, ``or``, ``not`` and brackets is read as the Python expression
    it also is; any other (marks with arguments) leaves out nothing here: pytest decides test by test."""
    try:
        tree = ast.parse(markexpr.strip(), mode="eval")
    except SyntaxError:
        return False
    if not all(isinstance(node, _MARK_EXPRESSION_NODES) for node in ast.walk(tree)):
        return False
    names = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
    code = compile(tree, "<-m>", "eval")
    return not any(
        eval(code, {"__builtins__": {}}, {name: name == mark or others for name in names}) for others in (False, True)
    )


def pytest_configure(config):
    """Schemathesis's pytest plugin (plugins are loaded as pyproject.toml's addopts name them) loaded
    only for runs that keep its slow tests: loading it costs each process of the quick loop seconds."""
    markexpr = config.getoption("markexpr")
    if not _left_out(markexpr, "slow"):
        config.pluginmanager.import_plugin("schemathesis.pytest.plugin")
        return
    # the quick loop's databases in memory (tmpfs) where there is one, unless a temporary folder is
    # chosen (TMPDIR, --basetemp): each commit waits for the disk (synchronous = FULL), seconds of a
    # run on a busy disk. The slow tests (disk faults, a full disk) keep the real disk.
    # PYTEST_DEBUG_TEMPROOT: "Override the system temporary directory" (pytest --help); the workers inherit it.
    if (
        not config.getoption("basetemp")
        and not os.environ.get("TMPDIR")
        and not os.environ.get("PYTEST_DEBUG_TEMPROOT")
        and os.path.isdir(_MEMORY)
        and os.access(_MEMORY, os.W_OK | os.X_OK)
    ):
        os.environ["PYTEST_DEBUG_TEMPROOT"] = _MEMORY


@pytest.hookimpl(trylast=True)
def pytest_unconfigure(config):
    """The run's objects frozen (Python's ``gc.freeze``) once it is over: the interpreter's exit then
    skips the collections over the whole heap that a test process has grown (each xdist worker took
    0.4-1.0 s to exit after its last test, and the controller waits for both: 0.8 s of the quick
    loop's wall time, 2026-12-07). Nothing is collected after this but the process's exit."""
    gc.freeze()


def pytest_ignore_collect(collection_path, config):
    """A test file marked as a whole (``pytestmark = pytest.mark.slow``) is not even imported when
    ``-m`` leaves out all its tests: the quick loop skips importing hypothesis, schemathesis and the
    browser fixtures, and building schemathesis's tests from the OpenAPI document."""
    markexpr = config.getoption("markexpr")
    if not markexpr.strip() or collection_path.suffix != ".py" or not collection_path.name.startswith("test_"):
        return None
    found = _WHOLE_MODULE_MARK.search(collection_path.read_text(encoding="utf-8"))
    if found and _left_out(markexpr, found.group(1)):
        return True
    return None


@pytest.fixture(autouse=True)
def _switch_interval():
    """The interpreter's switch interval put back after each test: a test that runs the server
    command in-process (``scorekeeper.__main__.main``) leaves it as the server sets it."""
    before = sys.getswitchinterval()
    yield
    sys.setswitchinterval(before)


@pytest.fixture(autouse=True)
def _stamps_let_go(request):
    """The change stamps (storage/stamp.py) of a test's own files unmapped when it ends. A stamp's
    memory map holds a file descriptor (Python's mmap keeps a duplicate), and the process keeps every
    stamp it made: one for each test's database and sessions file, some 700 in a worker of the whole
    suite. Past 1,024 descriptors a server started in the test process failed (waitress waits with
    select(), which takes no higher descriptor): a CI run's password race test timed out so. A stamp
    asked for again is mapped again."""
    if "tmp_path" not in request.fixturenames:
        yield
        return
    folder = os.path.join(str(request.getfixturevalue("tmp_path")), "")
    yield
    from scorekeeper.storage import stamp  # here, not at the top: see the imports

    with stamp._lock:
        for path in [p for p in stamp._stamps if p.startswith(folder)]:
            kept = stamp._stamps.pop(path)
            if kept is not None:
                kept.map.close()


@pytest.fixture(scope="session")
def migrated_database(tmp_path_factory):
    """An empty database with every migration applied, made once: each test starts from a copy."""
    from scorekeeper.storage.db import open_db  # here, not at the top: see the imports

    path = tmp_path_factory.mktemp("template") / "empty.sqlite"
    open_db(str(path)).close()
    os.chmod(path, 0o600)  # as the app makes its database (web/app.py); a copy keeps the mode
    return path


@pytest.fixture
def app(tmp_path, migrated_database):
    """An app on a fresh database (a copy of the migrated empty one); CSRF on, as in production.
    One app serves every test of a process that takes this fixture, renewed for each (``_renewed``)."""
    database = tmp_path / "test.sqlite"
    shutil.copy(migrated_database, database)
    return _renewed(str(database))


class _Made:
    """The app the ``app`` fixture renews, as ``create_app`` made it."""

    app = None
    config: dict = {}
    keys: frozenset = frozenset()
    inner = None
    setup: tuple = ()


def _setup_of(app) -> tuple:
    """What a test could add to an app that no renewal takes back: routes, hooks, error handlers,
    template globals and filters, commands. Flask lets nothing be added after an app's first request.
    (Flask's registries are defaultdicts that its lookups fill with empty entries: those are left out.)"""
    hooks = (app.before_request_funcs, app.after_request_funcs, app.template_context_processors)
    return (
        sorted(app.view_functions),
        sorted(str(rule) for rule in app.url_map.iter_rules()),
        [{key: list(funcs) for key, funcs in registry.items() if funcs} for registry in hooks],
        list(app.teardown_appcontext_funcs),
        {
            (name, code, error): handler
            for name, codes in app.error_handler_spec.items()
            for code, handlers in codes.items()
            for error, handler in handlers.items()
        },
        sorted(app.jinja_env.globals),
        sorted(app.jinja_env.filters),
        sorted(app.cli.commands),
        app.debug,
        app.request_class,
    )


def _renewed(database: str):
    """The test process's app, made by ``create_app`` for its first test and renewed for each next
    one: its configuration as it was made, on the test's database, and nothing of what it kept
    between the last test's requests (connections, closed; page and file caches; counts of guesses
    and sessions: all in ``app.extensions``, ``access.start_counts`` and the page cache's
    middleware). Its URL rules, hooks and loaded templates are kept: a new app compiles werkzeug's
    matcher for each of its 94 rules, 45 ms of CPU (8 ms with the builder patch above), where some
    800 tests take this fixture. What the first test's app worked out from the machine is kept too:
    its instance folder (``SCOREKEEPER_INSTANCE``) and the host names it answers to; a test that
    changes those makes its own app (``make_app``). A test that adds a route or a hook to the shared
    app fails the next renewal (``_setup_of``). ``test_app_renewal.py`` holds a renewed app to a
    fresh one's state."""
    from scorekeeper.storage import db as dbmod  # here, not at the top: see the imports
    from scorekeeper.web import access, pagecache

    if _Made.app is None:
        made = make_app({"TESTING": True, "SECRET_KEY": "test", "DATABASE": database})
        _Made.app, _Made.config, _Made.keys = made, copy.deepcopy(dict(made.config)), frozenset(made.extensions)
        _Made.inner, _Made.setup = made.wsgi_app.wsgi_app, _setup_of(made)
        return made
    app = _Made.app
    assert _setup_of(app) == _Made.setup, "a test added a route, a hook or a global to the shared app: make_app"
    for connection in list(app.extensions.get(dbmod.CONNECTIONS, {})):
        connection.close()
    app.config.clear()
    app.config.update(copy.deepcopy(_Made.config), DATABASE=database)
    for key in set(app.extensions) - _Made.keys:
        del app.extensions[key]
    access.start_counts(app)
    app.wsgi_app = pagecache.FastPages(_Made.inner, app)
    return app


@pytest.fixture(scope="session")
def made_once(tmp_path_factory):
    """``made_once(app, client, build)``: what ``build(client)`` puts in a fresh app's archive (the
    fixture's ``app``), built through the forms once per test process and copied for the next tests.
    The first test builds it and a copy of its database and its client's cookies (the session, with
    any message still waiting) are kept; each next test gets its own copy of that file, put in place
    before its app opens its database, and the same cookies, then the value ``build`` returned."""
    made = {}

    def make(app, client, build):
        key = f"{build.__module__}.{build.__qualname__}"
        database = app.config["DATABASE"]
        if key in made:
            kept, cookies, value = made[key]
            assert not os.path.exists(f"{database}-wal"), "made_once: the app opened its database already"
            shutil.copy(kept, database)
            for name, cookie in cookies.items():
                client.set_cookie(name, cookie.value, domain=cookie.domain, path=cookie.path)
            return value
        value = build(client)
        kept = tmp_path_factory.mktemp("made") / "archive.sqlite"
        with sqlite3.connect(database) as source, sqlite3.connect(kept) as copy:
            source.backup(copy)  # what is committed, the write-ahead log included
        source.close()
        copy.close()
        made[key] = (kept, _cookies_of(app, client), value)
        return value

    return make


def _cookies_of(app, client) -> dict:
    """The cookies the app gives a phone (its session; the language and text size it chose), by name."""
    names = (app.session_interface.get_cookie_name(app), "lang", "large")  # web/games/appfiles.py
    return {name: cookie for name in names if (cookie := client.get_cookie(name)) is not None}


@pytest.fixture
def client(app):
    """The Flask test client."""
    return app.test_client()


@pytest.fixture
def runner(app):
    """The Flask CLI runner."""
    return app.test_cli_runner()


def csrf_token(client, url=None):
    """The CSRF token the app gives this client's forms, as a browser sends it back.

    Flask-WTF signs one secret kept in the phone's session (no time limit here:
    ``WTF_CSRF_TIME_LIMIT``), so every page of a session gives a token good for all its forms. The
    token is made as a page makes it, Flask-WTF's ``generate_csrf`` on the client's session (read
    and written back with Flask's ``session_transaction``), not read out of a rendered page: a third
    of the quick loop's CPU went into pages asked for only for their token. ``url``, the form's
    page, gives the scheme: over HTTPS the session is another cookie (web/access.py). What a page
    visit does to the session is done too: a new session is made permanent (web/app.py), and the
    messages waiting are taken, as the form's page would have shown them. ``token_on_page`` reads a
    page's own token, where the page is what a test is about."""
    from flask import g, session  # here, not at the top: see the imports
    from flask_wtf.csrf import generate_csrf

    app = client.application
    field = app.config.get("WTF_CSRF_FIELD_NAME", "csrf_token")
    with client.session_transaction(url or "/") as kept, app.test_request_context(url or "/"):
        g.pop(field, None)  # a token made for another client in an app context still open
        if field in kept:
            session[field] = kept[field]
        token = generate_csrf()
        if kept.get(field) != session[field]:
            kept[field] = session[field]
            kept.permanent = True
        kept.pop("_flashes", None)
    return token


def token_on_page(client, url):
    """The CSRF token of the form on a page, read from the page as a browser gets it."""
    page = client.get(url)
    match = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"|name="csrf_token" value="([^"]+)"', page.text)
    assert match, f"no CSRF token on {url}"
    return match.group(1) or match.group(2)


@pytest.fixture
def servers():
    """The servers (``python -m scorekeeper`` processes) a test starts, stopped at its end whatever happens."""
    from benchmarks import serving  # the fault tests' servers: not imported by the quick loop's other tests

    started: list = []
    yield started
    for process in started:
        serving.stop(process, signal.SIGKILL)
