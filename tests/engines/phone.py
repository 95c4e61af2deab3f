"""A phone in one engine, as the flow tests use it: open a page, tap, type, read, wait."""

from __future__ import annotations

import time

from selenium.common.exceptions import (
    ElementClickInterceptedException,
    StaleElementReferenceException,
    TimeoutException,
    WebDriverException,
)
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

WEBKIT_NARROWEST = 334  # px: MiniBrowser's window, full screen, is never narrower (GTK's minimum)
WAIT = 30  # seconds: a loaded two-core machine is slow; every wait is for an explicit state


class Phone:
    def __init__(self, driver, engine: str) -> None:
        self.driver, self.engine = driver, engine
        self.main = driver.current_window_handle  # the first window (WebKit's is the full-screen one)

    # --- the window -------------------------------------------------------------------------------

    def size(self, width: int, height: int = 844) -> int:
        """The page's viewport, as a phone of that width has it; the width it got (WebKitGTK's window
        is never narrower than ``WEBKIT_NARROWEST``: asked for 320, WebKit gets that)."""
        if self.engine == "webkit":  # MiniBrowser, full screen: the window is the viewport
            width = max(width, WEBKIT_NARROWEST)
            self.driver.set_window_size(width, height)
        else:
            self.driver.browsing_context.set_viewport(
                context=self.driver.current_window_handle, viewport={"width": width, "height": height}
            )
        if self.url != "about:blank":
            self.until(lambda: self.js("return window.innerWidth") == width, f"a viewport {width} px wide")
        return width

    def fresh(self, base: str | None = None) -> None:
        """One window, and nothing kept from before on ``base`` (cookies, the queue, drafts)."""
        for handle in self.driver.window_handles:
            if handle != self.main:
                self.driver.switch_to.window(handle)
                self.driver.close()
        self.driver.switch_to.window(self.main)
        if base:
            self.go(base + "/robots.txt")
            self.driver.delete_all_cookies()
            # WebKitGTK's driver may answer before its network process has deleted them: a cookie the
            # next page set was then deleted after it, and the form's Save was refused for its missing
            # session ("This form has expired", once in a CI run). The deletion is waited for.
            self.until(lambda: not self.driver.get_cookies(), "the cookies deleted", timeout=10)
            self.js("localStorage.clear(); sessionStorage.clear();")
        self.driver.get("about:blank")

    def second_window(self) -> None:
        """A second window beside the first (another phone at the table), shown from now on."""
        self.driver.switch_to.new_window("window")
        if self.engine != "webkit":  # a second MiniBrowser window is not full screen: 447 px at least
            self.size(390)

    def window(self, number: int) -> None:
        """The first window (0) or the second (1)."""
        others = [handle for handle in self.driver.window_handles if handle != self.main]
        self.driver.switch_to.window(self.main if number == 0 else others[number - 1])

    def quit(self) -> None:
        try:
            self.driver.quit()
        except WebDriverException:
            pass

    # --- reading and acting -----------------------------------------------------------------------

    def go(self, url: str) -> None:
        self.driver.get(url)

    @property
    def url(self) -> str:
        return self.driver.current_url

    def js(self, script: str, *args):
        return self.driver.execute_script(script, *args)

    def all(self, css: str) -> list:
        return self.driver.find_elements(By.CSS_SELECTOR, css)

    def find(self, css: str):
        """The first element for ``css``, once it is there."""
        return self.until(lambda: (self.all(css) or [None])[0], css)

    def until(self, condition, what: str, timeout: float = WAIT):
        """Wait until ``condition()`` is true; fail saying what was waited for and where."""

        def check(_driver):
            try:
                return condition()
            except (StaleElementReferenceException, WebDriverException, IndexError):
                return False  # the page changing under the look (a reload, a redraw)

        try:
            return WebDriverWait(self.driver, timeout, poll_frequency=0.1).until(check)
        except TimeoutException:
            try:
                shown = self.js("return document.body ? document.body.innerText.slice(0, 400) : ''")
            except WebDriverException:
                shown = "?"
            raise AssertionError(
                f"{self.engine}: waited {timeout} s for {what} on {self.url}; shown: {shown!r}"
            ) from None

    def gone(self, css: str) -> None:
        self.until(lambda: not self.all(css), f"no {css}")

    def tap(self, target) -> None:
        """Tap an element (a CSS selector or the element): WebKit gets it as a click."""
        for _ in range(20):
            element = self.find(target) if isinstance(target, str) else target
            try:
                self.js("arguments[0].scrollIntoView({block: 'center'})", element)
                element.click()
                return
            except (ElementClickInterceptedException, StaleElementReferenceException):
                time.sleep(0.2)  # something moved over it for a moment (a message arriving)
        raise AssertionError(f"{self.engine}: could not tap {target}")

    def tap_text(self, css: str, text: str) -> None:
        """Tap the element of ``css`` whose text contains ``text`` (a link or a button by its words)."""

        def found():
            return [e for e in self.all(css) if text in e.text]

        self.until(found, f"{css} saying {text!r}")
        self.tap(found()[0])

    def type(self, css: str, text: str) -> None:
        """Tap into a field and type, as a phone's keyboard does."""
        element = self.find(css)
        self.tap(element)
        element.send_keys(text)

    def value(self, css: str) -> str:
        """A field's value, read at one moment (a refused save may redraw the form)."""
        self.find(css)
        return self.until(
            lambda: self.js("const e = document.querySelector(arguments[0]); return e ? [e.value] : null", css),
            css,
        )[0]

    def text(self, css: str) -> str:
        return self.find(css).text.strip()

    def texts(self, css: str) -> list[str]:
        """The shown text of each element of ``css``, read at one moment (the page may redraw them)."""
        return self.js("return Array.from(document.querySelectorAll(arguments[0])).map((e) => e.innerText.trim())", css)

    def settled(self) -> None:
        """The hand form's script is running and shows the answer to what was entered last."""
        self.find("form.hand-form[data-ready]")
        self.until(lambda: not self.all("form.hand-form[data-previewing]"), "the preview's answer")

    def screenshot(self, path) -> None:
        """The whole page, by the viewport made as tall as the page (Firefox's own full-page shot
        draws the sticky Save bar where the viewport's bottom was)."""
        width = self.js("return window.innerWidth")
        height = self.js("return Math.max(document.documentElement.scrollHeight, 844)")
        self.size(width, min(height, 4000))
        try:
            self.driver.save_screenshot(str(path))
        finally:
            self.size(width)
