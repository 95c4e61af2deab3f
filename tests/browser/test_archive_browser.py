"""An evening at the table in a real browser: start tonight's evening, play a game in it, look at
the standings, a player's record with its chart, and the game's chart."""

import re
import uuid

import pytest
from playwright.sync_api import expect

from tests.browser.live import browser, live_url, phone, shot  # noqa: F401  (fixtures)

pytestmark = pytest.mark.browser


def test_an_evening_with_a_game_and_its_records(phone, live_url):
    page = phone
    page.goto(live_url + "/")
    page.get_by_role("link", name="Start tonight's evening").click()
    page.get_by_label("Place (optional)").fill("Anna's kitchen")
    page.get_by_label("New players, separated by commas").fill("Anna, Bert, Carl, Dora")
    page.get_by_role("button", name="Start the evening").click()
    expect(page.get_by_role("heading", name=re.compile("Tonight"))).to_be_visible()
    page.goto(live_url + "/")
    expect(page.get_by_role("link", name="Continue tonight's evening")).to_be_visible()
    page.get_by_role("link", name="New game tonight").click()
    page.locator('a.choice[href*="/games/new/classic-2p"]').click()
    assert page.get_by_label("Seat 1", exact=True).input_value() == "Anna"  # taken from the evening
    assert page.get_by_label("Seat 2", exact=True).input_value() == "Bert"
    page.get_by_label("Seat 2", exact=True).fill("Carl")
    page.get_by_role("button", name="Start game").click()
    # docs/rules.md#classic-2p › Going out: Anna out with 2 natural canastas 1000 + 100 + 4 red threes 800 + melded 1100
    # = 3000, twice → 6000
    for number in (1, 2):
        page.get_by_role("link", name=f"Enter hand {number}").click()
        expect(page.locator("form.hand-form[data-ready]")).to_have_count(1)  # its script is running
        anna = page.locator('form.hand-form .cell[data-side="0"]')  # Anna's column of the pad
        page.locator('form.hand-form label[for="out-0"]').click()  # who went out: Anna
        for _ in range(2):
            anna.get_by_role("button", name="Natural canastas plus one").click()
        for _ in range(4):
            anna.get_by_role("button", name="Red threes plus one").click()
        page.locator('input[name="sides-0-melded_points"]').fill("1100")
        page.locator('input[name="sides-1-melded_points"]').fill("60")
        page.locator('input[name="sides-1-hand_points"]').fill("10")
        page.get_by_role("button", name=f"Save hand {number}").click()
        expect(page.locator(f'.flash .saved-line[data-hand="{number}"]')).to_be_visible()
    expect(page.locator(".result.won")).to_contain_text("Anna wins by 5900 points")
    expect(page.locator("svg.chart polyline")).to_have_count(2)
    shot(page, "archive-1-game-with-chart")
    page.get_by_role("link", name=re.compile("Evening of")).click()
    expect(page.get_by_text("Carl pays Anna 5900")).to_be_visible()
    shot(page, "archive-2-evening")
    page.get_by_role("link", name="Anna", exact=True).click()
    expect(page.get_by_role("heading", name="Anna")).to_be_visible()
    expect(page.locator("svg.chart")).to_have_count(3)  # rating, balance, each game
    shot(page, "archive-3-player")
    page.goto(live_url + "/stats")
    shot(page, "archive-4-statistics")
    page.goto(live_url + "/history")
    expect(page.locator(".games li")).to_have_count(1)
    shot(page, "archive-5-history")
    assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")


# --- the statistics table, tap targets, the Export button ----------------------------------------------

# Classic docs/rules.md#classic › Going out: out 100 + 4 natural canastas 2000 + 4 red threes 800 + melded 1100 = 4000.
BIG_HAND = {"went_out": "normal", "natural_canastas": 4, "red_threes": 4, "melded_points": 1100}


def _token(page, url):
    page.goto(url)
    return page.locator('input[name="csrf_token"]').first.get_attribute("value")


def _post_form(page, url, data):
    """Send a form as the page would (its CSRF token); the address it leads to."""
    response = page.request.post(url, form={"csrf_token": _token(page, url), **data}, max_redirects=0)
    assert response.status == 302, response.text()
    return response.headers["location"]


