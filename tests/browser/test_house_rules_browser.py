"""The table's own rules as a person makes and plays them, in headless Chromium at 390 x 844: make
"Thursday rules" from Classic (natural canasta 600, going out 300; an impossible opening tier refused
on the way, beside the value, what was typed kept), start a game with them, play two hands and check
the sheet.

Scores worked by hand from docs/rules.md#classic › Going out with the values of docs/rules.md#house-values:
hand 1: Anna & Carl out 300 + natural canasta 600 + melded 120 = 1020; Bert & Dora melded 80 − 30 in hand = 50.
hand 2: Bert & Dora out 300 + mixed canasta 300 + melded 200 = 800; Anna & Carl melded 60 − 40 = 20.
Totals 1040 and 850.
"""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import serve_fresh

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def live_server(tmp_path_factory):
    """This file's own server: the new-game page holds no other table's rules than the ones made here."""
    yield from serve_fresh(tmp_path_factory)


def totals(page):
    """The totals on the scoreboard (written with a real minus sign)."""
    return [int(t.replace("\u2212", "-")) for t in page.locator("p.total").all_inner_texts()]


def side(page, i):
    """One side's column of the hand form."""
    expect(page.locator("form.hand-form[data-ready]")).to_have_count(1)
    return page.locator(f'form.hand-form .cell[data-side="{i}"]')


def value_field(page, name):
    """One value's box on the page of the table's own rules."""
    return page.locator(f'.house-value[data-value="{name}"]')


def test_thursday_rules_made_and_played(phone_page, live_server, screenshot):
    page = phone_page
    page.goto(live_server + "/games/new")
    page.get_by_role("link", name="The table's own rules: make or change them").click()
    page.get_by_role("link", name=re.compile(r"Classic Canasta \(4 players")).click()
    expect(value_field(page, "canasta_natural")).to_contain_text("Default: 500.")
    page.get_by_label("Name", exact=True).fill("Thursday rules")
    page.get_by_label("Natural canastas: bonus each", exact=True).fill("600")
    page.get_by_label("Going out: bonus", exact=True).fill("300")
    page.get_by_label("Opening tier 4: from a total of").fill("1000")  # below tier 3's 1500: refused
    page.get_by_role("button", name="Keep these rules").click()
    tier = value_field(page, "opening_4_from")
    expect(tier.locator(".error")).to_have_text("Each tier must start above the one before (1500).")
    expect(tier.locator("input")).to_have_value("1000")  # what was typed is kept
    expect(value_field(page, "canasta_natural").locator(".changed-mark")).to_be_visible()
    expect(page.get_by_label(re.compile("Natural canastas: bonus each"))).to_have_value("600")
    page.wait_for_load_state("load")  # the page laid out with its style sheet, as a person sees it
    assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    screenshot(page, "house-01-refused-beside-the-value")
    tier.locator("input").fill("3000")
    page.get_by_role("button", name="Keep these rules").click()
    expect(page.get_by_text("Kept: Thursday rules.")).to_be_visible()

    # a new game offers them beside the built-in rule sets
    page.goto(live_server + "/games/new")
    page.get_by_role("link", name=re.compile("Thursday rules")).first.click()
    for seat, name in enumerate(["Anna", "Bert", "Carl", "Dora"], start=1):
        page.get_by_label(f"Seat {seat}", exact=True).fill(name)
    page.get_by_role("button", name="Start game").click()
    expect(page.get_by_text("The table's own rules: Thursday rules")).to_be_visible()

    # hand 1: Anna & Carl out 300 + natural 600 + 120 = 1020; Bert & Dora 80 − 30 = 50
    page.get_by_role("link", name="Enter hand 1").click()
    page.locator('form.hand-form label[for="out-0"]').click()
    side(page, 0).get_by_role("button", name="Natural canastas plus one").click()
    side(page, 0).locator('input[name="sides-0-melded_points"]').fill("120")
    side(page, 1).locator('input[name="sides-1-melded_points"]').fill("80")
    side(page, 1).locator('input[name="sides-1-hand_points"]').fill("30")
    expect(page.locator('[data-score="0"]')).to_contain_text("+1020")
    expect(page.locator('[data-score="1"]')).to_contain_text("+50")
    page.get_by_role("button", name="Save hand 1").click()
    expect(page.locator('.flash .saved-line[data-hand="1"]')).to_be_visible()
    assert totals(page) == [1020, 50]

    # hand 2: Bert & Dora out 300 + mixed 300 + 200 = 800; Anna & Carl 60 − 40 = 20
    page.get_by_role("link", name="Enter hand 2").click()
    page.locator('form.hand-form label[for="out-1"]').click()
    side(page, 1).get_by_role("button", name="Mixed canastas plus one").click()
    side(page, 1).locator('input[name="sides-1-melded_points"]').fill("200")
    side(page, 0).locator('input[name="sides-0-melded_points"]').fill("60")
    side(page, 0).locator('input[name="sides-0-hand_points"]').fill("40")
    expect(page.locator('[data-score="1"]')).to_contain_text("+800")
    page.get_by_role("button", name="Save hand 2").click()
    expect(page.locator('.flash .saved-line[data-hand="2"]')).to_be_visible()
    assert totals(page) == [1040, 850]
    # the sheet: each hand's breakdown with the table's values
    page.locator("#hand-1 > summary").click()
    expect(page.locator("#hand-1")).to_contain_text("600")
    expect(page.locator("#hand-1")).to_contain_text("300")
    expect(page.locator(".own-values")).to_contain_text("600")
    assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    screenshot(page, "house-02-sheet")


