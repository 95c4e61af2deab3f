"""A Classic Canasta game played the way a person plays it on a phone: tapping links, steppers and
segmented choices and typing figures, in headless Chromium at 390 x 844 against the live server.

Every expected score is worked by hand from docs/rules.md#classic:

    hand score (docs/rules.md#classic):
          score = 100·wentOut + 100·concealed + 500·nNatural + 300·nMixed + RT(red, melded) + M − H
          RT(n, melded) = (800 if n == 4 else 100·n) · (+1 if melded else −1)
    docs/rules.md#classic › Opening minimum:
          opening meld by the total at the start of the hand: < 0 → 15, 0–1495 → 50, 1500–2995 → 90, ≥ 3000 → 120
    docs/rules.md#classic › End of the game:
          at 5000 or more after a hand the higher total wins; the margin is the difference
    docs/rules.md#classic › Card values:
          joker 50, 2 and ace 20, K–8 10, 7–4 5

The test module shares one live server (a fresh database) for the session; the first test expects
the home page to be empty, so it is defined first.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import serve_fresh

pytestmark = pytest.mark.browser

PLAYERS = ["Anna", "Ben", "Cleo", "Dan"]  # seats 1 & 3 against 2 & 4
US, THEM = "Anna & Cleo", "Ben & Dan"


def classic_score(went_out=False, natural=0, mixed=0, red=0, melded=0, in_hand=0):
    """docs/rules.md#classic: the hand score of one side, as the rules write it (no concealed going out, no penalties
    here)."""
    has_melded = melded > 0 or natural + mixed > 0
    red_threes = (800 if red == 4 else 100 * red) * (1 if has_melded else -1)
    return 100 * went_out + 500 * natural + 300 * mixed + red_threes + melded - in_hand


def opening_minimum(total):
    """docs/rules.md#classic › Opening minimum."""
    return 15 if total < 0 else 50 if total < 1500 else 90 if total < 3000 else 120


# --- what a person does ------------------------------------------------------------------------


def side(page, i):
    """One side's column of the hand form (its cells on the score pad)."""
    expect(page.locator("form.hand-form[data-ready]")).to_have_count(1)  # its script is running: no tap is lost
    return page.locator(f'form.hand-form .cell[data-side="{i}"]')


def field(scope, label):
    """A side's input of a row (its accessible name is the row's label and the side's name)."""
    return scope.get_by_role("textbox", name=label)


def count(page, i, part, card):
    """A side's count of one kind of card, melded (part="melded") or left in hand (part="hand"):
    card is jokers, twos_aces, high (K to 8), low (7 to 4) or black_threes."""
    return page.locator(f'input[name="sides-{i}-{part}_{card}"]')


def tap_plus(scope, label, times=1):
    """Tap a stepper's "+" button (its accessible name is "<label> plus one, <side>")."""
    button = scope.get_by_role("button", name=re.compile(rf"^{re.escape(label)} plus one, "))
    for _ in range(times):
        # the tap goes to the button itself: a preview answer arriving between Playwright's
        # aim and its tap can move the pad by a row, and the tap would count for the card below
        button.dispatch_event("click")


def went_out(page, i):
    """Tap the side that went out, in the hand's one "Who went out?" choice (the way: normal)."""
    page.locator(f'form.hand-form label[for="out-{i}"]').tap()


def who_went_out(page):
    """The values of the "Who went out?" choices that are ticked (one at most: it is one question)."""
    return [el.get_attribute("value") for el in page.locator('form.hand-form input[name="out"]:checked').all()]


def count_cards(page):
    """Switch the melded cards and the cards left in hand of every side to the count pad."""
    page.locator("form.hand-form .mode-row label", has_text="Count cards").tap()


def by_points(page):
    """Switch every side's cards back to typed points."""
    page.locator("form.hand-form .mode-row label", has_text="Points").tap()


def preview(page, i):
    """A side's live preview: "+score → new total"."""
    return page.locator(f'form.hand-form [data-score="{i}"]')


def save(page, number):
    """Tap "Save hand N": the scoreboard of the answer comes in place, with the hand's line in the flash."""
    page.get_by_role("button", name=f"Save hand {number}").tap()
    expect(page.locator(f'.flash .saved-line[data-hand="{number}"]')).to_be_visible()


def open_line(page, number):
    """Tap a hand's line on the sheet: its breakdown and its Edit and Delete buttons open."""
    page.locator(f"#hand-{number} > summary").tap()
    expect(page.locator(f"#hand-{number} .breakdown").first).to_be_visible()


