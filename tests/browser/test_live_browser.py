"""Several phones follow one game: a hand saved on one shows on the others within 2 seconds."""

import re
import time

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from tests.browser.live import browser, live_url, shot  # noqa: F401  (fixtures)

pytestmark = pytest.mark.browser


def test_three_phones_follow_one_game(browser, live_url):
    phones = [
        browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True) for _ in range(3)
    ]
    scorer, *others = [context.new_page() for context in phones]
    scorer.goto(live_url + "/games/new/classic-2p")
    scorer.get_by_label("Seat 1", exact=True).fill("Anna")
    scorer.get_by_label("Seat 2", exact=True).fill("Bert")
    scorer.get_by_role("button", name="Start game").click()
    scorer.wait_for_url(re.compile(r"/games/\d+$"))
    game_url = scorer.url
    for page in others:
        page.goto(game_url)
    watching_form = others[1]
    watching_form.get_by_role("link", name="Enter hand 1").click()
    watching_form.locator('input[name="sides-0-melded_points"]').fill("95")  # typing in progress
    scorer.get_by_role("link", name="Enter hand 1").click()
    scorer.locator('input[name="sides-0-melded_points"]').fill("150")
    scorer.locator('input[name="sides-1-melded_points"]').fill("70")
    scorer.get_by_text("Nobody: the stock ran out").click()
    scorer.get_by_role("button", name="Save hand 1").click()
    saved = time.monotonic()
    expect(others[0].locator("p.total").first).to_have_text("150", timeout=2500)
    assert time.monotonic() - saved < 2.5
    assert others[0].locator("p.total").all_inner_texts() == ["150", "70"]
    # the phone in the middle of typing keeps its entry and is told
    expect(watching_form.locator("#live-notice")).to_be_visible(timeout=2500)
    assert watching_form.locator('input[name="sides-0-melded_points"]').input_value() == "95"
    shot(others[0], "live-follower")
    for context in phones:
        context.close()


def test_a_hand_entered_offline_waits_and_is_sent_once(browser, live_url):
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.goto(live_url + "/games/new/classic-2p")
    page.get_by_label("Seat 1", exact=True).fill("Anna")
    page.get_by_label("Seat 2", exact=True).fill("Bert")
    page.get_by_role("button", name="Start game").click()
    page.wait_for_url(re.compile(r"/games/\d+$"))
    game_url = page.url
    game_id = int(game_url.rsplit("/", 1)[1])
    page.wait_for_function("navigator.serviceWorker && navigator.serviceWorker.controller !== null", timeout=10000)
    page.goto(game_url)  # the game and its hand form are now in the phone's cache
    page.wait_for_timeout(500)
    context.set_offline(True)
    page.get_by_role("link", name="Enter hand 1").click()
    page.locator('input[name="sides-0-melded_points"]').fill("150")
    page.locator('input[name="sides-1-melded_points"]').fill("70")
    page.get_by_text("Nobody: the stock ran out").click()
    page.get_by_role("button", name="Save hand 1").click()
    expect(page.locator("#waiting-hands")).to_contain_text("1 hand is waiting to be sent")
    shot(page, "offline-waiting")
    queued = page.evaluate("import('/static/app.js').then((app) => app.queue.items()[0])")
    api = page.context.request
    context.set_offline(False)
    expect(page.locator("#waiting-hands")).to_have_count(0, timeout=10000)
    expect(page.locator("p.total").first).to_have_text("150", timeout=10000)
    hands = api.get(f"{live_url}/api/games/{game_id}").json()["hands"]
    assert len(hands) == 1
    # the page may be loading the scoreboard again after the send: wait for its script, then look
    deadline = time.monotonic() + 30
    while True:
        try:
            if page.evaluate("import('/static/app.js').then((app) => app.queue.items().length)") == 0:
                break
        except PlaywrightError:  # the page loading again under the look
            pass
        assert time.monotonic() < deadline, "the phone's queue is not empty"
        page.wait_for_timeout(100)
    # the same entry sent again (a retry after a lost answer) is not stored twice
    status = page.evaluate(
        """q => fetch(q.url, {method: "POST", headers: {"Content-Type": "application/json", "X-CSRFToken": q.csrf},
                               body: JSON.stringify(q.body)}).then(r => r.status)""",
        queued,
    )
    assert status == 200
    assert len(api.get(f"{live_url}/api/games/{game_id}").json()["hands"]) == 1
    context.close()


def test_the_qr_code_fills_a_tight_box_in_the_middle(browser, live_url):
    """The QR code does not sit in the top left corner of a larger box: its drawing fills its box, the
    white box fits it closely, and the box is centred under "Open this game on another phone"."""
    from tests.browser.live import start_classic

    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    try:
        start_classic(page, live_url)
        page.get_by_text("Open this game on another phone").click()
        geometry = page.locator(".qr-box").evaluate(
            """(box) => {
              const r = (el) => el.getBoundingClientRect();
              const svg = box.querySelector("svg"), drawing = box.querySelector("svg path");
              const area = box.parentElement.getBoundingClientRect();
              return {box: r(box).toJSON(), svg: r(svg).toJSON(), drawing: r(drawing).toJSON(), area: area.toJSON()};
            }"""
        )
        box, svg, drawing, area = geometry["box"], geometry["svg"], geometry["drawing"], geometry["area"]
        for side in ("left", "top", "right", "bottom"):
            assert abs(drawing[side] - svg[side]) <= 1, (side, drawing, svg)  # the code fills its picture
            assert abs(box[side] - svg[side]) <= 8, (side, box, svg)  # a tight white box around it
        assert svg["width"] >= 160
        assert abs((box["left"] - area["left"]) - (area["right"] - box["right"])) <= 2, (box, area)  # centred
    finally:
        context.close()
