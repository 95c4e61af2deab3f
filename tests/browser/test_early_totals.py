"""The new totals at once (issue 29, item 1): tapping Save shows the scoreboard in the next frame with
the totals the pad's preview gave, marked as being saved, and the server's answer then confirms it
(its own scoreboard), puts the pad back with its message and what was typed (a refusal), or leaves
the hand waiting on the phone with its new totals (a cut connection). None lost, none doubled:
the server's own count of the game's hands is checked after each.

The connection is cut by the TCP proxy of test_offline_plain_http.py (plain http://, no service
worker), whose fixtures these tests share."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import SCREENSHOTS
from tests.browser.live import start_classic
from tests.browser.test_offline_plain_http import WAIT, browser, fill, hands, melded, phone, server  # noqa: F401

pytestmark = pytest.mark.browser


def _previewed(page, *totals):
    """The pad's preview has answered for the hand as typed (a person looks before tapping)."""
    expect(page.locator("form.hand-form:not([data-previewing])")).to_have_count(1)
    for side, total in enumerate(totals):
        expect(page.locator(f'output[data-score="{side}"]')).to_contain_text(f"→\u00a0{total}")


def test_the_new_totals_show_at_once_marked_and_the_answer_confirms_them(phone, server):
    base, direct, _, _ = server
    page = phone
    game_url = start_classic(page, base)
    expect(page.locator("a[data-kept]")).to_have_count(1)
    page.get_by_role("link", name="Enter hand 1").click()
    fill(page, "120", "65")
    _previewed(page, 120, 65)
    held = []  # the save, held on its way until the marked totals have been looked at
    page.route("**/hands/new", lambda route: held.append(route) if route.request.method == "POST" else route.fallback())
    page.get_by_role("button", name="Save hand 1").click()
    expect(page.locator("main[data-early] .totals.pending")).to_have_count(1)
    assert page.locator("main:not([hidden]) p.total").all_inner_texts() == ["120", "65"]
    expect(page.locator(".early-note")).to_have_text("Hand 1 is being saved: these totals include it.")
    expect(page.locator("form.hand-form")).to_be_hidden()
    # the state as a player sees it, light and dark, at 390 px: nothing overflows
    SCREENSHOTS.mkdir(exist_ok=True)
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        page.screenshot(path=str(SCREENSHOTS / f"early-totals-being-saved-{scheme}.png"))
    page.emulate_media(color_scheme="light")
    assert hands(direct, game_url) == []  # nothing stored yet: the save is still on its way
    expect(page.locator("a", has_text="Enter hand 1")).to_be_visible()
    page.locator("a", has_text="Enter hand 1").click()  # not while the hand before it is being saved
    expect(page.locator("main[data-early]")).to_have_count(1)

    held[0].continue_()  # the answer: the server's scoreboard replaces the marked one
    expect(page.locator("main[data-saved]")).to_have_count(1)
    expect(page.locator("main[data-early], .early-note, .totals.pending")).to_have_count(0)
    expect(page.locator(".flash")).to_contain_text("Hand saved.")
    assert page.locator("p.total").all_inner_texts() == ["120", "65"]
    assert page.url == game_url
    assert len(hands(direct, game_url)) == 1


