"""The hand form as a score pad and the score in view after a save, measured as a person at the table
meets them, in headless Chromium at 390 x 844 (a common phone):

- how far down the page the Save button ends, for every rule set and layout, with nothing unfolded;
- at 320 px the form never scrolls sideways and breaks no word;
- after a save (the form, a correction, an Undo) the totals, "Enter hand N+1" and the saved hand's
  line are on the first screen;
- the taps and digits of a two-side count-card hand;
- each problem said at most twice (beside its field, and in the list at the Save button);
- twelve hands of the sheet on one screen, the full breakdown when printing (the print table);
- every control of the scoreboard, the hand form and the new-game form at least 44 x 44 px.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from scorekeeper.core import rulesets
from tests.browser.conftest import PHONE, SCREENSHOTS
from tests.browser.live import Thumb
from tests.browser.test_phone_widths import MEASURE

pytestmark = pytest.mark.browser

ONE_SCREEN, SCREEN_AND_A_HALF = 844, 1266
# The rule sets and layouts whose whole form must fit one screen; every other one gets one and a half.
ONE_SCREEN_SETS = {
    ("classic", "4"),
    ("classic-2p", "2"),
    ("classic-3p", "3"),
    ("vienna", "4"),
    ("canadian", "4"),
    ("encyclopedia", "2"),
    ("encyclopedia", "3"),
    ("encyclopedia", "4"),
}
EVERY_LAYOUT = [(rule_id, layout.key) for rule_id, rules in rulesets.RULE_SETS.items() for layout in rules.layouts]

# Where the Save button ends on the page: its bottom with the page scrolled to its end (the button's
# bar sticks to the bottom of the screen while the form is longer than the screen).
SAVE_BOTTOM = """() => {
  window.scrollTo(0, document.documentElement.scrollHeight);
  const r = document.querySelector('form.hand-form button[type=submit]').getBoundingClientRect();
  const bottom = r.bottom + window.scrollY;
  window.scrollTo(0, 0);
  return bottom;
}"""


def _phone(chromium, width=390, scheme="light"):
    context = chromium.new_context(**{**PHONE, "viewport": {"width": width, "height": 844}}, color_scheme=scheme)
    context.set_default_timeout(15000)
    return context, context.new_page()


def _start(page, base, rule_id, layout=None, names=None):
    """A game started through the New game form; the scoreboard's address."""
    page.goto(f"{base}/games/new/{rule_id}")
    if layout and len(rulesets.get(rule_id).layouts) > 1:
        page.locator(f'input[name="layout"][value="{layout}"]').check(force=True)
    for seat, name in enumerate(names or [], start=1):
        page.get_by_label(f"Seat {seat}", exact=True).fill(name)
    page.get_by_role("button", name="Start game").click()
    page.wait_for_url(re.compile(r"/games/\d+$"))
    return page.url


def _form(page):
    expect(page.locator("form.hand-form[data-ready]")).to_have_count(1)  # its script is running
    return page.locator("form.hand-form")


def _cell(page, side):
    """The cells of one side, the column of the pad."""
    return page.locator(f'form.hand-form .cell[data-side="{side}"]')


def _in_view(page, locator) -> bool:
    box = locator.bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= page.viewport_size["height"]


@pytest.mark.parametrize("rule_id, layout", EVERY_LAYOUT)
def test_the_save_button_is_within_the_target(chromium, live_server, rule_id, layout):
    context, page = _phone(chromium)
    names = ["Anna", "Bernd", "Carla", "Dieter", "Eva", "Frank"]  # long names: the widths test below
    players = rulesets.get(rule_id).layout(layout).players
    game = _start(page, live_server, rule_id, layout, names[:players])
    page.goto(game + "/hands/new")
    _form(page)
    bottom = page.evaluate(SAVE_BOTTOM)
    target = ONE_SCREEN if (rule_id, layout) in ONE_SCREEN_SETS else SCREEN_AND_A_HALF
    print(f"{rule_id} {layout}: Save ends at {bottom:.0f} px (target {target})")
    assert bottom <= target
    context.close()


@pytest.mark.parametrize(
    "rule_id, layout", [("classic", "4"), ("classic-3p", "3"), ("modern", "4"), ("six-3x2", "6-pairs")]
)
@pytest.mark.parametrize("width", [320, 390])
def test_the_pad_fits_the_phone_and_breaks_no_word(chromium, live_server, rule_id, layout, width):
    context, page = _phone(chromium, width)
    players = rulesets.get(rule_id).layout(layout).players
    game = _start(
        page, live_server, rule_id, layout, ["Bernd", "Anneliese", "Dieter", "Wilhelmine", "Konstanze", "Bo"][:players]
    )
    page.goto(game + "/hands/new")
    _form(page)
    for mode in ("Points", "Count cards"):
        page.locator("form.hand-form .mode-row label", has_text=mode).click()
        page.locator("form.hand-form .pad-more > summary").click()  # unfolded too
        found = page.evaluate(MEASURE)
        assert found["width"] <= found["viewport"], (mode, found)
        assert found["broken"] == [], (mode, found["broken"])
        page.locator("form.hand-form .pad-more > summary").click()
    context.close()


LONG_PAIRS = ["Annemarie Schönberger", "Friedrich Wilhelmsen", "Konstanze Oberhollenzer", "Maximilian Brandauer"]


