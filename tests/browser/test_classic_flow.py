"""The main flow as a person does it, in headless Chromium at 390 x 844: a Classic game from the
empty home page to the winner, with an edit and a refused entry on the way.

Scores are worked by hand from docs/rules.md#classic (its hand score and docs/rules.md#classic › End of the game).
"""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.live import browser, live_url, phone, shot  # noqa: F401  (fixtures)

pytestmark = pytest.mark.browser


def totals(page):
    """The totals on the scoreboard (written with a real minus sign)."""
    return [int(t.replace("\u2212", "-")) for t in page.locator("p.total").all_inner_texts()]


def side(page, i):
    """One side's column of the hand form (its cells on the score pad)."""
    expect(page.locator("form.hand-form[data-ready]")).to_have_count(1)  # its script is running: no tap is lost
    return page.locator(f'form.hand-form .cell[data-side="{i}"]')


def plus(page, i, label, times=1):
    """Tap a stepper's + button."""
    for _ in range(times):
        side(page, i).get_by_role("button", name=f"{label} plus one").click()


def went_out(page, i):
    """Tap the side that went out: "Who went out?" is asked once for the hand."""
    page.locator(f'form.hand-form label[for="out-{i}"]').click()


def cards(page, mode):
    """Points or card counts, for every side at once: mode is "Points" or "Count cards"."""
    page.locator("form.hand-form .mode-row label", has_text=mode).click()


def save(page, number):
    """Save a new hand: the scoreboard of the answer comes in place, the hand's line in the flash."""
    page.get_by_role("button", name=f"Save hand {number}").click()
    expect(page.locator(f'.flash .saved-line[data-hand="{number}"]')).to_be_visible()


def no_sideways_scroll(page):
    """The page fits the screen's width."""
    return page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")