def test_a_refused_save_puts_the_pad_back_with_its_message_and_what_was_typed(phone, server):
    base, direct, _, _ = server
    page = phone
    game_url = start_classic(page, base)
    expect(page.locator("a[data-kept]")).to_have_count(1)
    page.get_by_role("link", name="Enter hand 1").click()
    fill(page, "60", "60")
    page.locator('form.hand-form .cell[data-side="0"]').get_by_role("button", name="Red threes plus one").click()
    _previewed(page, 160, 60)
    # meanwhile another phone saves a hand that takes side A past 1500: its opening meld is now 90
    # (docs/rules.md#classic › Opening minimum), and 60 melded is refused as unlikely, beside its field
    status = page.evaluate(
        """([url, token]) => fetch(url, {method: "POST", credentials: "same-origin",
          headers: {"Content-Type": "application/json", "X-CSRFToken": token},
          body: JSON.stringify({client_key: "other-phone-1", stock_out: true, sides: [
            {natural_canastas: 2, mixed_canastas: 1, melded_points: 500}, {melded_points: 50}]})})
          .then((r) => r.status)""",
        [game_url + "/hands.json", page.locator('input[name="csrf_token"]').first.get_attribute("value")],
    )
    assert status == 201
    seen = page.evaluate_handle("""() => {
      const seen = {early: false};
      new MutationObserver(() => { if (document.querySelector("main[data-early]")) seen.early = true; })
        .observe(document.body, {subtree: true, childList: true, attributes: true});
      return seen;
    }""")
    page.get_by_role("button", name="Save hand 1").click()
    # the pad again, with the message beside the field and in the list at Save, and every figure as typed
    field = page.locator('input[name="sides-0-melded_points"]')
    expect(field).to_have_attribute("aria-invalid", "true")
    expect(page.locator('form.hand-form [data-row="melded_points"] .row-errors')).to_contain_text("opening meld of 90")
    expect(page.locator("form.hand-form .problem-list a")).to_have_count(1)
    assert seen.evaluate("s => s.early") is True  # the totals were shown at once, then taken back
    expect(page.locator("main[data-early], .early-note, .totals.pending")).to_have_count(0)
    expect(page.locator("form.hand-form[data-ready]")).to_be_visible()
    assert melded(page) == ["60", "60"]
    assert page.locator('input[name="sides-0-red_threes"]').input_value() == "1"
    assert page.locator("#out-stock").is_checked()
    assert len(hands(direct, game_url)) == 1  # the other phone's only

    # the figures were right: confirmed; the pad then says that another phone saved a hand meanwhile
    # (the save is refused once more, with what was typed), and a third tap stores it once, as hand 2
    page.locator('input[name="confirm"]').check()
    _previewed(page, 1960, 110)
    page.get_by_role("button", name="Save hand 2").click()
    expect(page.locator("main .error-box")).to_contain_text("Meanwhile another phone saved hand 1.")
    assert melded(page) == ["60", "60"]
    assert len(hands(direct, game_url)) == 1
    expect(page.locator("form.hand-form[data-ready]")).to_have_count(1)
    page.get_by_role("button", name="Save hand 2").click()  # as hand 2: the unlikely figure is asked about again
    page.locator('input[name="confirm"]').check()
    _previewed(page, 1960, 110)
    page.get_by_role("button", name="Save hand 2").click()
    expect(page.locator("main[data-saved]")).to_have_count(1)
    assert page.locator("p.total").all_inner_texts() == ["1960", "110"]
    assert len(hands(direct, game_url)) == 2


def test_a_cut_after_the_new_totals_leaves_the_hand_waiting_with_them(phone, server):
    base, direct, cut, _ = server
    page = phone
    game_url = start_classic(page, base)
    expect(page.locator("a[data-kept]")).to_have_count(1)
    page.get_by_role("link", name="Enter hand 1").click()
    fill(page, "120", "65")
    _previewed(page, 120, 65)
    cut.stop()  # the connection goes between the preview's answer and the tap on Save
    page.get_by_role("button", name="Save hand 1").click()
    expect(page.locator(".early-note")).to_have_text("Hand 1 is waiting to be sent: these totals include it.")
    assert page.locator("p.total").all_inner_texts() == ["120", "65"]
    expect(page.locator("#waiting-hands")).to_contain_text("1 hand is waiting to be sent")
    expect(page.locator("#waiting-hands")).to_contain_text("New totals: 120 · 65.")
    expect(page.locator("form.hand-form")).to_have_count(0)
    assert page.url == game_url
    assert hands(direct, game_url) == []

    cut.start()  # back: the queue sends it once, and the server's scoreboard replaces the marked one
    expect(page.locator("#waiting-hands")).to_have_count(0, timeout=WAIT)
    expect(page.locator(".flash", has_text="it was waiting on this phone")).to_have_count(1, timeout=WAIT)
    expect(page.locator(".early-note")).to_have_count(0)
    assert page.locator("p.total").all_inner_texts() == ["120", "65"]
    assert len(hands(direct, game_url)) == 1
    page.wait_for_timeout(4500)  # a queue round later: nothing is sent again
    assert len(hands(direct, game_url)) == 1