@pytest.mark.parametrize("width, lines", [(320, 2), (390, 3)])
def test_the_heads_that_stay_in_view_keep_a_long_pair_short(chromium, live_server, width, lines):
    """The sides' heads stick to the top while the pad scrolls: a pair of long names (four lines each
    at 320 px, 118 px of head) is shown in two lines there (three from 23rem on), the whole names on
    the "Who went out?" choices below and in the names the fields are read out with."""
    context, page = _phone(chromium, width)
    game = _start(page, live_server, "classic", "4", LONG_PAIRS)
    page.goto(game + "/hands/new")
    _form(page)
    for side, pair in enumerate(
        ("Annemarie Schönberger & Konstanze Oberhollenzer", "Friedrich Wilhelmsen & Maximilian Brandauer")
    ):
        name = page.locator(f"#side-{side}-name")
        box = name.bounding_box()
        line = float(name.evaluate("(e) => parseFloat(getComputedStyle(e).lineHeight)"))
        assert round(box["height"] / line) == lines, (side, box, line)
        assert name.text_content() == pair  # the whole names are still the field labels' words
        expect(page.locator("fieldset.went-out .out-choice label").nth(side)).to_have_text(pair)
        expect(page.get_by_role("textbox", name=f"Natural canastas {pair}")).to_have_count(1)
    head = page.locator(".pad-head").bounding_box()["height"]
    print(f"\n{width} px: the heads that stay in view {head:.0f} px high")
    assert head <= 90
    context.close()


@pytest.mark.parametrize("rule_id", ["classic", "modern"])
@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("width", [320, 390])
def test_screenshots_of_the_pad(chromium, live_server, rule_id, scheme, width):
    context, page = _phone(chromium, width, scheme)
    game = _start(page, live_server, rule_id, names=["Bernd", "Anna", "Dieter", "Carla"])
    page.goto(game + "/hands/new")
    _form(page)
    SCREENSHOTS.mkdir(exist_ok=True)
    # the whole page as one tall screen, so the Save bar (it sticks to the bottom) is where it ends
    page.set_viewport_size({"width": width, "height": page.evaluate("document.documentElement.scrollHeight")})
    page.screenshot(path=str(SCREENSHOTS / f"pad-{rule_id}-{width}-{scheme}.png"), full_page=True)
    context.close()


def _fill_classic_hand(page):
    """Side A goes out with a natural and a mixed canasta, a red three and 380 melded; side B
    melded 150 and holds 45 (docs/rules.md#classic: 100 + 500 + 300 + 100 + 380 = 1380; 150 − 45 = 105)."""
    page.locator("label", has_text="Bernd & Dieter").first.click()
    _cell(page, 0).get_by_role("button", name="Natural canastas plus one").click()
    _cell(page, 0).get_by_role("button", name="Mixed canastas plus one").click()
    _cell(page, 0).get_by_role("button", name="Red threes plus one").click()
    _cell(page, 0).get_by_label("Points melded").fill("380")
    _cell(page, 1).get_by_label("Points melded").fill("150")
    _cell(page, 1).get_by_label("Points in hand").fill("45")


def test_after_a_save_the_score_is_in_view(chromium, live_server):
    context, page = _phone(chromium)
    _start(page, live_server, "classic", names=["Bernd", "Anna", "Dieter", "Carla"])
    # a few hands first, so that the sheet is longer than the screen's first lines
    for number in range(1, 9):
        page.get_by_role("link", name=f"Enter hand {number}").click()
        _form(page)
        if number == 8:
            _fill_classic_hand(page)
        else:
            page.locator("label", has_text="Nobody").click()
            _cell(page, 0).get_by_label("Points melded").fill("100")
            _cell(page, 1).get_by_label("Points melded").fill("50")
        page.get_by_role("button", name=f"Save hand {number}").click()
        expect(page.get_by_role("link", name=f"Enter hand {number + 1}")).to_be_visible()
    # hands 1–7: 100 and 50 each (docs/rules.md#classic › Going out, nobody out): 700 and 350; hand 8: +1380 and +105
    expect(page.locator("p.total").first).to_have_text("2080")
    assert page.locator("p.total").all_inner_texts() == ["2080", "455"]
    assert page.evaluate("window.scrollY") == 0
    for locator in (
        page.locator("p.total").first,
        page.locator("p.total").last,
        page.locator("p.minimum").first,
        page.locator("p.dealer"),
        page.get_by_role("link", name="Enter hand 9"),
        page.locator(".flash", has_text="Hand saved."),
        page.locator('.flash .saved-line[data-hand="8"]'),
    ):
        assert _in_view(page, locator), locator
    assert "+1380" in page.locator(".flash .saved-line").inner_text()
    # the next hand opens again from here, and the sheet's line of hand 8 holds the same figures
    assert re.search(
        r"\+1380\s*(Total\s*)?2080", page.locator("#hand-8 > summary").inner_text()
    )  # "Total": said to a screen reader

    # a correction: hand 8's side B held 40, not 45 (docs/rules.md#classic: 150 − 40 = 110)
    page.locator("#hand-8 > summary").click()
    page.get_by_role("link", name="Edit hand 8").click()
    _form(page)
    _cell(page, 1).get_by_label("Points in hand").fill("40")
    page.get_by_role("button", name="Save correction").click()
    expect(page.locator(".flash", has_text="Hand corrected")).to_be_visible()
    assert page.locator("p.total").all_inner_texts() == ["2080", "460"]
    assert page.evaluate("window.scrollY") == 0
    for locator in (
        page.locator("p.total").last,
        page.get_by_role("link", name="Enter hand 9"),
        page.locator('.flash .saved-line[data-hand="8"]'),
    ):
        assert _in_view(page, locator), locator

    # delete it and Undo: the restored hand's line is in view with its confirmation
    page.locator("#hand-8 > summary").click()
    page.locator("#hand-8").get_by_role("button", name="Delete").click()
    expect(page.locator(".flash", has_text="Hand deleted.")).to_be_visible()
    page.locator(".flash").get_by_role("button", name="Undo").click()
    expect(page.locator(".flash", has_text="Hand restored.")).to_be_visible()
    assert page.locator("p.total").all_inner_texts() == ["2080", "460"]
    assert _in_view(page, page.locator('.flash .saved-line[data-hand="8"]'))
    assert _in_view(page, page.get_by_role("link", name="Enter hand 9"))
    context.close()