def totals(page):
    """The big totals on the scoreboard, side by side."""
    return [int(text.replace("\u2212", "-")) for text in page.locator("p.total").all_inner_texts()]  # a real minus


def minimums(page):
    """The "Opening meld N" figures under the totals."""
    return [int(text) for text in page.locator(".minimum strong").all_inner_texts()]


def sideways_overflow(page):
    """(scrollWidth, clientWidth) of the document: the page scrolls sideways when the first is larger."""
    return page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")


def assert_fits(page, what):
    page.wait_for_load_state("load")  # its style sheet applied (a busy machine may show the page before)
    scroll_width, client_width = sideways_overflow(page)
    assert scroll_width <= client_width, f"{what}: scrolls sideways ({scroll_width} > {client_width} px)"


def start_classic_game(page, base_url, names=PLAYERS):
    """Home → New game → Classic (4 players) → names → Start game; ends on the empty scoreboard."""
    page.goto(base_url + "/")
    page.get_by_role("link", name="New game", exact=True).tap()
    expect(page.get_by_role("heading", name="New game: which rules?")).to_be_visible()
    page.get_by_role("link", name=re.compile(r"^Classic Canasta \(4 players")).tap()
    for seat, name in enumerate(names, start=1):
        page.get_by_label(f"Seat {seat}", exact=True).fill(name)
    page.get_by_role("button", name="Start game").tap()
    expect(page.get_by_role("link", name="Enter hand 1")).to_be_visible()


@pytest.fixture(scope="module")
def live_server(tmp_path_factory):
    """This file's own server on an empty archive: its first test starts from the empty home page,
    whatever other files' tests have stored on the shared one."""
    yield from serve_fresh(tmp_path_factory)


# --- the tests ---------------------------------------------------------------------------------


