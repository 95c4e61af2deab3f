"""Four phones follow one game live, one in German and one offline for a hand,
and the sheet ends identical on all four."""

import time

import pytest
from playwright.sync_api import expect

from tests.browser.live import browser, keep_for_offline, live_url, phone_context, shot, start_classic  # noqa: F401  (fixtures)

pytestmark = pytest.mark.browser


_phone = phone_context


def _sheet(page):
    """What a phone shows of the sheet: the totals and every hand's score per side (its line), as numbers."""
    totals = [t.replace("\u2212", "-") for t in page.locator("p.total").all_inner_texts()]
    hands = [s.replace("\u2212", "-") for s in page.locator(".hand-line > summary .hs").all_inner_texts()]
    return totals, hands


def _enter(page, us_melded, them_melded):
    """Fill a hand where nobody went out and save it (any language: by field names)."""
    expect(page.locator("form.hand-form[data-ready]")).to_have_count(1)  # its script is running: no tap is lost
    page.locator('input[name="sides-0-melded_points"]').fill(str(us_melded))
    page.locator('input[name="sides-1-melded_points"]').fill(str(them_melded))
    page.locator('label[for="out-stock"]').click()  # who went out: nobody, the stock ran out


def test_four_phones_one_in_german_one_offline_end_with_the_same_sheet(browser, live_url):
    phones = [_phone(browser), _phone(browser), _phone(browser, "de-DE"), _phone(browser)]
    scorer, follower, german, offline = [page for _, page in phones]
    game_url = start_classic(scorer, live_url)
    for page in (follower, german, offline):
        page.goto(game_url)
    assert german.locator("html").get_attribute("lang") == "de"
    keep_for_offline(offline, game_url)  # the game is now in this phone's cache

    # hand 1 on the scorer's phone: the other three see it within 2 seconds
    scorer.get_by_role("link", name="Enter hand 1").click()
    _enter(scorer, 150, 70)
    scorer.get_by_role("button", name="Save hand 1").click()
    # the server's scoreboard in place (its answer; slower when the whole suite loads the machine)
    expect(scorer.locator('.flash .saved-line[data-hand="1"]')).to_be_visible(timeout=15000)
    saved = time.monotonic()
    for page in (follower, german, offline):
        expect(page.locator("p.total").first).to_have_text("150", timeout=2500)
    assert time.monotonic() - saved < 3.0

    # hand 2 on the phone that has lost the network: kept, shown as waiting, sent when it is back
    offline.wait_for_timeout(300)
    phones[3][0].set_offline(True)
    offline.get_by_role("link", name="Enter hand 2").click()
    _enter(offline, 90, 120)
    offline.get_by_role("button", name="Save hand 2").click()
    expect(offline.locator("#waiting-hands")).to_contain_text("1 hand is waiting to be sent")
    shot(offline, "four-phones-offline-waiting")
    expect(scorer.locator("p.total").first).to_have_text("150")  # nobody else has it yet
    phones[3][0].set_offline(False)
    expect(offline.locator("#waiting-hands")).to_have_count(0, timeout=10000)
    for page in (scorer, follower, german, offline):
        expect(page.locator("p.total").first).to_have_text("240", timeout=10000)

    # hand 3 on the German phone, in German
    german.locator('a.btn.primary[href$="/hands/new"]').click()
    expect(german.locator("form.hand-form")).to_contain_text("Ausmachen")
    _enter(german, 200, 55)
    german.locator('form.hand-form button[type="submit"]').last.click()
    expect(german.locator('.flash .saved-line[data-hand="3"]')).to_be_visible(timeout=15000)  # the server's answer
    saved = time.monotonic()
    for page in (scorer, follower, offline):
        expect(page.locator("p.total").first).to_have_text("440", timeout=2500)
    assert time.monotonic() - saved < 3.0
    expect(german.locator("p.total").first).to_have_text("440")

    sheets = [_sheet(page) for page in (scorer, follower, german, offline)]
    assert sheets[0] == (["440", "245"], ["+150", "+70", "+90", "+120", "+200", "+55"])
    assert all(sheet == sheets[0] for sheet in sheets), sheets
    shot(german, "four-phones-german")
    for context, _ in phones:
        context.close()