def test_a_count_card_hand_takes_at_most_20_taps_and_digits(chromium, live_server):
    context, page = _phone(chromium)
    _start(page, live_server, "classic", names=["Bernd", "Anna", "Dieter", "Carla"])
    page.get_by_role("link", name="Enter hand 1").click()
    _form(page)
    t = Thumb(page)
    t.tap(page.locator("form.hand-form .mode-row label", has_text="Count cards"))
    t.tap(page.locator("label", has_text="Bernd & Dieter").first)
    t.tap(_cell(page, 0).get_by_role("button", name="Natural canastas plus one"))
    t.tap(_cell(page, 0).get_by_role("button", name="Mixed canastas plus one"))
    # side A melded: 1 joker, 3 twos/aces, 12 K–8, 4 7–4: digits only, the typing started at the first
    # count when who went out was tapped (the + taps kept it there); a count that cannot take another
    # digit moves on by itself; melded black threes are passed over
    expect(page.locator('[name="sides-0-melded_jokers"]')).to_be_focused()
    for count in ("1", "3", "12", "4"):
        t.digit(count)
    # side B melded: 0 jokers, 2 twos/aces, 8 K–8, 5 7–4 (30 or more is more than the 28 7–4 left);
    # then its cards in hand (side A went out)
    for count in ("0", "2", "8", "5"):
        t.digit(count)
    # B's cards in hand start at 2s and aces: the jokers and black threes left in a hand are passed over
    expect(page.locator('[name="sides-1-hand_twos_aces"]')).to_be_focused()
    for count in ("2", "6", "4"):
        t.digit(count)
    expect(page.locator('[name="sides-1-hand_low"]')).to_be_focused()  # the last count typed
    t.tap(page.get_by_role("button", name="Save hand 1"))
    # docs/rules.md#classic › Card values, Going out: A: out 100 + natural 500 + mixed 300 + cards 50 + 3×20 + 12×10 +
    # 4×5 = 1150;
    # B: cards 2×20 + 8×10 + 5×5 = 145, less in hand 2×20 + 6×10 + 4×5 = 120 → 25
    expect(page.locator("p.total").first).to_have_text("1150")
    assert page.locator("p.total").all_inner_texts() == ["1150", "25"]
    print(f"count-card hand: {t.taps} taps + {t.digits} digits = {t.taps + t.digits}")
    assert t.taps + t.digits <= 20
    # the next hand starts on the count pad, and the form says so plainly
    page.get_by_role("link", name="Enter hand 2").click()
    _form(page)
    expect(page.locator('input[name="mode"][value="counts"]')).to_be_checked()
    expect(page.locator("form.hand-form .mode-row")).to_contain_text("Count cards")
    page.locator("form.hand-form .mode-row label", has_text="Points").tap()  # back in one tap
    expect(_cell(page, 0).get_by_label("Points melded")).to_be_visible()
    context.close()


def _counting(chromium, live_server):
    """A phone on hand 1 of a new Classic game, on the count pad, side A gone out: the typing at A's
    first count. (context, page, its Thumb)."""
    context, page = _phone(chromium)
    _start(page, live_server, "classic", names=["Bernd", "Anna", "Dieter", "Carla"])
    page.get_by_role("link", name="Enter hand 1").click()
    _form(page)
    page.locator("form.hand-form .mode-row label", has_text="Count cards").tap()
    page.locator('label[for="out-0"]').tap()
    return context, page, Thumb(page)


def test_a_digit_typed_onto_an_earlier_count_changes_no_other_count(chromium, live_server):
    """Correcting a count typed earlier: tapping into A's jokers (1) and typing "2" made it 1 still and
    put the 2 into the 2s and aces, overwriting their 3, without a word (a review found it). The next
    count takes a digit only when it is empty; the count shows "12" and the checks say the deck holds
    4 jokers (docs/rules.md#classic › Card values)."""
    context, page, t = _counting(chromium, live_server)
    for count in ("1", "3", "12", "4"):
        t.digit(count)
    jokers, twos = page.locator('[name="sides-0-melded_jokers"]'), page.locator('[name="sides-0-melded_twos_aces"]')
    jokers.tap()
    page.keyboard.press("End")
    t.digit("2")
    assert jokers.input_value() == "12" and twos.input_value() == "3"
    assert page.locator('[name="sides-0-melded_high"]').input_value() == "12"
    expect(page.locator("form.hand-form")).to_contain_text("The deck holds only 4 cards of the kind “Jokers”")
    context.close()


