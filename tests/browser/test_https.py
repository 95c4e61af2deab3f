"""HTTPS on the home network, as a phone that has trusted the installation's authority sees it.

The authority and the server certificate are made by ``scorekeeper.network.tls`` (as ``start.sh --https``
does) and the app is served over TLS by the same cheroot server. Chromium trusts the authority the
way a person's browser does: it is added with ``certutil`` (Debian's libnss3-tools) to the NSS
database of a test home folder (``$HOME/.pki/nssdb``, where Chromium on Linux reads it), and the
browser runs as a persistent profile with that home (no certificate errors are ignored). Without
that step the same page is refused. Then: the page is a secure context, the service worker
registers and controls it, the manifest is accepted and the page is installable, and with the
server stopped the game and its hand form load, and a hand entered then is sent once it is back."""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import ssl
import subprocess
import threading
import urllib.request

import pytest
from playwright.sync_api import Error, expect

from scorekeeper import create_app
from scorekeeper.network import tls
from scorekeeper.server import https
from tests.browser.live import ARGS, CHROMIUM, need_certutil, need_chromium, shot, start_classic

pytestmark = pytest.mark.browser

NAME = "table.lan"
WAIT = 30000


class Site:
    """The app over TLS with this installation's certificates, stoppable and startable on one port."""

    def __init__(self, app, ready: tls.Files) -> None:
        self.app, self.ready, self.server = app, ready, None
        probe = socket.socket()  # a fixed port, so the server can come back on it (cheroot reuses only those)
        probe.bind(("127.0.0.1", 0))
        self.port = probe.getsockname()[1]
        probe.close()

    def start(self) -> None:
        server = https.https_server(self.app, "127.0.0.1", self.port, 8, self.ready)
        server.prepare()
        threading.Thread(target=server.serve, daemon=True).start()
        self.server = server

    def stop(self) -> None:
        if self.server is not None:
            self.server.stop()
            self.server = None


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The authority, the server certificate for table.lan, and the app served over TLS; yields
    (the Site, the home folder whose NSS database will trust the authority)."""
    home = tmp_path_factory.mktemp("https-home")
    instance = home / "instance"
    instance.mkdir()
    ready = tls.ensure(tls.files(instance), [NAME, "localhost", "127.0.0.1"])
    assert NAME in ready.names and "127.0.0.1" in ready.names
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "https",
            "DATABASE": str(instance / "scorekeeper.sqlite"),
            "EXTRA_HOSTS": [NAME],
            "TLS_FOLDER": str(ready.files.folder),
        }
    )
    served = Site(app, ready.files)
    served.start()
    yield served, home, ready.files
    served.stop()


def _nssdb(home, ca_cert=None) -> None:
    """A fresh NSS database in ``home/.pki/nssdb``, trusting ``ca_cert`` for TLS servers if given."""
    certutil = need_certutil()
    nss = home / ".pki" / "nssdb"
    shutil.rmtree(nss, ignore_errors=True)
    nss.mkdir(parents=True)
    subprocess.run([certutil, "-N", "-d", f"sql:{nss}", "--empty-password"], check=True, capture_output=True)
    if ca_cert is not None:
        subprocess.run(
            [certutil, "-A", "-d", f"sql:{nss}", "-n", "Canasta score keeper (test)", "-t", "C,,", "-i", str(ca_cert)],
            check=True,
            capture_output=True,
        )


def _launch(playwright, home, profile: str):
    """Chromium as a persistent profile whose home folder holds the NSS database."""
    context = playwright.chromium.launch_persistent_context(
        str(home / profile),
        executable_path=CHROMIUM,
        args=[*ARGS, f"--host-resolver-rules=MAP {NAME} 127.0.0.1"],
        env={**os.environ, "HOME": str(home)},
        viewport={"width": 390, "height": 844},
        is_mobile=True,
        has_touch=True,
    )
    context.set_default_timeout(WAIT)
    return context


def _controlled(page) -> bool:
    """Wait until the service worker controls the page (polled: the CSP forbids eval)."""
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    for _ in range(200):
        if page.evaluate("navigator.serviceWorker.controller !== null"):
            return True
        page.wait_for_timeout(100)
    return False


def _hands(site: Site, ca_cert, game_url: str) -> list[dict]:
    context = ssl.create_default_context(cafile=str(ca_cert))
    url = f"https://localhost:{site.port}/api/games/{game_url.rsplit('/', 1)[1]}"
    with urllib.request.urlopen(url, timeout=20, context=context) as answer:
        return json.load(answer)["hands"]


def test_the_app_over_https_is_installable_and_loads_its_hand_form_with_the_server_stopped(site):
    need_chromium()
    served, home, files = site
    from playwright.sync_api import sync_playwright

    expect.set_options(timeout=WAIT)
    base = f"https://{NAME}:{served.port}"
    with sync_playwright() as playwright:
        # not trusted yet: the browser refuses the page
        _nssdb(home)
        context = _launch(playwright, home, "profile-untrusted")
        page = context.pages[0] if context.pages else context.new_page()
        with pytest.raises(Error, match="ERR_CERT_AUTHORITY_INVALID"):
            page.goto(base + "/")
        context.close()

        # trusted once, as on the /trust page's steps
        _nssdb(home, files.ca_cert)
        context = _launch(playwright, home, "profile")
        page = context.pages[0] if context.pages else context.new_page()
        page.goto(base + "/")
        assert page.evaluate("window.isSecureContext") is True
        game_url = start_classic(page, base)
        assert _controlled(page), "the service worker never took control"
        cdp = context.new_cdp_session(page)
        manifest = cdp.send("Page.getAppManifest")
        assert manifest["errors"] == [] and manifest["url"].endswith("/manifest.webmanifest")
        assert manifest["manifest"]["display"] == "kStandalone"
        assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []

        page.goto(game_url)  # controlled now: the game and its hand form are kept by the service worker
        expect(page.locator("a[data-kept]")).to_have_count(1)
        # a hand saved online from the form in the page: sent by script over TLS (the form's token and
        # the same-origin Referer that Flask-WTF asks of HTTPS)
        page.get_by_role("link", name="Enter hand 1").click()
        expect(page.locator("form.hand-form[data-ready]")).to_have_count(1)
        page.locator('input[name="sides-0-melded_points"]').fill("150")
        page.locator('input[name="sides-1-melded_points"]').fill("60")
        page.locator("#out-stock").check(force=True)
        page.get_by_role("button", name="Save hand 1").click()
        expect(page.locator("main[data-saved]")).to_have_count(1)  # the scoreboard of the answer, in place
        expect(page.get_by_text("Hand saved.")).to_be_visible()
        expect(page.locator("a[data-kept]")).to_have_count(1)  # hand 2's form, kept
        page.goto(game_url + "/hands/new")
        expect(page.locator("form.hand-form[data-score-kept]")).to_have_count(1)
        page.goto(game_url)
        expect(page.locator("a[data-kept]")).to_have_count(1)

        served.stop()  # the computer cannot be reached
        page.goto(game_url + "/hands/new")
        expect(page.locator("form.hand-form[data-ready]")).to_have_count(1)
        expect(page.get_by_role("heading", name="Hand 2")).to_be_visible()
        page.locator('input[name="sides-0-melded_points"]').fill("100")
        page.locator('input[name="sides-1-melded_points"]').fill("70")
        page.locator("#out-stock").check(force=True)
        page.get_by_role("button", name="Save hand 2").click()
        expect(page.locator("#waiting-hands")).to_contain_text("1 hand is waiting to be sent")
        page.goto(game_url)  # a page loaded again with no server: from the service worker's cache
        expect(page.locator("#waiting-hands")).to_contain_text("1 hand is waiting to be sent")
        shot(page, "https-offline-waiting")

        served.start()  # back on the same port: the queue sends the hand, once
        expect(page.locator("#waiting-hands")).to_have_count(0, timeout=WAIT)
        expect(page.locator("p.total").first).to_have_text("250", timeout=WAIT)
        assert page.locator("p.total").all_inner_texts() == ["250", "130"]
        assert len(_hands(served, files.ca_cert, game_url)) == 2
        assert re.match(r"https://", page.url)
        context.close()
