"""Browser-test fixtures: one live server for the whole session, one headless Chromium per module.

The app runs on a fresh SQLite file with CSRF left ON, so every form the browser sends carries the
real token, exactly as in production. It is served by werkzeug's ``make_server`` on 127.0.0.1 with
port 0 (any free port) from a daemon thread, and shut down when the session ends.

Chromium is Debian's (/usr/bin/chromium), driven by Playwright's sync API. Without it the browser
tests are skipped on a developer's machine but fail under CI (CI=true), where it must be present.

The older modules in this folder (test_classic_flow.py, …) import their own module-scoped fixtures
from ``live.py``; the names here are different on purpose, so the two sets never shadow each other.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest
from werkzeug.serving import make_server

from scorekeeper import create_app
from tests.browser.live import ARGS as CHROMIUM_ARGS  # one list of flags for every browser test
from tests.browser.live import CHROMIUM

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}
SCREENSHOTS = Path(__file__).resolve().parent / "screenshots"


def _require_chromium() -> None:
    """Skip without Chromium locally; fail when CI says it must be there."""
    if not os.path.exists(CHROMIUM):
        message = f"{CHROMIUM} is not installed"
        if os.environ.get("CI") == "true":
            pytest.fail(message + " (CI=true: the browser tests must run)")
        pytest.skip(message)


def serve_fresh(tmp_path_factory):
    """The app on a fresh database file, served on 127.0.0.1:<free port>; yields its base URL."""
    database = tmp_path_factory.mktemp("live-server") / "scorekeeper.sqlite"
    app = create_app({"TESTING": True, "SECRET_KEY": "test", "DATABASE": str(database)})
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, name="live-server", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


@pytest.fixture(scope="session")
def live_server(tmp_path_factory):
    """The app on a fresh database file, shared by the browser tests of a test process."""
    yield from serve_fresh(tmp_path_factory)


@pytest.fixture(scope="module")
def chromium():
    """Headless Debian Chromium through Playwright (sync API), for one test module.

    Module scope, not session: Playwright's sync API refuses to start while another sync_playwright()
    is still running in the same thread, and the other modules here start their own (live.py). A
    session-wide instance would stay open past this module and break every module after it."""
    _require_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture
def phone_page(chromium):
    """A fresh browser context and page the size of a phone: 390 x 844, touch, 2x pixels."""
    context = chromium.new_context(**PHONE)
    context.set_default_timeout(5000)
    page = context.new_page()
    yield page
    context.close()


@pytest.fixture
def narrow_page(chromium):
    """A 360 px wide phone, the narrowest the style sheet promises to fit."""
    context = chromium.new_context(**{**PHONE, "viewport": {"width": 360, "height": 740}})
    context.set_default_timeout(5000)
    page = context.new_page()
    yield page
    context.close()


@pytest.fixture
def screenshot():
    """``screenshot(page, NAME)``: a full-page PNG into tests/browser/screenshots/NAME.png."""

    def take(page, name: str) -> Path:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        path = SCREENSHOTS / f"{name}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    return take