def test_black_threes_in_hand_are_typed_with_the_7_to_4(chromium, live_server):
    """docs/rules.md#classic › Card values: a black three left in hand counts 5, as a 7 to 4 does; the pad
    counts them in one row, "7 to 4, black 3s", up to the deck's 32 and 4 together less what is counted of
    either. A hand typed on a page that counted them apart (a draft kept on the phone) comes back with its
    black threes in that row, not dropped."""
    context, page = _phone(chromium)
    _start(page, live_server, "classic", names=["Bernd", "Anna", "Dieter", "Carla"])
    page.get_by_role("link", name="Enter hand 1").click()
    _form(page)
    row = page.locator('[data-row="hand_low"]')
    expect(page.locator('[name="sides-1-hand_black_threes"]')).to_have_count(0)
    page.locator("form.hand-form .mode-row label", has_text="Count cards").tap()
    expect(row).to_contain_text("7 to 4, black 3s (5)")
    page.locator('label[for="out-0"]').tap()
    t = Thumb(page)
    t.tap(_cell(page, 0).get_by_role("button", name="Natural canastas plus one"))
    # side 0 melds 1 joker, 2 twos and aces, 12 K–8, 30 sevens to fours; side 1 melds 0, 0, 6, 0 and holds
    # 0, 0, 3 and "5" of 7 to 4 and black 3s (50 is more than the 36 − 30 left: the count is full)
    for count in ("1", "2", "12", "30"):
        t.digit(count)
    page.locator('[name="sides-1-melded_high"]').tap()
    t.digit("6")
    page.locator('[name="sides-1-hand_high"]').tap()
    t.digit("3")
    t.digit("5")
    expect(page.locator('[name="sides-1-hand_low"]')).to_have_value("5")
    # side 1: 6 K–8 melded 60, less 3 K–8 30 and four 7 to 4 and a black three 25 in hand: +5
    expect(page.locator('[data-score="1"]')).to_contain_text("+5")
    # a draft from the page before: 4 sevens to fours and 1 black three apart come back as 5 in the row
    kept = page.evaluate(
        """() => Object.keys(localStorage).filter((key) => key.startsWith("canasta-draft:")).map((key) => {
             const draft = JSON.parse(localStorage.getItem(key));
             draft["sides-1-hand_low"] = "4";
             draft["sides-1-hand_black_threes"] = "1";
             localStorage.setItem(key, JSON.stringify(draft));
             return key; })"""
    )
    assert len(kept) == 1, kept
    page.reload()
    _form(page)
    expect(page.locator('[name="sides-1-hand_low"]')).to_have_value("5")
    expect(page.locator('[name="sides-1-hand_high"]')).to_have_value("3")
    context.close()


def test_a_melded_7_to_4_count_typed_after_the_hand_keeps_room_for_its_black_threes(chromium, live_server):
    """docs/rules.md#classic › Card values: 32 sevens to fours and 4 black threes. With B's hand counted
    first (8 of "7 to 4, black 3s") and B's melded 7 to 4 (10), A's melded 7 to 4 may still be 16: up to 4
    of B's 8 are black threes, so 32 − 10 − 4 = 18 are left. A review found "16" split into A's 1 and B's
    jokers 6, the pad counting all 8 as sevens to fours (14 left)."""
    context, page, t = _counting(chromium, live_server)
    for name, digits in (("sides-1-hand_low", "8"), ("sides-1-melded_low", "10"), ("sides-0-melded_low", "16")):
        page.locator(f'[name="{name}"]').tap()
        for digit in digits:
            t.digit(digit)
    assert page.locator('[name="sides-0-melded_low"]').input_value() == "16"
    assert page.locator('[name="sides-1-melded_jokers"]').input_value() == ""
    assert _left("sides-0-melded_low", {"sides-1-hand_low": 8, "sides-1-melded_low": 10}) == 18
    # with B's 16 melded, 12 are left for A (8 − 4 of B's hand are sevens to fours): "12" goes in, a 1 waits
    page.locator('[name="sides-1-melded_low"]').fill("16")
    page.locator('[name="sides-0-melded_low"]').fill("")
    page.locator('[name="sides-0-melded_low"]').tap()
    t.digit("1")
    expect(page.locator('[name="sides-0-melded_low"]')).to_be_focused()
    t.digit("2")
    assert page.locator('[name="sides-0-melded_low"]').input_value() == "12"
    context.close()


