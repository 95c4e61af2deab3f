"""Every change on record, in a real browser: two phones, one corrects a hand twice, the other opens
that hand's history, sees both corrections with the phone names, and goes back to the first
version; the totals follow and the log shows three corrections."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.live import browser, live_url, phone_context, shot, start_classic  # noqa: F401  (fixtures)

pytestmark = pytest.mark.browser


def _fill(page, us, them):
    expect(page.locator("form.hand-form[data-ready]")).to_have_count(1)  # its script is running
    page.locator('input[name="sides-0-melded_points"]').fill(str(us))
    page.locator('input[name="sides-1-melded_points"]').fill(str(them))
    page.locator('label[for="out-stock"]').click()  # who went out: nobody, the stock ran out


def _name(page, game_url, name):
    page.goto(game_url + "/changes")
    page.get_by_label(re.compile("Name this phone")).fill(name)
    page.get_by_role("button", name="Save the name").click()
    expect(page.get_by_text(f"This phone is called {name}.").first).to_be_visible()


def test_two_phones_correct_a_hand_and_go_back_to_its_first_version(browser, live_url):
    (anna_ctx, anna), (bert_ctx, bert) = phone_context(browser), phone_context(browser)
    try:
        game_url = start_classic(anna, live_url)
        _name(anna, game_url, "Anna's phone")
        bert.goto(game_url)
        _name(bert, game_url, "Bert's phone")

        # Anna enters hand 1 (docs/rules.md#classic › Going out: 100 melded, nothing in hand, the stock ran out: +100 :
        # +80)
        anna.goto(game_url)
        anna.get_by_role("link", name="Enter hand 1").click()
        _fill(anna, 100, 80)
        anna.get_by_role("button", name="Save hand 1").click()
        expect(anna.locator('.flash .saved-line[data-hand="1"]')).to_be_visible()  # the scoreboard in place
        # ... and corrects it twice: 150, then 200 (the hand's line opens its Edit button)
        for figure in (150, 200):
            anna.locator("#hand-1 > summary").click()
            anna.get_by_role("link", name="Edit hand 1").click()
            _fill(anna, figure, 80)
            with anna.expect_navigation():
                anna.get_by_role("button", name=re.compile("Save")).click()
        expect(anna.locator("p.total").first).to_have_text("200")

        # Bert sees the sheet say so and opens the hand's history
        bert.goto(game_url)
        bert.locator("#hand-1 > summary").click()
        bert.get_by_role("link", name="corrected 2×").click()
        versions = bert.locator("li.version")
        expect(versions).to_have_count(3)
        expect(versions.nth(0)).to_contain_text("Version 3")
        expect(versions.nth(0)).to_contain_text("Anna's phone")
        expect(versions.nth(1)).to_contain_text("Version 2")
        expect(versions.nth(1)).to_contain_text("+150")
        expect(versions.nth(2)).to_contain_text("Version 1")
        expect(versions.nth(2)).to_contain_text("+100")
        shot(bert, "hand-history-390")
        with bert.expect_navigation():
            bert.get_by_role("button", name="Go back to version 1").click()
        expect(bert.get_by_text("Hand 1 is back to version 1.")).to_be_visible()

        # the totals follow on both phones, and the log holds three corrections, the last Bert's
        bert.goto(game_url)
        expect(bert.locator("p.total").first).to_have_text("100")
        bert.locator("#hand-1 > summary").click()
        expect(bert.get_by_role("link", name="corrected 3×")).to_be_visible()
        expect(anna.locator("p.total").first).to_have_text("100", timeout=5000)  # followed live
        bert.goto(game_url + "/changes")
        corrections = bert.locator("ol.changes li", has_text="hand corrected")
        expect(corrections).to_have_count(3)
        expect(corrections.first).to_contain_text("Bert's phone")
    finally:
        anna_ctx.close()
        bert_ctx.close()
