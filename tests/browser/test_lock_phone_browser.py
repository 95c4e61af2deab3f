"""'Lock this phone' with the service worker at work (docs: README, "Running it safely on a home
network"): the pages it kept (a tournament's page with its names, a game's scores) are forgotten with
the password, so a locked phone cannot show them even when the computer cannot be reached; its files
and the offline page stay, and so do the hands waiting to be sent. Chromium on http://127.0.0.1, a
secure context, so the service worker runs."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect, sync_playwright

from scorekeeper import create_app
from tests.browser.live import ARGS, need_chromium
from tests.helpers import quick_hash, served

pytestmark = pytest.mark.browser

KEPT = "(url) => caches.match(url).then((hit) => Boolean(hit))"


@pytest.fixture(scope="module")
def locked_server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("lock-phone")
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "lock",
            "DATABASE": str(folder / "l.sqlite"),
            "PASSWORD_HASH": quick_hash("pik as"),
        }
    )
    with served(app) as port:
        yield f"http://127.0.0.1:{port}"


def test_locking_the_phone_forgets_the_pages_its_service_worker_kept(locked_server):
    need_chromium()
    base = locked_server
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
        page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
        page.goto(f"{base}/login")
        page.get_by_label("Password").fill("pik as")
        page.get_by_role("button", name="Open").click()
        page.goto(f"{base}/tournaments/new")
        page.get_by_label("Name", exact=True).fill("Geheimturnier Quittenhof")
        page.get_by_label("Players or pairs, one a line").fill("\n".join(f"Spieler{c}" for c in "ABCD"))
        page.get_by_role("button", name="Create the tournament").click()
        page.wait_for_url("**/tournaments/*")
        organiser = page.url
        page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=15000)
        page.reload()  # fetched through the service worker: kept
        page.wait_for_function(f"() => caches.match({organiser!r}).then((hit) => Boolean(hit))", timeout=15000)
        assert page.evaluate(KEPT, f"{base}/static/style.css")
        page.evaluate("localStorage.setItem('canasta-queue', JSON.stringify([{body: {client_key: 'k1'}}]))")
        page.get_by_role("button", name="Lock this phone").click()
        expect(page.locator("body[data-pages-forgotten]")).to_have_count(1, timeout=15000)
        assert page.evaluate(KEPT, organiser) is False  # the tournament's page, its names: gone
        assert page.evaluate(KEPT, f"{base}/") is False
        assert page.evaluate(KEPT, f"{base}/static/style.css") is True  # the app's files stay
        assert page.evaluate("JSON.parse(localStorage.getItem('canasta-queue')).length") == 1  # hands waiting stay
        page.goto(organiser)
        expect(page.get_by_label("Password")).to_be_visible()  # the server asks again
        assert "Geheimturnier" not in page.content()
        browser.close()
