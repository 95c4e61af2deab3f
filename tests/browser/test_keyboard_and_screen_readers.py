"""The pad and the sheet by keyboard and with a screen reader, in Chromium (an accessibility review of
2026-11-29 found each of these; axe-core, which tests/browser/test_accessibility.py runs, finds none):

- the focused choice of a row of segments (who went out, points or cards) shows its ring: the row cuts
  what is drawn outside it, so the ring is drawn inside the label;
- on the count pad, the arrow keys move through "who went out" and the focus stays there (a tap on a
  choice moves the typing on to the first count, as before);
- no two controls of the count pad share a name: each names its group (melded, in hand), its row and
  its side;
- the list of problems at Save is an alert once, when the server refuses the hand, not while typing;
- a score sheet put fresh in place after another phone's save keeps the keyboard's focus and the
  folds the reader opened, and says so in a polite status."""

from __future__ import annotations

import re
import uuid

import pytest
from playwright.sync_api import expect

from tests.browser.test_accessibility import AXE
from tests.browser.test_score_pad import _form, _phone, _start

pytestmark = pytest.mark.browser

NAMES = ["Anna", "Bernd", "Carla", "Dieter"]


def _focus_by_tab(page, selector: str, presses: int = 40) -> None:
    """Press Tab from the page's first link until the element the selector names has the focus."""
    page.locator("a").first.focus()
    for _ in range(presses):
        if page.evaluate(f"() => document.activeElement && document.activeElement.matches({selector!r})"):
            return
        page.keyboard.press("Tab")
    seen = page.evaluate("() => document.activeElement.outerHTML.slice(0, 120)")
    raise AssertionError(f"Tab never reached {selector}; at {seen}")


def _hand_form(chromium, live_server, counting=False):
    """A phone on hand 1's form of a new Classic game (counting cards: on the count pad); its context and page."""
    context, page = _phone(chromium)
    game = _start(page, live_server, "classic", names=NAMES)
    page.goto(game + "/hands/new")
    form = _form(page)
    if counting:
        form.locator(".mode-row label", has_text="Count cards").click()
    return context, page


def test_a_focused_segment_shows_its_ring_inside_the_row(chromium, live_server):
    context, page = _hand_form(chromium, live_server)
    _focus_by_tab(page, 'input[name="out"]')
    ring = page.evaluate(
        """() => {
          const label = document.activeElement.nextElementSibling, row = label.closest('.segments');
          const style = getComputedStyle(label);
          const box = label.getBoundingClientRect(), edge = row.getBoundingClientRect();
          const offset = parseFloat(style.outlineOffset), width = parseFloat(style.outlineWidth);
          return {style: style.outlineStyle, width, inside: box.left - offset - width >= edge.left - 0.5
                  || offset + width <= 0.5};
        }"""
    )
    assert ring["style"] == "solid" and ring["width"] >= 2 and ring["inside"], ring
    context.close()


def test_arrow_keys_move_through_who_went_out_and_keep_the_focus_there(chromium, live_server):
    context, page = _hand_form(chromium, live_server, counting=True)
    _focus_by_tab(page, 'input[name="out"]')
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    focused = page.evaluate("() => [document.activeElement.name, document.activeElement.checked]")
    assert focused == ["out", True], focused  # still on the choices, the one arrowed to chosen
    # a tap on a choice moves the typing on to the first count, as it did
    page.locator('label[for="out-0"]').click()
    expect(page.locator('[name="sides-0-melded_jokers"]')).to_be_focused()
    context.close()


def test_no_two_controls_of_the_count_pad_share_a_name(chromium, live_server):
    context, page = _hand_form(chromium, live_server, counting=True)
    names = page.evaluate(
        """() => [...document.querySelectorAll('form.hand-form .cell input, form.hand-form .cell button')]
          .filter((el) => el.getClientRects().length)
          .map((el) => el.getAttribute('aria-label') || (el.getAttribute('aria-labelledby') || '').split(' ')
            .map((id) => (document.getElementById(id) || {textContent: ''}).textContent.trim()).join(' '))"""
    )
    assert len(names) > 20 and len(set(names)) == len(names), [n for n in names if names.count(n) > 1][:6]
    assert "Melded cards: Jokers (50) plus one, Anna & Carla" in names
    context.close()


