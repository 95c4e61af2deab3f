"""A live server on a thread and Debian's Chromium driven by Playwright, for the browser tests."""

import os
import shutil
import threading

import pytest
from werkzeug.serving import make_server

from scorekeeper import create_app

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
SHOTS = os.path.join(os.path.dirname(__file__), "screenshots")


def need_certutil() -> str:
    """certutil (Debian's libnss3-tools), which puts the app's authority into a browser's NSS
    database; skipped without it on a developer's machine, failed under CI."""
    path = shutil.which("certutil")
    if path is None:
        message = "certutil is missing (Debian's libnss3-tools; scripts/setup.sh test installs it)"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    return path


def need_chromium():
    """Skip without Chromium on a developer's machine; fail under CI, where it must be there."""
    if not shutil.which(CHROMIUM):
        if os.environ.get("CI") == "true":
            pytest.fail(f"{CHROMIUM} is missing: scripts/test.sh installs it with apt-get")
        pytest.skip(f"{CHROMIUM} is not installed")


@pytest.fixture(scope="module")
def live_url(tmp_path_factory):
    """The app on a fresh database, served on 127.0.0.1 with CSRF on, as in production."""
    db = tmp_path_factory.mktemp("live") / "live.sqlite"
    app = create_app({"TESTING": True, "SECRET_KEY": "browser-test", "DATABASE": str(db)})
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()


@pytest.fixture(scope="module")
def browser():
    """Headless Chromium."""
    need_chromium()
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=15000)
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def phone(browser):
    """A page the size of a phone (390 x 844)."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    context.set_default_timeout(15000)  # a loaded machine is slow; a missing element still fails
    context.set_default_timeout(15000)  # a loaded CI machine is slow; a missing element still fails
    page = context.new_page()
    yield page
    context.close()


def shot(page, name):
    """A full-page screenshot into tests/browser/screenshots/."""
    os.makedirs(SHOTS, exist_ok=True)
    page.screenshot(path=os.path.join(SHOTS, f"{name}.png"), full_page=True)


def phone_context(browser, locale="en-GB"):
    """A browser context the size of a phone (390 x 844, touch) and its page."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True, locale=locale)
    context.set_default_timeout(15000)
    return context, context.new_page()


def start_classic(page, live_url, names=("Anna", "Bert", "Carla", "Dieter")):
    """Start a classic game from the New game form; the scoreboard's URL."""
    import re

    page.goto(live_url + "/games/new/classic")
    for seat, name in enumerate(names, start=1):
        page.get_by_label(f"Seat {seat}", exact=True).fill(name)
    page.get_by_role("button", name="Start game").click()
    page.wait_for_url(re.compile(r"/games/\d+$"))
    return page.url


def keep_for_offline(page, game_url):
    """Wait until the page's service worker controls it, then open the game again so the game and
    its hand form are in the phone's cache (polled: the CSP forbids eval)."""
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    for _ in range(100):
        if page.evaluate("navigator.serviceWorker.controller !== null"):
            break
        page.wait_for_timeout(100)
    page.goto(game_url)
    page.wait_for_timeout(300)


class Thumb:
    """Taps and digits, counted as a person makes them (a tap into a field is a tap).

    A person looks before tapping: a tap waits until the hand form shows the answer to what was
    entered last. Digits arrive as a phone's keyboard sends them, as text put in by the input method
    (not as key presses, which headless Chromium sometimes drops right after a touch)."""

    def __init__(self, page):
        self.page, self.taps, self.digits = page, 0, 0

    def settled(self):
        from playwright.sync_api import expect

        if self.page.locator("form.hand-form").count():
            expect(self.page.locator("form.hand-form[data-ready]:not([data-previewing])")).to_have_count(1)

    def tap(self, locator):
        self.settled()
        locator.tap()
        self.taps += 1

    def digit(self, text):
        """Typed where the focus is (the count fields move it on by themselves)."""
        for character in text:
            self.page.keyboard.insert_text(character)
        self.digits += len(text)

    def type(self, locator, text):
        """A tap into the field, then its digits."""
        self.tap(locator)
        self.digit(text)
