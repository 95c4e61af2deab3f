"""The other side confirms each hand, in Chromium (docs/tournaments.md; issue 26, item 8):

- a club night that asks for confirmations (tables with a final, 8 players): a table's phone (390 x 844,
  touch) saves hand 1 with the ordinary hand form; the scoreboard comes back in place with the confirmation
  box at its top, the whole box in the window without scrolling (measured, printed); the big screen shows
  "not confirmed: hand 1" at that table; the other side taps "Confirmed by …": the box is gone, the sheet
  says who confirmed, and the big screen's mark goes by itself (its own polling: measured, printed).
- screenshots of the window right after the save (confirm-saved-390-light.png), of a sheet with hands
  waiting, of the organiser's list, the big screen's and the grid's marks and of the form's choice, at 390
  and 320 px, light and dark
  (tests/browser/screenshots/confirm-*.png); no page scrolls sideways, no button text is cut.
"""

from __future__ import annotations

import time
import uuid

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE, SCREENSHOTS, serve_fresh
from tests.browser.test_tournament_browser import SMALL, _post, _token, context, fill_hand, open_hand, save_hand

pytestmark = pytest.mark.browser

BIG_SCREEN = {"viewport": {"width": 1920, "height": 1080}}
# long first names: the buttons and figures must still fit a 320 px phone
PLAYERS = "Franziska Maximilian Hannelore Konstanze Anna Ben Clara Dieter".split()
GONE_LIMIT = 3.0  # seconds from the confirmation's answer to the big screen without its mark (it polls every second)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """This file's own server on an empty archive."""
    yield from serve_fresh(tmp_path_factory)


def shoot(page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"confirm-{name}.png"), full_page=True)


def night(request, base: str, name: str) -> int:
    """A tournament that asks for confirmations, made through its form, drawn, round 1 started; its id."""
    fields = {
        "name": name,
        "format": "final",
        "rules": "classic",
        "round_end": "target",
        "entrants": "\n".join(PLAYERS),
        "confirm_hands": "y",
    }
    tid = int(_post(request, base + "/tournaments/new", base + "/tournaments/new", fields).rsplit("/", 1)[1])
    organiser = f"{base}/tournaments/{tid}"
    _post(request, organiser + "/draw", organiser, {})
    _post(request, organiser + "/rounds", organiser, {})
    return tid


def game_of(request, base: str, tid: int, table: int) -> str:
    answer = request.get(f"{base}/tournaments/{tid}/tables/{table}", max_redirects=0)
    assert answer.status == 302, answer.status
    return base + answer.headers["location"]


def queued_hand(request, game: str, melded=(150, 130)) -> None:
    """A hand as a phone's queue sends it (the stock ran out)."""
    answer = request.post(
        game + "/hands.json",
        data={
            "client_key": uuid.uuid4().hex,
            "stock_out": True,
            "sides": [{"melded_points": melded[0]}, {"melded_points": melded[1]}],
        },
        headers={"X-CSRFToken": _token(request, game + "/hands/new")},
    )
    assert answer.status == 201, answer.text()


def in_window(page, selector: str) -> dict:
    """Where an element is against the window: its top and bottom, the window's height, the page's scroll."""
    return page.evaluate(
        """(s) => { const r = document.querySelector(s).getBoundingClientRect();
          return {top: r.top, bottom: r.bottom, height: window.innerHeight, scrolled: window.scrollY}; }""",
        selector,
    )


def fits(page, what: str) -> None:
    """No sideways scrolling, and no button whose text is cut or spills out."""
    width, client = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert width <= client, f"{what}: scrolls sideways ({width} > {client} px)"
    cut = page.evaluate(
        """() => Array.from(document.querySelectorAll('.confirm-hand .btn, .t-unconfirmed .btn'))
             .filter((b) => b.scrollWidth > b.clientWidth + 1).map((b) => b.textContent.trim())"""
    )
    assert cut == [], f"{what}: buttons too narrow for their text: {cut}"