def test_classic_game_from_empty_home_to_the_winner(phone_page, live_server, screenshot):
    page = phone_page
    page.goto(live_server + "/")
    expect(page.get_by_text("No games yet")).to_be_visible()
    screenshot(page, "home-empty")

    page.get_by_role("link", name="New game", exact=True).tap()
    page.get_by_role("link", name=re.compile(r"^Classic Canasta \(4 players")).tap()
    expect(page.get_by_role("heading", name="Classic Canasta (4 players, 2 partnerships)")).to_be_visible()
    for seat, name in enumerate(PLAYERS, start=1):
        page.get_by_label(f"Seat {seat}", exact=True).fill(name)
    screenshot(page, "new-game")
    page.get_by_role("button", name="Start game").tap()

    expect(page.locator(".total-card h2")).to_have_text([US, THEM])
    assert totals(page) == [0, 0]
    assert minimums(page) == [50, 50]
    expect(page.get_by_text("Next deal:")).to_contain_text("(hand 1)")

    # ---- Hand 1 ----------------------------------------------------------------------------
    # The table counts its cards on the pad this hand (one choice for both sides).
    # Anna & Cleo went out with 1 natural and 1 mixed canasta, 3 red threes, 0 in hand, melded
    #   2 jokers 100 + 5 twos/aces 100 + 14 K–8 140 + 8 of 7–4 40 = 380:
    #   100 + 500 + 300 + 300 + 380 − 0 = 1580
    # Ben & Dan: 1 mixed canasta, 1 red three,
    #   melded 1 joker 50 + 3 twos/aces 60 + 6 K–8 60 + 4 of 7–4 20 = 190,
    #   in hand 1 two/ace 20 + 2 K–8 20 + 1 of 7–4 5 = 45:
    #   300 + 100 + 190 − 45 = 545
    us_1 = classic_score(went_out=True, natural=1, mixed=1, red=3, melded=2 * 50 + 5 * 20 + 14 * 10 + 8 * 5)
    them_1 = classic_score(mixed=1, red=1, melded=50 + 3 * 20 + 6 * 10 + 4 * 5, in_hand=20 + 2 * 10 + 5)
    assert (us_1, them_1) == (1580, 545)

    page.get_by_role("link", name="Enter hand 1").tap()
    expect(page.get_by_role("heading", name="Hand 1")).to_be_visible()
    us, them = side(page, 0), side(page, 1)

    went_out(page, 0)
    tap_plus(us, "Natural canastas")
    tap_plus(us, "Mixed canastas")
    tap_plus(us, "Red threes", 3)
    tap_plus(them, "Mixed canastas")
    tap_plus(them, "Red threes")

    count_cards(page)
    for card, figure in (("jokers", "2"), ("twos_aces", "5"), ("high", "14"), ("low", "8")):
        count(page, 0, "melded", card).fill(figure)
    for card, figure in (("jokers", "1"), ("twos_aces", "3"), ("high", "6"), ("low", "4")):
        count(page, 1, "melded", card).fill(figure)
    for card, figure in (("twos_aces", "1"), ("high", "2"), ("low", "1")):
        count(page, 1, "hand", card).fill(figure)

    # What was tapped is what the inputs hold.
    assert who_went_out(page) == ["0"]  # Anna & Cleo, and only they
    expect(page.locator("#how-normal")).to_be_checked()  # the usual way, unless another is tapped
    assert field(us, "Natural canastas").input_value() == "1"
    assert field(us, "Red threes").input_value() == "3"
    assert field(them, "Red threes").input_value() == "1"
    assert count(page, 1, "melded", "high").input_value() == "6"
    expect(field(us, "Points melded")).to_be_hidden()
    expect(field(them, "Points in hand")).to_be_hidden()

    # The live preview shows each side's hand score and new total.
    expect(preview(page, 0)).to_have_text(f"+{us_1} → {us_1}")
    expect(preview(page, 1)).to_have_text(f"+{them_1} → {them_1}")
    screenshot(page, "hand-form-filled")

    save(page, 1)
    expect(page.locator(".flash")).to_contain_text("Hand saved.")
    assert totals(page) == [1580, 545]
    assert minimums(page) == [opening_minimum(1580), opening_minimum(545)] == [90, 50]
    open_line(page, 1)
    expect(page.locator("#hand-1 tr.hand-score td.num")).to_have_text(["+1580", "+545"])

    # ---- Hand 2 ----------------------------------------------------------------------------
    # Ben & Dan went out with 3 natural canastas and 840 melded: 100 + 1500 + 840 = 2440 → 2985.
    # Anna & Cleo melded 120 (over their 90), 2 red threes, 85 in hand: 120 + 200 − 85 = 235 → 1815.
    us_2 = classic_score(red=2, melded=120, in_hand=85)
    them_2 = classic_score(went_out=True, natural=3, melded=840)
    assert (us_2, them_2) == (235, 2440)

    page.get_by_role("link", name="Enter hand 2").tap()
    us, them = side(page, 0), side(page, 1)
    # The table counted its cards last hand, so the form starts on the pad; this time it types points.
    expect(page.locator("form.hand-form .mode-row").get_by_label("Count cards", exact=True)).to_be_checked()
    assert who_went_out(page) == []  # asked again each hand
    by_points(page)
    expect(page.locator("form.hand-form .mode-row").get_by_label("Points", exact=True)).to_be_checked()
    went_out(page, 1)
    tap_plus(them, "Natural canastas", 3)
    field(them, "Points melded").fill("840")
    tap_plus(us, "Red threes", 2)
    field(us, "Points melded").fill("120")
    field(us, "Points in hand").fill("85")
    expect(preview(page, 0)).to_have_text("+235 → 1815")
    expect(preview(page, 1)).to_have_text("+2440 → 2985")
    save(page, 2)
    assert totals(page) == [us_1 + us_2, them_1 + them_2] == [1815, 2985]
    assert minimums(page) == [90, 90]

    # ---- Edit hand 1 -----------------------------------------------------------------------
    # Anna & Cleo had melded 430, not 380 (+50); Ben & Dan had 7 low cards, not 4 (+15):
    #   hand 1 → 1630 and 560; totals → 1630 + 235 = 1865 and 560 + 2440 = 3000,
    #   so Ben & Dan's next opening meld goes up from 90 to 120 (docs/rules.md#classic › Opening minimum: 3000 or more).
    # (one more joker melded: 3 × 50 + 100 + 140 + 40 = 430)
    us_1 = classic_score(went_out=True, natural=1, mixed=1, red=3, melded=3 * 50 + 5 * 20 + 14 * 10 + 8 * 5)
    them_1 = classic_score(mixed=1, red=1, melded=50 + 3 * 20 + 6 * 10 + 7 * 5, in_hand=45)
    assert (us_1, them_1) == (1630, 560)

    open_line(page, 1)
    page.get_by_role("link", name="Edit hand 1").tap()
    expect(page.get_by_role("heading", name="Correct hand 1")).to_be_visible()
    us, them = side(page, 0), side(page, 1)
    # The stored hand comes back as it was entered, count pad included.
    assert who_went_out(page) == ["0"]
    expect(page.locator("form.hand-form .mode-row").get_by_label("Count cards", exact=True)).to_be_checked()
    assert count(page, 0, "melded", "jokers").input_value() == "2"
    assert count(page, 1, "melded", "low").input_value() == "4"
    assert count(page, 1, "hand", "high").input_value() == "2"
    count(page, 0, "melded", "jokers").fill("3")
    count(page, 1, "melded", "low").fill("7")
    expect(preview(page, 0)).to_have_text("+1630 → 1630")
    expect(preview(page, 1)).to_have_text("+560 → 560")
    page.get_by_role("button", name="Save correction").tap()
    expect(page.get_by_text("Hand corrected; every later total follows.")).to_be_visible()
    assert totals(page) == [us_1 + us_2, them_1 + them_2] == [1865, 3000]
    assert minimums(page) == [opening_minimum(1865), opening_minimum(3000)] == [90, 120]
    open_line(page, 1)
    expect(page.locator("#hand-1 tr.hand-score td.num")).to_have_text(["+1630", "+560"])
    open_line(page, 2)
    expect(page.locator("#hand-2 tr.running td.num")).to_have_text(["1865", "3000"])
    page.evaluate("window.scrollTo(0, 0)")
    screenshot(page, "scoreboard-two-hands")

    # ---- Hand 3: past 5000 -----------------------------------------------------------------
    # Ben & Dan went out: 100 + 2 natural 1000 + 1 mixed 300 + 1 red three 100 + 700 melded = 2200 → 5200.
    # Anna & Cleo: 150 melded (over 90) + 3 red threes 300 − 60 in hand = 390 → 2255.
    # docs/rules.md#classic › End of the game: Ben & Dan win by 5200 − 2255 = 2945.
    us_3 = classic_score(red=3, melded=150, in_hand=60)
    them_3 = classic_score(went_out=True, natural=2, mixed=1, red=1, melded=700)
    final = [us_1 + us_2 + us_3, them_1 + them_2 + them_3]
    assert final == [2255, 5200]
    margin = final[1] - final[0]
    assert margin == 2945

    page.get_by_role("link", name="Enter hand 3").tap()
    us, them = side(page, 0), side(page, 1)
    went_out(page, 1)
    tap_plus(them, "Natural canastas", 2)
    tap_plus(them, "Mixed canastas")
    tap_plus(them, "Red threes")
    field(them, "Points melded").fill("700")
    tap_plus(us, "Red threes", 3)
    field(us, "Points melded").fill("150")
    field(us, "Points in hand").fill("60")
    expect(preview(page, 1)).to_have_text("+2200 → 5200")
    save(page, 3)
    assert totals(page) == final
    banner = page.get_by_role("status").filter(has_text="win")
    expect(banner).to_have_text(re.compile(rf"^\s*{THEM} win\s+by {margin} points \(2255 : 5200\)\.\s*$"))
    expect(page.locator(".total-card.winner h2")).to_have_text(THEM)
    expect(page.get_by_role("link", name=re.compile("Enter hand"))).to_have_count(0)
    screenshot(page, "scoreboard-winner")

    page.get_by_role("link", name="Opening meld table").tap()
    expect(page.get_by_role("heading", name="Opening meld minimum")).to_be_visible()
    current = page.locator("tr.current")
    expect(current).to_have_count(2)
    expect(page.locator("tr", has_text=f"{US} (2255)").locator("td.num")).to_have_text("90")
    expect(page.locator("tr", has_text=f"{THEM} (5200)").locator("td.num")).to_have_text("120")
    screenshot(page, "minimums")


