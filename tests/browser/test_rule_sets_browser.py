"""Every rule set chosen and played for several hands in a real browser at phone size."""

import re

import pytest
from playwright.sync_api import expect

from scorekeeper.core import rulesets
from tests.browser.live import browser, live_url, phone, shot  # noqa: F401  (fixtures)

pytestmark = pytest.mark.browser
NAMES = ["Anna", "Bert", "Carl", "Dora", "Emil", "Fritz"]


def totals(page):
    """The totals on the scoreboard (written with a real minus sign)."""
    return [int(t.replace("\u2212", "-")) for t in page.locator("p.total").all_inner_texts()]


def start(page, base, variant, layout_label=None):
    """Home → New game → the rule set → names → Start game."""
    page.goto(base + "/")
    page.get_by_role("link", name="New game").click()
    page.locator(f'a.choice[href="/games/new/{variant}"]').click()
    # Its stylesheet hides the seats the layout does not use: look at the seats once it has loaded.
    page.wait_for_url(f"**/games/new/{variant}", wait_until="load")
    if layout_label:
        page.get_by_text(layout_label).click()
    for seat in range(1, 7):
        field = page.get_by_label(f"Seat {seat}", exact=True)
        if field.is_visible():
            field.fill(NAMES[seat - 1])
    page.get_by_role("button", name="Start game").click()
    page.wait_for_url(re.compile(r"/games/\d+$"))


def step(page, side, label, times=1):
    """Tap a stepper's + button."""
    expect(page.locator("form.hand-form[data-ready]")).to_have_count(1)  # its script is running: no tap is lost
    for _ in range(times):
        page.locator(f'form.hand-form .cell[data-side="{side}"]').get_by_role(
            "button", name=f"{label} plus one"
        ).click()


def settled(page):
    """The form shows the answer to what was entered last (a person looks before the next tap)."""
    expect(page.locator("form.hand-form[data-ready]:not([data-previewing])")).to_have_count(1)


def saved(page, number):
    """The scoreboard of the answer shown in place of the form: at the game's address, the hand's line
    in the flash."""
    expect(page.locator(f'.flash .saved-line[data-hand="{number}"]')).to_be_visible()
    page.wait_for_url(re.compile(r"/games/\d+$"))


def melded(page, side, points):
    """Type the melded points of a side."""
    expect(page.locator("form.hand-form[data-ready]")).to_have_count(1)  # its script is running: no tap is lost
    page.locator(f'form.hand-form .cell[data-side="{side}"] input[name="sides-{side}-melded_points"]').fill(str(points))


@pytest.mark.parametrize("variant", list(rulesets.RULE_SETS))
def test_choose_and_play_two_hands(phone, live_url, variant):
    rules = rulesets.configure(rulesets.get(variant))
    start(phone, live_url, variant)
    sides = rules.sides
    assert totals(phone) == [0] * sides
    # Hand 1: side 0 goes out with the canastas its rules need; the others meld a little.
    phone.get_by_role("link", name="Enter hand 1").click()
    natural = max(rules.canastas_to_go_out - rules.wild_canastas_to_go_out, rules.natural_canastas_to_go_out)
    step(phone, 0, "Natural canastas", natural)
    wild = rules.wild_canastas_to_go_out
    if wild:
        step(phone, 0, rules.kind("wild").label, wild)
    min_points = 35 * natural + 140 * wild
    melded(phone, 0, min_points + 100)
    settled(phone)
    phone.locator('form.hand-form label[for="out-0"]').click()  # who went out: side 0 (the first way)
    for side in range(1, sides):
        melded(phone, side, 150)
    if rules.lone_player:
        settled(phone)
        phone.locator("fieldset.lone").get_by_text("Anna", exact=True).click()
    expected_0 = (
        100
        + natural * rules.kind("natural").bonus
        + (wild * rules.kind("wild").bonus if wild else 0)
        + min_points
        + 100
    )
    if not rules.lone_player:  # the live preview asks the server's scoring
        expect(phone.locator('[data-score="0"]')).to_contain_text(f"+{expected_0} →")
    phone.get_by_role("button", name="Save hand 1").click()
    saved(phone, 1)
    # Modern (docs/rules.md#modern › Canastas): a side without a canasta counts its melded cards minus
    other = -150 if rules.melded_minus_without_canasta else 150
    if rules.lone_player:
        # docs/rules.md#classic-3p: Anna alone 100 + 500 + 135; the partners pool 150 + 150
        first = [735, 300, 300]
    else:
        first = [expected_0] + [other] * (sides - 1)
    assert totals(phone) == first
    # Hand 2: nobody went out, the stock ran out; every side melded 200 and holds 50.
    phone.get_by_role("link", name="Enter hand 2").click()
    for side in range(sides):
        melded(phone, side, 200)
        phone.locator(f'input[name="sides-{side}-hand_points"]').fill("50")
    if rules.lone_player:
        phone.get_by_text("Nobody: each scored alone").click()
    phone.locator('form.hand-form label[for="out-stock"]').click()  # nobody went out: the stock ran out
    phone.get_by_role("button", name="Save hand 2").click()
    saved(phone, 2)
    second = -250 if rules.melded_minus_without_canasta else 150
    assert totals(phone) == [t + second for t in first]
    assert phone.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    shot(phone, f"scoreboard-{variant}")
