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

WAIT = 30  # seconds: a loaded two-core machine is slow; every wait is for an explicit state


class Phone:
    def __init__(self, driver, engine: str) -> None:
        self.driver, self.engine = driver, engine

    # --- the window -------------------------------------------------------------------------------

    def size(self, width: int, height: int = 844) -> None:
        """The page's viewport, as a phone of that width has it."""
        if self.engine != "webkit":
            self.driver.browsing_context.set_viewport(
                context=self.driver.current_window_handle, viewport={"width": width, "height": height}
            )
        else:  # MiniBrowser: the window, less what a window that is not full screen draws around the page
            self.driver.set_window_size(width, height)
            inner = self.js("return [window.innerWidth, window.innerHeight]")
            if inner[0] and (inner[0], inner[1]) != (width, height):
                self.driver.set_window_size(2 * width - inner[0], 2 * height - inner[1])
        if self.url != "about:blank":
            self.until(lambda: self.js("return window.innerWidth") == width, f"a viewport {width} px wide")

    def fresh(self, base: str | None = None) -> None:
        """One window, and nothing kept from before on ``base`` (cookies, the queue, drafts)."""
        handles = self.driver.window_handles
        for handle in handles[1:]:
            self.driver.switch_to.window(handle)
            self.driver.close()
        self.driver.switch_to.window(handles[0])
        if base:
            self.go(base + "/robots.txt")
            self.driver.delete_all_cookies()
            self.js("localStorage.clear(); sessionStorage.clear();")
        self.driver.get("about:blank")

    def second_window(self) -> None:
        """A second window beside the first (another phone at the table), shown from now on."""
        self.driver.switch_to.new_window("window")
        self.size(390)

    def window(self, number: int) -> None:
        self.driver.switch_to.window(self.driver.window_handles[number])

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
        self.until(lambda: self.all(css), css)
        return self.all(css)[0]

    def until(self, condition, what: str, timeout: float = WAIT):
        """Wait until ``condition()`` is true; fail saying what was waited for and where."""

        def check(_driver):
            try:
                return condition()
            except (StaleElementReferenceException, WebDriverException):
                return False

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
        return self.find(css).get_attribute("value") or ""

    def text(self, css: str) -> str:
        return self.find(css).text.strip()

    def texts(self, css: str) -> list[str]:
        return [e.text.strip() for e in self.all(css)]

    def settled(self) -> None:
        """The hand form's script is running and shows the answer to what was entered last."""
        self.find("form.hand-form[data-ready]")
        self.until(lambda: not self.all("form.hand-form[data-previewing]"), "the preview's answer")

    def screenshot(self, path) -> None:
        """The whole page (Firefox by its own command; the others by the viewport made as tall)."""
        if self.engine == "firefox":
            self.driver.get_full_page_screenshot_as_file(str(path))
            return
        width = self.js("return window.innerWidth")
        height = self.js("return Math.max(document.documentElement.scrollHeight, 844)")
        self.size(width, min(height, 4000))
        try:
            self.driver.save_screenshot(str(path))
        finally:
            self.size(width)