def test_the_plus_of_the_next_count_is_the_move(chromium, live_server):
    """A + tap on the count the typing goes to next gives it and moves the typing past it; any other
    − / + tap leaves the typing where it is (issue 29)."""
    context, page, t = _counting(chromium, live_server)
    t.digit("1")  # A's jokers
    t.digit("4")  # 2s and aces
    t.digit("15")  # K–8
    t.digit("3")  # 7–4: 30 fits the 32 of the deck, so the count waits
    expect(page.locator('[name="sides-0-melded_low"]')).to_be_focused()
    t.tap(_plus(page, page.locator('[name="sides-1-melded_jokers"]')))  # B's 1 joker, and the move
    expect(page.locator('[name="sides-1-melded_twos_aces"]')).to_be_focused()
    assert page.locator('[name="sides-0-melded_low"]').input_value() == "3"
    assert page.locator('[name="sides-1-melded_jokers"]').input_value() == "1"
    # the + of a count already passed, of a canasta or of a count further on: the typing stays
    t.tap(_plus(page, page.locator('[name="sides-1-melded_jokers"]')))
    t.tap(_cell(page, 0).get_by_role("button", name="Natural canastas plus one"))
    t.tap(_plus(page, page.locator('[name="sides-1-melded_low"]')))
    expect(page.locator('[name="sides-1-melded_twos_aces"]')).to_be_focused()
    assert page.locator('[name="sides-1-melded_jokers"]').input_value() == "2"
    # the + of the count where the typing is gives it and moves on; its − takes one off and stays
    t.tap(_plus(page, page.locator('[name="sides-1-melded_twos_aces"]')))
    expect(page.locator('[name="sides-1-melded_high"]')).to_be_focused()
    t.tap(page.locator('button.step[data-target="sides-1-melded_high"][data-delta="-1"]'))
    expect(page.locator('[name="sides-1-melded_high"]')).to_be_focused()
    t.digit("9")
    expect(page.locator('[name="sides-1-melded_low"]')).to_be_focused()  # 90 is more than the 33 K–8 left
    assert page.locator('[name="sides-1-melded_twos_aces"]').input_value() == "1"
    context.close()


# Five typical Classic hands counted by cards (issue 29, item 2), one after the other in one game:
# who went out, canastas and red threes with their + buttons, then every side's melded cards and the
# cards left in hand of the side that did not go out, group by group, then Save. Per hand: (who went
# out, the + taps {(side, row): n}, each side's counts melded and in hand as jokers, 2s and aces,
# K–8, 7–4, black threes, and the new totals, docs/rules.md#classic › Card values, Canastas, Going out:
# joker 50, 2 or ace 20, K–8 10, 7–4 5, black three 5; natural canasta 500, mixed 300, red three 100,
# going out 100; the cards left in hand count against their side).
FIVE_HANDS = [
    # A: 100 + 500 + 300 + 100 + (50 + 2×20 + 14×10 + 5×5) = 1255; B: (20 + 90 + 15) − (20 + 30 + 10 + 5) = 60
    (
        0,
        {(0, "Natural canastas"): 1, (0, "Mixed canastas"): 1, (0, "Red threes"): 1},
        {"melded": [(1, 2, 14, 5, 0), (0, 1, 9, 3, 0)], "hand": [None, (0, 1, 3, 2, 1)]},
        (1255, 60),
    ),
    # A: 100 + (50 + 60 + 80 + 20) − (40 + 15) = 255; B: 100 + 500 + 300 + (100 + 80 + 160 + 30) = 1270
    (
        1,
        {(1, "Natural canastas"): 1, (1, "Mixed canastas"): 1, (0, "Red threes"): 1},
        {"melded": [(1, 3, 8, 4, 0), (2, 4, 16, 6, 0)], "hand": [(0, 0, 4, 3, 0), None]},
        (1510, 1330),
    ),
    # A: 100 + 600 + (100 + 100 + 180 + 35) = 1115; B: 100 + (50 + 40 + 110) − (50 + 40 + 50 + 5) = 155
    (
        0,
        {(0, "Mixed canastas"): 2, (1, "Red threes"): 1},
        {"melded": [(2, 5, 18, 7, 0), (1, 2, 11, 0, 0)], "hand": [None, (1, 2, 5, 1, 0)]},
        (2625, 1485),
    ),
    # A: 300 + (50 + 40 + 120 + 30) − (20 + 20 + 20 + 5) = 475; B: 100 + 1000 + 200 + (100 + 60 + 200 + 25) = 1685
    (
        1,
        {(1, "Natural canastas"): 2, (0, "Mixed canastas"): 1, (1, "Red threes"): 2},
        {"melded": [(1, 2, 12, 6, 0), (2, 3, 20, 5, 0)], "hand": [(0, 1, 2, 4, 1), None]},
        (3100, 3170),
    ),
    # A: 100 + 500 + 300 + 100 + (50 + 80 + 150 + 15) = 1295; B: 300 + 100 + (50 + 60 + 100 + 35) − (40 + 60 + 15) = 530
    (
        0,
        {
            (0, "Natural canastas"): 1,
            (0, "Mixed canastas"): 1,
            (1, "Mixed canastas"): 1,
            (0, "Red threes"): 1,
            (1, "Red threes"): 1,
        },
        {"melded": [(1, 4, 15, 3, 0), (1, 3, 10, 7, 0)], "hand": [None, (0, 2, 6, 3, 0)]},
        (4395, 3700),
    ),
]
GROUPS = ("jokers", "twos_aces", "high", "low", "black_threes")
DECK = {"jokers": 4, "twos_aces": 16, "high": 48, "low": 32, "black_threes": 4}  # docs/rules.md#classic: 108 cards
# what the pad's typing passes over, given with their + buttons (static/hand/form.js)
PASSED_OVER = {("melded", "black_threes"), ("hand", "jokers")}
OVERFLOW = True  # a digit the count cannot take starts the next count