def test_refused_hand_keeps_what_was_typed_and_says_why_by_the_field(phone_page, live_server, screenshot):
    page = phone_page
    start_classic_game(page, live_server, ["Eva", "Finn", "Gus", "Hana"])
    page.get_by_role("link", name="Enter hand 1").tap()
    us, them = side(page, 0), side(page, 1)

    # Only one side can go out: "Who went out?" is one question for the hand, so tapping one side
    # takes the answer away from the other, and no side has a "Went out" choice of its own.
    expect(page.locator('form.hand-form input[name$="-went_out"]')).to_have_count(0)
    went_out(page, 0)
    went_out(page, 1)
    assert who_went_out(page) == ["1"]
    went_out(page, 0)
    assert who_went_out(page) == ["0"]

    tap_plus(us, "Natural canastas")
    field(us, "Points melded").fill("212")  # not a multiple of 5
    field(us, "Points in hand").fill("15")
    field(them, "Points in hand").fill("20")
    page.get_by_role("button", name="Save hand 1").tap()

    # Refused: the reason right under the melded-points row, and the list at Save; no banner on top.
    expect(page.get_by_role("heading", name="Hand 1")).to_be_visible()
    expect(page.locator(".problem-list")).to_contain_text("Points melded")
    expect(page.get_by_text("everything you typed is still here")).to_have_count(0)
    us = side(page, 0)
    melded = field(us, "Points melded")
    message = page.locator("#sides-0-melded_points-error")
    expect(message).to_have_text("Eva & Gus: Points are always a multiple of 5; 212 is not.")
    expect(melded).to_have_attribute("aria-invalid", "true")
    expect(melded).to_have_attribute("aria-describedby", "sides-0-melded_points-error")
    field_box, message_box = melded.bounding_box(), message.bounding_box()
    assert 0 <= message_box["y"] - (field_box["y"] + field_box["height"]) < 60, "the message is not under its field"
    assert page.locator(".error:visible").count() == 1
    # ... and a link to the field in the list of problems at the Save button
    expect(page.locator(".problem-list a")).to_have_count(1)
    expect(page.locator(".problem-list a")).to_have_attribute("data-focus", "sides-0-melded_points")

    # Everything typed or tapped is still there.
    them = side(page, 1)
    assert melded.input_value() == "212"
    assert field(us, "Points in hand").input_value() == "15"
    assert field(us, "Natural canastas").input_value() == "1"
    assert field(them, "Points in hand").input_value() == "20"
    assert who_went_out(page) == ["0"]
    expect(page.locator("form.hand-form .mode-row").get_by_label("Points", exact=True)).to_be_checked()
    melded.scroll_into_view_if_needed()
    screenshot(page, "hand-form-error")

    # Corrected, it saves: 100 + 500 + 210 − 15 = 795; the other side −20 in hand.
    melded.fill("210")
    expect(preview(page, 0)).to_have_text("+795 → 795")
    expect(preview(page, 1)).to_have_text("−20 → −20")
    save(page, 1)
    assert totals(page) == [classic_score(went_out=True, natural=1, melded=210, in_hand=15), classic_score(in_hand=20)]
    assert totals(page) == [795, -20]
    assert minimums(page) == [50, 15]