def test_the_problems_at_save_are_an_alert_only_when_the_server_refuses(chromium, live_server):
    context, page = _hand_form(chromium, live_server)
    page.locator('input[name="sides-0-melded_points"]').fill("12")  # docs/rules.md#classic › Card values: 5s
    page.get_by_role("button", name="Save hand 1").click()
    expect(page.locator(".problem-list a").first).to_be_visible()
    assert page.locator(".problem-list").get_attribute("role") == "alert"  # said at once
    page.locator('input[name="sides-0-melded_points"]').fill("2")
    page.locator('input[name="sides-0-melded_points"]').press_sequentially("5")
    expect(page.locator(".problem-list")).not_to_have_attribute("role", "alert")  # no alert mid-number
    context.close()


def test_a_sheet_refreshed_by_another_phones_save_keeps_the_focus_and_the_open_folds(chromium, live_server):
    context, page = _phone(chromium)
    game = _start(page, live_server, "classic", names=NAMES)
    other = context.browser.new_context()
    token_page = other.new_page()

    def save_elsewhere(number: int) -> None:
        token_page.goto(game + "/hands/new")
        token = token_page.evaluate(
            "() => (document.querySelector('input[name=csrf_token]') || {}).value || document.body.dataset.csrf"
        )
        answer = other.request.post(
            game + "/hands.json",
            data={"client_key": uuid.uuid4().hex, "sides": [{"melded_points": 150}, {"melded_points": 130}]}
            | {"stock_out": True, "based_on": number - 1},
            headers={"X-CSRFToken": token},
        )
        assert answer.status == 201, answer.text()

    save_elsewhere(1)
    page.reload()
    page.locator("#hand-1 > summary").click()  # the reader opened hand 1's breakdown
    _focus_by_tab(page, 'a[href$="/hands/new"]')  # and is on "Enter hand 2"
    save_elsewhere(2)
    expect(page.get_by_role("link", name="Enter hand 3")).to_be_visible()
    assert page.evaluate("() => document.activeElement.getAttribute('href')").endswith("/hands/new")
    assert page.evaluate("() => document.getElementById('hand-1').open")
    expect(page.locator("#live-said")).to_have_text(re.compile("Another phone changed this game"))
    other.close()
    context.close()


def test_the_score_sheet_has_its_heading_and_everything_in_a_landmark(chromium, live_server):
    """axe-core's best-practice rules the WCAG run leaves out: a page's first-level heading (the sheet's
    was on paper only) and no content outside the landmarks."""
    context = chromium.new_context(viewport={"width": 390, "height": 844}, bypass_csp=True)  # axe runs inline
    page = context.new_page()
    game = _start(page, live_server, "classic", names=NAMES)
    page.goto(game)
    page.evaluate(AXE.read_text())
    result = page.evaluate(
        "() => axe.run(document, {runOnly: {type: 'rule', values: ['page-has-heading-one', 'region']}})"
    )
    assert [v["id"] for v in result["violations"]] == []
    expect(page.get_by_role("heading", level=1)).to_have_text("Anna & Carla vs Bernd & Dieter")
    context.close()


def test_the_focus_goes_back_to_the_same_place_among_links_alike_and_unnamed_folds_stay_open(chromium, live_server):
    """static/keep.js on its own: the director's grid links a table's game twice (the list of missing
    results and the grid's cell); the focus on the second comes back to the second, not the first of
    the same address. A fold without an id ("House rules in force") opened stays open."""
    context, page = _phone(chromium)
    page.goto(live_server + "/offline")
    html = (
        '<ul><li><a href="/games/7">Table 2: result missing</a></li></ul>'
        "<details><summary>House rules in force</summary><p>none</p></details>"
        '<table><tr><td><a href="/games/5">T1</a></td><td><a href="/games/7">T2</a></td></tr></table>'
    )
    kept = page.evaluate(
        """async (html) => {
          const {replaceKeeping} = await import('/static/keep.js');
          const root = document.createElement('div');
          root.innerHTML = html;
          document.querySelector('main').appendChild(root);
          root.querySelector('details').open = true;
          root.querySelectorAll('a[href="/games/7"]')[1].focus();
          replaceKeeping(root, html);
          const links = [...root.querySelectorAll('a[href="/games/7"]')];
          return {second: document.activeElement === links[1], open: root.querySelector('details').open};
        }""",
        html,
    )
    assert kept == {"second": True, "open": True}, kept
    context.close()