def test_classic_game_from_start_to_winner(phone, live_url):
    page = phone
    page.goto(live_url + "/")
    expect(page.get_by_text("No games yet")).to_be_visible()
    shot(page, "01-home-empty")
    page.get_by_role("link", name="New game").click()
    page.get_by_role("link", name=re.compile("Classic Canasta \\(4 players")).click()
    for seat, name in enumerate(["Anna", "Bert", "Carl", "Dora"], start=1):
        page.get_by_label(f"Seat {seat}", exact=True).fill(name)
    shot(page, "02-new-game")
    page.get_by_role("button", name="Start game").click()
    expect(page.get_by_text("Next deal: Anna")).to_be_visible()
    assert totals(page) == [0, 0]

    # Hand 1, counted on the card pad (one choice for both sides).
    # Anna & Carl: out 100 + natural 500 + 2 red threes 200
    #   + melded 2 jokers 100 + 6 twos/aces 120 + 16 K–8 160 + 8 of 7–4 40 = 420 − three 7–4 15 = 1205.
    # Bert & Dora: five K–8 50 + two 7–4 10 = 60; red three 100;
    #   − a joker 50, two twos/aces 40 and four K–8 40 = 130 → 30.
    page.get_by_role("link", name="Enter hand 1").click()
    went_out(page, 0)
    plus(page, 0, "Natural canastas")
    plus(page, 0, "Red threes", 2)
    cards(page, "Count cards")
    for name, count in (
        ("melded_jokers", 2),
        ("melded_twos_aces", 6),
        ("melded_high", 16),
        ("melded_low", 8),
        ("hand_low", 3),
    ):
        side(page, 0).locator(f'input[name="sides-0-{name}"]').fill(str(count))
    for name, count in (
        ("melded_high", 5),
        ("melded_low", 2),
        ("hand_jokers", 1),
        ("hand_twos_aces", 2),
        ("hand_high", 4),
    ):
        side(page, 1).locator(f'input[name="sides-1-{name}"]').fill(str(count))
    plus(page, 1, "Red threes")
    expect(page.locator('[data-score="0"]')).to_contain_text("+1205")
    expect(page.locator('[data-score="1"]')).to_contain_text("+30")
    shot(page, "03-hand-form-filled")
    save(page, 1)
    expect(page.get_by_text("Hand saved.")).to_be_visible()
    assert totals(page) == [1205, 30]
    expect(page.get_by_text("Next deal: Bert")).to_be_visible()

    # Hand 2. Bert & Dora out: 100 + mixed 300 + melded 300 = 700. Anna & Carl: 90 − 25 = 65.
    page.get_by_role("link", name="Enter hand 2").click()
    went_out(page, 1)
    plus(page, 1, "Mixed canastas")
    # the table counted its cards last hand, so the form starts on the count pad: switch back
    expect(page.locator('input[name="mode"][value="counts"]')).to_be_checked()
    cards(page, "Points")
    side(page, 1).locator('input[name="sides-1-melded_points"]').fill("300")
    side(page, 0).locator('input[name="sides-0-melded_points"]').fill("90")
    side(page, 0).locator('input[name="sides-0-hand_points"]').fill("25")
    save(page, 2)
    assert totals(page) == [1270, 730]
    shot(page, "04-scoreboard-two-hands")

    # Edit hand 1: Anna & Carl held 65 (a joker too), not 15 → 1155; totals follow: 1220 and 730.
    page.locator("#hand-1 > summary").click()  # the hand's line opens its breakdown and buttons
    page.get_by_role("link", name="Edit hand 1").click()
    expect(page.get_by_role("heading", name="Correct hand 1")).to_be_visible()
    expect(page.locator('input[name="mode"][value="counts"]')).to_be_checked()  # as it was entered
    assert page.locator('input[name="sides-0-hand_low"]').input_value() == "3"
    page.locator('input[name="sides-0-hand_jokers"]').fill("1")
    expect(page.locator('[data-score="0"]')).to_contain_text("+1155")
    with page.expect_navigation():
        page.get_by_role("button", name="Save correction").click()
    assert totals(page) == [1220, 730]
    assert page.locator(".minimum strong").all_inner_texts() == ["50", "50"]

    # A refused entry: 12 points melded; the message sits by the field, values stay. Both sides
    # going out cannot even be entered: "Who went out?" takes one answer for the hand.
    page.get_by_role("link", name="Enter hand 3").click()
    went_out(page, 0)
    plus(page, 0, "Natural canastas")
    side(page, 0).locator('input[name="sides-0-melded_points"]').fill("212")
    went_out(page, 1)  # the answer moves to Bert & Dora: Anna & Carl no longer went out
    expect(page.locator('input[name="out"]:checked')).to_have_count(1)
    expect(page.locator("#out-0")).not_to_be_checked()
    expect(page.locator('input[name$="-went_out"]')).to_have_count(0)  # no side has a choice of its own
    went_out(page, 0)
    plus(page, 1, "Natural canastas")
    side(page, 1).locator('input[name="sides-1-melded_points"]').fill("100")
    page.get_by_role("button", name="Save hand 3").click()
    # the problem beside its field and in the list at Save, nowhere else (no banner on top)
    expect(page.locator(".problem-list")).to_contain_text("Points melded")
    expect(page.locator("#sides-0-melded_points-error")).to_contain_text("multiple of 5; 212 is not")
    expect(page.get_by_text("everything you typed is still here")).to_have_count(0)
    expect(page.locator("#out-0")).to_be_checked()
    assert page.locator('input[name="sides-0-melded_points"]').input_value() == "212"
    assert page.locator('input[name="sides-1-melded_points"]').input_value() == "100"
    shot(page, "05-hand-form-errors")

    # Fix it. Anna & Carl: out 100 + 6 natural 3000 + 4 red threes 800 + melded 1000 = 4900 → 6120;
    # Bert & Dora melded 100, without their canasta → 830. Anna & Carl win by 5290 (docs/rules.md#classic › End of the
    # game).
    plus(page, 0, "Natural canastas", 5)
    plus(page, 0, "Red threes", 4)
    side(page, 0).locator('input[name="sides-0-melded_points"]').fill("1000")
    page.locator('input[name="sides-1-natural_canastas"]').fill("")
    save(page, 3)
    assert totals(page) == [6120, 830]
    expect(page.locator(".result.won")).to_contain_text("Anna & Carl win by 5290 points")
    assert page.get_by_role("link", name="Enter hand 4").count() == 0
    shot(page, "06-scoreboard-winner")
    page.get_by_role("link", name="Opening meld table").click()
    expect(page.locator("tr.current")).to_have_count(2)
    expect(page.locator("tr.current").nth(0)).to_contain_text("Bert & Dora (830)")
    expect(page.locator("tr.current").nth(1)).to_contain_text("Anna & Carl (6120)")
    shot(page, "07-opening-meld-table")


def test_no_sideways_scrolling_at_360(browser, live_url):
    context = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.goto(live_url + "/games/new/classic")
    page.get_by_role("button", name="Start game").click()
    assert no_sideways_scroll(page)
    page.get_by_role("link", name="Enter hand 1").click()
    side(page, 0)  # the form's script is running
    cards(page, "Count cards")
    assert no_sideways_scroll(page)
    context.close()


def test_the_first_dealer_is_picked_by_the_names_typed(phone, live_url):
    """The first dealer's choices read the names typed, not 1 to 4."""
    page = phone
    page.goto(live_url + "/games/new/classic")
    dealers = page.locator('fieldset:has(input[name="first_dealer"]) label:visible')
    expect(dealers).to_have_text(["1", "2", "3", "4"])  # no names yet: the seats
    for seat, name in enumerate(["Anna", "Bert", "Carla"], start=1):
        page.get_by_label(f"Seat {seat}", exact=True).fill(name)
    expect(dealers).to_have_text(["Anna", "Bert", "Carla", "4"])  # an empty seat keeps its number
    dealers.filter(has_text="Bert").click()  # picked by name
    expect(page.get_by_label("Bert", exact=True)).to_be_checked()
    page.get_by_label("Seat 4", exact=True).fill("Dieter")
    expect(dealers).to_have_text(["Anna", "Bert", "Carla", "Dieter"])
    page.get_by_role("button", name="Start game").click()
    page.wait_for_url(re.compile(r"/games/\d+$"))
    game = page.url.rsplit("/", 1)[1]
    assert page.request.get(f"{live_url}/api/games/{game}").json()["next_dealer"] == "Bert"  # deals hand 1
