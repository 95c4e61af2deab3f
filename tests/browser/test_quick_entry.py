"""A typical hand entered with exactly the taps and keystrokes counted in docs/quick-entry.md."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.live import Thumb, browser, live_url, phone  # noqa: F401  (fixtures)

pytestmark = pytest.mark.browser


def start(page, base, variant):
    """A game with default players (setting up is not part of entering a hand)."""
    page.goto(f"{base}/games/new/{variant}")
    page.get_by_role("button", name="Start game").click()
    page.wait_for_url(re.compile(r"/games/\d+$"))


def side(page, i):
    """One side's column of the score pad."""
    expect(page.locator("form.hand-form[data-ready]")).to_have_count(1)  # its script is running: no tap is lost
    return page.locator(f'form.hand-form .cell[data-side="{i}"]')


def went_out(page, i):
    """The side's answer to "Who went out?", asked once for the hand."""
    return page.locator(f'label[for="out-{i}"]')


def test_classic_hand_in_9_taps_and_8_keystrokes(phone, live_url):
    start(phone, live_url, "classic")
    t = Thumb(phone)
    t.tap(phone.get_by_role("link", name="Enter hand 1"))
    t.tap(went_out(phone, 0))
    t.tap(side(phone, 0).get_by_role("button", name="Natural canastas plus one"))
    t.tap(side(phone, 0).get_by_role("button", name="Mixed canastas plus one"))
    t.tap(side(phone, 0).get_by_role("button", name="Red threes plus one"))
    t.type(side(phone, 0).get_by_label("Points melded"), "380")
    t.type(side(phone, 1).get_by_label("Points melded"), "150")
    t.type(side(phone, 1).get_by_label("Points in hand"), "45")
    t.tap(phone.get_by_role("button", name="Save hand 1"))
    # docs/rules.md#classic: 100 + 500 + 300 + 100 + 380 = 1380; 150 − 45 = 105
    expect(phone.locator("p.total").first).to_have_text("1380")
    assert phone.locator("p.total").all_inner_texts() == ["1380", "105"]
    assert (t.taps, t.digits) == (9, 8)


def test_modern_hand_in_12_taps_and_8_keystrokes(phone, live_url):
    start(phone, live_url, "modern")
    t = Thumb(phone)
    t.tap(phone.get_by_role("link", name="Enter hand 1"))
    t.tap(went_out(phone, 0))
    t.tap(side(phone, 0).get_by_role("button", name="Natural canastas plus one"))
    t.tap(side(phone, 0).get_by_role("button", name="Mixed canastas plus one"))
    t.tap(side(phone, 0).get_by_role("button", name="Red threes plus one"))
    t.tap(side(phone, 0).get_by_role("button", name="Red threes plus one"))
    t.type(side(phone, 0).get_by_label("Points melded"), "480")
    t.tap(side(phone, 1).get_by_role("button", name="Mixed canastas plus one"))
    t.tap(side(phone, 1).get_by_role("button", name="Red threes plus one"))
    t.type(side(phone, 1).get_by_label("Points melded"), "260")
    t.type(side(phone, 1).get_by_label("Points in hand"), "45")
    t.tap(phone.get_by_role("button", name="Save hand 1"))
    # docs/rules.md#modern › Red and black threes: 100 + 500 + 300 + two red threes 300 (2 canastas) + 480 = 1680;
    # one canasta: threes not scored; 300 + 260 − 45 = 515
    expect(phone.locator("p.total").first).to_have_text("1680")
    assert phone.locator("p.total").all_inner_texts() == ["1680", "515"]
    assert (t.taps, t.digits) == (12, 8)