def test_a_hand_saved_at_the_table_is_confirmed_by_the_other_side(chromium, server):
    phone_ctx = context(chromium, PHONE)
    phone = phone_ctx.new_page()
    tid = night(phone_ctx.request, server, "Confirming night")
    screen_ctx = context(chromium, BIG_SCREEN)
    screen = screen_ctx.new_page()
    screen.goto(f"{server}/tournaments/{tid}/standings")
    expect(screen.locator(".s-table")).to_have_count(2)
    screen.evaluate("window.sameDocument = true")  # gone if the page were loaded again

    phone.goto(f"{server}/tournaments/{tid}/tables/1")
    names = phone.locator(".total-card h2").all_inner_texts()
    open_hand(phone, 1)
    fill_hand(phone, SMALL)
    save_hand(phone, 1)  # the scoreboard in place of the form, with the hand's line
    box = phone.locator(".confirm-hand")
    expect(box).to_have_count(1)
    expect(box.locator("h2")).to_have_text("Hand 1: the other side checks it")
    expect(box.locator(".confirm-figures b")).to_have_text(["+150", "+130"])
    expect(box.get_by_role("button")).to_have_text([f"Confirmed by {name}" for name in names])
    where = in_window(phone, ".confirm-hand")
    print(f"\nthe confirmation box after the save at 390 x 844: {where}")
    assert where["scrolled"] == 0 and 0 <= where["top"] and where["bottom"] <= where["height"], where
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    phone.screenshot(path=str(SCREENSHOTS / "confirm-saved-390-light.png"))  # the window as the table sees it
    expect(phone.locator("#hand-1 .unconfirmed-mark")).to_have_text("not confirmed yet")
    mark = screen.locator(".s-table .s-unconfirmed")
    expect(mark).to_have_count(1)
    expect(mark).to_contain_text("not confirmed: hand 1")

    box.get_by_role("button", name=f"Confirmed by {names[1]}").tap()
    expect(phone.locator(".flash")).to_contain_text(f"Hand 1 confirmed by {names[1]}.")
    confirmed = time.monotonic()
    expect(phone.locator(".confirm-hand")).to_have_count(0)
    expect(phone.locator(".unconfirmed-mark")).to_have_count(0)
    phone.locator("#hand-1 > summary").tap()
    expect(phone.locator("#hand-1 .hand-detail")).to_contain_text(f"confirmed by {names[1]}")
    while screen.locator(".s-unconfirmed").count():
        assert time.monotonic() - confirmed < GONE_LIMIT, "the big screen still shows the mark"
        time.sleep(0.05)
    print(f"the big screen's mark gone {time.monotonic() - confirmed:.2f} s after the confirmation's answer")
    assert screen.evaluate("window.sameDocument") is True  # by its own polling, not a reload
    expect(screen.locator(".s-table").first).to_contain_text("1 hand")
    phone_ctx.close()
    screen_ctx.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_screenshots_at_390_and_320(chromium, server, scheme):
    """tests/browser/screenshots/confirm-*.png: a sheet with a hand waiting for its confirmation (the box at
    the top, the mark on its line), the organiser's list of the hands waiting, the form's choice."""
    setup = context(chromium, PHONE)
    tid = night(setup.request, server, f"Screenshots {scheme}")
    first, second = (game_of(setup.request, server, tid, n) for n in (1, 2))
    queued_hand(setup.request, first)
    queued_hand(setup.request, first, (200, 110))
    queued_hand(setup.request, second, (180, 140))
    setup.close()
    for width in (390, 320):
        ctx = context(chromium, {**PHONE, "viewport": {"width": width, "height": 844}}, color_scheme=scheme)
        page = ctx.new_page()
        page.goto(first)
        expect(page.locator(".confirm-hand")).to_have_count(2)  # hands 2 and 1, the newest first
        expect(page.locator(".confirm-hand h2").first).to_have_text("Hand 2: the other side checks it")
        fits(page, f"a sheet with two hands waiting at {width} px")
        shoot(page, f"sheet-{width}-{scheme}")
        page.goto(f"{server}/tournaments/{tid}")
        expect(page.locator(".t-unconfirmed li")).to_have_count(3)
        expect(page.get_by_role("button", name="Confirm all 3 as the organiser")).to_be_visible()
        fits(page, f"the organiser's list at {width} px")
        page.locator("#unconfirmed").screenshot(path=str(SCREENSHOTS / f"confirm-organiser-{width}-{scheme}.png"))
        page.goto(f"{server}/tournaments/{tid}/standings")
        expect(page.locator(".s-unconfirmed")).to_have_text(["not confirmed: hands 1, 2", "not confirmed: hand 1"])
        fits(page, f"the standings at {width} px")
        shoot(page, f"standings-{width}-{scheme}")
        page.goto(f"{server}/tournaments/{tid}/grid")
        expect(page.locator(".g-unconfirmed")).to_have_count(2)
        fits(page, f"the director's grid at {width} px")
        shoot(page, f"grid-{width}-{scheme}")
        page.goto(f"{server}/tournaments/new")
        choice = page.locator("fieldset", has=page.locator('input[name="confirm_hands"]'))
        expect(choice).to_contain_text("The other side confirms each hand")
        fits(page, f"the new-tournament form at {width} px")
        choice.screenshot(path=str(SCREENSHOTS / f"confirm-form-{width}-{scheme}.png"))
        ctx.close()