def _on_the_pad(counts):
    """The counts as the pad takes them: the black threes left in a hand counted with its 7 to 4, in one row
    "7 to 4, black 3s" (docs/rules.md#classic › Card values: 5 each, both)."""
    low, black = GROUPS.index("low"), GROUPS.index("black_threes")

    def pooled(c):
        return (
            None
            if c is None
            else tuple(c[low] + c[black] if k == low else 0 if k == black else v for k, v in enumerate(c))
        )

    return {"melded": counts["melded"], "hand": [pooled(c) for c in counts["hand"]]}


def _left(here, given):
    """What the deck has left for the count ``here``: its cards, less every other count of them; the 7 to 4
    in hand hold the black threes too, and take from a melded 7 to 4 count only what the black threes left
    cannot be (static/hand/form.js, ``most``)."""

    def group(name):
        return name.split("_", 1)[1]

    def pooled(name):
        return name.endswith("-hand_low")

    others = {n: v for n, v in given.items() if n != here}
    if pooled(here):
        return (
            DECK["low"]
            + DECK["black_threes"]
            - sum(v for n, v in others.items() if group(n) in ("low", "black_threes"))
        )
    left = DECK[group(here)] - sum(v for n, v in others.items() if group(n) == group(here) and not pooled(n))
    if group(here) == "low":
        room = DECK["black_threes"] - sum(v for n, v in others.items() if group(n) == "black_threes")
        left -= max(0, sum(v for n, v in others.items() if pooled(n)) - max(room, 0))
    return left


def _count_by_cards(page, t, out, counts):
    """Every count of the hand as a person enters it, looking at where the typing is: a count where
    the typing is gets its digits; another one a tap first (or the keypad's Next: one action
    either way), unless its first digit would make the count where the typing is more than the deck
    has left (the pad moves it on), or it is the count the typing goes to next and holds 1 card (its +
    gives it and moves the typing past it: one tap); an empty count nothing; a count the typing passes
    over its + taps."""
    counts = _on_the_pad(counts)
    order = [
        (part, side, group, counts[part][side][k])
        for part in ("melded", "hand")
        for side in (0, 1)
        if counts[part][side] is not None
        for k, group in enumerate(GROUPS)
    ]
    given = {}  # what is entered so far, by input name
    for part, side, group, value in order:
        name = f"sides-{side}-{part}_{group}"
        if not value:
            continue
        field = page.locator(f'[name="{name}"]')
        if (part, group) in PASSED_OVER:
            for _ in range(value):
                t.tap(_plus(page, field))
        else:
            here = page.evaluate("document.activeElement && document.activeElement.name")
            typed = given.get(here)
            if here != name:
                left = None
                if typed:  # the deck's cards of the group where the typing is, less every other count of them
                    left = _left(here, given)
                if not (
                    OVERFLOW
                    and left is not None
                    and int(f"{typed}{str(value)[0]}") > left
                    and _next_typed(order, here) == name
                ):
                    if value == 1 and _next_typed(order, here) == name:
                        # the count the typing goes to next, 1 of its cards: its + gives it, and the
                        # typing moves past it (one tap for the move and the count)
                        t.tap(_plus(page, field))
                        after = _next_typed(order, name)
                        if after:
                            expect(page.locator(f'[name="{after}"]')).to_be_focused()
                        given[name] = value
                        continue
                    t.tap(field)
            t.digit(str(value))
        given[name] = value


def _plus(page, field):
    """A count's + button."""
    return page.locator(f'button.step[data-target="{field.get_attribute("id")}"][data-delta="1"]')


def _next_typed(order, name):
    """The count the typing moves to after ``name`` (the pad's order, passing over what it passes over)."""
    names = [f"sides-{s}-{p}_{g}" for p, s, g, _ in order if (p, g) not in PASSED_OVER]
    return names[names.index(name) + 1] if name in names and names.index(name) + 1 < len(names) else None


def test_five_typical_hands_counted_by_cards_take_at_most_20_actions(chromium, live_server):
    context, page = _phone(chromium)
    _start(page, live_server, "classic", names=["Bernd", "Anna", "Dieter", "Carla"])
    counted = []
    for number, (out, plus, counts, totals) in enumerate(FIVE_HANDS, start=1):
        page.get_by_role("link", name=f"Enter hand {number}").click()
        _form(page)
        t = Thumb(page)
        if number == 1:  # the first hand of the evening; the pad starts on the count pad after it
            t.tap(page.locator("form.hand-form .mode-row label", has_text="Count cards"))
        expect(page.locator('input[name="mode"][value="counts"]')).to_be_checked()
        t.tap(page.locator(f'label[for="out-{out}"]'))
        for (side, row), n in plus.items():
            for _ in range(n):
                t.tap(_cell(page, side).get_by_role("button", name=f"{row} plus one"))
        _count_by_cards(page, t, out, counts)
        t.tap(page.get_by_role("button", name=f"Save hand {number}"))
        expect(page.locator("main[data-saved]")).to_have_count(1)
        expect(page.locator("p.total").first).to_have_text(str(totals[0]))
        assert page.locator("p.total").all_inner_texts() == [str(totals[0]), str(totals[1])]
        counted.append((t.taps, t.digits))
        page.locator("main[data-saved]").evaluate("main => delete main.dataset.saved")
    for number, (taps, digits) in enumerate(counted, start=1):
        print(f"hand {number}: {taps} taps + {digits} digits = {taps + digits}")
    actions = [taps + digits for taps, digits in counted]
    # issue 29: a typical hand in at most 20, each of the five. Hand 4 took 21 while its black three in
    # hand was a + of its own: each of its actions gave a value, as each does now (its values alone)
    assert all(taken <= 20 for taken in actions), actions
    assert actions[3] == _values_alone(FIVE_HANDS[3]), actions
    context.close()