def test_no_sideways_scrolling_at_360_px(narrow_page, live_server):
    page = narrow_page
    # the longest name the form takes (40 characters), with no space to break at
    start_classic_game(
        page, live_server, ["Maximiliane", "Bartholomew", "Konstantinos", "WilhelminaFriederikeAugustaCharlotteVonX"]
    )
    assert_fits(page, "empty scoreboard")

    page.get_by_role("link", name="Enter hand 1").tap()
    expect(page.get_by_role("heading", name="Hand 1")).to_be_visible()
    assert_fits(page, "hand form")
    count_cards(page)
    page.locator("form.hand-form .pad-more > summary").tap()
    expect(page.locator("form.hand-form .pad-more")).to_have_attribute("open", "")
    assert_fits(page, "hand form with the count pad and the penalties open")

    us = side(page, 0)
    went_out(page, 0)
    assert_fits(page, "hand form with who went out and how")
    tap_plus(us, "Natural canastas")
    tap_plus(us, "Red threes", 4)
    count(page, 0, "melded", "high").fill("8")
    count(page, 1, "melded", "high").fill("5")
    count(page, 1, "hand", "twos_aces").fill("2")
    # 100 + 500 + 800 + 80 = 1480; 50 − 40 = 10.
    expect(preview(page, 0)).to_have_text("+1480 → 1480")
    expect(preview(page, 1)).to_have_text("+10 → 10")
    assert_fits(page, "hand form with the preview")
    save(page, 1)
    assert totals(page) == [1480, 10]
    assert_fits(page, "scoreboard with a hand and the chart")

    page.get_by_role("link", name="Opening meld table").tap()
    expect(page.get_by_role("heading", name="Opening meld minimum")).to_be_visible()
    assert_fits(page, "opening meld table")