def test_own_kinds_made_and_played(phone_page, live_server, screenshot):
    """docs/rules.md › A table's own rules: a wild canasta worth 1000 added to Classic through the page
    (its part opened, a name forgotten and refused beside it), then played: Anna & Carl out 100 + natural
    500 + wild 1000 + melded 250 = 1850; Bert & Dora 60."""
    page = phone_page
    page.goto(live_server + "/house-rules/new/classic")
    page.get_by_label("Name", exact=True).fill("Wild Thursdays")
    page.locator("details.own-kind summary").first.click()
    page.get_by_label("Own kind 1", exact=True).select_option("canasta")
    page.get_by_label("Own kind 1: points", exact=True).fill("1000")
    page.get_by_label("Own kind 1: a canasta of wild cards only", exact=True).select_option("true")
    page.get_by_role("button", name="Keep these rules").click()
    name = value_field(page, "own_1_name")
    expect(name.locator(".error")).to_have_text("Give it a name.")
    expect(value_field(page, "own_1_points").locator("input")).to_have_value("1000")
    page.wait_for_load_state("load")  # the page laid out with its style sheet, as a person sees it
    assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    name.scroll_into_view_if_needed()
    screenshot(page, "house-03-own-kind-refused")
    name.locator("input").fill("Wild canasta")
    page.get_by_role("button", name="Keep these rules").click()
    expect(page.get_by_text("Kept: Wild Thursdays.")).to_be_visible()

    page.goto(live_server + "/games/new")
    page.get_by_role("link", name=re.compile("Wild Thursdays")).first.click()
    for seat, player in enumerate(["Anna", "Bert", "Carl", "Dora"], start=1):
        page.get_by_label(f"Seat {seat}", exact=True).fill(player)
    page.get_by_role("button", name="Start game").click()
    page.get_by_role("link", name="Enter hand 1").click()
    page.locator('form.hand-form label[for="out-0"]').click()
    side(page, 0).get_by_role("button", name="Natural canastas plus one").click()
    side(page, 0).get_by_role("button", name="Wild canasta plus one").click()
    side(page, 0).locator('input[name="sides-0-melded_points"]').fill("250")
    side(page, 1).locator('input[name="sides-1-melded_points"]').fill("60")
    expect(page.locator('[data-score="0"]')).to_contain_text("+1850")
    screenshot(page, "house-04-own-kind-on-the-pad")
    page.get_by_role("button", name="Save hand 1").click()
    expect(page.locator('.flash .saved-line[data-hand="1"]')).to_be_visible()
    assert totals(page) == [1850, 60]