def _values_alone(hand, first=False):
    """The fewest actions a hand can take on this pad, one for each thing it gives: "Count cards" (the
    first hand), who went out, each + of canastas and threes and of the counts the typing passes over,
    each digit of the other counts, and Save."""
    out, plus, counts, _ = hand
    counts = _on_the_pad(counts)
    passed = sum(
        c[k] for part in counts for c in counts[part] if c for k, g in enumerate(GROUPS) if (part, g) in PASSED_OVER
    )
    digits = sum(
        len(str(c[k]))
        for part in counts
        for c in counts[part]
        if c
        for k, g in enumerate(GROUPS)
        if c[k] and (part, g) not in PASSED_OVER
    )
    return int(first) + 1 + sum(plus.values()) + passed + digits + 1


def test_each_problem_is_said_at_most_twice(chromium, live_server):
    context, page = _phone(chromium)
    _start(page, live_server, "modern", names=["Bernd", "Anna", "Dieter", "Carla"])
    page.get_by_role("link", name="Enter hand 1").click()
    _form(page)
    page.locator("form.hand-form .mode-row label", has_text="Count cards").click()
    # docs/rules.md#modern › Card values: two decks hold 4 jokers; 3 counted by each side are more than the deck
    for side in (0, 1):
        page.locator(f'[name="sides-{side}-melded_jokers"]').fill("3")
        page.locator(f'[name="sides-{side}-melded_twos_aces"]').fill("9")
    expect(page.locator(".problem-list a").first).to_be_visible()
    texts = page.locator("main p.error, main .problem-list a, main .problem-list p").all_inner_texts()
    sentences = [re.sub(r"^[^:]+: ", "", t) for t in texts]
    body = page.locator("main:not([hidden])").inner_text()
    for sentence in set(sentences):
        assert body.count(sentence) <= 2, (sentence, body.count(sentence))
    # the deck's excess is neither side's alone: its sentence names both sides (issue 29)
    deck = page.locator("main p.error", has_text="jokers").or_(page.locator("main p.error", has_text="Jokers"))
    expect(deck).to_have_count(1)
    assert deck.inner_text().startswith("Bernd & Dieter, Anna & Carla: "), deck.inner_text()
    # the list at the Save button jumps to the field
    first = page.locator(".problem-list a").first
    target = first.get_attribute("data-focus")
    first.click()
    expect(page.locator(f"#{target}")).to_be_focused()
    # and the question the player must act on (who went out) is among them after a save
    page.get_by_role("button", name="Save hand 1").click()
    expect(page.locator("#out-error, #out .live-error").first).to_be_visible()
    body = page.locator("main:not([hidden])").inner_text()
    for sentence in set(re.sub(r"^[^:]+: ", "", t) for t in page.locator("main p.error").all_inner_texts()):
        assert body.count(sentence) <= 2, sentence
    # no banner at the top repeating what the fields and the list at the Save button say (issue 29)
    assert "fields marked in red" not in body
    expect(page.locator("main .error-box")).to_have_count(0)
    context.close()


def test_two_mistakes_that_read_alike_are_each_said_beside_their_own_field(chromium, live_server):
    """A letter in one side's red threes and a fraction in the other side's points in hand: each
    "Enter a whole number." stands under its own row with its own side's name, as the page shows it
    live and as the server says it after Save; neither names both sides."""
    context, page = _phone(chromium)
    _start(page, live_server, "classic", names=["Anna", "Bernd", "Clara", "Dieter"])
    page.get_by_role("link", name="Enter hand 1").click()
    _form(page)
    page.locator('form.hand-form label[for="out-0"]').click()
    page.locator('[name="sides-0-natural_canastas"]').fill("1")
    page.locator('[name="sides-0-melded_points"]').fill("120")
    page.locator('[name="sides-0-hand_points"]').fill("12.5")
    page.locator('[name="sides-1-red_threes"]').fill("x")
    page.locator('[name="sides-1-melded_points"]').fill("60")
    for moment in ("as typed", "after Save"):
        if moment == "after Save":
            page.get_by_role("button", name="Save hand 1").click()
            expect(page.locator(".problem-list a")).to_have_count(2)
        for field, side in (("hand_points", "Anna & Clara"), ("red_threes", "Bernd & Dieter")):
            row = page.locator(f'.pad-row[data-row="{field}"]:visible')
            expect(row.locator("p.error")).to_have_text(f"{side}: Enter a whole number.")
        expect(page.locator(".problem-list a")).to_have_count(2)
        assert "Anna & Clara, Bernd & Dieter" not in page.locator("main:not([hidden])").inner_text(), moment
    expect(page.locator('[name="sides-0-hand_points"]')).to_have_value("12.5")  # what was typed stays
    expect(page.locator('[name="sides-1-red_threes"]')).to_have_value("x")
    context.close()