def _archive(page, live_url):
    """An evening of four with long names, two finished games and one in play; (evening, player) paths."""
    names = ["Elisabeth", "Friedrich", "Konstanze", "Maximilian Alexander"]
    evening = _post_form(page, live_url + "/evenings/new", {"date": "2026-03-14", "new_players": ", ".join(names)})
    evening = re.search(r"/evenings/\d+", evening).group(0)
    for finished in (True, True, False):
        data = {"first_dealer": "0", "evening": evening.rsplit("/", 1)[1]}
        data.update({f"players-{i}": name for i, name in enumerate(names)})
        game = re.search(r"/games/\d+", _post_form(page, live_url + "/games/new/classic", data)).group(0)
        token = _token(page, live_url + "/evenings/new")
        for _ in range(2 if finished else 0):
            response = page.request.post(
                live_url + game + "/hands.json",
                data={"client_key": uuid.uuid4().hex, "sides": [BIG_HAND, {"melded_points": 50}], "stock_out": False},
                headers={"X-CSRFToken": token},
            )
            assert response.status == 201, response.text()
    page.goto(live_url + "/players")
    player = page.get_by_role("link", name="Elisabeth").first.get_attribute("href")
    return evening, player


# Every link, button and control a finger taps, with its box; a link inside running text (an inline
# box) needs 24 px of height, anything else 44 x 44 px. A checkbox or radio is tapped through its label.
TARGETS = r"""
() => {
  const out = [];
  for (const el of document.querySelectorAll('a[href], button, input:not([type=hidden]), select, textarea, summary')) {
    const style = getComputedStyle(el);
    if (el.closest('[hidden]') || style.display === 'none' || style.visibility === 'hidden') continue;
    let box = el.getBoundingClientRect();
    if (box.width === 0 && box.height === 0) continue;
    let what = el.tagName + ' ' + (el.textContent || el.name || '').trim().slice(0, 40);
    if (el.matches('input[type=radio], input[type=checkbox]')) {
      const label = el.labels && el.labels[0];
      if (!label) { out.push({what, w: box.width, h: box.height, inline: false}); continue; }
      box = label.getBoundingClientRect();
      what = 'label of ' + el.name + ' ' + label.textContent.trim().slice(0, 30);
    }
    out.push({what, w: box.width, h: box.height, inline: style.display === 'inline'});
  }
  return out.filter((t) => t.inline ? t.h < 24 - 0.5 : (t.w < 44 - 0.5 || t.h < 44 - 0.5))
            .map((t) => `${t.what}: ${Math.round(t.w)} x ${Math.round(t.h)}${t.inline ? ' (in text)' : ''}`);
}
"""


def test_tap_targets_of_the_new_game_form_and_the_archive(browser, live_url):
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    try:
        evening, player = _archive(page, live_url)
        evening_id = evening.rsplit("/", 1)[1]
        pages = [
            "/games/new",
            "/games/new/classic",
            f"/games/new/classic?evening={evening_id}",
            "/evenings",
            "/evenings/new",
            evening,
            evening + "/edit",
            "/history",
            "/players",
            player,
            "/stats",
            "/export",
        ]
        small = {}
        for path in pages:
            page.goto(live_url + path)
            page.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = true; })")
            found = page.evaluate(TARGETS)
            if found:
                small[path] = found
        assert small == {}
    finally:
        context.close()


# The statistics table at 390 and 320 px: tests/browser/test_stats_width.py (it fits, nothing scrolls).


@pytest.mark.parametrize("language", ["en", "de", "it", "et"])
def test_the_export_button_reads_on_one_line_at_320_px(browser, live_url, language):
    context = browser.new_context(viewport={"width": 320, "height": 700}, is_mobile=True, has_touch=True)
    page = context.new_page()
    try:
        page.goto(f"{live_url}/prefs?lang={language}&next=/export")
        button = page.locator('a[href$="/export.json"]')
        lines = button.evaluate(
            """(el) => {
              const range = document.createRange();
              range.selectNodeContents(el);
              const rects = Array.from(range.getClientRects()).filter((r) => r.width > 0);
              return new Set(rects.map((r) => Math.round(r.top))).size;
            }"""
        )
        inside = button.evaluate("(el) => el.scrollWidth <= el.clientWidth + 1")
        assert lines == 1 and inside, language
        assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
        # with Larger text its words wrap inside the button, none cut off at either side
        page.evaluate("document.documentElement.classList.add('large')")
        assert button.evaluate("(el) => el.scrollWidth <= el.clientWidth + 1"), language
        assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    finally:
        context.close()