def test_twelve_hands_fit_one_screen_and_print_in_full(chromium, live_server):
    context, page = _phone(chromium)
    game = _start(page, live_server, "classic", names=["Bernd", "Anna", "Dieter", "Carla"])
    token = page.locator('input[name="csrf_token"]').first.get_attribute("value")
    for number in range(12):  # through the phone's own JSON endpoint: 12 hands of 100 and 50 (docs/rules.md#classic)
        answer = page.request.post(
            game + "/hands.json",
            data={
                "client_key": f"k{number:08d}",
                "stock_out": True,
                "sides": [{"melded_points": 100}, {"melded_points": 50}],
            },
            headers={"X-CSRFToken": token},
        )
        assert answer.status == 201, answer.text()
    page.goto(game)
    first = page.locator("#hand-1").bounding_box()
    last = page.locator("#hand-12").bounding_box()
    print(f"twelve hands take {last['y'] + last['height'] - first['y']:.0f} px")
    assert last["y"] + last["height"] - first["y"] <= ONE_SCREEN
    expect(page.locator("#hand-12 .breakdown").first).to_be_hidden()  # the breakdown opens with a tap
    page.locator("#hand-12 > summary").tap()
    expect(page.locator("#hand-12 .breakdown").first).to_be_visible()
    page.locator("#hand-12 > summary").tap()
    page.emulate_media(media="print")
    # on paper the sheet is a table (its head repeated on each page): every hand's line with its breakdown
    expect(page.locator('.print-sheet tbody[data-hand="1"] .print-breakdown')).to_be_visible()
    expect(page.locator('.print-sheet tbody[data-hand="12"] .print-breakdown')).to_contain_text("+100")
    expect(page.locator("#hand-1")).to_be_hidden()
    context.close()


# Every control a person taps: links, buttons, the labels of segmented choices, inputs, folds. Links
# inside running text (a sentence with other words) need 24 px of height only.
TARGETS = r"""() => {
  const small = [];
  const controls = document.querySelectorAll(
    'main a, main button, main input:not([type=hidden]), main select, main summary, main .segments label, footer a');
  for (const el of controls) {
    let target = el;
    if (el.matches('.segments input, .chip-list input')) continue;  // the visible label is the target
    if (el.matches('input[type=checkbox]') && el.closest('label')) target = el.closest('label');
    const r = target.getBoundingClientRect();
    if (r.width === 0 || r.height === 0 || target.closest('[hidden], details:not([open]) > :not(summary)')) continue;
    const parent = target.parentElement;
    const inText = el.tagName === 'A' && parent && !el.classList.contains('btn') &&
      parent.textContent.trim().length > el.textContent.trim().length + 2 &&
      getComputedStyle(el).display.startsWith('inline');
    const need = inText ? [0, 24] : [44, 44];
    const name = (el.textContent || el.name || '').trim().slice(0, 30);
    if (r.width < need[0] - 0.5 || r.height < need[1] - 0.5) {
      small.push(`${el.tagName} «${name}» ${Math.round(r.width)}x${Math.round(r.height)}`);
    }
  }
  return small;
}"""


def test_every_control_is_a_target_you_can_hit(chromium, live_server):
    context, page = _phone(chromium)
    page.goto(live_server + "/games/new/classic")
    assert page.evaluate(TARGETS) == []
    game = _start(page, live_server, "classic", names=["Bernd", "Anna", "Dieter", "Carla"])
    page.goto(game + "/hands/new")
    _form(page)
    page.locator("form.hand-form .pad-more > summary").click()
    assert page.evaluate(TARGETS) == []
    _fill_classic_hand(page)
    page.get_by_role("button", name="Save hand 1").click()
    expect(page.get_by_role("link", name="Enter hand 2")).to_be_visible()
    page.locator("#hand-1 > summary").click()
    page.locator("details.share > summary").click()
    assert page.evaluate(TARGETS) == []
    context.close()


@pytest.mark.parametrize(
    "rule_id, names",
    [("classic", ["Bernd", "Anna", "Dieter", "Carla"]), ("classic-3p", ["Konstanze", "Bartholomäus", "Wilhelmine"])],
)
@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("width", [320, 390])
def test_screenshots_of_the_scoreboard_after_a_save(chromium, live_server, rule_id, names, scheme, width):
    context, page = _phone(chromium, width, scheme)
    game = _start(page, live_server, rule_id, names=names)
    token = page.locator('input[name="csrf_token"]').first.get_attribute("value")
    sides = len(rulesets.get(rule_id).layouts[0].sides)
    for number in range(9):  # nobody out, 100, 50 (and 20) melded: the rules reference, "Scoring a hand"
        body = {
            "client_key": f"s{number:08d}",
            "stock_out": True,
            "sides": [{"melded_points": p} for p in (100, 50, 20)[:sides]],
        }
        if rule_id == "classic-3p":
            body["lone"] = None
        assert page.request.post(game + "/hands.json", data=body, headers={"X-CSRFToken": token}).status == 201
    page.goto(game + "/hands/new")
    _form(page)
    page.locator('label[for="out-stock"]').click()
    if rule_id == "classic-3p":
        page.locator("form.hand-form .lone label.nobody").click()
    _cell(page, 0).get_by_label("Points melded").fill("100")
    page.get_by_role("button", name="Save hand 10").click()
    expect(page.locator("main[data-saved]")).to_have_count(1)  # the scoreboard in place of the form
    expect(page.locator('.flash .saved-line[data-hand="10"]')).to_be_visible()
    found = page.evaluate(MEASURE)
    assert found["width"] <= found["viewport"] and found["broken"] == [], found
    SCREENSHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"saved-{rule_id}-{width}-{scheme}.png"))  # the first screen
    context.close()
